package admin_test

import (
	"net/http"
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// A skill application resting on a flagged pass: View Details lists the reasons and the
// member's statement; approval waits until the attempt is cleared (issue 35, item 3).
func TestFlaggedPassHoldsTheApplicationUntilCleared(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ctx := e.Ctx()
	u, _ := e.Member("flagged@x.io")
	b := newBadge(t, e, "", 4900)
	if _, err := e.DB.NewUpdate().Model(b).Set("type = ?", model.TypeSkill).WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	b.Type = model.TypeSkill
	now := model.Now()
	qz := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: "Q", PassingScore: 70, TimeLimit: 10, IsActive: true, CreatedAt: now}
	at := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: qz.ID, BadgeID: b.ID, Layout: []model.AttemptItem{}, Answers: map[string]int{},
		StartedAt: now.Add(-time.Minute), Deadline: now, SubmittedAt: &now, CorrectCount: 9, Total: 10, Score: 90, PassingScore: 70, Passed: true,
		IntegrityStatus: model.IntegrityFlagged, Appeal: "I revised for weeks.",
		IntegrityFlags: []model.IntegrityFlag{{Code: "speed", Reason: "Most answers came faster than the quiz's floor of 5 seconds a question (9 of 10 questions)."}}}
	for _, m := range []any{qz, at} {
		if _, err := e.DB.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	a := paidApplication(t, e, u, b)
	if _, err := e.DB.NewUpdate().Model(a).Set("quiz_attempt_id = ?", at.ID).WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	var detail struct {
		Application struct {
			Integrity *quiz.IntegrityAdmin `json:"integrity"`
		} `json:"application"`
	}
	ac.Get("/admin/applications/" + a.ID).Expect(http.StatusOK).JSON(&detail)
	in := detail.Application.Integrity
	if in == nil || in.Status != model.IntegrityFlagged || len(in.Flags) != 1 || in.Flags[0].Code != "speed" || in.Statement != "I revised for weeks." || in.AttemptID != at.ID {
		t.Fatalf("View Details: %+v", in)
	}
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(http.StatusConflict, quiz.MsgIntegrityHold)
	if got := reload(t, e, a); got.Status != model.StatusPending || len(grantsOf(t, e, a.ID)) != 0 {
		t.Fatalf("held application changed: %s, %d grants", got.Status, len(grantsOf(t, e, a.ID)))
	}
	ac.Put("/admin/quiz-attempts/"+at.ID+"/integrity", map[string]string{"decision": "clear"}).Expect(http.StatusOK)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).ExpectMsg(http.StatusOK, admin.MsgApproved)
	if len(grantsOf(t, e, a.ID)) != 1 {
		t.Fatal("no grant after clearing")
	}
}
