package angoff_test

import (
	"fmt"
	"math"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"meritmark/app/angoff"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

var linkRe = regexp.MustCompile(`/angoff/([A-Za-z0-9_-]{43})`)

type fx struct {
	e       *apptest.Env
	admin   *apptest.Client
	quizID  string
	badgeID string
	items   []string // question ids, in the quiz's order
	keys    []string // every option text that is a key, and the explanations
}

// newFx makes a skill badge with an active quiz of n questions (passing score 70).
func newFx(t *testing.T, n int) *fx {
	t.Helper()
	e := apptest.New(t)
	_, adm := e.Admin("admin@meritmark.test")
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Go Developer", Description: "d", Category: "Development", Type: model.TypeSkill,
		Level: "intermediate", Icon: "Code", Color: "blue", Criteria: "c", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	var q struct {
		Quiz struct {
			ID string `json:"_id"`
		} `json:"quiz"`
	}
	adm.Post("/admin/badges/"+b.ID+"/quiz", map[string]any{"title": "Go Basics", "passingScore": 70}).Expect(201).JSON(&q)
	f := &fx{e: e, admin: adm, quizID: q.Quiz.ID, badgeID: b.ID}
	for i := 0; i < n; i++ {
		var out struct {
			Question struct {
				ID string `json:"_id"`
			} `json:"question"`
		}
		key := fmt.Sprintf("KEYOPTION%d", i)
		adm.Post("/admin/questions", map[string]any{"text": fmt.Sprintf("Question %d?", i), "options": []string{key, fmt.Sprintf("wrong a%d", i), fmt.Sprintf("wrong b%d", i)},
			"correctIndex": 0, "difficulty": "medium", "explanation": fmt.Sprintf("SECRETEXPLANATION%d", i), "quizId": f.quizID}).Expect(201).JSON(&out)
		f.items = append(f.items, out.Question.ID)
		f.keys = append(f.keys, fmt.Sprintf("SECRETEXPLANATION%d", i))
	}
	return f
}

type link struct {
	RaterID string `json:"raterId"`
	Name    string `json:"name"`
	Email   string `json:"email"`
	URL     string `json:"url"`
	Mailed  bool   `json:"mailed"`
}

type status struct {
	Msg  string `json:"msg"`
	Quiz struct {
		PassingScore   int    `json:"passingScore"`
		PassMarkMethod string `json:"passMarkMethod"`
	} `json:"quiz"`
	Pool  int               `json:"pool"`
	Links []link            `json:"links"`
	Panel *angoff.PanelView `json:"panel"`
}

func (f *fx) open(t *testing.T, raters ...map[string]any) status {
	t.Helper()
	var st status
	f.admin.Post("/admin/quizzes/"+f.quizID+"/angoff", map[string]any{"raters": raters}).Expect(http.StatusCreated).JSON(&st)
	if st.Msg != angoff.MsgOpened || len(st.Links) != len(raters) || st.Panel == nil || !st.Panel.Open {
		t.Fatalf("open: %+v", st)
	}
	return st
}

func (f *fx) status(t *testing.T) status {
	t.Helper()
	var st status
	f.admin.Get("/admin/quizzes/" + f.quizID + "/angoff").Expect(200).JSON(&st)
	return st
}

func token(t *testing.T, url string) string {
	t.Helper()
	m := linkRe.FindStringSubmatch(url)
	if m == nil {
		t.Fatalf("no token in %q", url)
	}
	return m[1]
}

func (f *fx) actions(t *testing.T) []string {
	t.Helper()
	var es []model.AuditEntry
	if err := f.e.DB.NewSelect().Model(&es).Where("action LIKE 'angoff.%'").OrderExpr("created_at, id").Scan(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(es))
	for i, a := range es {
		out[i] = a.Action
	}
	return out
}

func fp(x *float64) string {
	if x == nil {
		return "nil"
	}
	return fmt.Sprintf("%.2f", *x)
}

// A panel of three: links made and mailed (only the hash stored), ratings saved and
// resumed, submitted once, the cut, SD and SE as measure.AngoffCut gives them, the cut
// adopted as the pass mark with its method, every step audited.
func TestPanelRatesAndAdoptsTheCut(t *testing.T) {
	f := newFx(t, 4)
	st := f.open(t, map[string]any{"name": "  Ada   Lovelace ", "email": "ADA@example.com"}, map[string]any{"name": "Grace"}, map[string]any{"name": "Linus", "email": ""})
	if st.Pool != 4 || st.Panel.Result.Cut != nil || st.Panel.Result.Message != angoff.MsgNotEnough || len(st.Panel.Raters) != 3 {
		t.Fatalf("fresh panel %+v", st)
	}
	if l := st.Links[0]; l.Name != "Ada Lovelace" || l.Email != "ada@example.com" || !l.Mailed || !strings.HasPrefix(l.URL, f.e.URL+"/angoff/") {
		t.Errorf("link 0 %+v", l)
	}
	if st.Links[1].Mailed || st.Links[2].Mailed {
		t.Errorf("mailed without an address %+v", st.Links)
	}
	toks := []string{token(t, st.Links[0].URL), token(t, st.Links[1].URL), token(t, st.Links[2].URL)}
	// the mail carries Ada's link; only hashes are stored; the status never shows a link
	var ms []model.OutboxMessage
	if err := f.e.DB.NewSelect().Model(&ms).Where("to_addr = ?", "ada@example.com").Scan(f.e.Ctx()); err != nil || len(ms) != 1 {
		t.Fatalf("mail %v %v", ms, err)
	}
	if !strings.Contains(ms[0].BodyText, st.Links[0].URL) {
		t.Errorf("mail without the link: %q", ms[0].BodyText)
	}
	var hashes []string
	if err := f.e.DB.NewSelect().Model((*angoff.Rater)(nil)).Column("token_hash").Scan(f.e.Ctx(), &hashes); err != nil {
		t.Fatal(err)
	}
	for _, h := range hashes {
		for _, tok := range toks {
			if strings.Contains(h, tok) {
				t.Error("a token is stored")
			}
		}
	}
	if body := f.admin.Get("/admin/quizzes/" + f.quizID + "/angoff").Text(); strings.Contains(body, toks[0]) || strings.Contains(body, toks[1]) {
		t.Error("the status shows a link")
	}

	anon := f.e.Client()
	// Ada: 60, 70, 80, skip (cut 70), saved in two goes
	anon.Put("/angoff/"+toks[0]+"/ratings", map[string]any{"ratings": map[string]any{f.items[0]: 60, f.items[1]: 70}}).ExpectMsg(200, angoff.MsgSaved)
	var sh struct {
		Sheet angoff.Sheet `json:"sheet"`
	}
	anon.Get("/angoff/" + toks[0] + "/ratings").Expect(200).JSON(&sh.Sheet)
	if len(sh.Sheet.Items) != 4 || len(sh.Sheet.Ratings) != 2 || *sh.Sheet.Ratings[f.items[1]] != 70 || sh.Sheet.RaterName != "Ada Lovelace" || sh.Sheet.Submitted {
		t.Fatalf("resumed sheet %+v", sh.Sheet)
	}
	// submitting with an item left is refused, and nothing of that request is kept
	anon.Put("/angoff/"+toks[0]+"/ratings", map[string]any{"ratings": map[string]any{f.items[2]: 80}, "submit": true}).
		ExpectMsg(422, fmt.Sprintf(angoff.MsgIncomplete, 1))
	anon.Get("/angoff/" + toks[0] + "/ratings").Expect(200).JSON(&sh.Sheet)
	if _, ok := sh.Sheet.Ratings[f.items[2]]; ok {
		t.Error("a refused submit kept its ratings")
	}
	anon.Put("/angoff/"+toks[0]+"/ratings", map[string]any{"ratings": map[string]any{f.items[2]: 80, f.items[3]: nil}, "submit": true}).
		Expect(200).JSON(&sh)
	if !sh.Sheet.Submitted || len(sh.Sheet.Items) != 0 {
		t.Errorf("submitted sheet %+v", sh.Sheet)
	}
	// the link is spent
	anon.Put("/angoff/"+toks[0]+"/ratings", map[string]any{"ratings": map[string]any{f.items[0]: 10}}).ExpectMsg(409, angoff.MsgLinkSpent)
	// Grace: 50 everywhere (cut 50), saved only; Linus rates nothing
	anon.Put("/angoff/"+toks[1]+"/ratings", map[string]any{"ratings": map[string]any{f.items[0]: 50, f.items[1]: 50.0, f.items[2]: 50, f.items[3]: 50}}).Expect(200)

	st = f.status(t)
	p := st.Panel
	// cuts 70 and 50: mean 60, SD sqrt(200) = 14.14, SE 10
	if p.Result.Raters != 2 || fp(p.Result.Cut) != "60.00" || fp(p.Result.SD) != fmt.Sprintf("%.2f", math.Sqrt(200)) || fp(p.Result.SE) != "10.00" ||
		p.Result.Recommended == nil || *p.Result.Recommended != 60 {
		t.Fatalf("result %+v sd %s", p.Result, fp(p.Result.SD))
	}
	r0, r1, r2 := p.Raters[0], p.Raters[1], p.Raters[2]
	if r0.Rated != 3 || r0.Skipped != 1 || r0.SubmittedAt == nil || fp(r0.Cut) != "70.00" || r0.Email != "ada@example.com" {
		t.Errorf("Ada %+v", r0)
	}
	if r1.Rated != 4 || r1.SubmittedAt != nil || r1.StartedAt == nil || fp(r1.Cut) != "50.00" {
		t.Errorf("Grace %+v", r1)
	}
	if r2.Rated != 0 || r2.StartedAt != nil || r2.Cut != nil {
		t.Errorf("Linus %+v", r2)
	}

	var ad status
	f.admin.Post("/admin/quizzes/"+f.quizID+"/angoff/adopt", map[string]any{}).Expect(200).JSON(&ad)
	method := model.AngoffMethod(2, model.Now())
	if ad.Msg != fmt.Sprintf(angoff.MsgAdopted, 60, method) || ad.Quiz.PassingScore != 60 || ad.Quiz.PassMarkMethod != method ||
		ad.Panel.Open || ad.Panel.AdoptedAt == nil {
		t.Fatalf("adopt %+v", ad)
	}
	qz := apptest.Row[model.Quiz](f.e, f.quizID)
	if qz.PassingScore != 60 || qz.PassMarkMethod != method || !strings.HasPrefix(method, "modified Angoff, 2 raters, ") {
		t.Errorf("quiz %d %q", qz.PassingScore, qz.PassMarkMethod)
	}
	// the public report says how the pass mark was set
	_, rp := f.e.Client().Page("/badges/" + f.badgeID + "/assessment")
	a := rp["page"].(map[string]any)["report"].(map[string]any)["assessment"].(map[string]any)
	if a["passMarkMethod"] != method || a["passMarkText"] != model.PassMarkSentence(60, method) || a["passingScore"] != 60.0 {
		t.Errorf("report assessment %v", a)
	}
	// decided: no second decision, Grace's and Linus's links are closed, Ada's says thank you
	f.admin.Post("/admin/quizzes/"+f.quizID+"/angoff/adopt", map[string]any{"keepFixed": true}).ExpectMsg(409, angoff.MsgDecided)
	anon.Put("/angoff/"+toks[1]+"/ratings", map[string]any{"ratings": map[string]any{}, "submit": true}).ExpectMsg(404, angoff.MsgLinkInvalid)
	anon.Get("/angoff/"+toks[2]+"/ratings").ExpectMsg(404, angoff.MsgLinkInvalid)
	r, props := anon.Page("/angoff/" + toks[0])
	if r.Status != 200 || apptest.PageName(r) != "AngoffPage" || props["page"].(map[string]any)["state"] != "submitted" {
		t.Errorf("spent page %d %v", r.Status, props)
	}
	r, props = anon.Page("/angoff/" + toks[2])
	if r.Status != 404 || props["page"].(map[string]any)["state"] != "invalid" {
		t.Errorf("closed page %d %v", r.Status, props)
	}
	// the pass mark set by hand is a fixed percentage again
	f.admin.Put("/admin/quizzes/"+f.quizID, map[string]any{"passingScore": 65}).Expect(200)
	if qz := apptest.Row[model.Quiz](f.e, f.quizID); qz.PassMarkMethod != "" {
		t.Errorf("method kept after a manual pass mark: %q", qz.PassMarkMethod)
	}
	if got := strings.Join(f.actions(t), ","); got != "angoff.open,angoff.submit,angoff.adopt" {
		t.Errorf("audit %s", got)
	}
}

// Bad input answers {"msg"} with a 4xx and writes nothing.
func TestBadInputIsRefused(t *testing.T) {
	f := newFx(t, 2)
	base := "/admin/quizzes/" + f.quizID + "/angoff"
	many := make([]map[string]any, 31)
	for i := range many {
		many[i] = map[string]any{"name": fmt.Sprintf("R%d", i)}
	}
	for _, c := range []struct {
		body   any
		status int
		msg    string
	}{
		{map[string]any{"raters": []any{}}, 400, angoff.MsgRaterCount},
		{map[string]any{}, 400, angoff.MsgRaterCount},
		{map[string]any{"raters": many}, 400, angoff.MsgRaterCount},
		{map[string]any{"raters": []any{map[string]any{"name": "  "}}}, 400, angoff.MsgRaterName},
		{map[string]any{"raters": []any{map[string]any{"name": strings.Repeat("x", 101)}}}, 400, angoff.MsgRaterName},
		{map[string]any{"raters": []any{map[string]any{"name": "Ada"}, map[string]any{"name": "ada"}}}, 400, fmt.Sprintf(angoff.MsgRaterTwice, "ada")},
		{map[string]any{"raters": []any{map[string]any{"name": "Ada", "email": "not-an-address"}}}, 400, fmt.Sprintf(angoff.MsgRaterEmail, "Ada")},
	} {
		f.admin.Post(base, c.body).ExpectMsg(c.status, c.msg)
	}
	f.admin.Post(base, "{").Expect(400)
	f.admin.Post("/admin/quizzes/nosuchquiz0000000000000/angoff", map[string]any{"raters": []any{map[string]any{"name": "Ada"}}}).Expect(404)
	f.admin.Get("/admin/quizzes/nosuchquiz0000000000000/angoff").Expect(404)
	f.admin.Post(base+"/adopt", nil).ExpectMsg(404, angoff.MsgNoPanel)
	if st := f.status(t); st.Panel != nil || st.Pool != 2 || st.Quiz.PassingScore != 70 {
		t.Fatalf("status before a panel %+v", st)
	}
	if n, _ := f.e.DB.NewSelect().Model((*angoff.Panel)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("%d panels after refusals", n)
	}
	// members and visitors cannot reach the admin routes
	_, member := f.e.Member("member@example.com")
	member.Post(base, map[string]any{"raters": []any{map[string]any{"name": "Ada"}}}).Expect(403)
	f.e.Client().Get(base).Expect(401)

	st := f.open(t, map[string]any{"name": "Ada"})
	tok := token(t, st.Links[0].URL)
	anon := f.e.Client()
	path := "/angoff/" + tok + "/ratings"
	for _, body := range []any{
		map[string]any{"ratings": map[string]any{f.items[0]: 101}},
		map[string]any{"ratings": map[string]any{f.items[0]: -1}},
		map[string]any{"ratings": map[string]any{f.items[0]: "50"}},
		map[string]any{"ratings": map[string]any{f.items[0]: true}},
	} {
		anon.Put(path, body).ExpectMsg(400, angoff.MsgRating)
	}
	anon.Put(path, map[string]any{"ratings": map[string]any{f.items[0]: 50, "unknownquestion000000000": 40}}).ExpectMsg(400, angoff.MsgUnknownItem)
	if n, _ := f.e.DB.NewSelect().Model((*angoff.Rating)(nil)).Count(f.e.Ctx()); n != 0 {
		t.Fatalf("%d ratings after refusals", n)
	}
	// no ratings: nothing to adopt, but the fixed pass mark can be kept
	f.admin.Post(base+"/adopt", nil).ExpectMsg(422, angoff.MsgNotEnough)
	// an unknown or malformed link
	anon.Get("/angoff/"+strings.Repeat("A", 43)+"/ratings").ExpectMsg(404, angoff.MsgLinkInvalid)
	anon.Put("/angoff/short/ratings", map[string]any{"ratings": map[string]any{}}).ExpectMsg(404, angoff.MsgLinkInvalid)
	// a new panel closes the old one's links
	st2 := f.open(t, map[string]any{"name": "Grace"})
	anon.Get(path).ExpectMsg(404, angoff.MsgLinkInvalid)
	var kept status
	f.admin.Post(base+"/adopt", map[string]any{"keepFixed": true}).Expect(200).JSON(&kept)
	if kept.Msg != fmt.Sprintf(angoff.MsgKeptFixed, 70) || kept.Quiz.PassingScore != 70 || kept.Quiz.PassMarkMethod != "" || kept.Panel.Open || kept.Panel.AdoptedAt != nil {
		t.Errorf("keep fixed %+v", kept)
	}
	anon.Get("/angoff/"+token(t, st2.Links[0].URL)+"/ratings").ExpectMsg(404, angoff.MsgLinkInvalid)
	if got := strings.Join(f.actions(t), ","); got != "angoff.open,angoff.open,angoff.keep_fixed" {
		t.Errorf("audit %s", got)
	}
}

// The rater's API and page never carry the answer key or the explanations.
func TestRaterNeverSeesTheKey(t *testing.T) {
	f := newFx(t, 3)
	st := f.open(t, map[string]any{"name": "Ada"})
	tok := token(t, st.Links[0].URL)
	anon := f.e.Client()
	api := anon.Get("/angoff/" + tok + "/ratings").Expect(200).Text()
	page, props := anon.Page("/angoff/" + tok)
	if page.Status != 200 || props["page"].(map[string]any)["state"] != "open" {
		t.Fatalf("page %d %v", page.Status, props)
	}
	save := anon.Put("/angoff/"+tok+"/ratings", map[string]any{"ratings": map[string]any{f.items[0]: 55}}).Expect(200).Text()
	for name, body := range map[string]string{"api": api, "page": page.Text(), "save": save} {
		if !strings.Contains(body, "KEYOPTION0") {
			t.Errorf("%s does not show the options", name)
		}
		for _, k := range append(f.keys, "correctIndex", "correctIndexes", "explanation") {
			if strings.Contains(body, k) {
				t.Errorf("%s carries %q", name, k)
			}
		}
	}
	if !strings.Contains(page.Text(), "noindex") {
		t.Error("the rater's page is indexable")
	}
}

// The rater's public routes are rate-limited per address: the 121st request in a minute
// is refused with 429 whatever the token.
func TestRaterRoutesAreRateLimited(t *testing.T) {
	f := newFx(t, 1)
	st := f.open(t, map[string]any{"name": "Ada"})
	tok := token(t, st.Links[0].URL)
	anon := f.e.Client()
	limited := 0
	window := time.Now().Truncate(time.Minute)
	for i := 0; i < 121; i++ {
		path := "/angoff/" + tok + "/ratings"
		if i%2 == 1 {
			path = "/angoff/" + strings.Repeat("B", 43) + "/ratings"
		}
		if r := anon.Get(path); r.Status == http.StatusTooManyRequests {
			limited++
			if r.Msg() != angoff.MsgTooMany {
				t.Errorf("429 msg %q", r.Msg())
			}
		}
	}
	// the limiter counts in fixed minutes: when one ended during the loop, its count restarted
	if turned := !time.Now().Truncate(time.Minute).Equal(window); limited != 1 && !turned {
		t.Fatalf("%d of 121 requests limited, want 1 (the 121st)", limited)
	}
}
