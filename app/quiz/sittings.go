package quiz

import (
	"cmp"
	"context"
	"math"
	"slices"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/measure"
	"meritmark/app/model"
)

// Sittings: a quiz's submitted attempts as its statistics read them, shared by the
// admin's item analysis (app/quizadmin) and the public technical report (app/badge).

// Sitting is one submitted attempt, scored. Sittings come in the order they were
// submitted (the drift test compares the latest answers with earlier ones).
type Sitting struct {
	Score     float64         // percent
	Passed    bool            //
	TimeSpent int             // seconds
	Items     map[string]bool // question id -> answered right (every question asked)
	// PassingScore is the pass mark (percent) the attempt was graded with; 0 when the
	// caller does not say, and then PassMark recovers it from the attempts' results.
	PassingScore int
}

// Sittings is a quiz's submitted attempts, scored.
type Sittings struct {
	Sittings []Sitting         // oldest first
	IDs      []string          // the pool in its order, then questions asked earlier that left it
	Texts    map[string]string // question id -> text (for the admin only: never on a public page)
	First    *time.Time        // the first submission (nil: none)
	Last     *time.Time        // the latest submission (nil: none)
}

// ReadRecord reads quiz quizID's submitted attempts with their recorded responses
// (quiz_responses: every question asked, right or wrong, whatever its type); pool is the
// quiz's questions in their order. Two queries, or three when attempts asked questions
// that have left the pool; a question deleted from the bank since is left out.
func ReadRecord(ctx context.Context, d bun.IDB, quizID string, pool []model.Question) (*Sittings, error) {
	// scanned by hand: bun's reflection over 10,000 attempts cost a third of the read
	q := d.NewSelect().Model((*model.QuizAttempt)(nil)).
		Column("id", "score", "passed", "passing_score", "total", "started_at", "deadline", "submitted_at").
		Where("quiz_id = ? AND submitted_at IS NOT NULL", quizID).
		Order("submitted_at", "id")
	arows, err := d.QueryContext(ctx, q.String())
	if err != nil {
		return nil, err
	}
	defer arows.Close()
	rec := &Sittings{IDs: make([]string, 0, len(pool)), Texts: map[string]string{}, Sittings: []Sitting{}}
	at := map[string]int{}
	for arows.Next() {
		var id string
		var s Sitting
		var total int
		var t model.QuizAttempt
		var submitted time.Time
		if err := arows.Scan(&id, &s.Score, &s.Passed, &s.PassingScore, &total, &t.StartedAt, &t.Deadline, &submitted); err != nil {
			return nil, err
		}
		t.SubmittedAt = &submitted
		s.TimeSpent, s.Items = TimeSpent(&t), make(map[string]bool, total)
		at[id] = len(rec.Sittings)
		rec.Sittings = append(rec.Sittings, s)
		if rec.First == nil {
			rec.First = t.SubmittedAt
		}
		rec.Last = t.SubmittedAt
	}
	if err := arows.Err(); err != nil {
		return nil, err
	}
	arows.Close()
	known := map[string]bool{}
	for _, q := range pool {
		rec.IDs = append(rec.IDs, q.ID)
		rec.Texts[q.ID] = q.Text
		known[q.ID] = true
	}
	if len(rec.Sittings) == 0 {
		return rec, nil
	}
	// the quiz's rows (running attempts' too: they are not in at) from the covering index
	rows, err := d.QueryContext(ctx, d.NewSelect().TableExpr("quiz_responses").
		Column("attempt_id", "question_id", "correct").Where("quiz_id = ?", quizID).String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	first := map[string]int{} // a question left the pool -> the first sitting that asked it
	var attemptID, questionID string
	var correct bool
	for rows.Next() {
		if err := rows.Scan(&attemptID, &questionID, &correct); err != nil {
			return nil, err
		}
		i, ok := at[attemptID]
		if !ok {
			continue // running, or submitted after the attempts were read
		}
		rec.Sittings[i].Items[questionID] = correct
		if f, ok := first[questionID]; !known[questionID] && (!ok || i < f) {
			first[questionID] = i
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(first) > 0 {
		extra := make([]string, 0, len(first))
		for id := range first {
			extra = append(extra, id)
		}
		slices.SortFunc(extra, func(a, b string) int { return cmp.Or(cmp.Compare(first[a], first[b]), cmp.Compare(a, b)) })
		var qs []model.Question
		if err := d.NewSelect().Model(&qs).Column("id", "text").Where("id IN (?)", bun.List(extra)).Scan(ctx); err != nil {
			return nil, err
		}
		texts := map[string]string{}
		for _, q := range qs {
			texts[q.ID] = q.Text
		}
		for _, id := range extra { // in the order first asked; deleted from the bank: left out
			if text, ok := texts[id]; ok {
				rec.IDs = append(rec.IDs, id)
				rec.Texts[id] = text
				continue
			}
			for i := range rec.Sittings {
				delete(rec.Sittings[i].Items, id)
			}
		}
	}
	return rec, nil
}

// Responses reads the scored response matrix from the sittings, in their order: the
// questions each attempt was asked (in the order of ids), right or wrong, and the
// number right its pass mark needs on that form (the quiz's rule: correct x 100 >=
// mark x questions), mark when the sitting does not carry its own. The one place to
// change when responses get a table of their own.
func Responses(sittings []Sitting, ids []string, mark int) []measure.Attempt {
	out := make([]measure.Attempt, 0, len(sittings))
	// each sitting's few answers put in the order of ids (one map read per answer, not one
	// per question of the pool: 100,000 responses over a pool of 40 made 400,000)
	at := make(map[string]int, len(ids))
	for k, id := range ids {
		at[id] = k
	}
	for _, s := range sittings {
		a := measure.Attempt{Passed: s.Passed, Responses: make([]measure.Response, 0, len(s.Items))}
		for id, ok := range s.Items {
			if _, listed := at[id]; listed {
				a.Responses = append(a.Responses, measure.Response{Item: id, Correct: ok})
			}
		}
		slices.SortFunc(a.Responses, func(x, y measure.Response) int { return cmp.Compare(at[x.Item], at[y.Item]) })
		m := mark
		if s.PassingScore > 0 {
			m = s.PassingScore
		}
		a.Cut = (m*len(a.Responses) + 99) / 100
		out = append(out, a)
	}
	return out
}

// PassMark is the pass mark (percent) of the sittings. When every sitting carries its
// own, it is the latest one's (each attempt is still judged by its own mark); else it is
// recovered from the results, as the largest whole percent at or below the lowest
// passing score and above the highest failing one. It is unknown (false) when no
// attempt passed or none failed, or when no whole percent fits (the mark changed
// between attempts).
func PassMark(sittings []Sitting) (int, bool) {
	if len(sittings) == 0 {
		return 0, false
	}
	carried := true
	for _, s := range sittings {
		carried = carried && s.PassingScore > 0
	}
	if carried {
		return sittings[len(sittings)-1].PassingScore, true
	}
	lowPass, highFail := math.Inf(1), math.Inf(-1)
	for _, s := range sittings {
		if s.Passed {
			lowPass = math.Min(lowPass, s.Score)
		} else {
			highFail = math.Max(highFail, s.Score)
		}
	}
	if math.IsInf(lowPass, 1) || math.IsInf(highFail, -1) {
		return 0, false
	}
	// scores are rounded to 2 decimals: 66.67 passes a mark of 66
	mark := int(math.Floor(lowPass + 0.005))
	if mark < 1 || float64(mark) <= highFail {
		return 0, false
	}
	return mark, true
}
