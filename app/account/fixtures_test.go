package account_test

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/user"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// world is a running app with an admin, a badge with a quiz, and one member who used
// every part of the product.
type world struct {
	e        *apptest.Env
	admin    *model.User
	adminC   *apptest.Client
	badge    *model.Badge
	question *model.Question
	m        *member
}

// member is a member with everything the export covers.
type member struct {
	u        *model.User
	c        *apptest.Client
	token    string // the session cookie
	app      *model.Application
	payment  *model.Payment
	grant    *model.BadgeGrant
	attempt  *model.QuizAttempt
	fileKey  string
	picKey   string
	oauthSig string
}

const (
	proofBytes   = "%PDF-1.4 proof of the member's work"
	pictureBytes = "\x89PNG picture bytes"
	explanation  = "EXPLANATION-never-exported because goroutines"
	correctText  = "CORRECT-OPTION-never-exported"
)

func newWorld(t *testing.T) *world {
	t.Helper()
	e := apptest.New(t)
	w := &world{e: e}
	w.admin, w.adminC = e.Admin("admin@meritmark.test")
	now := model.Now()
	w.badge = &model.Badge{ID: model.NewID(), Name: "Go Developer", Description: "Writes Go.", Category: "Development",
		Type: model.TypeSkill, Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue", Criteria: "Pass the quiz.",
		IsActive: true, CreatedAt: now, UpdatedAt: now}
	insert(t, e, w.badge)
	quiz := &model.Quiz{ID: model.NewID(), BadgeID: w.badge.ID, Title: "Go Quiz", PassingScore: 70, TimeLimit: 15, IsActive: true,
		CreatedAt: now, MaxAttempts: 3, AttemptPeriodDays: 30, RetakeWaitHours: 24}
	insert(t, e, quiz)
	w.question = &model.Question{ID: model.NewID(), Text: "What runs concurrently?", Options: []string{"threads", correctText},
		CorrectIndex: 1, Difficulty: "medium", Explanation: explanation, Topic: "concurrency", Category: "Go", CreatedAt: now}
	insert(t, e, w.question)
	insert(t, e, &model.QuizQuestion{QuizID: quiz.ID, QuestionID: w.question.ID})
	w.m = w.newMember(t, "ada@example.com", quiz)
	return w
}

func insert(t *testing.T, e *apptest.Env, v any) {
	t.Helper()
	if _, err := e.DB.NewInsert().Model(v).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
}

func (w *world) newMember(t *testing.T, email string, quiz *model.Quiz) *member {
	t.Helper()
	e := w.e
	ctx := e.Ctx()
	m := &member{u: e.CreateUser(email, "password123", model.RoleUser)}
	m.u.Name, m.u.Phone, m.u.Bio, m.u.Position = "Ada Lovelace", "+44 20 7946 0000", "Analyst of engines", "Engineer"
	m.picKey = user.NewPictureKey()
	if err := e.Deps.Storage.Put(ctx, m.picKey, strings.NewReader(pictureBytes), "image/png"); err != nil {
		t.Fatal(err)
	}
	m.u.ProfilePicKey = m.picKey
	if _, err := e.DB.NewUpdate().Model(m.u).Column("name", "phone", "bio", "position", "profile_pic_key").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	var err error
	if m.token, err = e.Deps.Sessions.Create(ctx, e.DB, m.u.ID, "203.0.113.7", "Firefox/140 (X11; Linux)"); err != nil {
		t.Fatal(err)
	}
	m.c = withCookie(e, m.token)

	now := model.Now()
	sub := now.Add(-time.Hour)
	m.attempt = &model.QuizAttempt{ID: model.NewID(), UserID: m.u.ID, QuizID: quiz.ID, BadgeID: w.badge.ID,
		Layout: []model.AttemptItem{{QuestionID: w.question.ID, OptionOrder: []int{1, 0}}}, Answers: map[string]int{w.question.ID: 1},
		StartedAt: now.Add(-2 * time.Hour), Deadline: now.Add(-time.Hour), SubmittedAt: &sub, CorrectCount: 1, Total: 1, Score: 100,
		PassingScore: 70, Passed: true}
	insert(t, e, m.attempt)
	score := 100.0
	m.app = &model.Application{ID: model.NewID(), UserID: m.u.ID, BadgeID: w.badge.ID, Type: w.badge.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: "Ada King Lovelace", Email: email, Position: "Engineer",
		LinkedIn: "https://linkedin.com/in/ada", Description: "My analytical engine notes", QuizAttemptID: &m.attempt.ID,
		QuizScore: &score, PriceCents: w.badge.PriceCents, PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	insert(t, e, m.app)
	m.payment = &model.Payment{ID: model.NewID(), UserID: m.u.ID, ApplicationID: m.app.ID, BadgeID: w.badge.ID, Provider: "paypal",
		TransactionID: "TX-" + m.app.ID, Status: model.PaymentCompleted, AmountCents: 4900, OriginalCents: 4900, Currency: "USD",
		CreatedAt: now, CompletedAt: &now}
	insert(t, e, m.payment)
	m.fileKey = "applications/" + m.app.ID + "/" + model.NewID() + ".pdf"
	if err := e.Deps.Storage.Put(ctx, m.fileKey, strings.NewReader(proofBytes), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	insert(t, e, &model.ApplicationFile{ID: model.NewID(), ApplicationID: m.app.ID, Kind: "proof", StorageKey: m.fileKey,
		OriginalName: "engine notes.pdf", ContentType: "application/pdf", Size: int64(len(proofBytes)), CreatedAt: now})
	w.adminC.Put("/admin/applications/"+m.app.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	m.grant = &model.BadgeGrant{}
	if err := e.DB.NewSelect().Model(m.grant).Where("application_id = ?", m.app.ID).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	// a connected wallet: a client, a consent and a token (only its signature is stored)
	m.oauthSig = "oauth-signature-" + model.NewID()
	clientID := "client-" + model.NewID()
	if _, err := e.DB.ExecContext(ctx, `INSERT INTO oauth_clients (id, secret_hash, name, redirect_uris, scope, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
		clientID, "client-secret-hash-"+clientID, "Test Wallet", `["https://wallet.example/cb"]`, "read", now); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.ExecContext(ctx, `INSERT INTO oauth_consents (user_id, client_id, scope, granted_at) VALUES (?, ?, ?, ?)`,
		m.u.ID, clientID, "https://purl.imsglobal.org/spec/ob/v3p0/scope/credential.readonly", now); err != nil {
		t.Fatal(err)
	}
	if _, err := e.DB.ExecContext(ctx, `INSERT INTO oauth_tokens (kind, signature, request_id, client_id, user_id, requested_at, expires_at, active) VALUES ('access', ?, ?, ?, ?, ?, ?, ?)`,
		m.oauthSig, "req-"+clientID, clientID, m.u.ID, now, now.Add(time.Hour), true); err != nil {
		t.Fatal(err)
	}
	insert(t, e, &auth.RecoveryCode{ID: auth.HashToken("recovery|abcdefghij"), UserID: m.u.ID, CreatedAt: now})
	return m
}

// reloadUser reads the user row again.
func (w *world) reloadUser(t *testing.T, id string) *model.User {
	t.Helper()
	return apptest.Row[model.User](w.e, id)
}

// unzip reads a zip answer into name -> content.
func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("not a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = data
	}
	return out
}

// code is a valid TOTP code of secret now.
func code(t *testing.T, secret string) string {
	t.Helper()
	c, err := auth.TOTPCode(secret, time.Now().Unix()/30)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func count(t *testing.T, e *apptest.Env, table, where string, args ...any) int {
	t.Helper()
	n, err := e.DB.NewSelect().Table(table).Where(where, args...).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// withCookie is a client presenting the session cookie token (as a stolen or kept copy).
func withCookie(e *apptest.Env, token string) *apptest.Client {
	c := e.Client()
	base, _ := url.Parse(e.URL)
	c.HTTP.Jar.SetCookies(base, []*http.Cookie{{Name: session.CookieName, Value: token, Path: "/"}})
	return c
}
