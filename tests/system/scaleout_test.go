package system

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/payment"
	"meritmark/app/session"
	"meritmark/app/web"
	"meritmark/db/migrations"
)

// cluster is two instances started at the same moment on one PostgreSQL database and one
// uploads folder and the shared secrets, each with its own data directory (its own
// credential signing key, as on two machines), behind one public origin.
type cluster struct {
	A, B    *instance
	st      *store
	uploads string
}

const publicOrigin = "http://badges.example.test"

func startCluster(t *testing.T) *cluster {
	t.Helper()
	requirePostgres(t)
	st := &store{URL: newPostgresDB(t)}
	uploads := filepath.Join(t.TempDir(), "shared-uploads")
	// the secrets docs/deploy.md says every instance must share (an instance holding
	// others logs an error: secrets_test.go)
	oauthSecret, totpKey := auth.NewToken(), auth.NewToken()
	vars := func() map[string]string {
		return map[string]string{
			"DATABASE_URL":                st.URL,
			"MERITMARK_DATA_DIR":          t.TempDir(),
			"MERITMARK_STORAGE_URL":       "file://" + uploads,
			"MERITMARK_BASE_URL":          publicOrigin,
			"MERITMARK_SECRET_OAUTH_HMAC": oauthSecret,
			"MERITMARK_SECRET_KEY":        totpKey,
		}
	}
	c := &cluster{st: st, uploads: uploads}
	// started together: both race for the schema of an empty database
	c.A = launch(t, "A", vars())
	c.B = launch(t, "B", vars())
	var wg sync.WaitGroup
	for _, in := range []*instance{c.A, c.B} {
		wg.Add(1)
		go func(in *instance) { defer wg.Done(); in.waitReadyNoFatal(60 * time.Second) }(in)
	}
	wg.Wait()
	for _, in := range []*instance{c.A, c.B} {
		if !in.ready {
			t.Fatalf("%s did not become ready:\n%s", in.Name, in.logs.tail(40))
		}
	}
	st.open(t)
	return c
}

// TestScaleOutJourneyAcrossTwoInstances: sign up on A, take the quiz on B, apply on A,
// pay on B (coupon, the simulator's approval through A, the capture through B, the replay
// through A), the admin approves on A, the credential verifies on B; a revoke on A shows
// on B's cached verification within its freshness window; sessions, logout and a rate
// limit are shared.
func TestScaleOutJourneyAcrossTwoInstances(t *testing.T) {
	c := startCluster(t)
	A, B, d := c.A, c.B, c.st.DB
	ctx := context.Background()

	// ---- migrations ran once ----
	var rows []struct {
		Name    string `bun:"name"`
		GroupID int64  `bun:"group_id"`
	}
	if err := d.NewSelect().Table("bun_migrations").Column("name", "group_id").Scan(ctx, &rows); err != nil {
		t.Fatal(err)
	}
	want := len(migrations.Migrations.Sorted())
	names := map[string]bool{}
	for _, r := range rows {
		if names[r.Name] || r.GroupID != rows[0].GroupID {
			t.Fatalf("bun_migrations: %s twice or in another group: %+v", r.Name, rows)
		}
		names[r.Name] = true
	}
	if len(rows) != want || want == 0 {
		t.Fatalf("bun_migrations has %d rows, %d migrations are registered", len(rows), want)
	}
	migratedA, migratedB := len(A.logs.lines("msg=migrated")), len(B.logs.lines("msg=migrated"))
	if migratedA+migratedB != 1 {
		t.Fatalf("the schema was migrated %d times by A and %d by B: want once in all", migratedA, migratedB)
	}
	t.Logf("migrations: %d applied once, in group %d, by %s", len(rows), rows[0].GroupID, map[bool]string{true: "A", false: "B"}[migratedA == 1])

	// ---- catalogue (the admin's work, done in the database here) ----
	admin := addUser(t, d, "admin@scale.test", "admin-password-1", model.RoleAdmin)
	badge := addBadge(t, d, "Distributed Systems", model.TypeSkill, 4900)
	questions := addQuiz(t, d, badge, 5)
	addCoupon(t, d, "SCALE10", 10)

	// ---- sign up on A; the session works on B ----
	ada := newBrowser(t)
	ada.on(A).Post("/auth/register", map[string]string{"name": "Ada Lovelace", "email": "ada@scale.test", "password": "correct horse"}).
		ExpectMsg(http.StatusCreated, auth.MsgRegistered)
	// register does not sign in (app/auth): sign in on A, and confirm the address (the
	// link's token is mailed; here the row is marked as the link would)
	ada.on(A).Post("/auth/login", map[string]string{"email": "ada@scale.test", "password": "correct horse"}).Expect(http.StatusOK)
	if _, err := d.NewUpdate().Table("users").Set("email_verified_at = ?", model.Now()).Where("email = ?", "ada@scale.test").Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ada.sessionCookie(A) == "" {
		t.Fatal("A set no session cookie")
	}
	var me struct {
		User struct {
			Email string `json:"email"`
		} `json:"user"`
	}
	ada.on(B).Get("/auth/me").Expect(http.StatusOK).JSON(&me)
	if me.User.Email != "ada@scale.test" {
		t.Fatalf("B sees the session as %+v", me)
	}
	// the profile fields the application needs, saved on B
	ada.on(B).Post("/users/profile", map[string]string{"name": "Ada Lovelace", "email": "ada@scale.test", "position": "Engineer",
		"linkedin": "https://linkedin.com/in/ada", "portfolio": ""}).Expect(http.StatusOK)

	// ---- the quiz on B ----
	var quiz struct {
		Questions []struct {
			ID      string   `json:"_id"`
			Options []string `json:"options"`
		} `json:"questions"`
		Attempt struct {
			ID string `json:"_id"`
		} `json:"attempt"`
	}
	ada.on(B).Post("/quiz/badge/"+badge.ID+"/start", nil).Expect(http.StatusOK).JSON(&quiz)
	answers := map[string]int{}
	for _, q := range quiz.Questions {
		right := questions[q.ID].Options[questions[q.ID].CorrectIndex]
		for i, o := range q.Options {
			if o == right {
				answers[q.ID] = i
			}
		}
	}
	if len(answers) != 5 || quiz.Attempt.ID == "" {
		t.Fatalf("quiz on B: %+v", quiz)
	}
	var graded struct {
		Passed bool    `json:"passed"`
		Score  float64 `json:"score"`
	}
	ada.on(B).Post("/quiz/attempts/"+quiz.Attempt.ID+"/submit", map[string]any{"answers": answers}).Expect(http.StatusOK).JSON(&graded)
	if !graded.Passed || graded.Score != 100 {
		t.Fatalf("graded on B: %+v", graded)
	}

	// ---- apply on A (files into the shared folder) ----
	var applied struct {
		Application struct {
			ID     string `json:"_id"`
			Status string `json:"status"`
		} `json:"application"`
	}
	ada.on(A).Multipart("POST", "/applications", map[string]string{"badgeId": badge.ID, "type": "skill"},
		apptest.File{Field: "resume", Name: "resume.pdf", ContentType: "application/pdf", Data: pdfFile},
		apptest.File{Field: "profilePic", Name: "me.png", ContentType: "image/png", Data: pngFile}).
		Expect(http.StatusCreated).JSON(&applied)
	appID := applied.Application.ID
	if applied.Application.Status != model.StatusAwaitingPayment {
		t.Fatalf("application on A: %+v", applied)
	}
	var keys []string
	if err := d.NewSelect().Table("application_files").Column("storage_key").Where("application_id = ?", appID).Scan(ctx, &keys); err != nil || len(keys) != 2 {
		t.Fatalf("application files: %v %v", keys, err)
	}
	for _, k := range keys {
		if _, err := os.Stat(filepath.Join(c.uploads, filepath.FromSlash(k))); err != nil {
			t.Fatalf("upload %s is not in the shared folder: %v", k, err)
		}
	}

	// ---- pay on B: coupon, order; the buyer approves through A's simulator mount; the
	// capture runs on B; a replay on A answers the same payment ----
	var quote struct {
		FinalAmount    float64 `json:"finalAmount"`
		DiscountAmount float64 `json:"discountAmount"`
	}
	ada.on(B).Post("/coupons/validate", map[string]any{"code": "scale10", "badgeId": badge.ID, "amount": 1}).Expect(http.StatusOK).JSON(&quote)
	if quote.FinalAmount != 44.1 || quote.DiscountAmount != 4.9 {
		t.Fatalf("coupon on B: %+v", quote)
	}
	var order struct {
		OrderID string `json:"orderId"`
	}
	ada.on(B).Post("/payments/paypal-order", map[string]any{"amount": 1, "badgeId": badge.ID, "couponCode": "SCALE10"}).
		Expect(http.StatusCreated).JSON(&order)
	newBrowser(t).on(A).Abs("POST", payment.SimPath+"/sim/orders/"+order.OrderID+"/approve", map[string]string{"outcome": "approve"}).
		Expect(http.StatusOK)
	var paid struct {
		Success           bool    `json:"success"`
		Amount            float64 `json:"amount"`
		PaymentID         string  `json:"paymentId"`
		TransactionID     string  `json:"transactionId"`
		ApplicationStatus string  `json:"applicationStatus"`
	}
	ada.on(B).Post("/payments/paypal-verify", map[string]any{"orderId": order.OrderID, "badgeId": badge.ID, "couponCode": "SCALE10"}).
		Expect(http.StatusOK).JSON(&paid)
	if !paid.Success || paid.Amount != 44.1 || paid.PaymentID == "" || paid.ApplicationStatus != model.StatusPending {
		t.Fatalf("payment on B: %+v", paid)
	}
	var replay struct {
		PaymentID string `json:"paymentId"`
	}
	ada.on(A).Post("/payments/paypal-verify", map[string]any{"orderId": order.OrderID, "badgeId": badge.ID, "couponCode": nil}).
		Expect(http.StatusOK).JSON(&replay)
	if replay.PaymentID != paid.PaymentID {
		t.Fatalf("replay on A answered payment %s, B recorded %s", replay.PaymentID, paid.PaymentID)
	}
	if n := count(t, d, "payments", "application_id = ?", appID); n != 1 {
		t.Fatalf("%d payments for the application", n)
	}
	if n := count(t, d, "coupons", "code = ? AND used_count = 1", "SCALE10"); n != 1 {
		t.Fatal("the coupon use was not counted once")
	}
	if n := count(t, d, "paypal_sim_orders", "id = ? AND capture_id IS NOT NULL", order.OrderID); n != 1 {
		t.Fatal("the simulator's shared order has no capture")
	}

	// ---- the admin signs in on B and approves on A ----
	boss := newBrowser(t)
	boss.on(B).Post("/auth/login", map[string]string{"email": admin.Email, "password": "admin-password-1"}).ExpectMsg(http.StatusOK, auth.MsgLoggedIn)
	var approved struct {
		GrantCreated bool `json:"grantCreated"`
	}
	boss.on(A).Put("/admin/applications/"+appID+"/approve", nil).Expect(http.StatusOK).JSON(&approved)
	if !approved.GrantCreated {
		t.Fatal("approval on A created no grant")
	}
	// approving again on B (a double click reaching the other instance) makes no second grant
	var again struct {
		GrantCreated  bool `json:"grantCreated"`
		GrantRestored bool `json:"grantRestored"`
	}
	boss.on(B).Put("/admin/applications/"+appID+"/approve", nil).Expect(http.StatusOK).JSON(&again)
	if again.GrantCreated || again.GrantRestored {
		t.Fatalf("a second approval on B: %+v", again)
	}
	if n := count(t, d, "badge_grants", "application_id = ?", appID); n != 1 {
		t.Fatalf("%d grants", n)
	}

	// ---- the holder sees the badge on B and it verifies on B ----
	var earned struct {
		Badges []struct {
			Name           string `json:"name"`
			VerificationID string `json:"verificationId"`
		} `json:"badges"`
	}
	r := ada.on(B).Get("/users/badges").Expect(http.StatusOK)
	r.JSON(&earned)
	if len(earned.Badges) != 1 || earned.Badges[0].VerificationID == "" {
		t.Fatalf("earned badges on B: %s", r.Text())
	}
	vid := earned.Badges[0].VerificationID
	visitor := newBrowser(t)
	type verification struct {
		IsValid bool   `json:"isValid"`
		Status  string `json:"status"`
		Checks  struct {
			Signature  bool   `json:"signature"`
			IssuerKey  string `json:"issuerKey"`
			NotRevoked bool   `json:"notRevoked"`
		} `json:"checks"`
		Badge struct {
			Name string `json:"name"`
		} `json:"badge"`
	}
	verifyOn := func(in *instance) verification {
		var v verification
		visitor.on(in).Get("/verify/badge/" + vid).Expect(http.StatusOK).JSON(&v)
		return v
	}
	v := verifyOn(B)
	if !v.IsValid || v.Status != "valid" || !v.Checks.Signature || v.Badge.Name != badge.Name {
		t.Fatalf("verification on B of a credential signed on A: %+v", v)
	}
	withPage := verifyPagePresent(t)
	if withPage {
		page := visitor.on(B).Abs("GET", "/verify/"+vid, nil).Expect(http.StatusOK).Text()
		if !strings.Contains(page, badge.Name) || strings.Contains(page, "Issued in error") {
			t.Fatal("the verify page on B does not show the valid badge")
		}
	}
	// each instance publishes its Ed25519 key (Data Integrity), its own ES256 key (VC-JWT),
	// and the P-256 key its seed derived before the JWT had a key of its own (old copies)
	if n := count(t, d, "signing_keys", "1 = 1"); n != 6 {
		t.Fatalf("%d signing keys published: want three per instance (each has its own data directory)", n)
	}
	t.Logf("credential signed on A with key %s verified on B (each instance publishes its own key)", v.Checks.IssuerKey)

	// ---- a revoke on A reaches B's cached verification within its freshness window ----
	for i := 0; i < 3; i++ { // B's cache holds the valid result now
		verifyOn(B)
	}
	var grantID string
	if err := d.NewSelect().Table("badge_grants").Column("id").Where("application_id = ?", appID).Scan(ctx, &grantID); err != nil {
		t.Fatal(err)
	}
	boss.on(A).Put("/admin/grants/"+grantID+"/revoke", map[string]string{"category": "issued_in_error", "reason": "Issued in error"}).Expect(http.StatusOK)
	revokedAt := time.Now()
	var stale time.Duration // the latest start of a request B still answered "valid"
	for {
		sent := time.Since(revokedAt)
		v = verifyOn(B)
		if v.Status == "revoked" && !v.IsValid && !v.Checks.NotRevoked {
			break
		}
		if v.Status != "valid" {
			t.Fatalf("B answered %+v", v)
		}
		stale = sent
		if time.Since(revokedAt) > 5*time.Second {
			t.Fatalf("B still answers %+v %s after the revoke on A", v, time.Since(revokedAt))
		}
		time.Sleep(50 * time.Millisecond)
	}
	// a request sent more than the freshness window (1 s) after the revoke is never
	// answered "valid" (a little slack for the clock reads around the calls)
	if stale > 1200*time.Millisecond {
		t.Fatalf("B answered the revoked credential as valid to a request sent %s after the revoke (freshness window 1 s)", stale)
	}
	if withPage {
		page := visitor.on(B).Abs("GET", "/verify/"+vid, nil).Expect(http.StatusOK).Text()
		if !strings.Contains(page, "Issued in error") {
			t.Fatal("B's verify page (cached for visitors) does not show the revoke")
		}
	}
	t.Logf("revoke on A: B's cached verification answered valid up to %s after it, revoked from then on", stale.Round(time.Millisecond))

	// ---- logout on A ends the session on B ----
	token := ada.sessionCookie(A)
	ada.on(A).Post("/auth/logout", nil).Expect(http.StatusOK)
	copied := newBrowser(t) // a copy of the old cookie is worthless on B too
	base, _ := url.Parse(B.URL)
	copied.jar.SetCookies(base, []*http.Cookie{{Name: session.CookieName, Value: token, Path: "/"}})
	copied.on(B).Get("/auth/me").ExpectMsg(http.StatusUnauthorized, web.MsgLoginRequired)
	ada.on(B).Get("/auth/me").ExpectMsg(http.StatusUnauthorized, web.MsgLoginRequired)

	// ---- the login rate limit is one count across instances ----
	sharedLoginLimit(t, c)

	// ---- nothing failed with a 5xx on either instance ----
	for _, in := range []*instance{A, B} {
		if errs := in.logs.lines("level=ERROR"); len(errs) > 0 {
			t.Fatalf("%s logged errors:\n%s", in.Name, strings.Join(errs, "\n"))
		}
	}
}

// sharedLoginLimit: failed sign-ins for one e-mail alternate between A and B; the
// eleventh is refused (10 per 15 minutes per e-mail) wherever it lands, and the database
// holds one count.
func sharedLoginLimit(t *testing.T, c *cluster) {
	t.Helper()
	email := "target@scale.test"
	for attempt := 0; attempt < 2; attempt++ {
		window := time.Now().Truncate(15 * time.Minute)
		email = fmt.Sprintf("target%d@scale.test", attempt)
		b := newBrowser(t)
		for i := 0; i < 10; i++ {
			in := c.A
			if i%2 == 1 {
				in = c.B
			}
			b.on(in).Post("/auth/login", map[string]string{"email": email, "password": "wrong password"}).
				ExpectMsg(http.StatusUnauthorized, auth.MsgBadCredentials)
		}
		r := b.on(c.B).Post("/auth/login", map[string]string{"email": email, "password": "wrong password"})
		if !time.Now().Truncate(15 * time.Minute).Equal(window) {
			continue // the window turned over during the loop: count again in the new one
		}
		r.ExpectMsg(http.StatusTooManyRequests, auth.MsgTooManyLogins)
		if r.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
		b.on(c.A).Post("/auth/login", map[string]string{"email": email, "password": "wrong password"}).
			ExpectMsg(http.StatusTooManyRequests, auth.MsgTooManyLogins)
		// the failures were split across A and B, and both refuse now: one count (the
		// sign-in throttle lives in the database, app/auth/throttle.go)
		var n int
		if err := c.st.DB.NewSelect().Table("login_throttle").ColumnExpr("COUNT(*)").Where("failures > 0").Scan(context.Background(), &n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Fatalf("no sign-in throttle rows after 12 failed sign-ins for %s across A and B", email)
		}
		return
	}
	t.Fatal("two rate-limit windows turned over during the test")
}

// verifyPagePresent reports whether the verify page is part of this build (the page is
// checked when it exists in views/pages).
func verifyPagePresent(t *testing.T) bool {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(root, "views", "pages", "VerifyPage.tsx"))
	if err != nil {
		t.Log("views/pages/VerifyPage.tsx is not there yet: the verify page is not checked, the verify API is")
	}
	return err == nil
}

// TestScaleOutPagesFollowWritesWhenNotificationsDrop: an instance whose LISTEN connection
// is dropped (its backend terminated) serves no stale page: until it listens again it
// reads the versions per request, and after it reconnects notifications work again.
func TestScaleOutPagesFollowWritesWhenNotificationsDrop(t *testing.T) {
	c := startCluster(t)
	B, d := c.B, c.st.DB
	ctx := context.Background()
	visitor := newBrowser(t)
	catalogue := func() string { return visitor.on(B).Abs("GET", "/badges", nil).Expect(http.StatusOK).Text() }
	waitLog := func(what string, n int) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); len(B.logs.lines(what)) < n; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("B did not log %q %d times:\n%s", what, n, B.logs.tail(30))
			}
		}
	}
	addBadge(t, d, "Consensus Basics", model.TypeSkill, 1900)
	if !strings.Contains(catalogue(), "Consensus Basics") {
		t.Fatal("B's catalogue lacks the new badge")
	}
	waitLog("listening for page changes", 1)
	catalogue() // held from here on

	var n int
	if err := d.NewRaw(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = current_database() AND query LIKE 'LISTEN%'`).Scan(ctx, &n); err != nil || n == 0 {
		t.Fatalf("terminated %d listening backends (%v)", n, err)
	}
	waitLog("notification connection failed", 1)
	addBadge(t, d, "Gossip Protocols", model.TypeSkill, 1900) // its notification reaches nobody
	if !strings.Contains(catalogue(), "Gossip Protocols") {
		t.Fatal("B served a stale catalogue after its notification connection dropped")
	}

	waitLog("listening for page changes", 2)
	addBadge(t, d, "Vector Clocks", model.TypeSkill, 1900)
	for deadline := time.Now().Add(2 * time.Second); !strings.Contains(catalogue(), "Vector Clocks"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("B's catalogue does not follow writes after it listens again")
		}
	}
}
