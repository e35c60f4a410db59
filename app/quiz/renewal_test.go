package quiz_test

import (
	"net/http"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
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
