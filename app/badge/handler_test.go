package badge_test

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/badge"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// --- fixtures ---

type fx struct {
	env   *apptest.Env
	admin *model.User
	seq   int
}

func newFx(t testing.TB) *fx {
	e := apptest.New(t)
	admin := e.CreateUser("creator@example.com", "password123", model.RoleAdmin)
	if _, err := e.DB.NewUpdate().Table("users").Set("name = ?", "Ada Admin").Where("id = ?", admin.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return &fx{env: e, admin: admin}
}

type badgeOpt func(*model.Badge)

func inactive(b *model.Badge)    { b.IsActive = false }
func price(cents int64) badgeOpt { return func(b *model.Badge) { b.PriceCents = cents } }
func describe(d string) badgeOpt { return func(b *model.Badge) { b.Description = d } }
func proofType(b *model.Badge)   { b.Type = model.TypeProof }
func criteria(c string) badgeOpt { return func(b *model.Badge) { b.Criteria = c } }

func (f *fx) badge(name, category string, opts ...badgeOpt) *model.Badge {
	f.env.T.Helper()
	f.seq++
	at := model.Now().Add(time.Duration(f.seq) * time.Second)
	b := &model.Badge{ID: model.NewID(), Name: name, Description: name + " description", Category: category, Type: model.TypeSkill,
		Level: "intermediate", PriceCents: 4900, Icon: "Code", Color: "blue", Criteria: "Pass the " + name + " quiz.",
		IsActive: true, CreatedBy: &f.admin.ID, CreatedAt: at, UpdatedAt: at}
	for _, o := range opts {
		o(b)
	}
	if _, err := f.env.DB.NewInsert().Model(b).Exec(f.env.Ctx()); err != nil {
		f.env.T.Fatal(err)
	}
	return b
}

func (f *fx) quiz(b *model.Badge, questions int, active bool) *model.Quiz {
	f.env.T.Helper()
	ctx := f.env.Ctx()
	q := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: b.Name + " Assessment", PassingScore: 75, TimeLimit: 20, IsActive: active, CreatedAt: model.Now()}
	if _, err := f.env.DB.NewInsert().Model(q).Exec(ctx); err != nil {
		f.env.T.Fatal(err)
	}
	for i := 0; i < questions; i++ {
		qu := &model.Question{ID: model.NewID(), Text: fmt.Sprintf("Q%d", i), Options: []string{"a", "b"}, Difficulty: "easy", Category: b.Category, CreatedAt: model.Now()}
		if _, err := f.env.DB.NewInsert().Model(qu).Exec(ctx); err != nil {
			f.env.T.Fatal(err)
		}
		if _, err := f.env.DB.NewInsert().Model(&model.QuizQuestion{QuizID: q.ID, QuestionID: qu.ID, Position: i}).Exec(ctx); err != nil {
			f.env.T.Fatal(err)
		}
	}
	return q
}

func (f *fx) app(u *model.User, b *model.Badge, status string, created time.Time, reason string) *model.Application {
	f.env.T.Helper()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: status, PaymentStatus: model.PaymentPending,
		PriceCents: b.PriceCents, RejectionReason: reason, CreatedAt: created, UpdatedAt: created}
	if status == model.StatusRejected || status == model.StatusApproved {
		r := created.Add(time.Hour)
		a.ReviewedAt = &r
	}
	if _, err := f.env.DB.NewInsert().Model(a).Exec(f.env.Ctx()); err != nil {
		f.env.T.Fatal(err)
	}
	return a
}

func (f *fx) grant(u *model.User, b *model.Badge, at time.Time, revoked bool) *model.BadgeGrant {
	f.env.T.Helper()
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-" + model.NewID(),
		PublicVerificationID: model.NewID() + model.NewID(), GrantedAt: at}
	if revoked {
		r := at.Add(time.Hour)
		g.RevokedAt = &r
	}
	if _, err := f.env.DB.NewInsert().Model(g).Exec(f.env.Ctx()); err != nil {
		f.env.T.Fatal(err)
	}
	return g
}

// queryCounter counts the queries bun runs while on.
type queryCounter struct {
	on atomic.Bool
	n  atomic.Int64
}

func (c *queryCounter) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	if c.on.Load() {
		c.n.Add(1)
	}
	return ctx
}
func (c *queryCounter) AfterQuery(context.Context, *bun.QueryEvent) {}

func (c *queryCounter) count(fn func()) int64 {
	c.n.Store(0)
	c.on.Store(true)
	fn()
	c.on.Store(false)
	return c.n.Load()
}

func badgesOf(t *testing.T, r *apptest.Resp) []map[string]any {
	t.Helper()
	var body struct {
		Badges []map[string]any `json:"badges"`
	}
	r.JSON(&body)
	return body.Badges
}

func byName(list []map[string]any) map[string]map[string]any {
	m := map[string]map[string]any{}
	for _, b := range list {
		m[b["name"].(string)] = b
	}
	return m
}

func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return strings.Join(ks, ",")
}

// --- API ---

func TestCatalogueForVisitorsIsThePlainActiveList(t *testing.T) {
	f := newFx(t)
	react := f.badge("React Developer", "Development", describe("Build React apps."))
	f.quiz(react, 3, true)
	f.badge("Open Source Contributor", "Development", proofType, price(2900))
	f.badge("Retired Badge", "Design", inactive)
	noQuiz := f.badge("Quizless Skill", "Design")
	f.quiz(noQuiz, 2, false) // an inactive quiz is not shown

	r := f.env.Client().Get("/badges/with-ownership").Expect(200)
	list := badgesOf(t, r)
	if len(list) != 3 {
		t.Fatalf("got %d badges, want the 3 active ones: %s", len(list), r.Text())
	}
	if list[0]["name"] != "React Developer" || list[1]["name"] != "Open Source Contributor" || list[2]["name"] != "Quizless Skill" {
		t.Errorf("order: %v, %v, %v", list[0]["name"], list[1]["name"], list[2]["name"])
	}
	rb := list[0]
	if got := keys(rb); got != "_id,category,color,createdBy,criteria,description,icon,isActive,level,name,price,quiz,requiresResume,type" {
		t.Errorf("badge keys: %s", got)
	}
	apptest.Want(t, "badge fields", rb,
		apptest.Eq[any]("rb[\"_id\"]", rb["_id"], react.ID),
		apptest.Eq("rb[\"price\"]", rb["price"], 49.0),
		apptest.Eq("rb[\"type\"]", rb["type"], "skill"),
		apptest.Eq("rb[\"level\"]", rb["level"], "intermediate"),
		apptest.Eq("rb[\"isActive\"]", rb["isActive"], true),
		apptest.Eq("rb[\"requiresResume\"]", rb["requiresResume"], false),
		apptest.Eq("rb[\"icon\"]", rb["icon"], "Code"),
		apptest.Eq("rb[\"color\"]", rb["color"], "blue"),
		apptest.Eq("rb[\"description\"]", rb["description"], "Build React apps."))
	if cb, _ := rb["createdBy"].(map[string]any); cb["name"] != "Ada Admin" {
		t.Errorf("createdBy %v", rb["createdBy"])
	}
	q, _ := rb["quiz"].(map[string]any)
	apptest.Want(t, "quiz", q,
		apptest.Eq("q[\"title\"]", q["title"], "React Developer Assessment"),
		apptest.Eq("q[\"passingScore\"]", q["passingScore"], 75.0),
		apptest.Eq("q[\"timeLimit\"]", q["timeLimit"], 20.0),
		apptest.Eq("q[\"questionCount\"]", q["questionCount"], 3.0),
		apptest.True("q[\"_id\"] != \"\"", q["_id"] != ""))
	if keys(q) != "_id,passingScore,questionCount,timeLimit,title" {
		t.Errorf("quiz keys %s", keys(q))
	}
	if _, ok := list[1]["quiz"]; ok {
		t.Error("a proof badge has a quiz key")
	}
	if list[1]["price"] != 29.0 {
		t.Errorf("price %v", list[1]["price"])
	}
	if _, ok := list[2]["quiz"]; ok {
		t.Error("an inactive quiz is shown")
	}
	for _, b := range list {
		if _, ok := b["isOwned"]; ok {
			t.Error("a visitor's list carries isOwned")
		}
	}
}

func TestCatalogueOwnershipStates(t *testing.T) {
	f := newFx(t)
	owned := f.badge("Owned", "Development")
	pending := f.badge("Pending", "Design")
	awaiting := f.badge("Awaiting", "Management")
	rejected := f.badge("Rejected", "Marketing")
	reapplied := f.badge("Reapplied", "DevOps")
	revoked := f.badge("Revoked", "Data Science")
	untouched := f.badge("Untouched", "Data Science")
	u, c := f.env.Member("member@example.com")
	other, _ := f.env.Member("other@example.com")
	t0 := model.Now().Add(-48 * time.Hour)

	f.app(u, owned, model.StatusApproved, t0, "")
	f.grant(u, owned, t0.Add(2*time.Hour), false)
	f.app(u, pending, model.StatusPending, t0, "")
	f.app(u, awaiting, model.StatusAwaitingPayment, t0, "")
	f.app(u, rejected, model.StatusRejected, t0, "Blurry scan")
	f.app(u, reapplied, model.StatusRejected, t0, "First try")
	f.app(u, reapplied, model.StatusPending, t0.Add(time.Hour), "")
	f.app(u, revoked, model.StatusApproved, t0, "")
	f.grant(u, revoked, t0, true)
	// another user's records never leak
	f.app(other, untouched, model.StatusPending, t0, "")
	f.grant(other, untouched, t0, false)

	m := byName(badgesOf(t, c.Get("/badges/with-ownership").Expect(200)))
	want := map[string]struct {
		owned  bool
		status any
	}{
		"Owned": {true, "approved"}, "Pending": {false, "pending"}, "Awaiting": {false, "awaiting_payment"},
		"Rejected": {false, "rejected"}, "Reapplied": {false, "pending"}, "Revoked": {false, "approved"}, "Untouched": {false, nil},
	}
	for name, w := range want {
		b := m[name]
		if b == nil {
			t.Fatalf("%s missing", name)
		}
		if b["isOwned"] != w.owned || b["applicationStatus"] != w.status {
			t.Errorf("%s: isOwned=%v applicationStatus=%v, want %v %v", name, b["isOwned"], b["applicationStatus"], w.owned, w.status)
		}
		if _, ok := b["applicationStatus"]; !ok {
			t.Errorf("%s: applicationStatus key missing (want null)", name)
		}
	}
	_ = untouched
}

func TestBadgeDetailCarriesTheLatestApplicationAndGrant(t *testing.T) {
	f := newFx(t)
	b := f.badge("Docker", "DevOps")
	u, c := f.env.Member("m@example.com")
	t0 := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	f.app(u, b, model.StatusRejected, t0, "Missing proof")

	// a visitor: badge only
	r := f.env.Client().Get("/badges/" + b.ID).Expect(200).Map()
	apptest.Expect(t, "visitor detail", r,
		apptest.True("r[\"application\"] == nil", r["application"] == nil),
		apptest.True("r[\"grant\"] == nil", r["grant"] == nil))
	apptest.Expect(t, "visitor detail", r,
		apptest.Eq[any]("r[\"badge\"].(map[string]any)[\"_id\"]", r["badge"].(map[string]any)["_id"], b.ID))

	r = c.Get("/badges/" + b.ID).Expect(200).Map()
	a := r["application"].(map[string]any)
	apptest.Want(t, "application", a,
		apptest.Eq("a[\"status\"]", a["status"], "rejected"),
		apptest.Eq("a[\"rejectionReason\"]", a["rejectionReason"], "Missing proof"),
		apptest.Eq("a[\"createdAt\"]", a["createdAt"], "2026-05-04T10:00:00Z"),
		apptest.Eq("a[\"reviewedAt\"]", a["reviewedAt"], "2026-05-04T11:00:00Z"))
	if keys(a) != "_id,createdAt,paymentProcessing,rejectionReason,reviewedAt,status" {
		t.Errorf("application keys %s", keys(a))
	}
	if r["grant"] != nil {
		t.Errorf("grant %v", r["grant"])
	}

	second := f.app(u, b, model.StatusApproved, t0.Add(24*time.Hour), "")
	g := f.grant(u, b, t0.Add(26*time.Hour), false)
	r = c.Get("/badges/" + b.ID).Expect(200).Map()
	a = r["application"].(map[string]any)
	apptest.Want(t, "latest application", a,
		apptest.Eq[any]("a[\"_id\"]", a["_id"], second.ID),
		apptest.Eq("a[\"status\"]", a["status"], "approved"),
		apptest.Eq("a[\"rejectionReason\"]", a["rejectionReason"], ""))
	gr := r["grant"].(map[string]any)
	apptest.Want(t, "grant", gr,
		apptest.Eq[any]("gr[\"verificationId\"]", gr["verificationId"], g.VerificationID),
		apptest.Eq[any]("gr[\"publicVerificationId\"]", gr["publicVerificationId"], g.PublicVerificationID),
		apptest.Eq("gr[\"grantedAt\"]", gr["grantedAt"], "2026-05-05T12:00:00Z"),
		apptest.True("gr[\"expiresAt\"] == nil", gr["expiresAt"] == nil))
}

func TestInactiveBadgeIsHiddenExceptFromAdmins(t *testing.T) {
	f := newFx(t)
	b := f.badge("Hidden", "Design", inactive)
	_, member := f.env.Member("m@example.com")
	_, admin := f.env.Admin("boss@example.com")

	f.env.Client().Get("/badges/"+b.ID).ExpectMsg(404, "Badge not found")
	member.Get("/badges/"+b.ID).ExpectMsg(404, "Badge not found")
	got := admin.Get("/badges/" + b.ID).Expect(200).Map()["badge"].(map[string]any)
	apptest.Want(t, "admin sees", got,
		apptest.Eq("got[\"isActive\"]", got["isActive"], false),
		apptest.Eq("got[\"name\"]", got["name"], "Hidden"))
	for _, c := range []*apptest.Client{f.env.Client(), member, admin} {
		if n := len(badgesOf(t, c.Get("/badges/with-ownership").Expect(200))); n != 0 {
			t.Errorf("catalogue lists %d inactive badges", n)
		}
	}

	r, props := member.Page("/badges/" + b.ID)
	r.Expect(404)
	if apptest.PageName(r) != "BadgeDetailPage" || props["page"].(map[string]any)["notFound"] != true {
		t.Errorf("member page: %s %v", apptest.PageName(r), props)
	}
	r, props = admin.Page("/badges/" + b.ID)
	r.Expect(200)
	if props["page"].(map[string]any)["badge"].(map[string]any)["isActive"] != false {
		t.Errorf("admin page props %v", props["page"])
	}
	if !strings.Contains(r.Text(), `<meta name="robots" content="noindex">`) {
		t.Error("an inactive badge page seen by an admin is indexable")
	}
	_, props = admin.Page("/badges")
	if n := len(props["page"].(map[string]any)["badges"].([]any)); n != 0 {
		t.Errorf("admin catalogue page lists %d inactive badges", n)
	}
}

func TestBadIDsAre404WithAMessage(t *testing.T) {
	f := newFx(t)
	c := f.env.Client()
	for _, id := range []string{"nope", "ZZZZZZZZZZZZZZZZZZZZZZZZ", model.NewID(), strings.Repeat("a", 300), "%27%20OR%201%3D1--", "5f1b2c3d4e5f6a7b8c9d0e1f%00"} {
		c.Get("/badges/"+id).ExpectMsg(404, "Badge not found")
		r, props := c.Page("/badges/" + id)
		r.Expect(404)
		if apptest.PageName(r) != "BadgeDetailPage" || props["page"].(map[string]any)["notFound"] != true {
			t.Errorf("%s: page %s %v", id, apptest.PageName(r), props)
		}
		if !strings.Contains(r.Text(), "<title>Badge not found | Meritmark</title>") {
			t.Errorf("%s: title", id)
		}
	}
}

// --- pages ---

func TestCataloguePageFiltersWithJavaScriptOff(t *testing.T) {
	f := newFx(t)
	react := f.badge("React Developer", "Development", describe("Build React applications."))
	f.badge("Go Backend Engineer", "Development")
	f.badge("React Native Designer", "Design", describe("Design React Native screens."))
	ux := f.badge("UX Design Fundamentals", "Design")
	c := f.env.Client()

	page := func(path string) map[string]any {
		t.Helper()
		r, props := c.Page(path)
		r.Expect(200)
		if apptest.PageName(r) != "BadgesPage" {
			t.Fatalf("%s rendered %s", path, apptest.PageName(r))
		}
		return props["page"].(map[string]any)
	}
	ids := func(p map[string]any) []string {
		var out []string
		for _, v := range p["matchIds"].([]any) {
			out = append(out, v.(string))
		}
		return out
	}

	p := page("/badges?q=react&category=Development")
	if got := ids(p); len(got) != 1 || got[0] != react.ID {
		t.Errorf("q=react&category=Development matched %v", got)
	}
	if p["q"] != "react" || p["category"] != "Development" || len(p["badges"].([]any)) != 4 {
		t.Errorf("props q=%v category=%v badges=%d", p["q"], p["category"], len(p["badges"].([]any)))
	}
	if got := ids(page("/badges?q=REACT")); len(got) != 2 {
		t.Errorf("q=REACT matched %v", got)
	}
	if p := page("/badges?category=design"); p["category"] != "Design" || len(ids(p)) != 2 {
		t.Errorf("category=design: %v %v", p["category"], ids(p))
	}
	if p := page("/badges?category=Nope&q=%20%20ux%20%20fundamentals%20"); p["category"] != "" || p["q"] != "ux fundamentals" || len(ids(p)) != 1 || ids(p)[0] != ux.ID {
		t.Errorf("unknown category: %v %v %v", p["category"], p["q"], ids(p))
	}
	if got := ids(page("/badges?q=zzz")); len(got) != 0 {
		t.Errorf("q=zzz matched %v", got)
	}
	all := page("/badges")
	if got := ids(all); len(got) != 4 || all["pageSize"] != 24.0 || all["showAll"] != false {
		t.Errorf("all: %v pageSize=%v showAll=%v", got, all["pageSize"], all["showAll"])
	}
	if p := page("/badges?show=all&category=Design"); p["showAll"] != true || len(ids(p)) != 2 {
		t.Errorf("show=all: %v %v", p["showAll"], ids(p))
	}
	r, _ := c.Page("/badges?q=react")
	body := r.Text()
	for _, w := range []string{"<title>Discover Professional Badges | Meritmark</title>", `<link rel="canonical" href="` + f.env.URL + `/badges">`, `"@type":"CollectionPage"`, `"numberOfItems":4`} {
		if !strings.Contains(body, w) {
			t.Errorf("catalogue head lacks %s", w)
		}
	}
	// the structured data lists every badge of the catalogue, in its order, whatever the filter
	m := regexp.MustCompile(`<script type="application/ld\+json">(.*?)</script>`).FindStringSubmatch(body)
	if m == nil {
		t.Fatal("catalogue has no JSON-LD")
	}
	var items []string
	for i, b := range all["badges"].([]any) {
		b := b.(map[string]any)
		items = append(items, fmt.Sprintf(`{"@type":"ListItem","name":%q,"position":%d,"url":"%s/badges/%s"}`, b["name"], i+1, f.env.URL, b["_id"]))
	}
	want := `{"@context":"https://schema.org","@type":"CollectionPage","mainEntity":{"@type":"ItemList","itemListElement":[` +
		strings.Join(items, ",") + `],"numberOfItems":4},"name":"Discover Professional Badges","url":"` + f.env.URL + `/badges"}`
	if m[1] != want {
		t.Errorf("catalogue JSON-LD\n got %s\nwant %s", m[1], want)
	}
}

func TestCataloguePageCarriesOwnership(t *testing.T) {
	f := newFx(t)
	b := f.badge("Owned", "Development")
	p := f.badge("Pending", "Development")
	u, c := f.env.Member("m@example.com")
	f.grant(u, b, model.Now(), false)
	f.app(u, p, model.StatusPending, model.Now(), "")
	_, props := c.Page("/badges")
	m := map[string]map[string]any{}
	for _, x := range props["page"].(map[string]any)["badges"].([]any) {
		m[x.(map[string]any)["name"].(string)] = x.(map[string]any)
	}
	apptest.Want(t, "page ownership", m,
		apptest.Eq("m[\"Owned\"][\"isOwned\"]", m["Owned"]["isOwned"], true),
		apptest.Eq("m[\"Pending\"][\"applicationStatus\"]", m["Pending"]["applicationStatus"], "pending"),
		apptest.Eq("m[\"Pending\"][\"isOwned\"]", m["Pending"]["isOwned"], false))
	// a card carries what the card shows and no more (no description, quiz or creator:
	// the page's props are parsed by the renderer on every visit)
	for name, card := range m {
		if got := keys(card); got != "_id,applicationStatus,category,color,criteria,icon,isOwned,level,name,paymentProcessing,price,type" {
			t.Errorf("%s: card keys %s", name, got)
		}
	}
	want := badge.View(b, nil, nil)
	apptest.Want(t, "card", m["Owned"],
		apptest.Eq[any]("_id", m["Owned"]["_id"], want.ID), apptest.Eq[any]("category", m["Owned"]["category"], want.Category),
		apptest.Eq[any]("type", m["Owned"]["type"], want.Type), apptest.Eq[any]("level", m["Owned"]["level"], want.Level),
		apptest.Eq[any]("price", m["Owned"]["price"], want.Price), apptest.Eq[any]("icon", m["Owned"]["icon"], want.Icon),
		apptest.Eq[any]("color", m["Owned"]["color"], want.Color), apptest.Eq[any]("criteria", m["Owned"]["criteria"], want.Criteria),
		apptest.Eq[any]("paymentProcessing", m["Owned"]["paymentProcessing"], false))
}

func TestDetailPageStatesAndStartRules(t *testing.T) {
	f := newFx(t)
	skill := f.badge("Skill Badge", "Development", criteria(strings.Repeat("word ", 30)))
	proof := f.badge("Proof Badge", "Design", proofType)
	u, c := f.env.Member("m@example.com")
	t0 := time.Date(2026, 4, 2, 8, 0, 0, 0, time.UTC)

	type want struct {
		start   bool
		href    string
		pay     string
		owned   bool
		share   bool
		appStat any
	}
	check := func(label string, cl *apptest.Client, b *model.Badge, w want) map[string]any {
		t.Helper()
		r, props := cl.Page("/badges/" + b.ID)
		r.Expect(200)
		p := props["page"].(map[string]any)
		a := p["actions"].(map[string]any)
		apptest.Want(t, fmt.Sprintf("%s: actions", label), a,
			apptest.Eq[any]("a[\"canStart\"]", a["canStart"], w.start),
			apptest.Eq[any]("a[\"startHref\"]", a["startHref"], w.href),
			apptest.Eq[any]("a[\"continuePaymentHref\"]", a["continuePaymentHref"], w.pay),
			apptest.Eq[any]("a[\"owned\"]", a["owned"], w.owned))
		if (p["share"] != nil) != w.share {
			t.Errorf("%s: share %v", label, p["share"])
		}
		var st any
		if app, ok := p["application"].(map[string]any); ok {
			st = app["status"]
		}
		if st != w.appStat {
			t.Errorf("%s: application status %v, want %v", label, st, w.appStat)
		}
		return p
	}

	check("visitor", f.env.Client(), skill, want{true, "/login?next=%2Fquiz%2F" + skill.ID, "", false, false, nil})
	check("visitor proof", f.env.Client(), proof, want{true, "/login?next=%2Fproof-upload%2F" + proof.ID, "", false, false, nil})
	check("no application", c, skill, want{true, "/quiz/" + skill.ID, "", false, false, nil})
	check("no application proof", c, proof, want{true, "/proof-upload/" + proof.ID, "", false, false, nil})

	a1 := f.app(u, skill, model.StatusAwaitingPayment, t0, "")
	check("awaiting payment", c, skill, want{false, "/quiz/" + skill.ID, "/payment/" + skill.ID, false, false, "awaiting_payment"})
	if _, err := f.env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusPending).Where("id = ?", a1.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	check("pending", c, skill, want{false, "/quiz/" + skill.ID, "", false, false, "pending"})
	if _, err := f.env.DB.NewUpdate().Model((*model.Application)(nil)).Set("status = ?", model.StatusRejected).Set("rejection_reason = ?", "Score too low").
		Set("reviewed_at = ?", t0.Add(time.Hour)).Where("id = ?", a1.ID).Exec(f.env.Ctx()); err != nil {
		t.Fatal(err)
	}
	p := check("rejected: can start again", c, skill, want{true, "/quiz/" + skill.ID, "", false, false, "rejected"})
	if p["application"].(map[string]any)["rejectionReason"] != "Score too low" {
		t.Errorf("rejection reason %v", p["application"])
	}

	f.app(u, skill, model.StatusApproved, t0.Add(48*time.Hour), "")
	g := f.grant(u, skill, t0.Add(50*time.Hour), false)
	p = check("owned", c, skill, want{false, "/quiz/" + skill.ID, "", true, true, "approved"})
	sh := p["share"].(map[string]any)
	if sh["verifyUrl"] != f.env.URL+"/verify/"+g.PublicVerificationID {
		t.Errorf("verify url %v", sh["verifyUrl"])
	}
	if !strings.HasPrefix(sh["linkedinAddUrl"].(string), "https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&name=Skill+Badge&organizationName=Meritmark&issueYear=2026&issueMonth=4&certUrl=") {
		t.Errorf("linkedin add %v", sh["linkedinAddUrl"])
	}
	if p["grant"].(map[string]any)["verificationId"] != g.VerificationID {
		t.Errorf("grant %v", p["grant"])
	}

	// an owner without an application sees a start button (the island answers it with
	// 'Badge Already Owned')
	f.grant(u, proof, t0, false)
	check("owned without application", c, proof, want{true, "/proof-upload/" + proof.ID, "", true, true, nil})

	// ?criteria=full expands the criteria without JavaScript
	_, props := c.Page("/badges/" + skill.ID + "?criteria=full")
	if props["page"].(map[string]any)["criteriaExpanded"] != true {
		t.Error("criteria=full not expanded")
	}
}

func TestDetailPageHeadHasSocialTagsAndJSONLD(t *testing.T) {
	f := newFx(t)
	b := f.badge("SQL <Data> Analyst", "Data Science", describe("Query & analyse data."))
	r := f.env.Client().Raw("GET", "/badges/"+b.ID, nil, map[string]string{"Accept": "text/html"}).Expect(200)
	body := r.Text()
	for _, w := range []string{
		`<title>SQL &lt;Data&gt; Analyst | Meritmark</title>`,
		`<meta property="og:title" content="SQL &lt;Data&gt; Analyst | Meritmark">`,
		`<meta property="og:description" content="Query &amp; analyse data.">`,
		`<meta property="og:image" content="` + f.env.URL + `/badges/` + b.ID + `/card.png?v=`, // its own card, not the site's
		`<meta property="og:image:width" content="1200"><meta property="og:image:height" content="630">`,
		`<meta property="og:image:alt" content="Meritmark card of the SQL &lt;Data&gt; Analyst badge, with its medallion">`,
		`<meta property="og:url" content="` + f.env.URL + `/badges/` + b.ID + `">`,
		`<meta name="twitter:card" content="summary_large_image">`,
		`<meta name="twitter:title" content="SQL &lt;Data&gt; Analyst | Meritmark">`,
		`<meta name="twitter:image" content="` + f.env.URL + `/badges/` + b.ID + `/card.png?v=`,
	} {
		if !strings.Contains(body, w) {
			t.Errorf("head lacks %s", w)
		}
	}
	ld := regexp.MustCompile(`<script type="application/ld\+json">(.*?)</script>`).FindStringSubmatch(body)
	if ld == nil || !strings.Contains(ld[1], `"@type":"EducationalOccupationalCredential"`) || !strings.Contains(ld[1], `"name":"SQL \u003cData\u003e Analyst"`) ||
		!strings.Contains(ld[1], `"priceCurrency":"USD"`) {
		t.Errorf("json-ld %v", ld)
	}
	if strings.Contains(body, `content="noindex"`) {
		t.Error("an active badge page is noindex")
	}
}

func TestOldBadgePathRedirects(t *testing.T) {
	f := newFx(t)
	b := f.badge("Docker", "DevOps")
	r := f.env.Client().Raw("GET", "/badge/"+b.ID+"?criteria=full", nil, map[string]string{"Accept": "text/html"})
	r.Expect(http.StatusMovedPermanently)
	if loc := r.Header.Get("Location"); loc != "/badges/"+b.ID+"?criteria=full" {
		t.Errorf("Location %q", loc)
	}
}

// --- no N+1 ---

func TestCatalogueQueryCountDoesNotGrowWithBadges(t *testing.T) {
	f := newFx(t)
	qc := &queryCounter{}
	//lint:ignore SA1019 the hook must count the queries of the running app, which holds this *bun.DB (WithQueryHook would make a clone)
	f.env.DB.AddQueryHook(qc)
	u, c := f.env.Member("m@example.com")
	svc := &badge.Service{DB: f.env.DB}
	ctx := f.env.Ctx()

	measure := func() (svcGuest, svcMember, apiMember, pageMember int64) {
		svcGuest = qc.count(func() {
			if _, err := svc.Catalogue(ctx, nil); err != nil {
				t.Fatal(err)
			}
		})
		svcMember = qc.count(func() {
			if _, err := svc.Catalogue(ctx, u); err != nil {
				t.Fatal(err)
			}
		})
		apiMember = qc.count(func() { c.Get("/badges/with-ownership").Expect(200) })
		pageMember = qc.count(func() { r, _ := c.Page("/badges"); r.Expect(200) })
		return
	}
	for i := 0; i < 3; i++ {
		b := f.badge(fmt.Sprintf("Small %d", i), "Development")
		f.quiz(b, 2, true)
		f.grant(u, b, model.Now(), false)
		f.app(u, b, model.StatusApproved, model.Now(), "")
	}
	g1, m1, a1, p1 := measure()
	for i := 0; i < 60; i++ {
		b := f.badge(fmt.Sprintf("Many %d", i), model.Categories[i%6])
		if i%2 == 0 {
			f.quiz(b, 3, true)
		}
		if i%3 == 0 {
			f.grant(u, b, model.Now(), false)
			f.app(u, b, model.StatusApproved, model.Now(), "")
		} else if i%3 == 1 {
			f.app(u, b, model.StatusRejected, model.Now(), "no")
		}
	}
	g2, m2, a2, p2 := measure()
	if g1 != 1 || g2 != 1 || m1 != 2 || m2 != 2 {
		t.Errorf("service queries: guest %d/%d, member %d/%d; want 1 and 2", g1, g2, m1, m2)
	}
	if a1 != a2 || p1 != p2 {
		t.Errorf("request queries grew with the catalogue: API %d -> %d, page %d -> %d", a1, a2, p1, p2)
	}
	t.Logf("queries per request (member): API %d, page %d (session lookup included)", a2, p2)

	d := qc.count(func() { c.Get("/badges/" + u.ID) })
	if d > 3 {
		t.Errorf("detail of an unknown id ran %d queries", d)
	}
}

// TestPaymentProcessingIsNotAwaitingPayment: while PayPal still processes the capture of
// an application awaiting payment, the payment page says nothing is owed; the catalogue
// and the detail say the same (paymentProcessing, and no Continue Payment button but a
// link to the payment's status). A failed last payment is owed again.
func TestPaymentProcessingIsNotAwaitingPayment(t *testing.T) {
	f := newFx(t)
	b := f.badge("Docker", "DevOps")
	u, c := f.env.Member("m@example.com")
	t0 := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
	a := f.app(u, b, model.StatusAwaitingPayment, t0, "")
	pay := func(status string, at time.Time) {
		p := &model.Payment{ID: model.NewID(), UserID: u.ID, ApplicationID: a.ID, BadgeID: b.ID, Provider: "paypal",
			TransactionID: "TX" + model.NewID(), Status: status, AmountCents: 1000, OriginalCents: 1000, Currency: "USD", CreatedAt: at}
		if _, err := f.env.DB.NewInsert().Model(p).Exec(f.env.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	detail := func() (map[string]any, map[string]any) {
		r := c.Get("/badges/" + b.ID).Expect(200).Map()
		return r["application"].(map[string]any), nil
	}
	entry := func() map[string]any {
		var l struct {
			Badges []map[string]any `json:"badges"`
		}
		c.Get("/badges/with-ownership").Expect(200).JSON(&l)
		for _, x := range l.Badges {
			if x["_id"] == b.ID {
				return x
			}
		}
		t.Fatal("badge missing from the catalogue")
		return nil
	}
	actions := func() map[string]any {
		_, props := c.Page("/badges/" + b.ID)
		return props["page"].(map[string]any)["actions"].(map[string]any)
	}

	// nothing paid yet: owed
	if ap, _ := detail(); ap["paymentProcessing"] != false || entry()["paymentProcessing"] != false || actions()["continuePaymentHref"] != "/payment/"+b.ID {
		t.Fatalf("unpaid: %v %v %v", ap, entry(), actions())
	}
	// a capture pending at PayPal: nothing more owed
	pay(model.PaymentPending, t0.Add(time.Hour))
	ap, _ := detail()
	act := actions()
	if ap["paymentProcessing"] != true || entry()["paymentProcessing"] != true || act["continuePaymentHref"] != "" || act["paymentStatusHref"] != "/payment-success/"+b.ID {
		t.Fatalf("pending capture: %v %v %v", ap, entry(), act)
	}
	// it failed later: owed again
	pay(model.PaymentFailed, t0.Add(2*time.Hour))
	if ap, _ := detail(); ap["paymentProcessing"] != false || actions()["continuePaymentHref"] != "/payment/"+b.ID {
		t.Fatalf("after a failed payment: %v %v", ap, actions())
	}
}
