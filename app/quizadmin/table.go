package quizadmin

// The question bank as a dense table (issue 37, item 1): GET /admin/questions with page,
// pageSize or sort pages and sorts in SQL; format=csv answers every question the filter
// shows, without the answer key. Without any of them the bank stays the plain array the
// quiz screens read.

import (
	"context"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/model"
)

// Messages of the bank's filters.
const (
	MsgBankSearchLong = "The search text is too long."
	MsgBankDifficulty = "difficulty must be all, easy, medium or hard."
	MsgBankStatus     = "status must be all, active or retired."
)

// Bank statuses (status=): a retired question is never drawn again.
const (
	BankActive  = "active"
	BankRetired = "retired"
)

// BankSorts are the columns the question bank sorts by (newest first by default). Text,
// category and topic sort without regard to case; the difficulty from easy to hard; the
// quizzes by how many use the question.
var BankSorts = []admin.SortCol{
	{Key: "text", Col: "lower(text)"},
	{Key: "category", Col: "lower(category)"},
	{Key: "topic", Col: "lower(topic)"},
	{Key: "difficulty", Col: "CASE difficulty WHEN 'easy' THEN 1 WHEN 'medium' THEN 2 WHEN 'hard' THEN 3 ELSE 4 END"},
	{Key: "quizzes", Col: "(SELECT COUNT(*) FROM quiz_questions AS qq WHERE qq.question_id = ?TableAlias.id)"},
	{Key: "createdAt", Col: "created_at"},
}

// BankCSVHeader is the question bank export's first line: no options' text, no key, no
// explanation (an export may leave the back office; the answers must not).
var BankCSVHeader = []string{"text", "category", "topic", "difficulty", "options", "quizzes", "retired", "created"}

// BankFilter is what the question bank shows: the search text in the text, category or
// topic (any case), a category (any case), a difficulty, active or retired questions.
type BankFilter struct {
	Search, Category, Difficulty, Status string
}

// ParseBankFilter validates the bank's filter parameters ("" or "all": no filter).
func ParseBankFilter(search, category, difficulty, status string) (BankFilter, string) {
	f := BankFilter{Search: strings.TrimSpace(search), Category: strings.TrimSpace(category),
		Difficulty: strings.ToLower(strings.TrimSpace(difficulty)), Status: strings.ToLower(strings.TrimSpace(status))}
	if len(search) > 200 {
		return f, MsgBankSearchLong
	}
	if utf8.RuneCountInString(f.Category) > MaxCategory {
		return f, MsgCategoryLong
	}
	switch f.Difficulty {
	case "all":
		f.Difficulty = ""
	case "", "easy", "medium", "hard":
	default:
		return f, MsgBankDifficulty
	}
	switch f.Status {
	case "all":
		f.Status = ""
	case "", BankActive, BankRetired:
	default:
		return f, MsgBankStatus
	}
	return f, ""
}

// apply narrows a questions query to the filter.
func (f BankFilter) apply(q *bun.SelectQuery) *bun.SelectQuery {
	if f.Search != "" {
		p := admin.LikePattern(f.Search)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where(`LOWER(text) LIKE ? ESCAPE '\'`, p).
				WhereOr(`LOWER(category) LIKE ? ESCAPE '\'`, p).
				WhereOr(`LOWER(topic) LIKE ? ESCAPE '\'`, p)
		})
	}
	if f.Category != "" {
		q = q.Where("LOWER(category) = ?", strings.ToLower(f.Category))
	}
	if f.Difficulty != "" {
		q = q.Where("difficulty = ?", f.Difficulty)
	}
	switch f.Status {
	case BankActive:
		q = q.Where("retired_at IS NULL")
	case BankRetired:
		q = q.Where("retired_at IS NOT NULL")
	}
	return q
}

// bankOrder is the bank's ORDER BY: its sort, else newest first; ties by id.
func bankOrder(sort admin.Sort) string {
	if sort.Col == "" {
		sort = admin.Sort{Col: "created_at", Desc: true}
	}
	return sort.Order("")
}

// BankList is the answer of a paged GET /admin/questions.
type BankList struct {
	Questions []QuestionView `json:"questions"`
	PageSize  int            `json:"pageSize"`
	admin.PageInfo
}

// QuestionPage answers one page of the questions the filter shows, in the sort's order.
func (s *Service) QuestionPage(ctx context.Context, f BankFilter, pg admin.Page) (*BankList, error) {
	var questions []model.Question
	n, err := f.apply(s.DB.NewSelect().Model(&questions)).OrderExpr(bankOrder(pg.Sort)).
		Limit(int64(pg.Limit)).Offset(int64(pg.Offset())).ScanAndCount(ctx)
	if err != nil {
		return nil, err
	}
	vs, err := viewsOf(ctx, s.DB, questions)
	if err != nil {
		return nil, err
	}
	return &BankList{Questions: vs, PageSize: pg.Limit, PageInfo: pg.Info(int64(n))}, nil
}

// exportChunk is how many questions an export reads at a time.
const exportChunk = 500

// ExportQuestions is every question the filter shows (all pages, in the sort's order) as
// CSV: what each is about and where it is used, never its options or its key.
func (s *Service) ExportQuestions(ctx context.Context, f BankFilter, sort admin.Sort) (*admin.CSVTable, error) {
	t := admin.NewCSV(BankCSVHeader)
	for off := 0; off < admin.MaxExportRows; off += exportChunk {
		var questions []model.Question
		if err := f.apply(s.DB.NewSelect().Model(&questions)).OrderExpr(bankOrder(sort)).
			Limit(exportChunk).Offset(int64(off)).Scan(ctx); err != nil {
			return nil, err
		}
		vs, err := viewsOf(ctx, s.DB, questions)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			created := v.CreatedAt
			t.Row(v.Text, v.Category, v.Topic, v.Difficulty, strconv.Itoa(len(v.Options)), strconv.Itoa(len(v.Quizzes)),
				strconv.FormatBool(v.Retired), admin.CSVTime(&created))
		}
		if len(questions) < exportChunk {
			break
		}
	}
	return t, nil
}
