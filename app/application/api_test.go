package application_test

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/application"
	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/storage"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// ---- fixtures ----

var (
	pdf  = []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
	png  = append([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, bytes.Repeat([]byte{7}, 200)...)
	jpeg = append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'}, bytes.Repeat([]byte{1}, 200)...)
	elf  = append([]byte{0x7F, 'E', 'L', 'F', 2, 1, 1, 0}, bytes.Repeat([]byte{0}, 200)...)
	mz   = append([]byte{'M', 'Z', 0x90, 0, 3, 0, 0, 0}, bytes.Repeat([]byte{0}, 200)...)
	docx = func() []byte {
		var buf bytes.Buffer
		w := zip.NewWriter(&buf)
		for _, n := range []string{"[Content_Types].xml", "word/document.xml"} {
			f, _ := w.Create(n)
			_, _ = f.Write([]byte("<x/>"))
		}
		_ = w.Close()
		return buf.Bytes()
	}()
)

func mkBadge(t *testing.T, env *apptest.Env, typ string, priceCents int64, active bool) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Badge " + model.NewID()[18:], Description: "d", Category: "Development", Type: typ,
		Level: "beginner", PriceCents: priceCents, Icon: "Award", Color: "blue", Criteria: "c", IsActive: active, CreatedAt: now, UpdatedAt: now}
	if _, err := env.DB.NewInsert().Model(b).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

// mkAttempt records a submitted quiz attempt (the quiz feature grades; here the row is
// written directly).
func mkAttempt(t *testing.T, env *apptest.Env, u *model.User, b *model.Badge, score float64, passed bool) *model.QuizAttempt {
	t.Helper()
	now := model.Now()
	var qz model.Quiz
	err := env.DB.NewSelect().Model(&qz).Where("badge_id = ?", b.ID).Limit(1).Scan(env.Ctx())
	if err != nil {
		qz = model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: "Q", PassingScore: 70, TimeLimit: 15, IsActive: true, CreatedAt: now}
		if _, err := env.DB.NewInsert().Model(&qz).Exec(env.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	sub := now.Add(-time.Minute)
	a := &model.QuizAttempt{ID: model.NewID(), UserID: u.ID, QuizID: qz.ID, BadgeID: b.ID, Layout: []model.AttemptItem{},
		Answers: map[string]int{}, StartedAt: now.Add(-5 * time.Minute), Deadline: now.Add(10 * time.Minute), SubmittedAt: &sub,
		CorrectCount: int(score / 10), Total: 10, Score: score, PassingScore: 70, Passed: passed}
	if _, err := env.DB.NewInsert().Model(a).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return a
}

// member is a signed-in member with a complete profile.
func member(t *testing.T, env *apptest.Env, email string) (*model.User, *apptest.Client) {
	t.Helper()
	u, c := env.Member(email)
	u.Name, u.Position, u.LinkedIn = "Ada Lovelace", "Engineer", "https://linkedin.com/in/ada"
	if _, err := env.DB.NewUpdate().Model(u).Column("name", "position", "linkedin").WherePK().Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	return u, c
}

func fields(badgeID string, kv ...string) map[string]string {
	m := map[string]string{"badgeId": badgeID, "type": "proof", "description": "My work",
		"quizScore": "100", "quizPassed": "true", "quizData": `{"score":100}`}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func proof(name string, data []byte) apptest.File {
	return apptest.File{Field: "proofFiles", Name: name, Data: data}
}

func stored(t *testing.T, env *apptest.Env) []string {
	t.Helper()
	keys, err := env.Deps.Storage.List(env.Ctx(), "")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(keys)
	return keys
}

func countApps(t *testing.T, env *apptest.Env) int {
	t.Helper()
	n, err := env.DB.NewSelect().Model((*model.Application)(nil)).Count(env.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// nothingLeft asserts a refused submission left no file and no row behind.
func nothingLeft(t *testing.T, env *apptest.Env) {
	t.Helper()
	if keys := stored(t, env); len(keys) != 0 {
		t.Fatalf("files left in storage: %v", keys)
	}
	if n := countApps(t, env); n != 0 {
		t.Fatalf("%d applications recorded", n)
	}
	if n, _ := env.DB.NewSelect().Model((*model.ApplicationFile)(nil)).Count(env.Ctx()); n != 0 {
		t.Fatalf("%d file rows recorded", n)
	}
}

type appResp struct {
	Msg         string           `json:"msg"`
	Application application.View `json:"application"`
}

var keyRE = regexp.MustCompile(`^applications/[0-9a-f]{24}/[0-9a-f]{24}\.(pdf|doc|docx|jpg|png)$`)

// ---- proof badges ----

func TestProofApplicationIsRecordedWithItsFiles(t *testing.T) {
	env := apptest.New(t)
	u, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)

	r := c.Multipart("POST", "/applications", fields(b.ID, "portfolio", "ada.dev"),
		proof("certificate.pdf", pdf), proof("photo.png", png), proof("letter.docx", docx)).Expect(http.StatusCreated)
	var got appResp
	r.JSON(&got)
	if got.Msg != "Application Submitted Successfully!" {
		t.Fatalf("msg %q", got.Msg)
	}
	v := got.Application
	apptest.Expect(t, "application", v,
		apptest.Eq("v.Status", v.Status, model.StatusAwaitingPayment),
		apptest.Eq("v.PaymentStatus", v.PaymentStatus, model.PaymentPending),
		apptest.Eq("v.Price", v.Price, 29),
		apptest.Eq("v.Badge.ID", v.Badge.ID, b.ID),
		apptest.Eq("v.Type", v.Type, model.TypeProof),
		apptest.Eq("v.PortfolioURL", v.PortfolioURL, "https://ada.dev"),
		apptest.Eq("v.LinkedInURL", v.LinkedInURL, "https://linkedin.com/in/ada"),
		apptest.Eq("v.Email", v.Email, "ada@x.io"),
		apptest.Eq("v.FullName", v.FullName, "Ada Lovelace"),
		apptest.Eq("v.Description", v.Description, "My work"),
		apptest.True("v.QuizScore == nil", v.QuizScore == nil))
	apptest.Expect(t, "files", v.ProofFiles,
		apptest.Eq("len(v.ProofFiles)", len(v.ProofFiles), 3))
	apptest.Expect(t, "files", v.ProofFiles,
		apptest.Eq("v.ProofFiles[0].OriginalName", v.ProofFiles[0].OriginalName, "certificate.pdf"),
		apptest.Eq("v.ProofFiles[1].ContentType", v.ProofFiles[1].ContentType, "image/png"))

	var row model.Application
	if err := env.DB.NewSelect().Model(&row).Where("id = ?", v.ID).Scan(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "row", row,
		apptest.Eq("row.UserID", row.UserID, u.ID),
		apptest.Eq("row.PriceCents", row.PriceCents, 2900),
		apptest.Eq("row.Status", row.Status, model.StatusAwaitingPayment),
		apptest.True("row.QuizAttemptID == nil", row.QuizAttemptID == nil))
	// the submission is recorded as application.submitted in its transaction
	if n, err := env.DB.NewSelect().Table("domain_events").Where("type = ? AND subject_id = ?", "application.submitted", v.ID).Count(env.Ctx()); err != nil || n != 1 {
		t.Fatalf("application.submitted events: %d %v, want 1", n, err)
	}
	var files []model.ApplicationFile
	_ = env.DB.NewSelect().Model(&files).Where("application_id = ?", v.ID).OrderExpr("created_at, id").Scan(env.Ctx())
	keys := stored(t, env)
	if len(files) != 3 || len(keys) != 3 {
		t.Fatalf("%d rows, %d stored", len(files), len(keys))
	}
	for _, f := range files {
		if !keyRE.MatchString(f.StorageKey) || !strings.HasPrefix(f.StorageKey, "applications/"+v.ID+"/") {
			t.Errorf("key %q", f.StorageKey)
		}
		rc, err := env.Deps.Storage.Open(env.Ctx(), f.StorageKey)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(rc)
		rc.Close()
		if int64(len(b)) != f.Size || f.Kind != application.KindProof {
			t.Errorf("%s: %d bytes stored, size %d, kind %s", f.OriginalName, len(b), f.Size, f.Kind)
		}
	}
}

func TestFreeBadgeGoesStraightToReview(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 0, true)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID), proof("c.pdf", pdf)).Expect(http.StatusCreated).JSON(&got)
	apptest.Expect(t, "free badge application", got.Application,
		apptest.Eq("got.Application.Status", got.Application.Status, model.StatusPending),
		apptest.Eq("got.Application.PaymentStatus", got.Application.PaymentStatus, model.PaymentCompleted),
		apptest.Eq("got.Application.Price", got.Application.Price, 0),
		apptest.True("got.Application.PaymentCompletedAt != nil", got.Application.PaymentCompletedAt != nil))
}

func TestRequiredProfileFields(t *testing.T) {
	env := apptest.New(t)
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	_, bare := env.Member("bare@x.io") // name only, no position or LinkedIn
	bare.Multipart("POST", "/applications", fields(b.ID), proof("c.pdf", pdf)).
		ExpectMsg(400, "Please fill in all required fields in your profile.")
	bare.Multipart("POST", "/applications", fields(b.ID, "position", "Engineer"), proof("c.pdf", pdf)).
		ExpectMsg(400, "Please fill in all required fields in your profile.")
	bare.Multipart("POST", "/applications", fields(b.ID, "linkedin", "https://linkedin.com/in/x"), proof("c.pdf", pdf)).
		ExpectMsg(400, "Please fill in all required fields in your profile.")
	bare.Multipart("POST", "/applications", fields(b.ID, "position", "Engineer", "linkedin", "not a url"), proof("c.pdf", pdf)).
		ExpectMsg(400, "Please enter a valid LinkedIn profile URL (for example https://linkedin.com/in/your-name).")
	bare.Multipart("POST", "/applications", fields(b.ID, "position", "  ", "linkedin", "https://linkedin.com/in/x"), proof("c.pdf", pdf)).
		ExpectMsg(400, "Please fill in all required fields in your profile.")
	bare.Multipart("POST", "/applications", fields(b.ID, "position", "E", "linkedin", "https://linkedin.com/in/x", "description", strings.Repeat("a", 5001)), proof("c.pdf", pdf)).
		ExpectMsg(400, "The description can be at most 5000 characters.")
	nothingLeft(t, env)
	// the form's values complete the profile
	var got appResp
	bare.Multipart("POST", "/applications", fields(b.ID, "position", "Engineer", "linkedin", "linkedin.com/in/bare"), proof("c.pdf", pdf)).
		Expect(http.StatusCreated).JSON(&got)
	if got.Application.Position != "Engineer" || got.Application.FullName != "bare" || got.Application.Email != "bare@x.io" {
		t.Fatalf("%+v", got.Application)
	}

	// the profile's values are used when the form leaves them out; the e-mail is always
	// the account's
	_, c := member(t, env, "ada@x.io")
	c.Multipart("POST", "/applications", fields(b.ID, "email", "someone-else@x.io", "fullName", ""), proof("c.pdf", pdf)).
		Expect(http.StatusCreated).JSON(&got)
	if got.Application.Email != "ada@x.io" || got.Application.FullName != "Ada Lovelace" {
		t.Fatalf("%+v", got.Application)
	}
}

func TestProofNeedsFilesOrPortfolio(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	c.Multipart("POST", "/applications", fields(b.ID)).
		ExpectMsg(400, "Please upload proof files or provide a portfolio URL in your profile.")
	nothingLeft(t, env)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID, "portfolio", "https://ada.dev")).Expect(http.StatusCreated).JSON(&got)
	if len(got.Application.ProofFiles) != 0 || got.Application.PortfolioURL != "https://ada.dev" {
		t.Fatalf("%+v", got.Application)
	}
}

func TestFilesAreCheckedByContentAndExtension(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"scan.png", pdf, `"scan.png" is not a real PNG file: its content does not match its extension.`},
		{"cv.pdf", elf, `"cv.pdf" is not a real PDF file: its content does not match its extension.`},
		{"cv.pdf", mz, `"cv.pdf" is not a real PDF file: its content does not match its extension.`},
		{"tool.exe", mz, `"tool.exe" is not an accepted file type. Upload PDF, DOC, DOCX, JPG, JPEG or PNG files.`},
		{"page.html", []byte("<script>alert(1)</script>"), `"page.html" is not an accepted file type. Upload PDF, DOC, DOCX, JPG, JPEG or PNG files.`},
		{"photo.jpg", png, `"photo.jpg" is not a real JPEG file: its content does not match its extension.`},
	}
	for _, k := range cases {
		// a valid file first: it must not be left behind when the second is refused
		c.Multipart("POST", "/applications", fields(b.ID), proof("good.pdf", pdf), proof(k.name, k.data)).ExpectMsg(400, k.msg)
		nothingLeft(t, env)
	}
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), proof("b.jpeg", jpeg), proof("c.docx", docx)).Expect(http.StatusCreated)
}

func TestFileSizeLimit(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	big := make([]byte, application.MaxFileBytes+1)
	copy(big, pdf)
	c.Multipart("POST", "/applications", fields(b.ID), proof("small.pdf", pdf), proof("huge.pdf", big)).
		ExpectMsg(http.StatusRequestEntityTooLarge, `"huge.pdf" is larger than 10 MB. Each file can be at most 10 MB.`)
	nothingLeft(t, env)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID), proof("exactly-10mb.pdf", big[:application.MaxFileBytes])).Expect(http.StatusCreated).JSON(&got)
	if got.Application.ProofFiles[0].Size != application.MaxFileBytes {
		t.Fatalf("size %d", got.Application.ProofFiles[0].Size)
	}
}

func TestAtMostTenProofFiles(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	var files []apptest.File
	for i := 0; i < 11; i++ {
		files = append(files, proof(fmt.Sprintf("f%d.pdf", i), pdf))
	}
	c.Multipart("POST", "/applications", fields(b.ID), files...).ExpectMsg(400, "You can upload at most 10 proof files.")
	nothingLeft(t, env)
	c.Multipart("POST", "/applications", fields(b.ID), files[:10]...).Expect(http.StatusCreated)
	if n := len(stored(t, env)); n != 10 {
		t.Fatalf("%d stored", n)
	}
}

func TestPathTraversalNamesAreStoredSafely(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID),
		proof("../../etc/passwd.pdf", pdf), proof(`..\..\..\windows\win.pdf`, pdf), proof("../../../../"+strings.Repeat("a", 200)+".png", png)).
		Expect(http.StatusCreated).JSON(&got)
	names := []string{}
	for _, f := range got.Application.ProofFiles {
		names = append(names, f.OriginalName)
	}
	if names[0] != "passwd.pdf" || names[1] != "win.pdf" || names[2] != strings.Repeat("a", 116)+".png" {
		t.Fatalf("display names %q", names)
	}
	for _, k := range stored(t, env) {
		if !keyRE.MatchString(k) {
			t.Fatalf("stored under %q", k)
		}
	}
	// nothing was written outside the uploads folder
	for _, p := range []string{filepath.Join(env.DataDir, "etc"), filepath.Join(env.DataDir, "..", "etc", "passwd.pdf"), filepath.Join(env.DataDir, "uploads", "etc")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s exists", p)
		}
	}
	// the download names the file safely
	r := c.Abs("GET", got.Application.ProofFiles[1].URL, nil).Expect(200)
	if cd := r.Header.Get("Content-Disposition"); cd != `attachment; filename="win.pdf"; filename*=UTF-8''win.pdf` {
		t.Fatalf("Content-Disposition %q", cd)
	}
}

// ---- one open application per badge ----

func TestOneOpenApplicationPerBadge(t *testing.T) {
	env := apptest.New(t)
	u, c := member(t, env, "ada@x.io")
	paid := mkBadge(t, env, model.TypeProof, 2900, true)
	free := mkBadge(t, env, model.TypeProof, 0, true)

	// pending blocks
	var first appResp
	c.Multipart("POST", "/applications", fields(free.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated).JSON(&first)
	before := stored(t, env)
	c.Multipart("POST", "/applications", fields(free.ID), proof("b.pdf", pdf)).ExpectMsg(409, "Your application is still being reviewed.")
	if after := stored(t, env); len(after) != len(before) {
		t.Fatalf("a refused submission left files: %v", after)
	}
	// awaiting payment blocks, and says where to go
	c.Multipart("POST", "/applications", fields(paid.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated)
	c.Multipart("POST", "/applications", fields(paid.ID), proof("a.pdf", pdf)).
		ExpectMsg(409, "You already have an application for this badge waiting for payment. Continue to payment to complete it.")

	// rejected allows a new one
	if _, err := env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusRejected).
		Set("rejection_reason = ?", "Application did not meet requirements").Where("id = ?", first.Application.ID).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	var second appResp
	c.Multipart("POST", "/applications", fields(free.ID), proof("b.pdf", pdf)).Expect(http.StatusCreated).JSON(&second)
	if second.Application.ID == first.Application.ID {
		t.Fatal("same application")
	}

	// an owned badge blocks
	owned := mkBadge(t, env, model.TypeProof, 2900, true)
	if _, err := env.DB.NewInsert().Model(&model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: owned.ID,
		VerificationID: model.NewID(), PublicVerificationID: model.NewID(), GrantedAt: model.Now()}).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Multipart("POST", "/applications", fields(owned.ID), proof("a.pdf", pdf)).ExpectMsg(409, "You already own this badge!")
	// ...unless the grant was revoked
	if _, err := env.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("revoked_at = ?", model.Now()).Where("badge_id = ?", owned.ID).Exec(env.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Multipart("POST", "/applications", fields(owned.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated)
}

// Concurrent submissions for the same badge: the unique index decides, exactly one
// application is recorded and the losers' files are deleted.
func TestConcurrentSubmissionsRecordOne(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	var created, conflicts atomic.Int32
	apptest.Parallel(6, func(i int) {
		r := c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), proof("b.png", png))
		switch r.Status {
		case http.StatusCreated:
			created.Add(1)
		case http.StatusConflict:
			conflicts.Add(1)
		default:
			t.Errorf("status %d: %s", r.Status, r.Text())
		}
	})
	if created.Load() != 1 || conflicts.Load() != 5 {
		t.Fatalf("created %d, conflicts %d", created.Load(), conflicts.Load())
	}
	if n := countApps(t, env); n != 1 {
		t.Fatalf("%d applications", n)
	}
	if keys := stored(t, env); len(keys) != 2 {
		t.Fatalf("stored %v", keys)
	}
}

func TestBadgeMustExistAndBeActive(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	inactive := mkBadge(t, env, model.TypeProof, 2900, false)
	c.Multipart("POST", "/applications", fields(inactive.ID), proof("a.pdf", pdf)).ExpectMsg(404, "Badge not found")
	c.Multipart("POST", "/applications", fields(model.NewID()), proof("a.pdf", pdf)).ExpectMsg(404, "Badge not found")
	c.Multipart("POST", "/applications", fields("../../x"), proof("a.pdf", pdf)).ExpectMsg(404, "Badge not found")
	c.Multipart("POST", "/applications", fields(""), proof("a.pdf", pdf)).ExpectMsg(400, "Please choose a badge to apply for.")
	c.Multipart("POST", "/applications", fields(inactive.ID, "type", "other"), proof("a.pdf", pdf)).ExpectMsg(400, "The application type must be skill or proof.")
	c.Post("/applications", map[string]string{"badgeId": inactive.ID}).ExpectMsg(400, "Please send the application as multipart/form-data.")
	env.Client().Multipart("POST", "/applications", fields(inactive.ID), proof("a.pdf", pdf)).ExpectMsg(401, "Please log in to continue.")
	nothingLeft(t, env)
}

// ---- skill badges ----

func skillFiles() []apptest.File {
	return []apptest.File{{Field: "resume", Name: "cv.pdf", Data: pdf}, {Field: "profilePic", Name: "me.png", Data: png}}
}

func TestSkillApplicationNeedsAnUnusedPassingAttempt(t *testing.T) {
	env := apptest.New(t)
	u, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeSkill, 4900, true)
	f := fields(b.ID, "type", "skill")

	// no attempt (the client's quizPassed=true and quizScore=100 are ignored)
	c.Multipart("POST", "/applications", f, skillFiles()...).ExpectMsg(422, "You need to pass the quiz for this badge before applying.")
	// a failed attempt
	mkAttempt(t, env, u, b, 40, false)
	c.Multipart("POST", "/applications", f, skillFiles()...).ExpectMsg(422, "You need to pass the quiz for this badge before applying.")
	nothingLeft(t, env)

	at := mkAttempt(t, env, u, b, 83.3, true)
	// resume and picture are required, of the right kinds
	c.Multipart("POST", "/applications", f, apptest.File{Field: "profilePic", Name: "me.png", Data: png}).
		ExpectMsg(400, "Please upload your resume (PDF, DOC or DOCX).")
	c.Multipart("POST", "/applications", f, apptest.File{Field: "resume", Name: "cv.pdf", Data: pdf}).
		ExpectMsg(400, "Please upload a profile picture (JPG or PNG).")
	c.Multipart("POST", "/applications", f, apptest.File{Field: "resume", Name: "cv.png", Data: png}, apptest.File{Field: "profilePic", Name: "me.png", Data: png}).
		ExpectMsg(400, `Your resume "cv.png" must be a PDF, DOC or DOCX file.`)
	c.Multipart("POST", "/applications", f, apptest.File{Field: "resume", Name: "cv.pdf", Data: pdf}, apptest.File{Field: "profilePic", Name: "me.pdf", Data: pdf}).
		ExpectMsg(400, `Your profile picture "me.pdf" must be a JPG or PNG image.`)
	c.Multipart("POST", "/applications", f, apptest.File{Field: "resume", Name: "cv.pdf", Data: elf}, apptest.File{Field: "profilePic", Name: "me.png", Data: png}).
		ExpectMsg(400, `"cv.pdf" is not a real PDF file: its content does not match its extension.`)
	nothingLeft(t, env)

	var got appResp
	c.Multipart("POST", "/applications", f, skillFiles()...).Expect(http.StatusCreated).JSON(&got)
	v := got.Application
	if v.Type != model.TypeSkill || v.QuizScore == nil || *v.QuizScore != 83.3 || v.Resume == nil || v.ProfilePic == nil ||
		v.Resume.OriginalName != "cv.pdf" || v.ProfilePic.ContentType != "image/png" || len(v.ProofFiles) != 0 {
		t.Fatalf("%+v", v)
	}
	var used model.QuizAttempt
	_ = env.DB.NewSelect().Model(&used).Where("id = ?", at.ID).Scan(env.Ctx())
	apptest.Expect(t, "attempt not marked used", used.ApplicationID,
		apptest.True("used.ApplicationID != nil", used.ApplicationID != nil))
	apptest.Expect(t, "attempt not marked used", used.ApplicationID,
		apptest.Eq("*used.ApplicationID", *used.ApplicationID, v.ID))
	var row model.Application
	_ = env.DB.NewSelect().Model(&row).Where("id = ?", v.ID).Scan(env.Ctx())
	apptest.Expect(t, "row attempt", row.QuizAttemptID,
		apptest.True("row.QuizAttemptID != nil", row.QuizAttemptID != nil))
	apptest.Expect(t, "row attempt", row.QuizAttemptID,
		apptest.Eq("*row.QuizAttemptID", *row.QuizAttemptID, at.ID))

	// after a rejection the used attempt cannot serve again
	_, _ = env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusRejected).Where("id = ?", v.ID).Exec(env.Ctx())
	before := stored(t, env)
	c.Multipart("POST", "/applications", f, skillFiles()...).
		ExpectMsg(422, "Your passing quiz attempt has already been used for an application. Pass the quiz again to reapply.")
	if after := stored(t, env); len(after) != len(before) {
		t.Fatalf("files left: %v", after)
	}
	// a new pass does
	mkAttempt(t, env, u, b, 90, true)
	c.Multipart("POST", "/applications", f, skillFiles()...).Expect(http.StatusCreated)

	// another member's pass does not count for this one
	_, other := member(t, env, "grace@x.io")
	other.Multipart("POST", "/applications", f, skillFiles()...).ExpectMsg(422, "You need to pass the quiz for this badge before applying.")
}

func TestProofBadgeRequiringResume(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	_, _ = env.DB.NewUpdate().Model((*model.Badge)(nil)).Set("requires_resume = ?", true).Where("id = ?", b.ID).Exec(env.Ctx())
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf)).ExpectMsg(400, "Please upload your resume (PDF, DOC or DOCX).")
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), apptest.File{Field: "resume", Name: "cv.docx", Data: docx}).Expect(http.StatusCreated)
}

// ---- storage failures leave nothing behind ----

type flakyStore struct {
	storage.Store
	puts, failAt atomic.Int32
}

func (f *flakyStore) Put(ctx context.Context, key string, r io.Reader, ct string) error {
	if f.puts.Add(1) == f.failAt.Load() {
		_ = f.Store.Put(ctx, key, io.LimitReader(r, 5), ct) // a partial write, then the failure
		return errors.New("disk full")
	}
	return f.Store.Put(ctx, key, r, ct)
}

func TestStorageFailureLeavesNoOrphans(t *testing.T) {
	fs := &flakyStore{}
	fs.failAt.Store(3)
	env := apptest.New(t, func(d *app.Deps) { fs.Store = d.Storage; d.Storage = fs })
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), proof("b.pdf", pdf), proof("c.pdf", pdf), proof("d.pdf", pdf)).
		ExpectMsg(500, "Something went wrong on our side. Please try again.")
	nothingLeft(t, env)
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated)
}

// A failure inside the transaction (here: the badge disappears between the checks and
// the insert, so the foreign key refuses the row) deletes the files already written.
func TestTransactionFailureDeletesWrittenFiles(t *testing.T) {
	var env *apptest.Env
	var badgeID string
	hook := &deletingStore{}
	env = apptest.New(t, func(d *app.Deps) { hook.Store = d.Storage; d.Storage = hook })
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	badgeID = b.ID
	hook.onPut = func() {
		_, _ = env.DB.NewDelete().Model((*model.Badge)(nil)).Where("id = ?", badgeID).Exec(context.Background())
	}
	r := c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), proof("b.png", png))
	if r.Status != 500 {
		t.Fatalf("status %d %s", r.Status, r.Text())
	}
	nothingLeft(t, env)
}

type deletingStore struct {
	storage.Store
	onPut func()
}

func (d *deletingStore) Put(ctx context.Context, key string, r io.Reader, ct string) error {
	if d.onPut != nil {
		d.onPut()
	}
	return d.Store.Put(ctx, key, r, ct)
}

// ---- downloads ----

func TestDownloadIsForTheOwnerAndAdmins(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID), proof("résumé final.pdf", pdf), proof("b.png", png)).Expect(http.StatusCreated).JSON(&got)
	f := got.Application.ProofFiles[0]
	if f.URL != "/backend/api/v1/applications/"+got.Application.ID+"/files/"+f.ID {
		t.Fatalf("url %s", f.URL)
	}

	r := c.Abs("GET", f.URL, nil).Expect(200)
	apptest.Expect(t, "download headers", r.Header,
		apptest.True("bytes.Equal(r.Body, pdf)", bytes.Equal(r.Body, pdf)),
		apptest.Eq("r.Header.Get(\"Content-Type\")", r.Header.Get("Content-Type"), "application/pdf"),
		apptest.Eq("r.Header.Get(\"X-Content-Type-Options\")", r.Header.Get("X-Content-Type-Options"), "nosniff"),
		apptest.Eq("r.Header.Get(\"Content-Disposition\")", r.Header.Get("Content-Disposition"), `attachment; filename="r_sum_ final.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%20final.pdf`),
		apptest.True("strings.Contains(r.Header.Get(\"Cache-Control\"), \"no-store\")", strings.Contains(r.Header.Get("Cache-Control"), "no-store")))
	_, admin := env.Admin("boss@x.io")
	if r := admin.Abs("GET", f.URL, nil).Expect(200); !bytes.Equal(r.Body, pdf) {
		t.Fatal("admin got other bytes")
	}
	_, other := member(t, env, "eve@x.io")
	other.Abs("GET", f.URL, nil).ExpectMsg(404, "File not found")
	env.Client().Abs("GET", f.URL, nil).ExpectMsg(401, "Please log in to continue.")
	// a file id paired with another application, unknown and malformed ids
	var otherApp appResp
	other.Multipart("POST", "/applications", fields(b.ID), proof("x.pdf", pdf)).Expect(http.StatusCreated).JSON(&otherApp)
	c.Get("/applications/"+otherApp.Application.ID+"/files/"+f.ID).ExpectMsg(404, "File not found")
	c.Get("/applications/"+got.Application.ID+"/files/"+model.NewID()).ExpectMsg(404, "File not found")
	c.Get("/applications/"+got.Application.ID+"/files/..%2F..%2Fx").ExpectMsg(404, "File not found")
	c.Get("/applications/"+otherApp.Application.ID+"/files/"+otherApp.Application.ProofFiles[0].ID).ExpectMsg(404, "File not found")
}

func TestMineAnswersTheLatestApplication(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	r := c.Get("/applications/mine?badgeId=" + b.ID).Expect(200)
	if m := r.Map(); m["application"] != nil {
		t.Fatalf("%v", m)
	}
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated).JSON(&got)
	var mine struct {
		Application *application.View `json:"application"`
	}
	c.Get("/applications/mine?badgeId=" + b.ID).Expect(200).JSON(&mine)
	if mine.Application == nil || mine.Application.ID != got.Application.ID || mine.Application.Status != model.StatusAwaitingPayment || len(mine.Application.ProofFiles) != 1 {
		t.Fatalf("%+v", mine.Application)
	}
	// another member sees none
	_, other := member(t, env, "eve@x.io")
	if m := other.Get("/applications/mine?badgeId=" + b.ID).Expect(200).Map(); m["application"] != nil {
		t.Fatalf("%v", m)
	}
	c.Get("/applications/mine").ExpectMsg(400, "Please choose a badge to apply for.")
	c.Get("/applications/mine?badgeId=nope").ExpectMsg(404, "Badge not found")
	c.Get("/applications/mine?badgeId="+model.NewID()).ExpectMsg(404, "Badge not found")
	env.Client().Get("/applications/mine?badgeId=" + b.ID).Expect(401)
}

// ---- pages ----

func TestApplicationPages(t *testing.T) {
	env := apptest.New(t)
	u, c := member(t, env, "ada@x.io")
	proofBadge := mkBadge(t, env, model.TypeProof, 2900, true)
	skill := mkBadge(t, env, model.TypeSkill, 4900, true)

	r := env.Client().Abs("GET", "/proof-upload/"+proofBadge.ID, nil)
	if r.Status != http.StatusFound && r.Status != http.StatusSeeOther || !strings.HasPrefix(r.Header.Get("Location"), "/login?next=") {
		t.Fatalf("visitor: %d %v", r.Status, r.Header.Get("Location"))
	}

	r, props := c.Page("/proof-upload/" + proofBadge.ID)
	r.Expect(200)
	page := props["page"].(map[string]any)
	apptest.Expect(t, "proof page props", page,
		apptest.Eq("apptest.PageName(r)", apptest.PageName(r), "ApplicationPage"))
	apptest.Expect(t, "proof page props", page,
		apptest.Eq[any]("page[\"badge\"].(map[string]any)[\"_id\"]", page["badge"].(map[string]any)["_id"], proofBadge.ID),
		apptest.True("page[\"application\"] == nil", page["application"] == nil),
		apptest.True("page[\"quiz\"] == nil", page["quiz"] == nil),
		apptest.Eq("page[\"owned\"]", page["owned"], false))
	prof := page["profile"].(map[string]any)
	apptest.Expect(t, "profile", prof,
		apptest.Eq("prof[\"name\"]", prof["name"], "Ada Lovelace"),
		apptest.Eq("prof[\"email\"]", prof["email"], "ada@x.io"),
		apptest.Eq("prof[\"position\"]", prof["position"], "Engineer"))
	lim := page["limits"].(map[string]any)
	apptest.Expect(t, "limits", lim,
		apptest.Eq[any]("lim[\"maxFileBytes\"]", lim["maxFileBytes"], float64(10<<20)),
		apptest.Eq[any]("lim[\"maxProofFiles\"]", lim["maxProofFiles"], float64(10)))

	_, props = c.Page("/resume-upload/" + skill.ID)
	quiz := props["page"].(map[string]any)["quiz"].(map[string]any)
	apptest.Expect(t, "quiz", quiz,
		apptest.Eq("quiz[\"hasPassingAttempt\"]", quiz["hasPassingAttempt"], false),
		apptest.True("quiz[\"attempt\"] == nil", quiz["attempt"] == nil))
	at := mkAttempt(t, env, u, skill, 80, true)
	_, props = c.Page("/resume-upload/" + skill.ID)
	quiz = props["page"].(map[string]any)["quiz"].(map[string]any)
	a := quiz["attempt"].(map[string]any)
	apptest.Expect(t, "quiz", quiz,
		apptest.Eq("quiz[\"hasPassingAttempt\"]", quiz["hasPassingAttempt"], true),
		apptest.Eq[any]("a[\"id\"]", a["id"], at.ID),
		apptest.Eq[any]("a[\"score\"]", a["score"], float64(80)),
		apptest.Eq[any]("a[\"timeSpent\"]", a["timeSpent"], float64(240)))

	// after applying the page carries the application
	c.Multipart("POST", "/applications", fields(proofBadge.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated)
	_, props = c.Page("/proof-upload/" + proofBadge.ID)
	app := props["page"].(map[string]any)["application"].(map[string]any)
	if app["status"] != model.StatusAwaitingPayment {
		t.Fatalf("application %v", app)
	}

	r, props = c.Page("/proof-upload/" + model.NewID())
	r.Expect(404)
	if props["page"].(map[string]any)["badge"] != nil {
		t.Fatalf("%v", props)
	}
	r, _ = c.Page("/proof-upload/not-an-id")
	r.Expect(404)
}

// ---- orphan sweep ----

func TestSweepOrphans(t *testing.T) {
	env := apptest.New(t)
	_, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 2900, true)
	var got appResp
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf)).Expect(http.StatusCreated).JSON(&got)
	recorded := stored(t, env)

	oldID := func() string { // an id made two days ago
		return fmt.Sprintf("%08x", uint32(time.Now().Add(-48*time.Hour).Unix())) + model.NewID()[8:]
	}
	st := env.Deps.Storage
	oldOrphan := "applications/" + oldID() + "/" + oldID() + ".pdf"
	newOrphan := "applications/" + model.NewID() + "/" + model.NewID() + ".pdf"
	foreign := "avatars/" + oldID() + ".png"
	for _, k := range []string{oldOrphan, newOrphan, foreign} {
		if err := st.Put(env.Ctx(), k, bytes.NewReader(pdf), "application/pdf"); err != nil {
			t.Fatal(err)
		}
	}
	n, err := application.SweepOrphans(env.Ctx(), env.DB, st, time.Hour)
	if err != nil || n != 1 {
		t.Fatalf("swept %d, %v", n, err)
	}
	left := stored(t, env)
	want := append(append([]string{}, recorded...), newOrphan, foreign)
	sort.Strings(want)
	if strings.Join(left, ",") != strings.Join(want, ",") {
		t.Fatalf("left %v\nwant %v", left, want)
	}
	// with no age limit the fresh orphan goes too, the recorded file stays
	if n, _ := application.SweepOrphans(env.Ctx(), env.DB, st, -time.Minute); n != 1 {
		t.Fatalf("second sweep removed %d", n)
	}
	if _, err := st.Open(env.Ctx(), recorded[0]); err != nil {
		t.Fatalf("recorded file removed: %v", err)
	}
}

// The unique index on open applications is the final guard: an application recorded by
// a racing request after this one's checks turns the insert into 409, and this
// request's files are deleted.
func TestUniqueIndexIsTheFinalGuard(t *testing.T) {
	hook := &deletingStore{}
	env := apptest.New(t, func(d *app.Deps) { hook.Store = d.Storage; d.Storage = hook })
	u, c := member(t, env, "ada@x.io")
	b := mkBadge(t, env, model.TypeProof, 0, true)
	racer := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: model.TypeProof, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, CreatedAt: model.Now(), UpdatedAt: model.Now()}
	hook.onPut = func() {
		_, _ = env.DB.NewInsert().Model(racer).On("CONFLICT DO NOTHING").Exec(context.Background())
	}
	c.Multipart("POST", "/applications", fields(b.ID), proof("a.pdf", pdf), proof("b.png", png)).
		ExpectMsg(409, "Your application is still being reviewed.")
	if keys := stored(t, env); len(keys) != 0 {
		t.Fatalf("files left: %v", keys)
	}
	if n := countApps(t, env); n != 1 {
		t.Fatalf("%d applications", n)
	}
}
