package admin_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/web"
)

// concretePath fills a route pattern's parameters with a dummy id (or 1 for an int
// constraint), so the request reaches the route's access guard.
func concretePath(pattern string) string {
	segs := strings.Split(pattern, "/")
	for i, s := range segs {
		switch {
		case strings.HasPrefix(s, ":") || strings.HasPrefix(s, "+"):
			if strings.Contains(s, "<int") {
				segs[i] = "1"
			} else {
				segs[i] = model.NewID()
			}
		case s == "*":
			segs[i] = "x"
		}
	}
	return strings.Join(segs, "/")
}

// TestPermissionWalk walks the WHOLE route table (every feature's rows, including routes
// added later): each admin API route answers 401 to a visitor and 403 to a member, each
// member API route 401 to a visitor; admin and member pages send visitors to /login, and
// the admin page shows members 'Access Denied' with 403.
func TestPermissionWalk(t *testing.T) {
	e := apptest.New(t)
	visitor := e.Client()
	_, member := e.Member("member@x.io")
	counts := map[string]int{}
	for _, r := range e.App.Routes {
		if r.Kind == web.Asset || r.Access == web.Public {
			continue
		}
		path := concretePath(r.Path)
		name := r.Method + " " + r.Path
		var body any
		if r.Method != "GET" && r.Method != "HEAD" && r.Method != "DELETE" {
			body = "{}"
		}
		switch r.Kind {
		case web.API:
			res := visitor.Abs(r.Method, path, body)
			if res.Status != http.StatusUnauthorized || res.Msg() != web.MsgLoginRequired {
				t.Errorf("%s as visitor: %d %s, want 401 %q", name, res.Status, res.Text(), web.MsgLoginRequired)
			}
			if r.Access == web.Admin {
				res := member.Abs(r.Method, path, body)
				if res.Status != http.StatusForbidden || res.Msg() != web.MsgAdminRequired {
					t.Errorf("%s as member: %d %s, want 403 %q", name, res.Status, res.Text(), web.MsgAdminRequired)
				}
				counts["admin api"]++
			} else {
				counts["member api"]++
			}
		case web.Page:
			res, _ := visitor.Page(path)
			loc := res.Header.Get("Location")
			if res.Status/100 != 3 || loc != "/login?next="+url.QueryEscape(path) {
				t.Errorf("%s page as visitor: %d Location %q, want a redirect to /login?next=…", name, res.Status, loc)
			}
			if r.Access == web.Admin {
				res, props := member.Page(path)
				if res.Status != http.StatusForbidden {
					t.Errorf("%s page as member: %d, want 403", name, res.Status)
				}
				if page, _ := props["page"].(map[string]any); page == nil || page["denied"] != true {
					t.Errorf("%s page as member does not render Access Denied: %v", name, props)
				}
				counts["admin page"]++
			} else {
				counts["member page"]++
			}
		}
	}
	t.Logf("walked %v", counts)
	// the walk must have covered this feature's rows at least
	apptest.Expect(t, "the walk covered too little", counts,
		apptest.True("counts[\"admin api\"] >= 10", counts["admin api"] >= 10),
		apptest.True("counts[\"admin page\"] >= 1", counts["admin page"] >= 1))
}

// TestAdminRoutesAreAdminOnly: every /admin API row of the table is marked web.Admin.
func TestAdminRoutesAreAdminOnly(t *testing.T) {
	e := apptest.New(t)
	for _, r := range e.App.Routes {
		if (strings.HasPrefix(r.Path, web.APIBase+"/admin/") || r.Path == "/admin") && r.Access != web.Admin {
			t.Errorf("%s %s is %s, want admin", r.Method, r.Path, r.Access)
		}
	}
}

// TestAdminPage: the admin gets the dashboard with its first data; the member 'Access
// Denied' (403); the visitor a redirect to /login.
func TestAdminPage(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	u, mc := e.Member("ann@x.io")
	a := paidApplication(t, e, u, newBadge(t, e, "", 4900))

	r, props := ac.Page("/admin")
	r.Expect(200)
	if apptest.PageName(r) != "AdminPage" {
		t.Fatalf("page %s", apptest.PageName(r))
	}
	page := props["page"].(map[string]any)
	apptest.Expect(t, "admin page props", page,
		apptest.Eq("page[\"denied\"]", page["denied"], false),
		apptest.Eq[any]("page[\"adminName\"]", page["adminName"], boss.Name))
	sum := page["summary"].(map[string]any)
	apptest.Expect(t, "summary props", sum,
		apptest.Eq("sum[\"totalApplications\"].(float64)", sum["totalApplications"].(float64), 1))
	apptest.Expect(t, "summary props", sum,
		apptest.Eq("sum[\"pendingApplications\"].(float64)", sum["pendingApplications"].(float64), 1))
	apptest.Expect(t, "summary props", sum,
		apptest.Eq("len(sum[\"days\"].([]any))", len(sum["days"].([]any)), 30))
	apps := page["applications"].(map[string]any)["applications"].([]any)
	apptest.Expect(t, "applications props", apps,
		apptest.Eq("len(apps)", len(apps), 1))
	apptest.Expect(t, "applications props", apps,
		apptest.Eq[any]("apps[0].(map[string]any)[\"_id\"]", apps[0].(map[string]any)["_id"], a.ID))
	if !strings.Contains(r.Text(), `<meta name="robots" content="noindex">`) {
		t.Error("admin page is indexable")
	}

	r, props = mc.Page("/admin")
	r.Expect(403)
	page = props["page"].(map[string]any)
	apptest.Expect(t, "member sees admin data", page,
		apptest.Eq("page[\"denied\"]", page["denied"], true),
		apptest.True("page[\"summary\"] == nil", page["summary"] == nil),
		apptest.True("page[\"applications\"] == nil", page["applications"] == nil))
	if strings.Contains(r.Text(), a.ID) {
		t.Fatal("the denied page leaks application data")
	}

	r, _ = e.Client().Page("/admin")
	if r.Status/100 != 3 || r.Header.Get("Location") != "/login?next=%2Fadmin" {
		t.Fatalf("visitor: %d %s", r.Status, r.Header.Get("Location"))
	}
}
