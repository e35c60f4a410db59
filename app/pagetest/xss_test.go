package pagetest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/apptest/htmlcheck"
	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/web"
)

// xssPayloads are the classic breakouts: a tag, an attribute breakout, a script-element
// breakout (aimed at the JSON props and JSON-LD scripts), a script URL, a template
// expression, an SVG handler, a comment opener and the line separators that end a JS
// string in old parsers.
var xssPayloads = []string{`<script>alert(1)</script>`, `"><img src=x onerror=alert(1)>`, `</script><script>alert(1)</script>`,
	`javascript:alert(1)`, `{{7*7}}`, `'><svg onload=alert(1)>`, `<!--`, "\u2028\u2029", `</title><script>alert(1)</script>`}

// evil is a field value: a marker naming the field, then every payload.
func evil(marker string) string { return marker + " " + strings.Join(xssPayloads, " ") }

// shortEvil is the three markup breakouts after a marker (under 100 characters, for the
// fields and parameters with a length limit).
func shortEvil(marker string) string { return marker + " " + strings.Join(xssPayloads[:3], " ") }

// scriptURLs are link values a browser would run.
var scriptURLs = []string{"javascript:alert(1)", " JaVaScRiPt:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "java\tscript:alert(1)"}

// xssCheck fails t when body could run script, and when a marker is not on the page (the
// field did not reach it, so the probe proved nothing).
func xssCheck(t *testing.T, what string, r *apptest.Resp, markers ...string) {
	t.Helper()
	if r.Status >= 500 {
		t.Errorf("%s: status %d", what, r.Status)
		return
	}
	for _, p := range htmlcheck.Problems(r.Body, web.ThemeScript) {
		t.Errorf("%s: %s", what, p)
	}
	// the raw document never holds a payload verbatim (outside the escaping of JSON)
	for _, p := range []string{`<script>alert(1)`, `<img src=x onerror`, `<svg onload`, `href="javascript:`, `href="data:text/html`} {
		if strings.Contains(strings.ToLower(r.Text()), strings.ToLower(p)) {
			t.Errorf("%s: the document holds %q verbatim", what, p)
		}
	}
	text := htmlcheck.Text(r.Body)
	for _, m := range markers {
		if !strings.Contains(text, m) {
			t.Errorf("%s: marker %q is not on the page: the probe did not reach it", what, m)
		}
	}
}

func xssPage(c *apptest.Client, path string) *apptest.Resp {
	return c.Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
}

func mustInsert(t *testing.T, e *apptest.Env, v any) {
	t.Helper()
	if _, err := e.DB.NewInsert().Model(v).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
}

// TestXSSStoredFieldsNeverBecomeMarkup plants payloads in every user- or admin-controlled
// field that a server-rendered page shows, straight into the database (as if some other
// path had let them in), and renders every page that shows them with the real renderer:
// no executable markup, no script URL in a link, no breakout from the JSON props or the
// JSON-LD, and each field visibly reached its page as text.
func TestXSSStoredFieldsNeverBecomeMarkup(t *testing.T) {
	e := New(t)
	now := model.Now()
	ctx := e.Ctx()

	// the member: every profile field hostile, links that are script URLs
	u := e.CreateUser("evil@x.io", "password123", model.RoleUser)
	u.Name, u.Position, u.Company = evil("NAME-M"), evil("POSITION-M"), evil("COMPANY-M")
	u.LinkedIn, u.Portfolio = scriptURLs[0], scriptURLs[1]
	if _, err := e.DB.NewUpdate().Model(u).Column("name", "position", "company", "linkedin", "portfolio").WherePK().Exec(ctx); err != nil {
		t.Fatal(err)
	}
	member := e.LoginAs(u)
	admin := e.LoginAs(e.CreateUser("boss@x.io", "password123", model.RoleAdmin))

	// badges an admin wrote: name, description, criteria
	mkBadge := func(marker, typ string, price int64) *model.Badge {
		b := &model.Badge{ID: model.NewID(), Name: evil(marker + "-NAME"), Description: evil(marker + "-DESC"), Category: "Design", Type: typ,
			Level: "beginner", PriceCents: price, Icon: "Award", Color: "blue", Criteria: evil(marker + "-CRIT"), IsActive: true, CreatedAt: now, UpdatedAt: now}
		mustInsert(t, e, b)
		return b
	}
	rejectedB, pendingB, grantedB, payB := mkBadge("RB", model.TypeProof, 4900), mkBadge("PB", model.TypeProof, 4900), mkBadge("GB", model.TypeProof, 0), mkBadge("YB", model.TypeProof, 2500)

	mkApp := func(b *model.Badge, status, marker string) *model.Application {
		a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: status, PaymentStatus: model.PaymentCompleted,
			FullName: evil(marker + "-FULLNAME"), Email: u.Email, Position: evil(marker + "-POS"), LinkedIn: scriptURLs[2], Portfolio: scriptURLs[3],
			Description: evil(marker + "-DESC"), PriceCents: b.PriceCents, CreatedAt: now, UpdatedAt: now}
		if status == model.StatusRejected {
			a.RejectionReason = evil(marker + "-REASON")
			a.ReviewedAt = &now
		}
		if status == model.StatusAwaitingPayment {
			a.PaymentStatus = model.PaymentPending
		}
		mustInsert(t, e, a)
		mustInsert(t, e, &model.ApplicationFile{ID: model.NewID(), ApplicationID: a.ID, Kind: "proof", StorageKey: "applications/" + a.ID + "/x.pdf",
			OriginalName: evil(marker+"-FILE") + ".pdf", ContentType: "application/pdf", Size: 10, CreatedAt: now})
		return a
	}
	mkApp(rejectedB, model.StatusRejected, "RA")
	mkApp(pendingB, model.StatusPending, "PA")
	mkApp(payB, model.StatusAwaitingPayment, "YA")
	granted := mkApp(grantedB, model.StatusApproved, "GA")
	var g *model.BadgeGrant
	if err := e.Deps.Events.RunInTx(ctx, e.DB, func(ctx context.Context, tx bun.Tx) error {
		res, err := grant.Issue(ctx, tx, grant.Input{Issuer: e.Deps.Issuer, Application: granted, Badge: grantedB, GrantedBy: u.ID, Now: now, Origin: e.URL})
		if err == nil {
			g = res.Grant
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	vid, pvid := g.VerificationID, g.PublicVerificationID

	// a coupon with a hostile name and description (shown by the admin's coupon tab)
	mustInsert(t, e, &model.Coupon{ID: model.NewID(), Code: "EVIL10", Name: evil("COUPON-NAME"), Description: evil("COUPON-DESC"), DiscountType: "percentage",
		DiscountValue: 1000, ValidFrom: now.Add(-time.Hour), ValidUntil: now.Add(time.Hour), IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{},
		CreatedAt: now, UpdatedAt: now})

	visitor := e.Client()
	q := url.QueryEscape(evil("QUERY-M"))
	sq := url.QueryEscape(shortEvil("Q-M"))
	for _, tc := range []struct {
		client  *apptest.Client
		path    string
		markers []string
	}{
		// the header's user menu on any page
		{member, "/", []string{"NAME-M"}},
		{member, "/profile", []string{"NAME-M", "POSITION-M", "GB-NAME"}},
		{visitor, "/profile/" + u.ID, []string{"NAME-M", "POSITION-M", "GB-NAME"}},
		{visitor, "/badges", []string{"RB-NAME", "RB-CRIT"}},
		{visitor, "/badges?q=" + q + "&category=" + q, []string{"QUERY-M"}},
		{visitor, "/badges/" + rejectedB.ID, []string{"RB-NAME", "RB-DESC", "RB-CRIT"}},
		{member, "/badges/" + rejectedB.ID, []string{"RB-NAME", "RA-REASON"}},
		{member, "/badges/" + grantedB.ID, []string{"GB-NAME", vid}},
		{member, "/proof-upload/" + rejectedB.ID, []string{"RB-NAME", "NAME-M", "POSITION-M", "RA-REASON"}},
		{member, "/proof-upload/" + pendingB.ID, []string{"PB-NAME", "PA-DESC", "PA-FILE"}},
		{member, "/payment/" + payB.ID, []string{"YB-NAME"}},
		{member, "/payment-success/" + payB.ID, nil},
		{member, "/payment-failed/" + payB.ID, []string{"YB-NAME"}},
		{member, "/quiz/" + rejectedB.ID, []string{"RB-NAME"}},
		{admin, "/admin", []string{"PB-NAME", "PA-DESC", "NAME-M"}},
		{visitor, "/hall-of-fame", []string{"NAME-M", "POSITION-M", "COMPANY-M", "GB-NAME"}},
		{visitor, "/hall-of-fame?search=" + sq, []string{"Q-M"}},
		{visitor, "/hall-of-fame?search=" + q, nil},
		{visitor, "/verify/" + pvid, []string{"GB-NAME", "GB-DESC", "NAME-M"}},
		{visitor, "/verify-badge?id=" + q, nil},
		{visitor, "/verify/" + url.PathEscape(evil("VID-M")), nil},
		{visitor, "/login?next=" + url.QueryEscape("javascript:alert(1)"), nil},
		{visitor, "/reset-password?email=" + q + "&token=" + q, nil},
		{visitor, "/no-such-page/" + url.PathEscape(evil("PATH-M")), nil},
	} {
		r := xssPage(tc.client, tc.path)
		xssCheck(t, tc.path, r, tc.markers...)
	}
	// the JSON-LD names only http(s) links as the person's other profiles
	if r := xssPage(visitor, "/profile/"+u.ID); strings.Contains(r.Text(), `"sameAs"`) {
		t.Errorf("the public profile's JSON-LD lists script URLs as sameAs")
	}
	// the payloads are shown as the very text that was typed: {{7*7}} stays {{7*7}}
	if text := htmlcheck.Text(xssPage(visitor, "/profile/"+u.ID).Body); !strings.Contains(text, evil("NAME-M")) || strings.Contains(text, "NAME-M 49") {
		t.Errorf("the public profile does not show the name as typed")
	}
}

// TestXSSThroughTheAPI sends the payloads through the real forms: script URLs are refused
// by every endpoint that stores a link (only http(s) is kept), and the text fields that
// are accepted come back on the pages as text.
func TestXSSThroughTheAPI(t *testing.T) {
	e := New(t)
	u, c := e.Member("ann@x.io")
	_, admin := e.Admin("boss@x.io")
	for _, link := range scriptURLs {
		for _, field := range []string{"linkedin", "portfolio"} {
			r := c.Post("/users/profile", map[string]string{"name": "Ann", field: link})
			if r.Status != http.StatusBadRequest {
				t.Errorf("profile %s %q: %d %s", field, link, r.Status, r.Text())
			}
			r = admin.Put("/admin/users/"+u.ID, map[string]string{field: link})
			if r.Status != http.StatusBadRequest {
				t.Errorf("admin edit %s %q: %d %s", field, link, r.Status, r.Text())
			}
		}
	}
	c.Post("/users/profile", map[string]string{"name": shortEvil("API-NAME"), "position": shortEvil("API-POS"), "linkedin": "https://linkedin.com/in/ann"}).Expect(200)
	var stored model.User
	if err := e.DB.NewSelect().Model(&stored).Where("id = ?", u.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if stored.LinkedIn != "https://linkedin.com/in/ann" || stored.Portfolio != "" {
		t.Fatalf("stored links %q %q", stored.LinkedIn, stored.Portfolio)
	}

	// an admin's badge form with payloads in every text field
	body, _ := json.Marshal(map[string]any{"name": shortEvil("API-B"), "description": evil("API-BDESC"), "criteria": evil("API-CRIT"),
		"category": "Design", "type": "proof", "level": "beginner", "price": 10, "isActive": true})
	r := admin.Post("/badge-management/badges", string(body))
	if r.Status != http.StatusCreated && r.Status != http.StatusOK {
		t.Fatalf("create badge: %d %s", r.Status, r.Text())
	}
	var created struct {
		Badge struct {
			ID string `json:"_id"`
		} `json:"badge"`
		ID string `json:"_id"`
	}
	r.JSON(&created)
	id := created.Badge.ID
	if id == "" {
		id = created.ID
	}
	xssCheck(t, "/profile", xssPage(c, "/profile"), "API-NAME", "API-POS")
	xssCheck(t, "/profile/"+u.ID, xssPage(e.Client(), "/profile/"+u.ID), "API-NAME", "API-POS")
	xssCheck(t, "/badges/"+id, xssPage(e.Client(), "/badges/"+id), "API-B", "API-BDESC", "API-CRIT")
	xssCheck(t, "/badges", xssPage(e.Client(), "/badges"), "API-B")
}

// TestAdminPageDeniedText: a member opening /admin gets the spec's 'Access Denied' text in
// the real page, with 403, and none of the dashboard.
func TestAdminPageDeniedText(t *testing.T) {
	e := New(t)
	_, c := e.Member("ann@x.io")
	r := xssPage(c, "/admin")
	if r.Status != http.StatusForbidden || !strings.Contains(htmlcheck.Text(r.Body), web.MsgAdminRequired) {
		t.Fatalf("member on /admin: %d, text has Access Denied: %v", r.Status, strings.Contains(htmlcheck.Text(r.Body), web.MsgAdminRequired))
	}
	if strings.Contains(r.Text(), "Badge Applications Management") {
		t.Fatal("the denied page shows the dashboard")
	}
}
