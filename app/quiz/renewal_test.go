package quiz_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// A holder whose skill badge expires within the renewal window (30 days) may take the quiz
// again to renew it; before that the badge is still owned.
func TestRenewalAttemptInTheLast30Days(t *testing.T) {
	env := apptest.New(t)
	u, c := env.Member("renew@x.io")
	b := mkBadge(t, env, model.TypeSkill, true)
	mkQuiz(t, env, b, true, 70, 3)
	exp := model.Now().Add(60 * 24 * time.Hour)
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: model.NewID(), PublicVerificationID: model.NewID(),
		GrantedAt: model.Now().Add(-300 * 24 * time.Hour), ExpiresAt: &exp}
	if _, err := env.DB.NewInsert().Model(g).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Get("/quiz/badge/"+b.ID).ExpectMsg(http.StatusConflict, "You already own this badge!")
	if _, err := env.DB.NewUpdate().Model(g).Set("expires_at = ?", model.Now().Add(10*24*time.Hour)).WherePK().Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	start(t, c, b.ID)
}

// The quiz page knows, before loading the quiz, what the member may do: a pass waiting for
// its application offers 'Continue application'; an application awaiting payment or a
// badge owned says so with the next step; a badge in its renewal window is a renewal.
func TestQuizPageState(t *testing.T) {
	f := newFx(t, 3)
	u, c := f.env.Member("state@x.io")
	state := func() map[string]any {
		t.Helper()
		r, props := c.Page("/quiz/" + f.badge.ID)
		r.Expect(http.StatusOK)
		s, _ := props["page"].(map[string]any)["state"].(map[string]any)
		if s == nil {
			t.Fatal("no state")
		}
		return s
	}
	s := state()
	apptest.Expect(t, "fresh", s, apptest.Eq[any]("blocked", s["blocked"], ""), apptest.Eq[any]("continue", s["continueHref"], ""),
		apptest.Eq[any]("renewal", s["renewal"], false))

	v := start(t, c, f.badge.ID)
	submit(c, v.Attempt.ID, f.answers(t, v, 3)).Expect(http.StatusOK)
	s = state()
	apptest.Expect(t, "passed", s, apptest.Eq[any]("blocked", s["blocked"], ""), apptest.Eq[any]("continue", s["continueHref"], "/resume-upload/"+f.badge.ID))

	now := model.Now()
	app := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: f.badge.ID, Type: model.TypeSkill, Status: model.StatusAwaitingPayment,
		PaymentStatus: model.PaymentPending, CreatedAt: now, UpdatedAt: now}
	if _, err := f.env.DB.NewInsert().Model(app).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	s = state()
	apptest.Expect(t, "payment due", s, apptest.Eq[any]("blocked", s["blocked"], quiz.PagePayment),
		apptest.Eq[any]("next", s["nextHref"], "/payment/"+f.badge.ID), apptest.Eq[any]("label", s["nextLabel"], "Continue Payment"))

	exp := now.Add(200 * 24 * time.Hour)
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: f.badge.ID, ApplicationID: &app.ID, VerificationID: model.NewID(),
		PublicVerificationID: model.NewID(), GrantedAt: now, ExpiresAt: &exp}
	if _, err := f.env.DB.NewInsert().Model(g).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	if _, err := f.env.DB.NewUpdate().Model(app).Set("status = ?", model.StatusApproved).WherePK().Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	s = state()
	apptest.Expect(t, "owned", s, apptest.Eq[any]("blocked", s["blocked"], quiz.PageOwned),
		apptest.Eq[any]("title", s["title"], "Badge Already Owned"), apptest.Eq[any]("message", s["message"], "You already own this badge!"))

	if _, err := f.env.DB.NewUpdate().Model(g).Set("expires_at = ?", now.Add(-time.Hour)).WherePK().Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	s = state()
	apptest.Expect(t, "expired: a renewal", s, apptest.Eq[any]("blocked", s["blocked"], ""), apptest.Eq[any]("renewal", s["renewal"], true),
		apptest.True("label", strings.HasPrefix(s["renewalLabel"].(string), "Expired on ")),
		apptest.True("needs", strings.Contains(s["renewalNeeds"].(string), "assessment again")))
}
