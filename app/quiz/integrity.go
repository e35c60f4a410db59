package quiz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/measure"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Integrity checks before a grant (issue 35, item 3; docs/measurement.md). At grading,
// three indices from app/measure read the attempt's recorded responses (quiz_responses):
//   - speed: most items answered faster than the quiz's floor (min_item_seconds; 0 = off);
//   - person fit: the normalized Guttman error count on the items' difficulty estimates
//     (the pool's p, as the form draw uses them);
//   - similarity: identical wrong answers with another member's attempt at the quiz
//     submitted within SimilarityWindow.
// The reasons are stored on the attempt; a flagged *pass* waits for an administrator
// (integrity_status "flagged"): its application cannot be approved until the attempt is
// cleared, and a voided attempt counts as failed (the retake rules then apply). The member
// sees only that the attempt is under review and may add a statement; no reason ever
// names a question or an answer.

// SimilarityWindow is how far back the similarity check looks.
const SimilarityWindow = 24 * time.Hour

// Messages of the integrity review.
const (
	MsgNotUnderReview  = "This attempt is not under review."
	MsgStatementEmpty  = "Please write your statement."
	MsgStatementLong   = "Your statement must be 2000 characters or fewer."
	MsgDecision        = "Decision must be clear or void."
	MsgIntegrityHold   = "This application's quiz attempt is under integrity review: clear or void the attempt first."
	MsgAttemptVoided   = "This application's quiz attempt was voided after an integrity review: it cannot be approved."
	MaxStatementLength = 2000
)

// IntegrityInput is what the checks read of one graded attempt.
type IntegrityInput struct {
	Floor    int                       // seconds per item (0 = no speed check)
	Seconds  []float64                 // per item
	Right    map[string]bool           // question id -> right
	P        map[string]float64        // question id -> difficulty estimate
	Answers  map[string]measure.Answer // this attempt
	Others   map[string]map[string]measure.Answer
	Window   time.Duration
	Elapsed  time.Duration
	NumItems int
}

// Flags are the reasons in.
func Flags(in IntegrityInput) []model.IntegrityFlag {
	var out []model.IntegrityFlag
	if n, fast := measure.TooFast(in.Seconds, float64(in.Floor)); fast {
		out = append(out, model.IntegrityFlag{Code: "speed", Reason: fmt.Sprintf(
			"Most answers came faster than the quiz's floor of %d seconds a question (%d of %d questions).", in.Floor, n, len(in.Seconds))})
	}
	if f := measure.Guttman(in.Right, in.P); f.Aberrant() {
		out = append(out, model.IntegrityFlag{Code: "person-fit", Reason: fmt.Sprintf(
			"Unusual answer pattern: harder questions right and easier ones wrong (%d Guttman errors of a possible %d, G* = %.2f; flagged from %.2f).",
			f.Errors, f.Max, f.Normalized, measure.FitFlag)})
	}
	ids := make([]string, 0, len(in.Others))
	for id := range in.Others {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		if same, wa, wb, sim := measure.IdenticalWrong(in.Answers, in.Others[id]); sim {
			out = append(out, model.IntegrityFlag{Code: "similarity", Reason: fmt.Sprintf(
				"%d identical wrong answers with attempt %s by another member within %d hours (wrong answers: %d here, %d there).",
				same, id, int(in.Window.Hours()), wa, wb)})
			break
		}
	}
	return out
}

// checkIntegrity runs the checks on a just-graded attempt inside its transaction and
// stores the reasons (a flagged pass goes under review). The pool's estimates are read only
// when the form is long enough for person fit, and other attempts' answers only when this
// one has enough wrong answers to match (and then only their wrong answers to its
// questions).
func (s *Service) checkIntegrity(ctx context.Context, tx bun.Tx, a *model.QuizAttempt, rows map[string]*model.QuizResponse, now time.Time) error {
	qz, err := s.st.quiz(ctx, tx, a.QuizID)
	if err != nil {
		return err
	}
	in := IntegrityInput{Floor: qz.MinItemSeconds, Right: map[string]bool{}, Answers: map[string]measure.Answer{},
		Window: SimilarityWindow, Elapsed: now.Sub(a.StartedAt), NumItems: len(a.Layout)}
	even := 0.0
	if len(a.Layout) > 0 {
		even = in.Elapsed.Seconds() / float64(len(a.Layout))
	}
	right, wrong := 0, 0
	var asked []string
	for _, it := range a.Layout {
		r := rows[it.QuestionID]
		if r == nil {
			continue
		}
		sec := even
		if r.TimeMs > 0 {
			sec = float64(r.TimeMs) / 1000
		}
		in.Seconds = append(in.Seconds, sec)
		in.Right[it.QuestionID] = r.Correct
		in.Answers[it.QuestionID] = measure.Answer{Chosen: r.Chosen, Right: r.Correct}
		asked = append(asked, it.QuestionID)
		if r.Correct {
			right++
		} else if len(r.Chosen) > 0 {
			wrong++
		}
	}
	if len(asked) >= measure.MinFitItems && right >= measure.MinFitEach && len(asked)-right >= measure.MinFitEach {
		pool, err := LoadPool(ctx, tx, qz)
		if err != nil {
			return err
		}
		in.P = pool.P
	}
	if wrong >= measure.MinIdenticalWrong {
		if in.Others, err = recentWrongAnswers(ctx, tx, a, asked, now); err != nil {
			return err
		}
	}
	flags := Flags(in)
	if len(flags) == 0 {
		return nil
	}
	a.IntegrityFlags = flags
	if a.Passed {
		a.IntegrityStatus = model.IntegrityFlagged
	}
	_, err = tx.NewUpdate().Model(a).Column("integrity_flags", "integrity_status").WherePK().Exec(ctx)
	return err
}

// recentWrongAnswers is the wrong answers, on the questions asked, of other members'
// attempts at a's quiz submitted within SimilarityWindow before now: all the similarity
// index needs, since only answers wrong on both sides count. One query.
func recentWrongAnswers(ctx context.Context, tx bun.IDB, a *model.QuizAttempt, asked []string, now time.Time) (map[string]map[string]measure.Answer, error) {
	var rs []struct {
		AttemptID  string `bun:"attempt_id"`
		QuestionID string `bun:"question_id"`
		Chosen     string `bun:"chosen"`
	}
	if err := tx.NewSelect().TableExpr("quiz_responses AS r").Join("JOIN quiz_attempts AS a ON a.id = r.attempt_id").
		ColumnExpr("r.attempt_id, r.question_id, r.chosen").
		Where("r.quiz_id = ? AND r.question_id IN (?) AND r.correct = ? AND r.chosen IS NOT NULL", a.QuizID, bun.List(asked), false).
		Where("a.user_id <> ? AND a.submitted_at IS NOT NULL AND a.submitted_at >= ?", a.UserID, now.Add(-SimilarityWindow)).
		Scan(ctx, &rs); err != nil {
		return nil, err
	}
	out := map[string]map[string]measure.Answer{}
	for _, r := range rs {
		var chosen []int
		if json.Unmarshal([]byte(r.Chosen), &chosen) != nil || len(chosen) == 0 {
			continue
		}
		if out[r.AttemptID] == nil {
			out[r.AttemptID] = map[string]measure.Answer{}
		}
		out[r.AttemptID][r.QuestionID] = measure.Answer{Chosen: chosen}
	}
	return out, nil
}

// IntegrityView is what the member sees of a review: its state and their statement,
// never the reasons.
type IntegrityView struct {
	Status    string     `json:"status"` // "review", "cleared" or "voided"
	Statement string     `json:"statement"`
	AppealAt  *time.Time `json:"statementAt"`
	CanAppeal bool       `json:"canAddStatement"`
}

// integrityView is a's review for its member (nil when the attempt was never held).
func integrityView(a *model.QuizAttempt) *IntegrityView {
	st := map[string]string{model.IntegrityFlagged: "review", model.IntegrityCleared: "cleared", model.IntegrityVoided: "voided"}[a.IntegrityStatus]
	if st == "" {
		return nil
	}
	return &IntegrityView{Status: st, Statement: a.Appeal, AppealAt: a.AppealAt, CanAppeal: a.IntegrityStatus == model.IntegrityFlagged}
}

// Appeal records the member's statement on their attempt under review (it may be
// rewritten until the administrator decides).
func (s *Service) Appeal(ctx context.Context, u *model.User, attemptID, statement string) (*IntegrityView, error) {
	statement = strings.TrimSpace(statement)
	if statement == "" {
		return nil, web.BadRequest(MsgStatementEmpty)
	}
	if utf8.RuneCountInString(statement) > MaxStatementLength {
		return nil, web.BadRequest(MsgStatementLong)
	}
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	var view *IntegrityView
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := s.st.attempt(ctx, tx, u.ID, attemptID, true)
		if errors.Is(err, db.ErrNotFound) {
			return web.NotFound(MsgAttemptNotFound)
		} else if err != nil {
			return err
		}
		if a.IntegrityStatus != model.IntegrityFlagged {
			return web.Conflict(MsgNotUnderReview)
		}
		before := a.Appeal
		now := s.now()
		a.Appeal, a.AppealAt = statement, &now
		if _, err := tx.NewUpdate().Model(a).Column("appeal", "appeal_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		view = integrityView(a)
		return audit.Write(ctx, tx, u, "quiz_attempt.statement", "quiz_attempt", a.ID, map[string]string{"statement": before}, map[string]string{"statement": statement})
	})
	return view, err
}

// IntegrityAdmin is the review as the administrator sees it (View Details).
type IntegrityAdmin struct {
	AttemptID string                `json:"attemptId"`
	Status    string                `json:"status"` // flagged, cleared, voided ("" = not held)
	Flags     []model.IntegrityFlag `json:"flags"`
	Statement string                `json:"statement"`
	AppealAt  *time.Time            `json:"statementAt"`
	DecidedAt *time.Time            `json:"decidedAt"`
}

// AttemptIntegrities is the reviews of the attempts ids for the administrator, by
// attempt id (attempts without a flag are absent). One query.
func AttemptIntegrities(ctx context.Context, d bun.IDB, ids []string) (map[string]*IntegrityAdmin, error) {
	out := map[string]*IntegrityAdmin{}
	if len(ids) == 0 {
		return out, nil
	}
	var as []model.QuizAttempt
	if err := d.NewSelect().Model(&as).Column("id", "integrity_status", "integrity_flags", "appeal", "appeal_at", "integrity_decided_at").
		Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for _, a := range as {
		if len(a.IntegrityFlags) > 0 {
			out[a.ID] = &IntegrityAdmin{AttemptID: a.ID, Status: a.IntegrityStatus, Flags: a.IntegrityFlags, Statement: a.Appeal,
				AppealAt: a.AppealAt, DecidedAt: a.IntegrityDecidedAt}
		}
	}
	return out, nil
}

// ApprovalHold is why an application resting on attempt id cannot be approved yet ("" =
// it can): the attempt is under review, or was voided.
func ApprovalHold(ctx context.Context, d bun.IDB, id string) (string, error) {
	var st string
	err := d.NewSelect().Model((*model.QuizAttempt)(nil)).Column("integrity_status").Where("id = ?", id).Scan(ctx, &st)
	if errors.Is(notFound(err), db.ErrNotFound) {
		return "", nil
	}
	switch {
	case err != nil:
		return "", err
	case st == model.IntegrityFlagged:
		return MsgIntegrityHold, nil
	case st == model.IntegrityVoided:
		return MsgAttemptVoided, nil
	}
	return "", nil
}

// Decide clears or voids (decision "clear" / "void") a flagged attempt, audited. A voided
// attempt counts as failed from then on: it no longer passes, so the retake rules apply
// to the member's next attempt.
func (s *Service) Decide(ctx context.Context, actor *model.User, attemptID, decision string) (*IntegrityAdmin, error) {
	if decision != "clear" && decision != "void" {
		return nil, web.BadRequest(MsgDecision)
	}
	if !model.ValidID(attemptID) {
		return nil, web.NotFound(MsgAttemptNotFound)
	}
	var out *IntegrityAdmin
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		a := new(model.QuizAttempt)
		q := tx.NewSelect().Model(a).Where("id = ?", attemptID)
		if db.EngineOf(tx) == db.Postgres {
			q = q.For("UPDATE")
		}
		err := q.Scan(ctx)
		if errors.Is(notFound(err), db.ErrNotFound) {
			return web.NotFound(MsgAttemptNotFound)
		} else if err != nil {
			return err
		}
		if a.IntegrityStatus != model.IntegrityFlagged {
			return web.Conflict(MsgNotUnderReview)
		}
		before := map[string]any{"integrityStatus": a.IntegrityStatus, "passed": a.Passed, "flags": a.IntegrityFlags}
		now := s.now()
		a.IntegrityStatus, a.IntegrityDecidedAt, a.IntegrityDecidedBy = model.IntegrityCleared, &now, &actor.ID
		if decision == "void" {
			a.IntegrityStatus, a.Passed = model.IntegrityVoided, false
		}
		if _, err := tx.NewUpdate().Model(a).Column("integrity_status", "integrity_decided_at", "integrity_decided_by", "passed").WherePK().Exec(ctx); err != nil {
			return err
		}
		out = &IntegrityAdmin{AttemptID: a.ID, Status: a.IntegrityStatus, Flags: a.IntegrityFlags, Statement: a.Appeal, AppealAt: a.AppealAt, DecidedAt: &now}
		after := map[string]any{"integrityStatus": a.IntegrityStatus, "passed": a.Passed, "flags": a.IntegrityFlags}
		return audit.Write(ctx, tx, actor, "quiz_attempt.integrity_"+decision, "quiz_attempt", a.ID, before, after)
	})
	return out, err
}
