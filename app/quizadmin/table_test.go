package quizadmin_test

import (
	"encoding/csv"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quizadmin"
)

// bankRow is a question as the bank answers it, with the fields the table reads.
type bankRow struct {
	ID           string    `json:"_id"`
	Text         string    `json:"text"`
	Options      []string  `json:"options"`
	CorrectIndex int       `json:"correctIndex"`
	Difficulty   string    `json:"difficulty"`
	Topic        string    `json:"topic"`
	Category     string    `json:"category"`
	Retired      bool      `json:"retired"`
	CreatedAt    time.Time `json:"createdAt"`
	Quizzes      []struct {
		ID string `json:"_id"`
	} `json:"quizzes"`
}

type bankPage struct {
	Questions  []bankRow `json:"questions"`
	Total      int       `json:"total"`
	Page       int       `json:"page"`
	PageSize   int       `json:"pageSize"`
	Limit      int       `json:"limit"`
	TotalPages int       `json:"totalPages"`
	Sort       string    `json:"sort"`
}

const bankN = 25

// bankFixture makes 25 questions: mixed-case texts, categories and topics, every
// difficulty, every fifth retired, some in one quiz and some in two, distinct creation
// times in an order unlike the texts'; each question's correct option is "KEY-nn-SECRET"
// and its explanation "EXPLAINS-nn". #1's text, #3's category and #4's topic are
// formulas; #5's text holds LIKE's wildcards; #23 and #24 are outside the "bank" set.
func bankFixture(t *testing.T) (*apptest.Env, *apptest.Client) {
	t.Helper()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	quizA := createQuiz(t, c, newBadge(t, e, "Bank Quiz A", model.TypeSkill, "Data Science").ID, map[string]any{})
	quizB := createQuiz(t, c, newBadge(t, e, "Bank Quiz B", model.TypeSkill, "Development").ID, map[string]any{})
	cats := []string{"Data", "design", "DevOps"}
	topics := []string{"SQL", "joins", "Indexes", "windows"}
	diffs := []string{"easy", "medium", "hard"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < bankN; i++ {
		n := (i * 7) % bankN
		text := fmt.Sprintf("Bank question %02d", n)
		if i%2 == 0 {
			text = strings.ToLower(text)
		}
		opts := []string{fmt.Sprintf("KEY-%02d-SECRET", i), fmt.Sprintf("wrong a %02d", i), fmt.Sprintf("wrong b %02d", i), fmt.Sprintf("wrong c %02d", i)}[:2+i%3]
		body := map[string]any{"text": text, "options": opts, "correctIndex": 0, "difficulty": diffs[(i/2)%3],
			"category": cats[i%3], "topic": topics[i%4], "explanation": fmt.Sprintf("EXPLAINS-%02d", i)}
		switch i {
		case 1:
			body["text"] = `=HYPERLINK("http://evil")`
		case 3:
			body["category"] = "-Minus"
		case 4:
			body["topic"] = "@SUM(1+1)"
		case 5:
			body["text"] = "Bank 50%_off question"
		case 23, 24:
			body["text"], body["category"], body["topic"] = fmt.Sprintf("Outsider %d", i), "Misc", "Elsewhere"
		}
		q := createQuestion(t, c, body)
		if i%4 == 0 {
			c.Post("/admin/quizzes/"+quizA.ID+"/questions/"+q.ID, nil).Expect(201)
		}
		if i%6 == 0 {
			c.Post("/admin/quizzes/"+quizB.ID+"/questions/"+q.ID, nil).Expect(201)
		}
		up := e.DB.NewUpdate().Model((*model.Question)(nil)).Set("created_at = ?", base.Add(time.Duration((i*11)%bankN)*time.Hour)).Where("id = ?", q.ID)
		if i%5 == 4 {
			up = up.Set("retired_at = ?", base)
		}
		if _, err := up.Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	return e, c
}

// bankAll answers the plain array (the quiz screens' answer) for the query.
func bankAll(t *testing.T, c *apptest.Client, q string) []bankRow {
	t.Helper()
	var list []bankRow
	c.Get("/admin/questions?" + q).Expect(200).JSON(&list)
	return list
}

// bankPages reads every page of the paged bank and answers the ids in order and the total.
func bankPages(t *testing.T, c *apptest.Client, q string, size int) ([]string, int) {
	t.Helper()
	var ids []string
	total := -1
	for p := 1; ; p++ {
		var pg bankPage
		c.Get(fmt.Sprintf("/admin/questions?%s&page=%d&pageSize=%d", q, p, size)).Expect(200).JSON(&pg)
		if pg.Page != p || pg.PageSize != size || pg.Limit != size {
			t.Fatalf("%s page %d: page %d, pageSize %d, limit %d", q, p, pg.Page, pg.PageSize, pg.Limit)
		}
		if total >= 0 && pg.Total != total {
			t.Fatalf("%s: total changed from %d to %d", q, total, pg.Total)
		}
		total = pg.Total
		if want := (total + size - 1) / size; pg.TotalPages != want {
			t.Fatalf("%s: totalPages %d, want %d", q, pg.TotalPages, want)
		}
		if want := min(size, total-(p-1)*size); total > 0 && len(pg.Questions) != want {
			t.Fatalf("%s page %d: %d rows, want %d", q, p, len(pg.Questions), want)
		}
		for _, r := range pg.Questions {
			ids = append(ids, r.ID)
		}
		if p >= pg.TotalPages {
			return ids, total
		}
	}
}

func bankIDs(rows []bankRow) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

func TestBankWithoutTableParametersIsTheArray(t *testing.T) {
	t.Parallel()
	_, c := bankFixture(t)
	// the array: every question, newest first (ties by id), with the key the quiz screens need
	raw := c.Get("/admin/questions").Expect(200)
	if body := strings.TrimSpace(raw.Text()); !strings.HasPrefix(body, "[") {
		t.Fatalf("no parameters answer %.80s", body)
	}
	var arr []map[string]any
	raw.JSON(&arr)
	if len(arr) != bankN {
		t.Fatalf("%d questions", len(arr))
	}
	want := []string{"_id", "category", "correctIndex", "correctIndexes", "createdAt", "difficulty", "explanation", "family", "familyOf",
		"options", "quizzes", "retired", "retiredAt", "showCount", "text", "topic", "type"}
	var keys []string
	for k := range arr[0] {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if !reflect.DeepEqual(keys, want) {
		t.Fatalf("a question's fields %v, want %v", keys, want)
	}
	rows := bankAll(t, c, "")
	for i := 1; i < len(rows); i++ {
		a, b := rows[i-1], rows[i]
		if a.CreatedAt.Before(b.CreatedAt) || (a.CreatedAt.Equal(b.CreatedAt) && a.ID < b.ID) {
			t.Fatalf("not newest first at %d: %v then %v", i, a.CreatedAt, b.CreatedAt)
		}
	}
	// the filters narrow the array too, and q still searches
	for _, q := range []string{"search=bank", "q=bank", "status=retired", "difficulty=hard&category=design"} {
		if body := strings.TrimSpace(c.Get("/admin/questions?" + q).Expect(200).Text()); !strings.HasPrefix(body, "[") {
			t.Fatalf("%s answers %.80s", q, body)
		}
	}
	if n := len(bankAll(t, c, "q=outsider")); n != 2 {
		t.Fatalf("q=outsider: %d", n)
	}
	// the table's first page holds the same questions, field for field, in the same order
	var pg struct {
		Questions []map[string]any `json:"questions"`
	}
	c.Get("/admin/questions?pageSize=100").Expect(200).JSON(&pg)
	if !reflect.DeepEqual(pg.Questions, arr) {
		t.Fatal("the paged bank's questions differ from the array's")
	}
}

func TestBankSortsAndPages(t *testing.T) {
	t.Parallel()
	_, c := bankFixture(t)
	rows := bankAll(t, c, "")
	rank := map[string]int{"easy": 1, "medium": 2, "hard": 3}
	less := map[string]func(a, b bankRow) int{
		"text": func(a, b bankRow) int { return strings.Compare(strings.ToLower(a.Text), strings.ToLower(b.Text)) },
		"category": func(a, b bankRow) int {
			return strings.Compare(strings.ToLower(a.Category), strings.ToLower(b.Category))
		},
		"topic":      func(a, b bankRow) int { return strings.Compare(strings.ToLower(a.Topic), strings.ToLower(b.Topic)) },
		"difficulty": func(a, b bankRow) int { return rank[a.Difficulty] - rank[b.Difficulty] },
		"quizzes":    func(a, b bankRow) int { return len(a.Quizzes) - len(b.Quizzes) },
		"createdAt":  func(a, b bankRow) int { return a.CreatedAt.Compare(b.CreatedAt) },
	}
	if len(less) != len(quizadmin.BankSorts) {
		t.Fatalf("%d sorts tested, %d offered", len(less), len(quizadmin.BankSorts))
	}
	inTwo := 0
	for _, r := range rows {
		if len(r.Quizzes) == 2 {
			inTwo++
		}
	}
	if inTwo == 0 {
		t.Fatal("the fixture has no question in two quizzes")
	}
	for _, col := range quizadmin.BankSorts {
		cmp := less[col.Key]
		if cmp == nil {
			t.Fatalf("sort %s is not tested", col.Key)
		}
		for _, desc := range []bool{false, true} {
			want := append([]bankRow(nil), rows...)
			sort.SliceStable(want, func(i, j int) bool {
				d := cmp(want[i], want[j])
				if d == 0 {
					d = strings.Compare(want[i].ID, want[j].ID)
				}
				if desc {
					return d > 0
				}
				return d < 0
			})
			key := col.Key
			if desc {
				key = "-" + key
			}
			got, total := bankPages(t, c, "sort="+url.QueryEscape(key), 10)
			if total != bankN || strings.Join(got, ",") != strings.Join(bankIDs(want), ",") {
				t.Errorf("sort %s: total %d\n got %v\nwant %v", key, total, got, bankIDs(want))
			}
			var pg bankPage
			c.Get("/admin/questions?pageSize=10&sort=" + url.QueryEscape(key)).Expect(200).JSON(&pg)
			if pg.Sort != key || pg.Page != 1 || len(pg.Questions) != 10 {
				t.Errorf("sort %s: the answer says sort %q, page %d, %d rows", key, pg.Sort, pg.Page, len(pg.Questions))
			}
		}
	}
	// no sort: newest first, as the array; the default page size is the API's
	var pg bankPage
	c.Get("/admin/questions?page=1").Expect(200).JSON(&pg)
	if pg.Total != bankN || pg.PageSize != 20 || len(pg.Questions) != 20 || pg.Sort != "" || pg.TotalPages != 2 {
		t.Fatalf("default page: total %d, pageSize %d, %d rows, sort %q, %d pages", pg.Total, pg.PageSize, len(pg.Questions), pg.Sort, pg.TotalPages)
	}
	got, _ := bankPages(t, c, "status=all", 10)
	if strings.Join(got, ",") != strings.Join(bankIDs(rows), ",") {
		t.Fatalf("default order\n got %v\nwant %v", got, bankIDs(rows))
	}
	// the last page holds the rest; a page past the end is empty, not an error
	c.Get("/admin/questions?page=3&pageSize=10").Expect(200).JSON(&pg)
	if len(pg.Questions) != 5 || pg.Total != bankN || pg.TotalPages != 3 {
		t.Fatalf("page 3: %d rows of %d, %d pages", len(pg.Questions), pg.Total, pg.TotalPages)
	}
	c.Get("/admin/questions?page=9&pageSize=10").Expect(200).JSON(&pg)
	if len(pg.Questions) != 0 || pg.Total != bankN {
		t.Fatalf("page 9: %d rows of %d", len(pg.Questions), pg.Total)
	}
}

func TestBankFiltersWithPaging(t *testing.T) {
	t.Parallel()
	_, c := bankFixture(t)
	rows := bankAll(t, c, "")
	// what each filter must show, worked out here from the whole bank
	match := func(r bankRow, search, category, difficulty, status string) bool {
		s := strings.ToLower(search)
		return (s == "" || strings.Contains(strings.ToLower(r.Text), s) || strings.Contains(strings.ToLower(r.Category), s) || strings.Contains(strings.ToLower(r.Topic), s)) &&
			(category == "" || strings.EqualFold(r.Category, category)) &&
			(difficulty == "" || difficulty == "all" || r.Difficulty == difficulty) &&
			(status == "" || status == "all" || (status == "retired") == r.Retired)
	}
	seen := map[string]int{}
	for _, search := range []string{"", "bank", "BANK QUESTION 1", "design", "JOINS", "%_o", "_", "nothing"} {
		for _, category := range []string{"", "DESIGN", "devops"} {
			for _, difficulty := range []string{"", "easy", "hard"} {
				for _, status := range []string{"all", "active", "retired"} {
					q := fmt.Sprintf("search=%s&category=%s&difficulty=%s&status=%s", url.QueryEscape(search), category, difficulty, status)
					var want []string
					for _, r := range rows {
						if match(r, search, category, difficulty, status) {
							want = append(want, r.ID)
						}
					}
					if got := bankIDs(bankAll(t, c, q)); strings.Join(got, ",") != strings.Join(want, ",") {
						t.Fatalf("array %s\n got %v\nwant %v", q, got, want)
					}
					got, total := bankPages(t, c, q, 10)
					if total != len(want) || strings.Join(got, ",") != strings.Join(want, ",") {
						t.Fatalf("pages %s: total %d\n got %v\nwant %v", q, total, got, want)
					}
					seen[status] += len(want)
					if search != "" {
						seen["search"] += len(want)
					}
				}
			}
		}
	}
	for _, k := range []string{"active", "retired", "search"} {
		if seen[k] == 0 {
			t.Errorf("no question found with %s", k)
		}
	}
	// the figures the fixture makes: searches reach text, category and topic alike
	for q, n := range map[string]int{
		"search=outsider":                       2,
		"search=" + url.QueryEscape("%_o"):      1, // LIKE's wildcards are searched as typed
		"search=" + url.QueryEscape("@sum"):     1, // a topic
		"search=minus":                          1, // a category
		"category=misc":                         2,
		"status=retired":                        5,
		"status=active&category=DESIGN":         6, // i = 1, 7, 10, 13, 16, 22
		"difficulty=hard&status=retired":        1,
		"search=%20BANK%20&difficulty=medium":   8, // i = 2, 3, 8, 9, 14, 15, 20, 21
		"category=" + url.QueryEscape("-Minus"): 1,
	} {
		var pg bankPage
		c.Get("/admin/questions?pageSize=10&" + q).Expect(200).JSON(&pg)
		if pg.Total != n {
			t.Errorf("%s: %d found, want %d", q, pg.Total, n)
		}
	}
}

func TestBankCSV(t *testing.T) {
	t.Parallel()
	_, c := bankFixture(t)
	r := c.Get("/admin/questions?format=csv&pageSize=10&sort=text&status=all&search=bank").Expect(200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(r.Header.Get("Content-Disposition"), `attachment; filename="meritmark-questions-`) {
		t.Fatalf("csv headers: %q %q", ct, r.Header.Get("Content-Disposition"))
	}
	body := r.Text()
	// no answer key: neither the correct options, the other options nor the explanations
	for _, secret := range []string{"KEY-", "SECRET", "wrong a", "EXPLAINS", "correct"} {
		if strings.Contains(body, secret) {
			t.Fatalf("the CSV carries %q:\n%s", secret, body)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := bankAll(t, c, "search=bank")
	sort.SliceStable(want, func(i, j int) bool {
		a, b := strings.ToLower(want[i].Text), strings.ToLower(want[j].Text)
		return a < b || (a == b && want[i].ID < want[j].ID)
	})
	if len(recs) != len(want)+1 || strings.Join(recs[0], ",") != strings.Join(quizadmin.BankCSVHeader, ",") {
		t.Fatalf("csv: %d lines for %d questions, header %v", len(recs), len(want), recs[0])
	}
	if strings.Join(recs[0], ",") != "text,category,topic,difficulty,options,quizzes,retired,created" {
		t.Fatalf("header %v", recs[0])
	}
	for i, rec := range recs[1:] {
		q := want[i]
		wantRec := []string{q.Text, q.Category, q.Topic, q.Difficulty, fmt.Sprint(len(q.Options)), fmt.Sprint(len(q.Quizzes)),
			fmt.Sprint(q.Retired), q.CreatedAt.UTC().Format(time.RFC3339)}
		for j, cell := range wantRec {
			if strings.ContainsRune("=+-@", rune(cell[0])) {
				wantRec[j] = "'" + cell // formulas defused
			}
		}
		if !reflect.DeepEqual(rec, wantRec) {
			t.Errorf("csv row %d: %q, want %q", i+1, rec, wantRec)
		}
	}
	// the formulas: a text, a category and a topic, each with its apostrophe
	all := csvOf(t, c, "/admin/questions?format=csv")
	if len(all) != bankN+1 {
		t.Fatalf("the whole bank: %d lines", len(all))
	}
	cells := map[string]bool{}
	for _, rec := range all[1:] {
		for _, cell := range rec {
			cells[cell] = true
		}
	}
	for _, cell := range []string{`'=HYPERLINK("http://evil")`, "'-Minus", "'@SUM(1+1)"} {
		if !cells[cell] {
			t.Errorf("no defused cell %q", cell)
		}
	}
	if cells[`=HYPERLINK("http://evil")`] || cells["-Minus"] || cells["@SUM(1+1)"] {
		t.Error("a formula left as it was")
	}
	// the filter holds: retired only; nothing found leaves the header
	retired := csvOf(t, c, "/admin/questions?format=csv&status=retired")
	if len(retired) != 6 { // i = 4, 9, 14, 19, 24
		t.Fatalf("retired csv: %d lines", len(retired))
	}
	for _, rec := range retired[1:] {
		if rec[6] != "true" {
			t.Fatalf("retired csv row %v", rec)
		}
	}
	if got := c.Get("/admin/questions?format=csv&search=nothing").Expect(200).Text(); strings.TrimSpace(got) != strings.Join(quizadmin.BankCSVHeader, ",") {
		t.Fatalf("empty csv %q", got)
	}
}

func csvOf(t *testing.T, c *apptest.Client, path string) [][]string {
	t.Helper()
	recs, err := csv.NewReader(strings.NewReader(c.Get(path).Expect(200).Text())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestBankBadParameters(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	createQuestion(t, c, map[string]any{"text": "Only one?", "options": []string{"a", "b"}, "correctIndex": 1})
	sorts := "sort must be one of text, category, topic, difficulty, quizzes, createdAt (a leading - sorts descending)."
	for q, msg := range map[string]string{
		"page=0":                       "page must be a whole number from 1.",
		"page=abc":                     "page must be a whole number from 1.",
		"page=-2":                      "page must be a whole number from 1.",
		"pageSize=7":                   "pageSize must be 10, 25, 50 or 100.",
		"pageSize=ten":                 "pageSize must be 10, 25, 50 or 100.",
		"page=1&limit=500":             "limit must be a whole number from 1 to 100.",
		"sort=bogus":                   sorts,
		"sort=-options":                sorts,
		"sort=created_at":              sorts,
		"sort=correctIndex":            sorts,
		"format=xml":                   "format must be json or csv.",
		"page=1&status=weird":          quizadmin.MsgBankStatus,
		"format=csv&difficulty=brutal": quizadmin.MsgBankDifficulty,
		"difficulty=brutal":            quizadmin.MsgBankDifficulty, // the array too
		"status=deleted":               quizadmin.MsgBankStatus,
		"page=1&category=" + strings.Repeat("c", 61): "Category must be at most 60 characters.",
		"page=1&search=" + strings.Repeat("x", 201):  "The search text is too long.",
		"search=" + strings.Repeat("x", 201):         "The search text is too long.",
	} {
		c.Get("/admin/questions?"+q).ExpectMsg(400, msg)
	}
	// the limits themselves pass
	c.Get("/admin/questions?page=1&category=" + strings.Repeat("c", 60) + "&search=" + strings.Repeat("x", 200)).Expect(200)
	// a member is refused the table, the export and the array
	_, m := e.Member("m@x.io")
	for _, q := range []string{"", "?page=1", "?format=csv"} {
		m.Get("/admin/questions" + q).Expect(403)
	}
	// a guest too
	e.Client().Get("/admin/questions?format=csv").Expect(401)
}
