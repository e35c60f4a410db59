package application_test

import (
	"net/http"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// A renewal of a skill badge takes the quiz again but not the resume and picture on
// file: they are copied to the new application (its own files); a first application
// still asks for them.
func TestRenewalReusesTheResumeAndPictureOnFile(t *testing.T) {
	env := apptest.New(t)
	b := mkBadge(t, env, model.TypeSkill, 4900, true)
	u, c := member(t, env, "renew@x.io")
	mkAttempt(t, env, u, b, 90, true)
	f := fields(b.ID)
	c.Multipart("POST", "/applications", f).ExpectMsg(400, "Please upload your resume (PDF, DOC or DOCX).")
	var first struct {
		Application struct {
			ID string `json:"_id"`
		} `json:"application"`
	}
	c.Multipart("POST", "/applications", f, apptest.File{Field: "resume", Name: "cv.pdf", Data: pdf},
		apptest.File{Field: "profilePic", Name: "me.png", Data: png}).Expect(http.StatusCreated).JSON(&first)
	now := model.Now()
	exp := now.Add(5 * 24 * time.Hour) // in the renewal window
	if _, err := env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusApproved).Where("id = ?", first.Application.ID).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, ApplicationID: &first.Application.ID, // the grant of the first application
		VerificationID:       model.NewID(),
		PublicVerificationID: model.NewID(), GrantedAt: now.Add(-360 * 24 * time.Hour), ExpiresAt: &exp}
	if _, err := env.DB.NewInsert().Model(g).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}

	// the page says it is a renewal and names the files it uses again
	_, props := c.Page("/resume-upload/" + b.ID)
	rn, _ := props["page"].(map[string]any)["renewal"].(map[string]any)
	if rn == nil {
		t.Fatalf("no renewal on the page: %v", props["page"])
	}
	apptest.Expect(t, "renewal props", rn,
		apptest.True("label", rn["label"] != ""),
		apptest.True("resume on file", rn["resume"] != nil && rn["resume"].(map[string]any)["originalName"] == "cv.pdf"),
		apptest.True("picture on file", rn["profilePic"] != nil))

	// the renewal: a new pass, no files sent
	mkAttempt(t, env, u, b, 80, true)
	var resp struct {
		Application struct {
			ID         string         `json:"_id"`
			Price      float64        `json:"price"`
			Resume     map[string]any `json:"resume"`
			ProfilePic map[string]any `json:"profilePic"`
		} `json:"application"`
	}
	c.Multipart("POST", "/applications", f).Expect(http.StatusCreated).JSON(&resp)
	got := resp.Application
	apptest.Expect(t, "renewal application", got,
		apptest.True("resume copied", got.Resume != nil && got.Resume["originalName"] == "cv.pdf"),
		apptest.True("picture copied", got.ProfilePic != nil),
		apptest.Eq("fee", got.Price, 49.0))
	var keys []string
	if err := env.DB.NewSelect().Model((*model.ApplicationFile)(nil)).Column("storage_key").Where("application_id = ?", got.ID).Scan(env.Ctx(), &keys); err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 {
		t.Fatalf("renewal files %v", keys)
	}
	for _, k := range keys {
		rc, err := env.Deps.Storage.Open(env.Ctx(), k)
		if err != nil {
			t.Fatalf("copied file %s: %v", k, err)
		}
		rc.Close()
	}
}
