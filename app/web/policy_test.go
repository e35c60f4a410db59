package web

import (
	"testing"
	"time"

	"meritmark/app/model"
)

// The one guard's decisions, by viewer and route: its zero value is the safe policy.
func TestPolicyCheck(t *testing.T) {
	now := time.Now()
	member := &model.User{Role: model.RoleUser}
	admin := &model.User{Role: model.RoleAdmin}
	admin2FA := &model.User{Role: model.RoleAdmin, TOTPSecret: "S", TOTPEnabledAt: &now}
	changing := &model.User{Role: model.RoleUser, MustChangePassword: true}
	api := func(a Access, path string) Route { return Get(path, a, nil) }
	page := func(a Access, path string) Route { return PageRoute(path, a, nil) }
	for _, c := range []struct {
		name   string
		p      Policy
		r      Route
		method string
		u      *model.User
		want   Verdict
	}{
		{"visitor, public", Policy{}, page(Public, "/"), "GET", nil, Allow},
		{"visitor, member API", Policy{}, api(Member, "/users/profile"), "GET", nil, NeedSignIn},
		{"member, admin API", Policy{}, api(Admin, "/admin/summary"), "GET", member, NotAdmin},
		{"admin without two-step", Policy{}, api(Admin, "/admin/summary"), "GET", admin, NeedTwoStep},
		{"admin with two-step", Policy{}, api(Admin, "/admin/summary"), "GET", admin2FA, Allow},
		{"admin without two-step, test switch", Policy{AdminsWithoutTwoStep: true}, api(Admin, "/admin/summary"), "GET", admin, Allow},
		{"must change, public page", Policy{}, page(Public, "/badges"), "GET", changing, NeedNewPassword},
		{"must change, the password page", Policy{}, page(Member, ChangePasswordPage), "GET", changing, Allow},
		{"must change, change-password API", Policy{}, Route{Method: "POST", Path: APIBase + "/auth/change-password", Access: Member}, "POST", changing, Allow},
		{"must change, other API", Policy{}, api(Member, "/users/profile"), "GET", changing, NeedNewPassword},
		{"must change, a sessions row", Policy{}, Route{Method: "DELETE", Path: APIBase + "/auth/sessions/x", Access: Member}, "DELETE", changing, Allow},
	} {
		if got := c.p.Check(c.r, c.method, c.r.Path, c.u); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	if !(Policy{}).AdminKeepsTwoStep(admin2FA) || (Policy{AdminsWithoutTwoStep: true}).AdminKeepsTwoStep(admin2FA) || (Policy{}).AdminKeepsTwoStep(member) {
		t.Fatal("AdminKeepsTwoStep")
	}
}
