package app_test

import (
	"fmt"
	"html"
	"net/http"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/pagecache"
)

// pcWorld is one database with two app instances on it, both with the page cache on.
type pcWorld struct {
	t        *testing.T
	a, b     *apptest.Env
	adminA   *apptest.Client
	adminB   *apptest.Client
	visitors []*apptest.Client // one per instance
	badge    *model.Badge
	member   *model.User
	memberA  *apptest.Client
}

func newPCWorld(t *testing.T) *pcWorld {
	a := apptest.New(t, apptest.WithPageCache)
	b := apptest.New(t, apptest.WithPageCache, apptest.SharedDB(a))
	if a.App.PageCache == nil || b.App.PageCache == nil {
		t.Fatal("page cache is off")
	}
	w := &pcWorld{t: t, a: a, b: b}
	adm := a.CreateUser("admin@meritmark.test", "password123", model.RoleAdmin)
	w.adminA, w.adminB = a.LoginAs(adm), b.LoginAs(adm)
	w.visitors = []*apptest.Client{a.Client(), b.Client()}
	now := model.Now()
	w.badge = &model.Badge{ID: model.NewID(), Name: "Quantum Basics", Description: "Knows the qubit from the bit.", Category: "Development",
		Type: model.TypeProof, Level: "beginner", PriceCents: 1900, Icon: "Code", Color: "blue",
		Criteria: "Show your work.", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := a.DB.NewInsert().Model(w.badge).Exec(a.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.member = a.CreateUser("mira@meritmark.test", "password123", model.RoleUser)
	if _, err := a.DB.NewUpdate().Model(w.member).Set("name = ?", "Mira Holder").WherePK().Exec(a.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.memberA = a.LoginAs(w.member)
	return w
}

// apply makes a paid application of u for b, pending review.
func (w *pcWorld) apply(u *model.User, b *model.Badge) *model.Application {
	now := model.Now()
	ap := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, FullName: u.Name, Email: u.Email, Position: "Engineer", PriceCents: b.PriceCents,
		PaymentCompletedAt: &now, CreatedAt: now, UpdatedAt: now}
	if _, err := w.a.DB.NewInsert().Model(ap).Exec(w.a.Ctx()); err != nil {
		w.t.Fatal(err)
	}
	return ap
}

// page fetches path from instance i as a visitor and answers its text (props unescaped).
func (w *pcWorld) page(i int, path string) (int, string) {
	w.t.Helper()
	r := w.visitors[i].Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
	return r.Status, html.UnescapeString(r.Text())
}

// expect checks on both instances, right after a write, that path shows (or no longer
// shows) s.
func (w *pcWorld) expect(path, s string, shown bool) {
	w.t.Helper()
	for i := range w.visitors {
		_, body := w.page(i, path)
		if strings.Contains(body, s) != shown {
			w.t.Errorf("instance %d, %s: shows %q = %v, want %v", i, path, s, !shown, shown)
		}
	}
}

// warm fetches paths twice on both instances, so they are cached, and checks that the
// second round was served from the cache.
func (w *pcWorld) warm(paths ...string) {
	w.t.Helper()
	for i, e := range []*apptest.Env{w.a, w.b} {
		for _, p := range paths {
			w.page(i, p)
		}
		h0, _, _, _ := e.App.PageCache.Stats()
		for _, p := range paths {
			w.page(i, p)
		}
		if h1, _, _, _ := e.App.PageCache.Stats(); h1-h0 != int64(len(paths)) {
			w.t.Fatalf("instance %d: %d of %d warm pages served from the cache", i, h1-h0, len(paths))
		}
	}
}

// Every write that changes a public page invalidates it at once, on the instance that
// wrote and on the other one: grant, badge edit, profile edit, expiry, revoke, toggle,
// and a grant's expiry passing with no write at all.
func TestPageCacheFollowsEveryWriteOnBothInstances(t *testing.T) {
	w := newPCWorld(t)
	profile := "/profile/" + w.member.ID
	badgePage := "/badges/" + w.badge.ID
	hof, hofAPI := "/hall-of-fame", "/backend/api/v1/hall-of-fame"
	w.warm("/", "/badges", badgePage, hof, hofAPI, profile)
	w.expect(hof, "Mira Holder", false)
	w.expect(hofAPI, "Mira Holder", false)

	// grant (instance A)
	ap := w.apply(w.member, w.badge)
	w.adminA.Put("/admin/applications/"+ap.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	var g model.BadgeGrant
	if err := w.a.DB.NewSelect().Model(&g).Where("application_id = ?", ap.ID).Scan(w.a.Ctx()); err != nil {
		t.Fatal(err)
	}
	verify := "/verify/" + g.PublicVerificationID
	w.expect(hof, "Mira Holder", true)
	w.expect(hofAPI, "Mira Holder", true)
	w.expect(profile, "Quantum Basics", true)
	w.expect(verify, `"isValid":true`, true)
	w.warm(hof, profile, verify, "/badges", badgePage)

	// badge edit (instance B)
	w.adminB.Put("/badge-management/badges/"+w.badge.ID, map[string]any{"name": "Quantum Essentials"}).Expect(http.StatusOK)
	for _, p := range []string{"/badges", badgePage, profile, verify, hof} {
		w.expect(p, "Quantum Essentials", true)
	}
	w.expect("/badges", "Quantum Basics", false)
	w.warm(hof, profile, verify, "/badges", badgePage)

	// profile edit (the member, instance A)
	w.memberA.Post("/users/profile", map[string]any{"name": "Mira Q. Holder", "position": "Physicist", "linkedin": "", "portfolio": ""}).Expect(http.StatusOK)
	for _, p := range []string{profile, hof, verify} {
		w.expect(p, "Mira Q. Holder", true)
	}
	w.warm(hof, profile, verify)

	// expiry set by an admin (instance B)
	w.adminB.Put("/admin/grants/"+g.ID+"/expiry", map[string]any{"expiresAt": "2031-01-15"}).Expect(http.StatusOK)
	w.expect(verify, "2031-01-15", true)
	w.warm(verify, profile)

	// revoke (instance A)
	w.adminA.Put("/admin/grants/"+g.ID+"/revoke", map[string]any{"category": "fraud", "reason": "Evidence was not the holder's own"}).Expect(http.StatusOK)
	w.expect(verify, "Fraudulent or misrepresented evidence", true)
	w.expect(verify, "Evidence was not the holder's own", false)
	w.expect(verify, `"isValid":true`, false)
	w.expect(hof, "Mira Q. Holder", false)
	w.expect(profile, "Quantum Essentials", false)
	w.warm("/badges", badgePage)

	// toggle off (instance B)
	w.adminB.Patch("/badge-management/badges/"+w.badge.ID+"/toggle", nil).Expect(http.StatusOK)
	w.expect("/badges", "Quantum Essentials", false)
	for i := range w.visitors {
		if st, _ := w.page(i, badgePage); st != http.StatusNotFound {
			t.Errorf("instance %d: inactive badge page %d", i, st)
		}
	}

	// a grant's expiry passing (no write): pages showing it change when it does
	w.adminB.Patch("/badge-management/badges/"+w.badge.ID+"/toggle", nil).Expect(http.StatusOK)
	other := w.a.CreateUser("otto@meritmark.test", "password123", model.RoleUser)
	ap2 := w.apply(other, w.badge)
	w.adminA.Put("/admin/applications/"+ap2.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	var g2 model.BadgeGrant
	if err := w.a.DB.NewSelect().Model(&g2).Where("application_id = ?", ap2.ID).Scan(w.a.Ctx()); err != nil {
		t.Fatal(err)
	}
	at := time.Now().UTC().Add(3 * time.Second).Truncate(time.Second)
	w.adminA.Put("/admin/grants/"+g2.ID+"/expiry", map[string]any{"expiresAt": at.Format(time.RFC3339)}).Expect(http.StatusOK)
	verify2 := "/verify/" + g2.PublicVerificationID
	w.warm(verify2, hof)
	w.expect(verify2, `"isValid":true`, true)
	w.expect(hof, "otto", true)
	time.Sleep(time.Until(at) + 200*time.Millisecond)
	w.expect(verify2, `"isValid":true`, false)
}

// served fetches paths once on both instances and checks how many were answered from
// the cache.
func (w *pcWorld) served(want int, paths ...string) {
	w.t.Helper()
	for i, e := range []*apptest.Env{w.a, w.b} {
		h0, _, _, _ := e.App.PageCache.Stats()
		for _, p := range paths {
			w.page(i, p)
		}
		if h1, _, _, _ := e.App.PageCache.Stats(); h1-h0 != int64(want) {
			w.t.Errorf("instance %d: %d of %v served from the cache, want %d", i, h1-h0, paths, want)
		}
	}
}

// A verify page and the Hall of Fame show a few holders' profiles: another member's
// profile edit leaves their copies alone on both instances, while pages that depend on
// every profile (the Hall of Fame by name) and the holder's own edit rebuild them.
func TestPageCacheKeepsPagesOfOtherHolders(t *testing.T) {
	w := newPCWorld(t)
	ap := w.apply(w.member, w.badge)
	w.adminA.Put("/admin/applications/"+ap.ID+"/approve", map[string]any{}).Expect(http.StatusOK)
	var g model.BadgeGrant
	if err := w.a.DB.NewSelect().Model(&g).Where("application_id = ?", ap.ID).Scan(w.a.Ctx()); err != nil {
		t.Fatal(err)
	}
	// a member in another holder bucket (a bucket is shared by 1 in 64 ids)
	var other *model.User
	for i := 0; other == nil; i++ {
		u := w.a.CreateUser(fmt.Sprintf("otto%d@meritmark.test", i), "password123", model.RoleUser)
		if pagecache.Holder(u.ID) != pagecache.Holder(w.member.ID) {
			other = u
		}
	}
	otherB := w.b.LoginAs(other)
	verify := "/verify/" + g.PublicVerificationID
	hof, hofAPI, byName := "/hall-of-fame", "/backend/api/v1/hall-of-fame", "/hall-of-fame?sort=name"
	w.warm(verify, hof, hofAPI, byName)

	otherB.Post("/users/profile", map[string]any{"name": "Otto Other", "position": "Chemist", "linkedin": "", "portfolio": ""}).Expect(http.StatusOK)
	w.served(3, verify, hof, hofAPI)
	w.served(0, byName)

	w.memberA.Post("/users/profile", map[string]any{"name": "Mira R. Holder", "position": "Physicist", "linkedin": "", "portfolio": ""}).Expect(http.StatusOK)
	for _, p := range []string{verify, hof, hofAPI, byName} {
		w.expect(p, "Mira R. Holder", true)
	}
}

// Unchanged pages are answered from the cache with a weak ETag (304 when it matches);
// signed-in pages are never stored or shared; a write that does not touch a page's
// scopes leaves it cached.
func TestPageCacheHitsETagsAndSignedInPages(t *testing.T) {
	w := newPCWorld(t)
	pc := w.a.App.PageCache
	v := w.visitors[0]
	r1 := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html"}).Expect(200)
	tag := r1.Header.Get("ETag")
	if !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("ETag %q", tag)
	}
	h0, m0, _, _ := pc.Stats()
	r2 := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html"}).Expect(200)
	if string(r2.Body) != string(r1.Body) || r2.Header.Get("ETag") != tag || r2.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("a hit differs from the render: %q %q", r2.Header.Get("ETag"), r2.Header.Get("Content-Type"))
	}
	apptest.Expect(t, "a hit's per-request headers", r2.Header,
		apptest.Eq("r2.Header.Get(\"X-Frame-Options\")", r2.Header.Get("X-Frame-Options"), "DENY"),
		apptest.Eq("r2.Header.Get(\"Content-Security-Policy\")", r2.Header.Get("Content-Security-Policy"), r1.Header.Get("Content-Security-Policy")),
		apptest.True("r2.Header.Get(\"X-Request-Id\") != \"\"", r2.Header.Get("X-Request-Id") != ""),
		apptest.True("r2.Header.Get(\"X-Request-Id\") != r1.Header.Get(\"X-Request-Id\")", r2.Header.Get("X-Request-Id") != r1.Header.Get("X-Request-Id")))
	// a hit leaves the chain before most of its layers: it still carries every header the
	// render did, with the same values, but the ones made per request
	for name, vals := range r1.Header {
		switch name {
		case "Date", "X-Request-Id", "Content-Length":
			continue
		}
		if got := r2.Header.Values(name); strings.Join(got, ", ") != strings.Join(vals, ", ") {
			t.Errorf("a hit's %s is %q, the render's %q", name, got, vals)
		}
	}
	nm := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html", "If-None-Match": tag})
	if nm.Status != http.StatusNotModified || len(nm.Body) != 0 {
		t.Fatalf("If-None-Match: %d, %d bytes", nm.Status, len(nm.Body))
	}
	if h1, m1, _, _ := pc.Stats(); h1-h0 != 2 || m1 != m0 {
		t.Fatalf("hits %d, misses %d after two repeats", h1-h0, m1-m0)
	}
	// a profile edit does not touch the catalogue: still a hit, same ETag
	w.memberA.Post("/users/profile", map[string]any{"name": "Mira Changed", "position": "", "linkedin": "", "portfolio": ""}).Expect(200)
	if r := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html", "If-None-Match": tag}); r.Status != http.StatusNotModified {
		t.Fatalf("catalogue after a profile edit: %d", r.Status)
	}
	// a badge edit does: the old ETag no longer matches
	w.adminA.Put("/badge-management/badges/"+w.badge.ID, map[string]any{"name": "Quantum Renamed"}).Expect(200)
	r3 := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html", "If-None-Match": tag}).Expect(200)
	if r3.Header.Get("ETag") == tag || !strings.Contains(r3.Text(), "Quantum Renamed") {
		t.Fatalf("catalogue after a badge edit: ETag %q", r3.Header.Get("ETag"))
	}

	// signed in: rendered for the member every time, never stored
	_, _, s0, _ := pc.Stats()
	h0, _, _, _ = pc.Stats()
	for range 2 {
		r := w.memberA.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html"}).Expect(200)
		if !strings.Contains(html.UnescapeString(r.Text()), `"email":"mira@meritmark.test"`) {
			t.Fatal("the member's page lacks the member")
		}
		if strings.HasPrefix(r.Header.Get("ETag"), `W/"p-`) {
			t.Fatal("a signed-in page carries the cache's ETag")
		}
	}
	if h1, _, s1, _ := pc.Stats(); h1 != h0 || s1 != s0 {
		t.Fatalf("signed-in requests used the cache: hits +%d, stores +%d", h1-h0, s1-s0)
	}
	// and the visitor's page never shows the member
	if r := v.Raw("GET", "/badges", nil, map[string]string{"Accept": "text/html"}); strings.Contains(html.UnescapeString(r.Text()), "mira@meritmark.test") {
		t.Fatal("a visitor got the member's page")
	}
}

// Bump moves only the named scopes, and only when the transaction commits.
func TestPageCacheBumpIsTransactional(t *testing.T) {
	e := apptest.New(t)
	ctx := e.Ctx()
	v0, err := pagecache.Read(ctx, e.DB)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := e.DB.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := pagecache.Bump(ctx, tx, pagecache.Grants); err != nil {
		t.Fatal(err)
	}
	_ = tx.Rollback()
	if v, _ := pagecache.Read(ctx, e.DB); v != v0 {
		t.Fatalf("a rolled back bump moved the versions: %v -> %v", v0, v)
	}
	if err := pagecache.Bump(ctx, e.DB, pagecache.Grants, pagecache.Profiles); err != nil {
		t.Fatal(err)
	}
	v1, _ := pagecache.Read(ctx, e.DB)
	if v1[pagecache.Grants] != v0[pagecache.Grants]+1 || v1[pagecache.Profiles] != v0[pagecache.Profiles]+1 || v1[pagecache.Badges] != v0[pagecache.Badges] {
		t.Fatalf("versions %v -> %v", v0, v1)
	}
}

// The technical report counts quiz attempts, which no scope follows: its cached copies
// live five minutes, while the badge page's keep the cache's ten.
func TestTechnicalReportIsCachedBriefly(t *testing.T) {
	a := apptest.New(t, apptest.WithPageCache)
	pc := a.App.PageCache
	now := time.Now()
	pc.Now = func() time.Time { return now }
	at := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Regex Basics", Description: "Reads and writes patterns.", Category: "Development",
		Type: model.TypeSkill, Level: "beginner", Icon: "Code", Color: "blue", Criteria: "Pass the quiz.", IsActive: true, CreatedAt: at, UpdatedAt: at}
	q := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: "Regex Basics Assessment", PassingScore: 70, TimeLimit: 10, IsActive: true, CreatedAt: at}
	for _, m := range []any{b, q} {
		if _, err := a.DB.NewInsert().Model(m).Exec(a.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	v := a.Client()
	hits := func(path string) int64 {
		h0, _, _, _ := pc.Stats()
		v.Raw("GET", path, nil, map[string]string{"Accept": "text/html"}).Expect(200)
		h1, _, _, _ := pc.Stats()
		return h1 - h0
	}
	report, badge := "/badges/"+b.ID+"/assessment", "/badges/"+b.ID
	for _, p := range []string{report, badge} {
		if hits(p) != 0 || hits(p) != 1 {
			t.Fatalf("%s: the first request is not a miss and the second a hit", p)
		}
	}
	now = now.Add(4 * time.Minute)
	if hits(report) != 1 {
		t.Fatal("the report is not cached for 4 minutes")
	}
	now = now.Add(2 * time.Minute)
	if hits(report) != 0 {
		t.Fatal("the report is still cached after 6 minutes")
	}
	if hits(badge) != 1 {
		t.Fatal("the badge page's copy did not keep the cache's TTL")
	}
}
