package admin_test

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"strings"
	"testing"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

type userList struct {
	Users []admin.UserJSON `json:"users"`
	Stats admin.UserStats  `json:"stats"`
	admin.PageInfo
}

func listUsers(t *testing.T, c *apptest.Client, query string) userList {
	t.Helper()
	var out userList
	c.Get("/admin/users" + query).Expect(200).JSON(&out)
	return out
}

func emails(us []admin.UserJSON) string {
	var s []string
	for _, u := range us {
		s = append(s, u.Email)
	}
	return strings.Join(s, ",")
}

func TestUserListSearchAndPages(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")
	bob, _ := e.Member("bob@x.io")
	carol, _ := e.Member("carol@x.io")
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("position = ?", "Staff 100% Engineer").Where("id = ?", bob.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	b := newBadge(t, e, "Kubernetes Pro", 1000)
	a := paidApplication(t, e, carol, b)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).Expect(200)
	g := grantsOf(t, e, a.ID)[0]

	all := listUsers(t, ac, "")
	if all.Total != 4 || len(all.Users) != 4 || all.Stats.TotalUsers != 4 || all.Stats.TotalAdmins != 1 ||
		all.Stats.TotalBadgesEarned != 1 || all.Stats.VerificationIDs != 1 {
		t.Fatalf("list: total %d users %s stats %+v", all.Total, emails(all.Users), all.Stats)
	}
	for _, u := range all.Users {
		if u.Email == carol.Email {
			apptest.Expect(t, "carol's grants", u.BadgeGrants,
				apptest.Eq("len(u.BadgeGrants)", len(u.BadgeGrants), 1))
			apptest.Expect(t, "carol's grants", u.BadgeGrants,
				apptest.Eq("u.BadgeGrants[0].BadgeName", u.BadgeGrants[0].BadgeName, "Kubernetes Pro"),
				apptest.Eq("u.BadgeGrants[0].BadgeCategory", u.BadgeGrants[0].BadgeCategory, "Development"),
				apptest.Eq("u.BadgeGrants[0].VerificationID", u.BadgeGrants[0].VerificationID, g.VerificationID),
				apptest.Eq("u.BadgeGrants[0].PublicVerificationID", u.BadgeGrants[0].PublicVerificationID, g.PublicVerificationID),
				apptest.Eq("u.BadgeGrants[0].ID", u.BadgeGrants[0].ID, g.ID),
				apptest.True("!u.BadgeGrants[0].GrantedAt.IsZero()", !u.BadgeGrants[0].GrantedAt.IsZero()))
		} else if u.BadgeGrants == nil || len(u.BadgeGrants) != 0 {
			t.Fatalf("%s grants: %+v", u.Email, u.BadgeGrants)
		}
	}

	for q, want := range map[string]string{
		"ANN":                                   ann.Email,
		"bob@x":                                 bob.Email,
		"100%":                                  bob.Email, // LIKE wildcards are literal
		"kubernetes":                            carol.Email,
		strings.ToLower(g.VerificationID[3:11]): carol.Email,
		strings.ToUpper(g.PublicVerificationID): carol.Email,
	} {
		got := listUsers(t, ac, "?search="+urlq(q))
		if emails(got.Users) != want || got.Total != 1 {
			t.Errorf("search %q: %s (total %d), want %s", q, emails(got.Users), got.Total, want)
		}
	}
	if got := listUsers(t, ac, "?search=nobody-here"); len(got.Users) != 0 || got.Total != 0 || got.Stats.TotalUsers != 4 {
		t.Errorf("no match: %+v", got)
	}
	if got := listUsers(t, ac, "?role=admin"); emails(got.Users) != "boss@x.io" {
		t.Errorf("role filter: %s", emails(got.Users))
	}

	// pages: newest first, no overlap, last page short
	p1 := listUsers(t, ac, "?page=1&limit=3")
	p2 := listUsers(t, ac, "?page=2&limit=3")
	if len(p1.Users) != 3 || len(p2.Users) != 1 || p1.TotalPages != 2 || p1.Total != 4 || p2.Page != 2 || p2.Limit != 3 {
		t.Fatalf("pages: %s | %s (%+v)", emails(p1.Users), emails(p2.Users), p1.PageInfo)
	}
	seen := map[string]bool{}
	for _, u := range append(p1.Users, p2.Users...) {
		if seen[u.ID] {
			t.Fatalf("user %s on two pages", u.Email)
		}
		seen[u.ID] = true
	}
	ac.Get("/admin/users?page=0").ExpectMsg(400, admin.MsgBadPage)
	ac.Get("/admin/users?limit=101").ExpectMsg(400, admin.MsgBadLimit)
	ac.Get("/admin/users?limit=abc").ExpectMsg(400, admin.MsgBadLimit)
	ac.Get("/admin/users?role=owner").ExpectMsg(400, admin.MsgRoleInvalid)
	ac.Get("/admin/users?search="+strings.Repeat("a", 201)).ExpectMsg(400, admin.MsgSearchTooLong)
}

func urlq(s string) string {
	r := strings.NewReplacer("%", "%25", "@", "%40", " ", "%20", "+", "%2B")
	return r.Replace(s)
}

func TestUpdateUser(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	ann, annc := e.Member("ann@x.io")
	e.Member("taken@x.io")

	r := ac.Put("/admin/users/"+ann.ID, map[string]any{
		"name": "  Ann   Lee ", "position": "Lead Designer",
		"linkedin": "https://linkedin.com/in/annlee", "portfolio": "https://ann.example", "role": "user",
	}).ExpectMsg(200, admin.MsgUserUpdated)
	var body struct {
		User admin.UserJSON `json:"user"`
	}
	r.JSON(&body)
	apptest.Expect(t, "updated user", body.User,
		apptest.Eq("body.User.Name", body.User.Name, "Ann Lee"),
		apptest.Eq("body.User.Email", body.User.Email, "ann@x.io"),
		apptest.Eq("body.User.Position", body.User.Position, "Lead Designer"),
		apptest.Eq("body.User.LinkedIn", body.User.LinkedIn, "https://linkedin.com/in/annlee"),
		apptest.Eq("body.User.Portfolio", body.User.Portfolio, "https://ann.example"),
		apptest.Eq("body.User.Role", body.User.Role, "user"))
	var got model.User
	_ = e.DB.NewSelect().Model(&got).Where("id = ?", ann.ID).Scan(e.Ctx())
	apptest.Expect(t, "stored", got,
		apptest.Eq("got.Email", got.Email, "ann@x.io"),
		apptest.Eq("got.Name", got.Name, "Ann Lee"))
	es := auditOf(t, e, ann.ID)
	apptest.Expect(t, "audit", es,
		apptest.Eq("len(es)", len(es), 1))
	apptest.Expect(t, "audit", es,
		apptest.Eq("es[0].Action", es[0].Action, "user.update"),
		apptest.Eq("*es[0].ActorID", *es[0].ActorID, boss.ID))
	var before, after map[string]any
	_ = json.Unmarshal([]byte(es[0].Before), &before)
	_ = json.Unmarshal([]byte(es[0].After), &after)
	// (an address change waits for its owner: TestAdminEmailChangeWaitsForConfirmation)
	if before["name"] == after["name"] || after["name"] != "Ann Lee" || after["position"] != "Lead Designer" {
		t.Fatalf("audit before/after: %s -> %s", es[0].Before, es[0].After)
	}
	if strings.Contains(es[0].Before+es[0].After, "password") {
		t.Fatal("audit records secrets")
	}

	// an unchanged edit writes nothing
	ac.Put("/admin/users/"+ann.ID, map[string]any{"name": "Ann Lee"}).ExpectMsg(200, admin.MsgUserUpdated)
	if n := len(auditOf(t, e, ann.ID)); n != 1 {
		t.Fatalf("no-op edit audited (%d entries)", n)
	}

	// promote: a role change is its own audit entry, and takes effect on the next request
	annc.Get("/admin/users").Expect(403)
	ac.Put("/admin/users/"+ann.ID, map[string]any{"role": "admin"}).ExpectMsg(200, admin.MsgUserUpdated)
	es = auditOf(t, e, ann.ID)
	apptest.Expect(t, "role audit", es[len(es)-1],
		apptest.Eq("len(es)", len(es), 2))
	apptest.Expect(t, "role audit", es[len(es)-1],
		apptest.Eq("es[1].Action", es[1].Action, "user.role_change"),
		apptest.Eq("es[1].Before", es[1].Before, `{"role":"user"}`),
		apptest.Eq("es[1].After", es[1].After, `{"role":"admin"}`))
	// a promoted member must set up two-step sign-in before the admin API opens (app/auth)
	annc.Get("/admin/users").ExpectMsg(403, auth.MsgAdminNeedsMFA)
	// and demote again (two admins exist)
	ac.Put("/admin/users/"+ann.ID, map[string]any{"role": "user"}).ExpectMsg(200, admin.MsgUserUpdated)
	annc.Get("/admin/users").Expect(403)

	for _, c := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{}, admin.MsgNothingToUpdate},
		{map[string]any{"name": "   "}, admin.MsgNameRequired},
		{map[string]any{"name": strings.Repeat("n", 101)}, admin.MsgNameTooLong},
		{map[string]any{"email": ""}, admin.MsgEmailRequired},
		{map[string]any{"email": "not-an-email"}, admin.MsgEmailInvalid},
		{map[string]any{"email": "Ann <ann@x.io>"}, admin.MsgEmailInvalid},
		{map[string]any{"position": strings.Repeat("p", 121)}, admin.MsgPositionTooLong},
		{map[string]any{"linkedin": "linkedin.com/in/ann"}, admin.MsgLinkedInInvalid},
		{map[string]any{"portfolio": "javascript:alert(1)"}, admin.MsgPortfolioInvalid},
		{map[string]any{"role": "superuser"}, admin.MsgRoleInvalid},
	} {
		ac.Put("/admin/users/"+ann.ID, c.body).ExpectMsg(400, c.msg)
	}
	ac.Put("/admin/users/"+ann.ID, nil).ExpectMsg(400, "The request body is empty; expected JSON.")
	ac.Put("/admin/users/"+ann.ID, map[string]any{"email": "TAKEN@x.io"}).ExpectMsg(409, admin.MsgEmailTaken)
	ac.Put("/admin/users/"+model.NewID(), map[string]any{"name": "X"}).ExpectMsg(404, admin.MsgUserMissing)
	ac.Put("/admin/users/nope", map[string]any{"name": "X"}).ExpectMsg(404, admin.MsgUserMissing)
	// clearing optional fields is allowed
	ac.Put("/admin/users/"+ann.ID, map[string]any{"linkedin": "", "portfolio": "", "position": ""}).Expect(200)
	_ = e.DB.NewSelect().Model(&got).Where("id = ?", ann.ID).Scan(e.Ctx())
	apptest.Expect(t, "after clearing", got,
		apptest.Eq("got.LinkedIn", got.LinkedIn, ""),
		apptest.Eq("got.Portfolio", got.Portfolio, ""),
		apptest.Eq("got.Position", got.Position, ""),
		apptest.Eq("got.Email", got.Email, "ann@x.io"))
}

func TestRoleRules(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	ac.Put("/admin/users/"+boss.ID, map[string]any{"role": "user"}).ExpectMsg(409, admin.MsgSelfDemotion)
	// other edits of oneself are fine
	ac.Put("/admin/users/"+boss.ID, map[string]any{"name": "The Boss", "role": "admin"}).ExpectMsg(200, admin.MsgUserUpdated)

	// two admins demoting each other at once: exactly one wins, one admin remains
	other, oc := e.Admin("other@x.io")
	for round := 0; round < 3; round++ {
		var results [2]*apptest.Resp
		apptest.Parallel(2, func(i int) {
			if i == 0 {
				results[0] = ac.Put("/admin/users/"+other.ID, map[string]any{"role": "user"})
			} else {
				results[1] = oc.Put("/admin/users/"+boss.ID, map[string]any{"role": "user"})
			}
		})
		okCount := 0
		for _, r := range results {
			switch {
			case r.Status == 200:
				okCount++
			case r.Status == 409 && r.Msg() == admin.MsgLastAdmin:
			case r.Status == 403: // the loser was already demoted when its request arrived
			default:
				t.Fatalf("round %d: %d %s", round, r.Status, r.Text())
			}
		}
		admins, _ := e.DB.NewSelect().Model((*model.User)(nil)).Where("role = ?", model.RoleAdmin).Count(e.Ctx())
		if okCount != 1 || admins != 1 {
			t.Fatalf("round %d: %d demotions succeeded, %d admins remain", round, okCount, admins)
		}
		// restore both as admins for the next round, through whoever is still admin
		var still model.User
		_ = e.DB.NewSelect().Model(&still).Where("role = ?", model.RoleAdmin).Scan(e.Ctx())
		c, target := ac, other.ID
		if still.ID == other.ID {
			c, target = oc, boss.ID
		}
		// the last admin cannot demote themself either
		c.Put("/admin/users/"+still.ID, map[string]any{"role": "user"}).ExpectMsg(409, admin.MsgSelfDemotion)
		c.Put("/admin/users/"+target, map[string]any{"role": "admin"}).Expect(200)
	}
}

func pngOf(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			img.Set(x, y, color.NRGBA{uint8(x), uint8(y), 200, 255})
		}
	}
	var b bytes.Buffer
	_ = png.Encode(&b, img)
	return b.Bytes()
}

func TestProfilePicture(t *testing.T) {
	e := apptest.New(t)
	boss, ac := e.Admin("boss@x.io")
	ann, _ := e.Member("ann@x.io")

	r := ac.Multipart("POST", "/admin/users/"+ann.ID+"/profile-pic", nil,
		apptest.File{Field: "profilePic", Name: "me.png", ContentType: "image/png", Data: pngOf(800, 600)}).
		ExpectMsg(200, admin.MsgProfilePicUpdated)
	url := r.Map()["profilePicUrl"].(string)
	var got model.User
	_ = e.DB.NewSelect().Model(&got).Where("id = ?", ann.ID).Scan(e.Ctx())
	if got.ProfilePicKey == "" || url != "/media/"+got.ProfilePicKey {
		t.Fatalf("url %q key %q", url, got.ProfilePicKey)
	}
	rc, err := e.Deps.Storage.Open(e.Ctx(), got.ProfilePicKey)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(rc)
	rc.Close()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil || cfg.Width != 512 || cfg.Height != 512 {
		t.Fatalf("stored picture: %v %dx%d", err, cfg.Width, cfg.Height)
	}
	es := auditOf(t, e, ann.ID)
	apptest.Expect(t, "audit", es,
		apptest.Eq("len(es)", len(es), 1))
	apptest.Expect(t, "audit", es,
		apptest.Eq("es[0].Action", es[0].Action, "user.profile_pic"),
		apptest.Eq("*es[0].ActorID", *es[0].ActorID, boss.ID),
		apptest.True("strings.Contains(es[0].After, got.ProfilePicKey)", strings.Contains(es[0].After, got.ProfilePicKey)))

	// a second upload replaces the file and removes the old one
	oldKey := got.ProfilePicKey
	ac.Multipart("POST", "/admin/users/"+ann.ID+"/profile-pic", nil,
		apptest.File{Field: "profilePic", Name: "again.png", ContentType: "image/png", Data: pngOf(64, 64)}).Expect(200)
	_ = e.DB.NewSelect().Model(&got).Where("id = ?", ann.ID).Scan(e.Ctx())
	if got.ProfilePicKey == oldKey {
		t.Fatal("key not replaced")
	}
	if _, err := e.Deps.Storage.Open(e.Ctx(), oldKey); err == nil {
		t.Fatal("old picture left behind")
	}

	ac.Multipart("POST", "/admin/users/"+ann.ID+"/profile-pic", nil,
		apptest.File{Field: "profilePic", Name: "evil.png", ContentType: "image/png", Data: []byte("%PDF-1.4 not an image")}).Expect(400)
	ac.Multipart("POST", "/admin/users/"+ann.ID+"/profile-pic", map[string]string{"x": "y"}).Expect(400)
	keys, _ := e.Deps.Storage.List(e.Ctx(), "")
	if len(keys) != 1 || keys[0] != got.ProfilePicKey {
		t.Fatalf("storage holds %v, want only %s", keys, got.ProfilePicKey)
	}
	// an unknown user: 404 and no file left behind
	ac.Multipart("POST", "/admin/users/"+model.NewID()+"/profile-pic", nil,
		apptest.File{Field: "profilePic", Name: "me.png", ContentType: "image/png", Data: pngOf(10, 10)}).ExpectMsg(404, admin.MsgUserMissing)
	keys, _ = e.Deps.Storage.List(e.Ctx(), "")
	if len(keys) != 1 {
		t.Fatalf("storage holds %v after a refused upload", keys)
	}
	if n := len(auditOf(t, e, ann.ID)); n != 2 {
		t.Fatalf("%d audit entries, want 2", n)
	}
}

// GET /admin/users/{id} answers one user with their grants (the side panel of a deep link
// to a user on another page); an unknown or malformed id is a 404, a member is refused.
func TestOneUser(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	carol, cc := e.Member("carol@x.io")
	b := newBadge(t, e, "Kubernetes Pro", 1000)
	a := paidApplication(t, e, carol, b)
	ac.Put("/admin/applications/"+a.ID+"/approve", nil).Expect(200)
	g := grantsOf(t, e, a.ID)[0]

	var out struct {
		User admin.UserJSON `json:"user"`
	}
	ac.Get("/admin/users/" + carol.ID).Expect(200).JSON(&out)
	apptest.Expect(t, "carol", out.User,
		apptest.Eq("out.User.ID", out.User.ID, carol.ID),
		apptest.Eq("out.User.Email", out.User.Email, "carol@x.io"),
		apptest.Eq("len(out.User.BadgeGrants)", len(out.User.BadgeGrants), 1))
	apptest.Expect(t, "carol's grant", out.User.BadgeGrants[0],
		apptest.Eq("out.User.BadgeGrants[0].ID", out.User.BadgeGrants[0].ID, g.ID),
		apptest.Eq("out.User.BadgeGrants[0].BadgeName", out.User.BadgeGrants[0].BadgeName, "Kubernetes Pro"))
	ac.Get("/admin/users/"+model.NewID()).ExpectMsg(404, admin.MsgUserMissing)
	ac.Get("/admin/users/nope").ExpectMsg(404, admin.MsgUserMissing)
	cc.Get("/admin/users/" + carol.ID).Expect(403)
}
