package verify_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/user"
)

// The verify answer shows the score the signed credential carries, against the pass mark,
// with the technical report; the holder may hide the score there (issue 35, item 4): the
// credential still carries it.
func TestVerifyShowsTheScoreUnlessTheHolderHidesIt(t *testing.T) {
	w := newWorld(t)
	u, g := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	ctx := w.e.Ctx()
	now := model.Now()
	q := &model.Quiz{ID: model.NewID(), BadgeID: w.badge.ID, Title: "Go fundamentals", PassingScore: 70, TimeLimit: 20, IsActive: true, CreatedAt: now}
	sub := now.Add(-time.Hour)
	a := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: q.ID, BadgeID: w.badge.ID, Layout: []model.AttemptItem{}, Answers: map[string]int{},
		StartedAt: sub.Add(-10 * time.Minute), Deadline: sub.Add(10 * time.Minute), SubmittedAt: &sub, CorrectCount: 17, Total: 20, Score: 85, PassingScore: 70, Passed: true}
	for _, m := range []any{q, a} {
		if _, err := w.e.DB.NewInsert().Model(m).Exec(ctx); err != nil {
			t.Fatal(err)
		}
	}
	// re-signed with the result (the expiry action signs again)
	w.admin.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": nil}).Expect(http.StatusOK)
	g = w.reload(t, g.ID)
	type verified struct {
		IsValid bool `json:"isValid"`
		Result  *struct {
			AssessmentType string `json:"assessmentType"`
			Score          string `json:"score"`
			PassMark       string `json:"passMark"`
			ScoreHidden    bool   `json:"scoreHidden"`
			ReportURL      string `json:"reportUrl"`
		} `json:"result"`
	}
	check := func() verified {
		var v verified
		w.e.Client().Get("/verify/badge/" + g.PublicVerificationID).Expect(http.StatusOK).JSON(&v)
		return v
	}
	v := check()
	if !v.IsValid || v.Result == nil {
		t.Fatalf("verify: %+v", v)
	}
	r := v.Result
	apptest.Expect(t, "shown result", r, apptest.Eq("AssessmentType", r.AssessmentType, "Exam"), apptest.Eq("Score", r.Score, "85"),
		apptest.Eq("PassMark", r.PassMark, "70"), apptest.Eq("ScoreHidden", r.ScoreHidden, false),
		apptest.Eq("ReportURL", r.ReportURL, w.e.URL+"/badges/"+w.badge.ID+"/assessment"))

	holder := w.e.LoginAs(u)
	_, stranger := w.e.Member("eve@example.com")
	stranger.Put("/users/badges/"+g.ID+"/score", map[string]any{"hidden": true}).ExpectMsg(http.StatusNotFound, user.MsgGrantNotFound)
	holder.Put("/users/badges/"+g.ID+"/score", map[string]any{}).ExpectMsg(http.StatusBadRequest, user.MsgHiddenMissing)
	holder.Put("/users/badges/"+g.ID+"/score", map[string]any{"hidden": true}).ExpectMsg(http.StatusOK, user.MsgScoreHidden)
	v = check()
	if v.Result == nil || !v.Result.ScoreHidden || v.Result.Score != "" || v.Result.PassMark != "" || v.Result.ReportURL == "" {
		t.Fatalf("hidden: %+v", v.Result)
	}
	// the credential itself is unchanged: it still carries the score
	cred := w.e.Client().Abs("GET", "/credentials/"+g.PublicVerificationID+".json", nil).Expect(http.StatusOK)
	var doc struct {
		Subject struct {
			Result []struct {
				Value string `json:"value"`
			} `json:"result"`
		} `json:"credentialSubject"`
	}
	if err := json.Unmarshal(cred.Body, &doc); err != nil || len(doc.Subject.Result) != 1 || doc.Subject.Result[0].Value != "85" {
		t.Fatalf("credential after hiding: %s", cred.Body)
	}
	var list struct {
		Badges []struct {
			ID        string `json:"id"`
			HideScore bool   `json:"hideScore"`
			Scored    bool   `json:"scored"`
		} `json:"badges"`
	}
	holder.Get("/users/badges").Expect(http.StatusOK).JSON(&list)
	if len(list.Badges) != 1 || !list.Badges[0].HideScore || !list.Badges[0].Scored {
		t.Fatalf("list: %+v", list)
	}
	holder.Put("/users/badges/"+g.ID+"/score", map[string]any{"hidden": false}).ExpectMsg(http.StatusOK, user.MsgScoreShown)
	if v = check(); v.Result == nil || v.Result.Score != "85" {
		t.Fatalf("shown again: %+v", v.Result)
	}
}
