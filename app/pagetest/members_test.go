package pagetest

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// A signed-in member's view of a page that shows members what it shows visitors (home,
// about, the Hall of Fame, another holder's verify page) is made from the visitor's held
// copy with the member's header: byte for byte the page a whole render gives, for a
// member, an administrator and, on other holders' pages, a holder. The holder's own verify
// page, which differs, is rendered whole.
func TestMembersGetTheVisitorsPageWithTheirHeader(t *testing.T) {
	e := New(t, apptest.WithPageCache)
	grants := verifyGrantFixture(t, e, []string{"Ada Lovelace", "Grace Hopper"}, []int{2, 1})
	ada := grants[0][0]
	var holder model.User
	if err := e.DB.NewSelect().Model(&holder).Where("id = ?", ada.UserID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	mira := e.CreateUser("mira.member@example.com", "password123", model.RoleUser)
	if _, err := e.DB.NewUpdate().Model(mira).Set("name = ?", "Mira Q. Member").WherePK().Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	adm := e.CreateUser("root.admin@example.com", "password123", model.RoleAdmin)
	viewers := map[string]*apptest.Client{"member": e.LoginAs(mira), "admin": e.LoginAs(adm), "holder": e.LoginAs(&holder)}
	visitor := e.Client()
	pc := e.App.PageCache
	swap := pc.Members
	if swap == nil {
		t.Fatal("the page cache makes no member pages")
	}
	get := func(c *apptest.Client, path string) *apptest.Resp {
		t.Helper()
		return c.Raw("GET", path, nil, map[string]string{"Accept": "text/html", "Accept-Encoding": "identity"}).Expect(http.StatusOK)
	}
	own := "/verify/" + ada.PublicVerificationID
	paths := []string{"/", "/about", "/hall-of-fame", "/hall-of-fame?sort=name", own, "/verify/" + grants[1][0].PublicVerificationID}
	for _, path := range paths {
		seen := get(visitor, path)
		for _, who := range []string{"member", "admin", "holder"} {
			c := viewers[who]
			before := pc.MembersServed()
			got := get(c, path)
			swapped := pc.MembersServed() > before
			if want := !(who == "holder" && path == own); swapped != want {
				t.Errorf("%s as %s: made from the held copy = %v, want %v", path, who, swapped, want)
			}
			pc.Members = nil
			whole := get(c, path)
			pc.Members = swap
			if !bytes.Equal(got.Body, whole.Body) {
				i := 0
				for i < len(got.Body) && i < len(whole.Body) && got.Body[i] == whole.Body[i] {
					i++
				}
				t.Errorf("%s as %s: differs from a whole render at byte %d:\n got: %.200s\nwant: %.200s", path, who, i, got.Body[i:], whole.Body[i:])
			}
			for _, h := range []string{"Content-Type", "Cache-Control", "Vary", "Content-Security-Policy"} {
				if got.Header.Get(h) != whole.Header.Get(h) {
					t.Errorf("%s as %s: %s %q, a whole render %q", path, who, h, got.Header.Get(h), whole.Header.Get(h))
				}
			}
			if bytes.Equal(got.Body, seen.Body) {
				t.Errorf("%s as %s: the visitor's page itself", path, who)
			}
		}
	}
	// the member's own header, in the HTML and in its props
	page := get(viewers["member"], "/hall-of-fame").Text()
	if !strings.Contains(page, "mira.member@example.com") || !strings.Contains(page, `"name":"Mira Q. Member"`) {
		t.Error("the member's header is not on the page")
	}
	if strings.Contains(page, "root.admin@example.com") {
		t.Error("another viewer's header is on the page")
	}
}
