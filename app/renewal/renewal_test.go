package renewal_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/badgeadmin"
	"meritmark/app/model"
	"meritmark/app/renewal"
)

func TestMain(m *testing.M) { apptest.Main(m) }

type fixture struct {
	e     *apptest.Env
	admin *apptest.Client
	badge *model.Badge
	// lastApp is the application approve made last
	lastApp string
}

// newFixture makes a proof badge valid for 12 months through the admin's badge form.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := apptest.New(t)
	_, adm := e.Admin("admin@meritmark.test")
	f := &fixture{e: e, admin: adm}
	body := map[string]any{"name": "Cloud Security", "description": "d", "category": "DevOps", "type": "proof", "level": "advanced",
		"price": 10, "icon": "Shield", "color": "blue", "criteria": "c", "validMonths": 0, "isActive": true}
	adm.Post("/badge-management/badges", body).ExpectMsg(http.StatusBadRequest, badgeadmin.MsgValidMonths)
	body["validMonths"] = 121
	adm.Post("/badge-management/badges", body).ExpectMsg(http.StatusBadRequest, badgeadmin.MsgValidMonths)
	body["validMonths"] = 12
	var out struct {
		Badge struct {
			ID          string `json:"_id"`
			ValidMonths *int   `json:"validMonths"`
		} `json:"badge"`
	}
	adm.Post("/badge-management/badges", body).Expect(http.StatusCreated).JSON(&out)
	apptest.Expect(t, "badge", out.Badge,
		apptest.True("out.Badge.ValidMonths != nil", out.Badge.ValidMonths != nil))
	apptest.Expect(t, "badge", out.Badge,
		apptest.Eq("*out.Badge.ValidMonths", *out.Badge.ValidMonths, 12))
	f.badge = apptest.Row[model.Badge](e, out.Badge.ID)
	apptest.Expect(t, "stored", f.badge,
		apptest.True("f.badge.ValidMonths != nil", f.badge.ValidMonths != nil))
	apptest.Expect(t, "stored", f.badge,
		apptest.Eq("*f.badge.ValidMonths", *f.badge.ValidMonths, 12))
	return f
}

func (f *fixture) user(t *testing.T, email string) *model.User {
	t.Helper()
	u := f.e.CreateUser(email, "password123", model.RoleUser)
	u.Name = strings.Split(email, "@")[0]
	if _, err := f.e.DB.NewUpdate().Model(u).Column("name").WherePK().Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return u
}

// approve makes a paid, pending application of u for the badge and has the admin approve
// it: it answers the approval's status and the newest grant of u.
func (f *fixture) approve(t *testing.T, u *model.User) (*apptest.Resp, *model.BadgeGrant) {
	t.Helper()
	now := model.Now()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: f.badge.ID, Type: f.badge.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: u.Name, Email: u.Email, Position: "Engineer", PriceCents: f.badge.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := f.e.DB.NewInsert().Model(a).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	f.lastApp = a.ID
	r := f.admin.Put("/admin/applications/"+a.ID+"/approve", map[string]any{})
	var g model.BadgeGrant
	if err := f.e.DB.NewSelect().Model(&g).Where("user_id = ?", u.ID).OrderExpr("granted_at DESC, id DESC").Limit(1).Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return r, &g
}

// setExpiry moves a grant's expiry through the admin's action (the credential is signed again).
func (f *fixture) setExpiry(t *testing.T, g *model.BadgeGrant, at time.Time) {
	t.Helper()
	f.admin.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": at.UTC().Format(time.RFC3339)}).Expect(http.StatusOK)
}

func (f *fixture) mails(t *testing.T, to string) []model.OutboxMessage {
	t.Helper()
	var ms []model.OutboxMessage
	if err := f.e.DB.NewSelect().Model(&ms).Where("to_addr = ? AND subject LIKE ?", to, "%expires in%").OrderExpr("created_at").Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return ms
}

func (f *fixture) hofTotal(t *testing.T, userID string) int {
	t.Helper()
	var n []int
	if err := f.e.DB.NewRaw(`SELECT total_badges FROM hall_of_fame WHERE user_id = ?`, userID).Scan(f.e.Ctx(), &n); err != nil {
		t.Fatal(err)
	}
	if len(n) == 0 {
		return 0
	}
	return n[0]
}

func TestGrantGetsValidUntilFromMonths(t *testing.T) {
	f := newFixture(t)
	u := f.user(t, "ann@example.com")
	r, g := f.approve(t, u)
	r.Expect(http.StatusOK)
	want := g.GrantedAt.AddDate(0, 12, 0)
	if g.ExpiresAt == nil || !g.ExpiresAt.Equal(want) {
		t.Fatalf("expires %v, want %v", g.ExpiresAt, want)
	}
	// the credential carries it as validUntil, the verify answer as expiresAt
	var res struct {
		IsValid   bool       `json:"isValid"`
		ExpiresAt *time.Time `json:"expiresAt"`
	}
	f.e.Client().Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).JSON(&res)
	apptest.Expect(t, "verify", res,
		apptest.True("res.IsValid", res.IsValid),
		apptest.True("res.ExpiresAt != nil", res.ExpiresAt != nil))
	apptest.Expect(t, "verify", res,
		apptest.True("!(!res.ExpiresAt.Equal(want.Truncate(time.Second)) && !res.ExpiresAt.Equal(want))", !(!res.ExpiresAt.Equal(want.Truncate(time.Second)) && !res.ExpiresAt.Equal(want))))
}

// The reminders are mailed exactly once each, with two sweepers running at the same time
// on one database (two instances), again and again.
func TestExpiryRemindersSentOnceAcrossTwoSweepers(t *testing.T) {
	f := newFixture(t)
	now := model.Now()
	users := map[string]*model.User{}
	grants := map[string]*model.BadgeGrant{}
	for name, left := range map[string]time.Duration{"a30": 20 * 24 * time.Hour, "b7": 3 * 24 * time.Hour, "c60": 60 * 24 * time.Hour, "dgone": -time.Hour} {
		users[name] = f.user(t, name+"@example.com")
		_, grants[name] = f.approve(t, users[name])
		if left < 0 {
			// expired as time passed, with no write (an admin's change would be an event the
			// Hall of Fame follows at once): the grant and its expiry are backdated in place
			if _, err := f.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("granted_at = ?", now.Add(-48*time.Hour)).
				Set("expires_at = ?", now.Add(left)).Where("id = ?", grants[name].ID).Exec(f.e.Ctx()); err != nil {
				t.Fatal(err)
			}
			continue
		}
		f.setExpiry(t, grants[name], now.Add(left))
	}
	if got := f.hofTotal(t, users["dgone"].ID); got != 1 {
		t.Fatalf("before the sweep the expired grant still counts: %d", got)
	}
	sweep := func(at time.Time) {
		apptest.Parallel(2, func(int) {
			for i := 0; i < 3; i++ {
				s := &renewal.Sweeper{DB: f.e.DB, BaseURL: f.e.URL, Now: func() time.Time { return at }, Batch: 1, Events: f.e.Deps.Events}
				if _, err := s.Sweep(context.Background()); err != nil {
					t.Error(err)
				}
			}
		})
	}
	sweep(now)
	check := func(name string, n int, subject string) {
		t.Helper()
		ms := f.mails(t, users[name].Email)
		if len(ms) != n {
			t.Fatalf("%s: %d reminder mails, want %d", name, len(ms), n)
		}
		if n > 0 && ms[n-1].Subject != subject {
			t.Errorf("%s: subject %q, want %q", name, ms[n-1].Subject, subject)
		}
	}
	check("a30", 1, "Your Cloud Security badge expires in 20 days")
	check("b7", 1, "Your Cloud Security badge expires in 3 days")
	check("c60", 0, "")
	check("dgone", 0, "")
	m := f.mails(t, users["a30"].Email)[0]
	if !strings.Contains(m.BodyText, f.e.URL+"/proof-upload/"+f.badge.ID) || !strings.Contains(m.BodyText, "current proof of your work") || !strings.Contains(m.BodyText, "resume already on file") ||
		!strings.Contains(m.BodyText, f.e.URL+"/verify/"+grants["a30"].PublicVerificationID) || strings.Contains(m.BodyText, grants["a30"].VerificationID) {
		t.Errorf("mail text %q", m.BodyText)
	}
	// the expired grant left the Hall of Fame
	if got := f.hofTotal(t, users["dgone"].ID); got != 0 {
		t.Errorf("expired grant still counted: %d", got)
	}
	if got := f.hofTotal(t, users["c60"].ID); got != 1 {
		t.Errorf("valid grant not counted: %d", got)
	}
	notices, err := f.e.DB.NewSelect().Table("expiry_notices").Count(f.e.Ctx())
	if err != nil || notices != 3 {
		t.Fatalf("notices %d %v", notices, err)
	}

	// two weeks later: a30 gets its 7-day reminder (once), b7 has expired (no new mail)
	sweep(now.Add(14 * 24 * time.Hour))
	check("a30", 2, "Your Cloud Security badge expires in 6 days")
	check("b7", 1, "Your Cloud Security badge expires in 3 days")
	check("c60", 0, "")
}

// A holder in the renewal window applies again; the approved renewal is a new credential
// linking to the old one, the verify page shows the history, and the badge counts once.
func TestRenewalLinksToThePreviousGrant(t *testing.T) {
	f := newFixture(t)
	u := f.user(t, "renee@example.com")
	_, old := f.approve(t, u)

	// far from its expiry the badge is still held: a second approval is refused
	r, _ := f.approve(t, u)
	r.ExpectMsg(http.StatusConflict, admin.MsgAlreadyHolds)

	// in the renewal window the same application may be approved
	f.setExpiry(t, old, model.Now().Add(10*24*time.Hour))
	f.admin.Put("/admin/applications/"+f.lastApp+"/approve", map[string]any{}).Expect(http.StatusOK)
	var renewed model.BadgeGrant
	if err := f.e.DB.NewSelect().Model(&renewed).Where("application_id = ?", f.lastApp).Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if renewed.ID == old.ID || renewed.PreviousGrantID == nil || *renewed.PreviousGrantID != old.ID {
		t.Fatalf("renewed %+v (old %s)", renewed, old.ID)
	}
	if want := renewed.GrantedAt.AddDate(0, 12, 0); renewed.ExpiresAt == nil || !renewed.ExpiresAt.Equal(want) {
		t.Errorf("renewed expiry %v", renewed.ExpiresAt)
	}
	if got := f.hofTotal(t, u.ID); got != 1 {
		t.Errorf("the renewed badge counts %d times", got)
	}
	for _, pv := range []string{renewed.PublicVerificationID, old.PublicVerificationID} {
		_, props := f.e.Client().Page("/verify/" + pv)
		hist, _ := props["page"].(map[string]any)["history"].([]any)
		if len(hist) != 2 {
			t.Fatalf("%s: history %v", pv, props["page"])
		}
		first, second := hist[0].(map[string]any), hist[1].(map[string]any)
		if first["verifyPath"] != "/verify/"+renewed.PublicVerificationID || second["verifyPath"] != "/verify/"+old.PublicVerificationID ||
			first["status"] != "valid" || second["status"] != "valid" || first["current"] != (pv == renewed.PublicVerificationID) {
			t.Errorf("%s: history %v", pv, hist)
		}
	}
	// a renewed grant gets no more reminders
	s := &renewal.Sweeper{DB: f.e.DB, BaseURL: f.e.URL, Events: f.e.Deps.Events}
	if res, err := s.Sweep(context.Background()); err != nil || res.Reminded != 0 {
		t.Errorf("sweep %+v %v", res, err)
	}
	// a grant never renewed has no history
	u2 := f.user(t, "solo@example.com")
	_, g2 := f.approve(t, u2)
	_, props := f.e.Client().Page("/verify/" + g2.PublicVerificationID)
	if h, ok := props["page"].(map[string]any)["history"]; ok && h != nil {
		t.Errorf("history of a single grant: %v", h)
	}
}

func TestKindForAndDaysLeft(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	d := 24 * time.Hour
	for left, want := range map[time.Duration]string{31 * d: "", 30 * d: renewal.Remind30, 8 * d: renewal.Remind30, 7 * d: renewal.Remind7,
		time.Minute: renewal.Remind7, 0: renewal.Expired, -d: renewal.Expired} {
		if got := renewal.KindFor(now, now.Add(left)); got != want {
			t.Errorf("%v left: %q, want %q", left, got, want)
		}
	}
	if renewal.DaysLeft(now, now.Add(time.Hour)) != 1 || renewal.DaysLeft(now, now.Add(7*d)) != 7 || renewal.DaysLeft(now, now.Add(6*d+time.Hour)) != 7 {
		t.Error("days left")
	}
	if renewal.RenewPath(model.TypeSkill, "b1") != "/quiz/b1" || renewal.RenewPath(model.TypeProof, "b1") != "/proof-upload/b1" {
		t.Error("renew path")
	}
}

// The sweeper wakes when the next grant expires (not up to its interval later), and a grant
// moved to an earlier expiry wakes it to look again: the Hall of Fame stops counting the
// badge when it expires.
func TestSweeperWakesAtTheNextExpiry(t *testing.T) {
	f := newFixture(t)
	u := f.user(t, "brief@example.com")
	_, g := f.approve(t, u)
	hofAPI := func() int64 {
		var out struct {
			Stats struct {
				TotalBadges int64 `json:"totalBadges"`
			} `json:"stats"`
		}
		f.e.Client().Get("/hall-of-fame").Expect(http.StatusOK).JSON(&out)
		return out.Stats.TotalBadges
	}
	if got := hofAPI(); got != 1 {
		t.Fatalf("before: Hall of Fame counts %d badges", got)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	s := &renewal.Sweeper{DB: f.e.DB, BaseURL: f.e.URL, Events: f.e.Deps.Events}
	go func() { s.Run(ctx, time.Hour); close(done) }()
	defer func() { cancel(); <-done }()
	time.Sleep(200 * time.Millisecond) // the first sweep is over: Run waits for the grant's expiry in 12 months
	expiry := model.Now().Add(1500 * time.Millisecond)
	// the expiry moved in place (the admin's form takes dates, and its event would refresh
	// the holder at once); a grant made or moved kicks the sweeper (Follow), here by hand
	if _, err := f.e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("expires_at = ?", expiry).Where("id = ?", g.ID).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	s.Kick()
	for deadline := time.Now().Add(30 * time.Second); f.hofTotal(t, u.ID) != 0; {
		if time.Now().After(deadline) {
			t.Fatal("the expired grant is still counted 30 s after its expiry (the sweeper waits for its interval)")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if now := model.Now(); now.Before(expiry) {
		t.Fatalf("the grant left the Hall of Fame at %v, before its expiry %v", now, expiry)
	}
	if got := hofAPI(); got != 0 {
		t.Errorf("after its expiry the Hall of Fame counts %d badges", got)
	}
}
