package quiz_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// integrityFx is a 10-question quiz passing at 50%: the first five questions labelled
// easy, the last five hard (all "medium" unless hardEasy).
func integrityFx(t *testing.T, hardEasy bool) *fx {
	t.Helper()
	f := newFx(t, 10)
	ctx := f.env.Ctx()
	if _, err := f.env.DB.NewUpdate().Model((*model.Quiz)(nil)).Set("passing_score = 50").Where("id = ?", f.quiz.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if hardEasy {
		for i, q := range f.qs {
			d := "easy"
			if i >= 5 {
				d = "hard"
			}
			if _, err := f.env.DB.NewUpdate().Model((*model.Question)(nil)).Set("difficulty = ?", d).Where("id = ?", q.ID).Exec(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	return f
}

// answerBy answers each question of v: right when right(position in the pool) says so,
// else the wrong option at offset (1..3) from the key.
func (f *fx) answerBy(t *testing.T, v quizResp, right func(i int) bool, offset int) map[string]int {
	t.Helper()
	pos := map[string]int{}
	for i, q := range f.qs {
		pos[q.ID] = i
	}
	out := map[string]int{}
	for _, sq := range v.Questions {
		q := f.byID[sq.ID]
		idx := q.CorrectIndex
		if !right(pos[sq.ID]) {
			idx = (q.CorrectIndex + offset) % len(q.Options)
		}
		out[sq.ID] = shownIndex(t, v, sq.ID, q.Options[idx])
	}
	return out
}

type integrityResult struct {
	Passed    bool `json:"passed"`
	Integrity *struct {
		Status    string `json:"status"`
		Statement string `json:"statement"`
		CanAppeal bool   `json:"canAddStatement"`
	} `json:"integrity"`
}

// takeQuiz starts and submits an attempt for a new member; elapsed moves its start back
// (0: submitted at once). It returns the attempt's row and the raw result.
func (f *fx) takeQuiz(t *testing.T, email string, right func(int) bool, offset int, elapsed time.Duration) (*model.QuizAttempt, []byte, *apptest.Client) {
	t.Helper()
	_, c := f.env.Member(email)
	v := start(t, c, f.badge.ID)
	if elapsed > 0 {
		if _, err := f.env.DB.NewUpdate().Model((*model.QuizAttempt)(nil)).Set("started_at = ?", model.Now().Add(-elapsed)).
			Where("id = ?", v.Attempt.ID).Exec(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	r := submit(c, v.Attempt.ID, f.answerBy(t, v, right, offset)).Expect(http.StatusOK)
	return f.attemptRow(t, v.Attempt.ID), r.Body, c
}

func codes(a *model.QuizAttempt) string {
	var s []string
	for _, fl := range a.IntegrityFlags {
		s = append(s, fl.Code)
	}
	return strings.Join(s, ",")
}

func all(int) bool { return true }

func TestSpeedFlagFiresUnderTheFloorOnly(t *testing.T) {
	f := integrityFx(t, false)
	// no floor set: an instant submission is not flagged
	a, _, _ := f.takeQuiz(t, "nofloor@x.io", all, 1, 0)
	if codes(a) != "" || a.IntegrityStatus != "" {
		t.Fatalf("flagged without a floor: %+v", a.IntegrityFlags)
	}
	if _, err := f.env.DB.NewUpdate().Model((*model.Quiz)(nil)).Set("min_item_seconds = 5").Where("id = ?", f.quiz.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	// ten questions in about a second: every item under 5 s, a pass -> under review
	a, body, _ := f.takeQuiz(t, "fast@x.io", all, 1, 0)
	if codes(a) != "speed" || a.IntegrityStatus != model.IntegrityFlagged || !a.Passed {
		t.Fatalf("fast pass: %q %q passed=%v", codes(a), a.IntegrityStatus, a.Passed)
	}
	if !strings.Contains(a.IntegrityFlags[0].Reason, "faster than the quiz's floor of 5 seconds a question (10 of 10 questions)") {
		t.Fatalf("reason %q", a.IntegrityFlags[0].Reason)
	}
	// the member sees the review, not the reasons
	var res integrityResult
	if err := json.Unmarshal(body, &res); err != nil {
		t.Fatal(err)
	}
	if res.Integrity == nil || res.Integrity.Status != "review" || !res.Integrity.CanAppeal || strings.Contains(string(body), "faster") || strings.Contains(string(body), "speed") {
		t.Fatalf("member result %s", body)
	}
	// ten minutes on ten questions (60 s each): not flagged
	a, body, _ = f.takeQuiz(t, "steady@x.io", all, 1, 10*time.Minute)
	if codes(a) != "" || strings.Contains(string(body), `"integrity":{`) {
		t.Fatalf("steady pass flagged: %q %s", codes(a), body)
	}
	// a fast fail is recorded but not held (nothing to grant)
	a, _, _ = f.takeQuiz(t, "fastfail@x.io", func(int) bool { return false }, 1, 0)
	if codes(a) != "speed" || a.IntegrityStatus != "" || a.Passed {
		t.Fatalf("fast fail: %q %q", codes(a), a.IntegrityStatus)
	}
}

func TestPersonFitFlagFiresOnHardRightEasyWrong(t *testing.T) {
	f := integrityFx(t, true)
	// the five hard right, the five easy wrong: 50% (a pass), G* = 25/25 = 1
	a, _, _ := f.takeQuiz(t, "reversed@x.io", func(i int) bool { return i >= 5 }, 1, 10*time.Minute)
	if codes(a) != "person-fit" || a.IntegrityStatus != model.IntegrityFlagged {
		t.Fatalf("reversed pattern: %q %q", codes(a), a.IntegrityStatus)
	}
	if !strings.Contains(a.IntegrityFlags[0].Reason, "25 Guttman errors of a possible 25, G* = 1.00") {
		t.Fatalf("reason %q", a.IntegrityFlags[0].Reason)
	}
	// the five easy right, the five hard wrong: the same score, G* = 0
	a, _, _ = f.takeQuiz(t, "guttman@x.io", func(i int) bool { return i < 5 }, 1, 10*time.Minute)
	if codes(a) != "" || a.IntegrityStatus != "" {
		t.Fatalf("Guttman pattern flagged: %+v", a.IntegrityFlags)
	}
}

func TestSimilarityFlagFiresOnIdenticalWrongAnswersWithinTheWindow(t *testing.T) {
	f := integrityFx(t, false)
	wrong4 := func(i int) bool { return i >= 4 } // questions 1-4 wrong, 6 of 10 right
	first, _, _ := f.takeQuiz(t, "first@x.io", wrong4, 1, 10*time.Minute)
	if codes(first) != "" {
		t.Fatalf("the first attempt flagged: %q", codes(first))
	}
	// the same four wrong options: flagged, naming the other attempt (for the admin)
	a, body, _ := f.takeQuiz(t, "copy@x.io", wrong4, 1, 10*time.Minute)
	if codes(a) != "similarity" || a.IntegrityStatus != model.IntegrityFlagged ||
		!strings.Contains(a.IntegrityFlags[0].Reason, "4 identical wrong answers with attempt "+first.ID) {
		t.Fatalf("copy: %q %+v", codes(a), a.IntegrityFlags)
	}
	if strings.Contains(string(body), first.ID) {
		t.Fatal("the member's result names the other attempt")
	}
	// the same questions wrong with other options: not flagged
	a, _, _ = f.takeQuiz(t, "other@x.io", wrong4, 2, 10*time.Minute)
	if codes(a) != "" {
		t.Fatalf("different wrong answers flagged: %+v", a.IntegrityFlags)
	}
	// outside the window: move every earlier attempt back 25 hours
	if _, err := f.env.DB.NewUpdate().Model((*model.QuizAttempt)(nil)).Set("submitted_at = ?", model.Now().Add(-25*time.Hour)).
		Where("quiz_id = ?", f.quiz.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	a, _, _ = f.takeQuiz(t, "late@x.io", wrong4, 1, 10*time.Minute)
	if codes(a) != "" {
		t.Fatalf("flagged against attempts outside the window: %+v", a.IntegrityFlags)
	}
}

func TestReviewStatementClearAndVoid(t *testing.T) {
	f := integrityFx(t, false)
	if _, err := f.env.DB.NewUpdate().Model((*model.Quiz)(nil)).Set("min_item_seconds = 5, retake_wait_hours = 24").Where("id = ?", f.quiz.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	_, admin := f.env.Admin("admin@x.io")
	ctx := f.env.Ctx()
	a, _, member := f.takeQuiz(t, "held@x.io", all, 1, 0)
	if hold, err := quiz.ApprovalHold(ctx, f.env.DB, a.ID); err != nil || hold != quiz.MsgIntegrityHold {
		t.Fatalf("hold %q %v", hold, err)
	}
	// the member's statement: validated, saved, audited
	member.Post("/quiz/attempts/"+a.ID+"/statement", map[string]string{"statement": "  "}).ExpectMsg(http.StatusBadRequest, quiz.MsgStatementEmpty)
	member.Post("/quiz/attempts/"+a.ID+"/statement", map[string]string{"statement": strings.Repeat("x", 2001)}).ExpectMsg(http.StatusBadRequest, quiz.MsgStatementLong)
	_, stranger := f.env.Member("stranger@x.io")
	stranger.Post("/quiz/attempts/"+a.ID+"/statement", map[string]string{"statement": "mine"}).Expect(http.StatusNotFound)
	member.Post("/quiz/attempts/"+a.ID+"/statement", map[string]string{"statement": "I type fast: I had studied the material."}).Expect(http.StatusOK)
	if row := f.attemptRow(t, a.ID); row.Appeal != "I type fast: I had studied the material." || row.AppealAt == nil {
		t.Fatalf("statement not saved: %+v", row)
	}
	// only an admin decides; a bad decision is refused
	member.Put("/admin/quiz-attempts/"+a.ID+"/integrity", map[string]string{"decision": "clear"}).Expect(http.StatusForbidden)
	admin.Put("/admin/quiz-attempts/"+a.ID+"/integrity", map[string]string{"decision": "ignore"}).ExpectMsg(http.StatusBadRequest, quiz.MsgDecision)
	admin.Put("/admin/quiz-attempts/"+a.ID+"/integrity", map[string]string{"decision": "clear"}).Expect(http.StatusOK)
	row := f.attemptRow(t, a.ID)
	apptest.Expect(t, "cleared attempt", row, apptest.Eq("IntegrityStatus", row.IntegrityStatus, model.IntegrityCleared),
		apptest.True("still passed", row.Passed), apptest.True("decided", row.IntegrityDecidedAt != nil && row.IntegrityDecidedBy != nil))
	if hold, _ := quiz.ApprovalHold(ctx, f.env.DB, a.ID); hold != "" {
		t.Fatalf("still held after clearing: %q", hold)
	}
	// decided once: a second decision and a late statement are refused
	admin.Put("/admin/quiz-attempts/"+a.ID+"/integrity", map[string]string{"decision": "void"}).ExpectMsg(http.StatusConflict, quiz.MsgNotUnderReview)
	member.Post("/quiz/attempts/"+a.ID+"/statement", map[string]string{"statement": "again"}).ExpectMsg(http.StatusConflict, quiz.MsgNotUnderReview)

	// another flagged pass, voided: no longer a pass, and the retake wait applies
	b, _, member2 := f.takeQuiz(t, "voided@x.io", all, 1, 0)
	admin.Put("/admin/quiz-attempts/"+b.ID+"/integrity", map[string]string{"decision": "void"}).Expect(http.StatusOK)
	row = f.attemptRow(t, b.ID)
	if row.IntegrityStatus != model.IntegrityVoided || row.Passed {
		t.Fatalf("voided: %+v", row)
	}
	if hold, _ := quiz.ApprovalHold(ctx, f.env.DB, b.ID); hold != quiz.MsgAttemptVoided {
		t.Fatalf("voided hold %q", hold)
	}
	if _, err := quiz.PassingAttempt(ctx, f.env.DB, row.UserID, f.badge.ID); err == nil {
		t.Fatal("a voided attempt is still a pass")
	}
	member2.Post("/quiz/badge/"+f.badge.ID+"/start", nil).Expect(http.StatusTooManyRequests)
	// both decisions and the statement are in the audit log
	for _, action := range []string{"quiz_attempt.statement", "quiz_attempt.integrity_clear", "quiz_attempt.integrity_void"} {
		n, err := f.env.DB.NewSelect().Model((*model.AuditEntry)(nil)).Where("action = ?", action).Count(ctx)
		if err != nil || n != 1 {
			t.Errorf("audit %s: %d %v", action, n, err)
		}
	}
}
