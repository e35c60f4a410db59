package halloffame_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/grant"
	"meritmark/app/halloffame"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

type fixture struct {
	e      *apptest.Env
	badges map[string]*model.Badge
	admin  *model.User
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := apptest.New(t)
	adm, _ := e.Admin("admin@x.io")
	f := &fixture{e: e, badges: map[string]*model.Badge{}, admin: adm}
	for _, b := range []struct{ name, cat string }{{"Go", "Development"}, {"Rust", "Development"}, {"Figma", "Design"}, {"Scrum", "Management"}, {"Pandas", "Data Science"}} {
		now := model.Now()
		m := &model.Badge{ID: model.NewID(), Name: b.name, Description: b.name, Category: b.cat, Type: model.TypeProof, Level: "beginner",
			Icon: "Award", Color: "blue", IsActive: true, CreatedAt: now, UpdatedAt: now}
		if _, err := e.DB.NewInsert().Model(m).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		f.badges[b.name] = m
	}
	return f
}

// user makes a member with a profile.
func (f *fixture) user(t *testing.T, name, position, company string, joined time.Time) *model.User {
	t.Helper()
	u := f.e.CreateUser(fmt.Sprintf("%s@example.com", name), "password123", model.RoleUser)
	u.Name, u.Position, u.Company, u.CreatedAt = name, position, company, joined
	u.LinkedIn, u.Portfolio = "https://linkedin.com/in/"+name, "javascript:alert(1)"
	if _, err := f.e.DB.NewUpdate().Model(u).Column("name", "position", "company", "created_at", "linkedin", "portfolio").WherePK().Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return u
}

// give grants badge to u through grant.Issue (the approval's grant function), at when.
func (f *fixture) give(t *testing.T, u *model.User, badge string, when time.Time) *model.BadgeGrant {
	t.Helper()
	b := f.badges[badge]
	now := model.Now()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusApproved,
		PaymentStatus: model.PaymentCompleted, CreatedAt: now, UpdatedAt: now}
	var g *model.BadgeGrant
	err := f.e.Deps.Events.RunInTx(f.e.Ctx(), f.e.DB, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
			return err
		}
		r, err := grant.Issue(ctx, tx, grant.Input{Issuer: f.e.Deps.Issuer, Application: a, Badge: b, GrantedBy: f.admin.ID, Now: when, Origin: f.e.URL})
		if err == nil {
			g = r.Grant
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (f *fixture) revoke(t *testing.T, g *model.BadgeGrant) {
	t.Helper()
	err := f.e.Deps.Events.RunInTx(f.e.Ctx(), f.e.DB, func(ctx context.Context, tx bun.Tx) error {
		_, err := grant.Revoke(ctx, tx, *g.ApplicationID, "test", model.Now())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func names(r *halloffame.Result) []string {
	var out []string
	for _, u := range r.Users {
		out = append(out, u.Name)
	}
	return out
}

func eq(a, b []string) bool { return fmt.Sprint(a) == fmt.Sprint(b) }

func TestHallOfFame(t *testing.T) {
	f := newFixture(t)
	c := f.e.Client()
	var r halloffame.Result

	// empty
	c.Get("/hall-of-fame").Expect(http.StatusOK).JSON(&r)
	apptest.Expect(t, "empty", r,
		apptest.Eq("len(r.Users)", len(r.Users), 0),
		apptest.Eq("r.Stats.Earners", r.Stats.Earners, 0),
		apptest.Eq("r.Stats.TotalBadges", r.Stats.TotalBadges, 0),
		apptest.Eq("len(r.Stats.Categories)", len(r.Stats.Categories), 0),
		apptest.Eq("r.Pagination.Total", r.Pagination.Total, 0))

	day := func(n int) time.Time { return time.Date(2026, 1, n, 12, 0, 0, 0, time.UTC) }
	ada := f.user(t, "Ada", "Engineer", "Analytical Engines", day(1))
	bob := f.user(t, "bob", "Designer", "Pixel Co", day(2))
	cy := f.user(t, "Cy", "Manager", "", day(3))
	dee := f.user(t, "Dee", "Data Scientist", "Numbers Inc", day(4))
	f.give(t, ada, "Go", day(10))
	f.give(t, ada, "Rust", day(11))
	f.give(t, ada, "Figma", day(12))
	f.give(t, ada, "Scrum", day(13)) // ada: 4, latest day 13
	f.give(t, bob, "Figma", day(20))
	f.give(t, bob, "Go", day(21)) // bob: 2, latest 21
	f.give(t, cy, "Scrum", day(15))
	f.give(t, cy, "Rust", day(16)) // cy: 2, latest 16
	gd := f.give(t, dee, "Pandas", day(25))
	f.revoke(t, gd) // dee: none in force

	c.Get("/hall-of-fame").Expect(http.StatusOK).JSON(&r)
	if !eq(names(&r), []string{"Ada", "bob", "Cy"}) {
		t.Fatalf("ranking %v", names(&r))
	}
	apptest.Expect(t, "stats (a revoked grant must not count)", r.Stats,
		apptest.Eq("r.Stats.Earners", r.Stats.Earners, 3),
		apptest.Eq("r.Stats.TotalBadges", r.Stats.TotalBadges, 8),
		apptest.True("eq(r.Stats.Categories, []string{\"Development\", \"Design\", \"Management\"})", eq(r.Stats.Categories, []string{"Development", "Design", "Management"})))
	a := r.Users[0]
	apptest.Expect(t, "first earner", a,
		apptest.Eq("a.Rank", a.Rank, 1),
		apptest.Eq("a.TotalBadges", a.TotalBadges, 4),
		apptest.Eq("a.Title", a.Title, "Engineer"),
		apptest.Eq("a.Company", a.Company, "Analytical Engines"),
		apptest.Eq("a.LinkedInURL", a.LinkedInURL, "https://linkedin.com/in/Ada"),
		apptest.Eq("a.PortfolioURL", a.PortfolioURL, ""),
		apptest.True("a.JoinedDate.Equal(day(1))", a.JoinedDate.Equal(day(1))),
		apptest.Eq("len(a.Badges)", len(a.Badges), 3))
	apptest.Expect(t, "first earner", a,
		apptest.Eq("a.Badges[0].Name", a.Badges[0].Name, "Scrum"),
		apptest.Eq("a.Badges[1].Name", a.Badges[1].Name, "Figma"),
		apptest.Eq("a.Badges[2].Name", a.Badges[2].Name, "Rust"),
		apptest.True("a.Badges[0].EarnedDate.Equal(day(13))", a.Badges[0].EarnedDate.Equal(day(13))),
		apptest.Eq("a.Badges[0].Category", a.Badges[0].Category, "Management"),
		apptest.Eq("a.Badges[0].ID", a.Badges[0].ID, f.badges["Scrum"].ID), // links its page
		apptest.Eq("a.Badges[2].ID", a.Badges[2].ID, f.badges["Rust"].ID))
	// sorts
	c.Get("/hall-of-fame?sort=recent").Expect(http.StatusOK).JSON(&r)
	if !eq(names(&r), []string{"bob", "Cy", "Ada"}) {
		t.Fatalf("recent %v", names(&r))
	}
	c.Get("/hall-of-fame?sort=name").Expect(http.StatusOK).JSON(&r)
	if !eq(names(&r), []string{"Ada", "bob", "Cy"}) { // case-insensitive
		t.Fatalf("name %v", names(&r))
	}
	// category, search (name, title, company), both
	c.Get("/hall-of-fame?category=design").Expect(http.StatusOK).JSON(&r)
	if !eq(names(&r), []string{"Ada", "bob"}) || r.Pagination.Total != 2 || r.Query.Category != "Design" {
		t.Fatalf("design %v %+v", names(&r), r.Pagination)
	}
	// both ways a search runs: few matches (read by id) and many (ranked walk and count)
	for _, probe := range []int{halloffame.SearchProbe, 1} {
		old := halloffame.SearchProbe
		halloffame.SearchProbe = probe
		for q, want := range map[string][]string{"pixel": {"bob"}, "MANAGER": {"Cy"}, "a": {"Ada", "Cy"}, "100%": nil, "engines": {"Ada"}} {
			c.Get("/hall-of-fame?search=" + urlq(q)).Expect(http.StatusOK).JSON(&r)
			if !eq(names(&r), want) || r.Pagination.Total != int64(len(want)) || r.Pagination.TotalCapped != (len(want) > probe) {
				t.Fatalf("search %q (probe %d): %v %+v", q, probe, names(&r), r.Pagination)
			}
		}
		c.Get("/hall-of-fame?search=a&sort=name&limit=1&page=2").Expect(http.StatusOK).JSON(&r)
		if !eq(names(&r), []string{"Cy"}) || r.Pagination.Total != 2 || r.Users[0].Rank != 2 {
			t.Fatalf("search page 2 (probe %d): %v %+v", probe, names(&r), r.Pagination)
		}
		halloffame.SearchProbe = old
	}
	c.Get("/hall-of-fame?q=designer&category=Management").Expect(http.StatusOK).JSON(&r)
	if len(r.Users) != 0 {
		t.Fatalf("search and category %v", names(&r))
	}
	c.Get("/hall-of-fame?category=All&sort=badges").Expect(http.StatusOK).JSON(&r)
	if len(r.Users) != 3 {
		t.Fatal("category All")
	}
	// pages
	c.Get("/hall-of-fame?limit=2&page=2").Expect(http.StatusOK).JSON(&r)
	if !eq(names(&r), []string{"Cy"}) || r.Users[0].Rank != 3 || r.Pagination.TotalPages != 2 || r.Pagination.Total != 3 {
		t.Fatalf("page 2: %v %+v", names(&r), r.Pagination)
	}
	// validation
	c.Get("/hall-of-fame?sort=best").ExpectMsg(http.StatusBadRequest, halloffame.MsgBadSort)
	c.Get("/hall-of-fame?category=Cooking").ExpectMsg(http.StatusBadRequest, halloffame.MsgBadCategory)
	c.Get("/hall-of-fame?page=0").ExpectMsg(http.StatusBadRequest, halloffame.MsgBadPage)
	c.Get("/hall-of-fame?limit=101").ExpectMsg(http.StatusBadRequest, halloffame.MsgBadLimit)
	c.Get("/hall-of-fame?search="+urlq(string(make([]byte, 0))+fmt.Sprintf("%0101d", 0))).ExpectMsg(http.StatusBadRequest, halloffame.MsgLongSearch)

	// a badge moved to another category: the summary follows (rebuilt when noticed)
	if _, err := f.e.DB.NewUpdate().Model((*model.Badge)(nil)).Set("category = 'Marketing'").Where("id = ?", f.badges["Scrum"].ID).Exec(f.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	svc := &halloffame.Service{DB: f.e.DB}
	res, err := svc.List(f.e.Ctx(), halloffame.Query{Category: "Marketing", Sort: "badges", Page: 1, Limit: 10})
	if err != nil || !eq(names(res), []string{"Ada", "Cy"}) || !eq(res.Stats.Categories, []string{"Development", "Design", "Marketing"}) {
		t.Fatalf("after a category change: %v %v %v", names(res), res.Stats.Categories, err)
	}

	// the page: server-rendered with the filters from the address; bad values are dropped
	resp, props := c.Page("/hall-of-fame?category=Design&sort=nonsense&page=-3")
	if resp.Status != http.StatusOK || apptest.PageName(resp) != "HallOfFamePage" {
		t.Fatalf("page %d %s", resp.Status, apptest.PageName(resp))
	}
	page := props["page"].(map[string]any)
	q := page["query"].(map[string]any)
	apptest.Expect(t, "page query", page,
		apptest.Eq("q[\"category\"]", q["category"], "Design"),
		apptest.Eq("q[\"sort\"]", q["sort"], "badges"),
		apptest.Eq[any]("q[\"page\"]", q["page"], float64(1)),
		apptest.Eq("page[\"error\"]", page["error"], ""))
	users := page["result"].(map[string]any)["users"].([]any)
	if len(users) != 2 {
		t.Fatalf("page users %v", users)
	}
}

func urlq(s string) string {
	out := ""
	for _, b := range []byte(s) {
		out += fmt.Sprintf("%%%02X", b)
	}
	return out
}
