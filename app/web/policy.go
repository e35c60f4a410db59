package web

import (
	"strings"

	"meritmark/app/model"
)

// Policy is what the one access guard (app/server.go) enforces beyond a route's access
// level, for the viewer a session gives. It is a value made in the wiring from the
// configuration (app.Deps.Policy), never a global; its zero value is the safe one.
type Policy struct {
	// AdminsWithoutTwoStep lets administrators work without two-step sign-in
	// (MERITMARK_INSECURE_ADMIN_WITHOUT_2FA=1, for other features' browser tests only);
	// otherwise an admin sets it up before any admin route opens.
	AdminsWithoutTwoStep bool
}

// AdminNeedsTwoStep reports whether u, an administrator, must set up two-step sign-in first.
func (p Policy) AdminNeedsTwoStep(u *model.User) bool {
	return u.IsAdmin() && !p.AdminsWithoutTwoStep && !u.TOTPEnabled()
}

// AdminKeepsTwoStep reports whether an administrator may not switch two-step sign-in off.
func (p Policy) AdminKeepsTwoStep(u *model.User) bool { return u.IsAdmin() && !p.AdminsWithoutTwoStep }

// Verdict is the guard's answer for a viewer on a route.
type Verdict int

const (
	Allow           Verdict = iota
	NeedSignIn              // no session on a member or admin route
	NotAdmin                // a member on an admin route
	NeedTwoStep             // an admin without two-step sign-in on an admin route
	NeedNewPassword         // a user who must choose a new password, anywhere else
)

// allowedWhileChanging are the API paths (after APIBase) a user who must choose a new
// password may still use.
var allowedWhileChanging = map[string]bool{
	"/auth/me": true, "/auth/logout": true, "/auth/change-password": true, "/auth/logout-everywhere": true, "/auth/sessions": true,
}

// ChangePasswordPage is where a user who must choose a new password is sent.
const ChangePasswordPage = "/account/password"

// Check decides route r (requested at path, by method) for viewer u (nil: a visitor).
func (p Policy) Check(r Route, method, path string, u *model.User) Verdict {
	if u != nil && u.MustChangePassword && !changingPassword(method, path) {
		return NeedNewPassword
	}
	switch {
	case r.Access == Public:
		return Allow
	case u == nil:
		return NeedSignIn
	case r.Access == Admin && !u.IsAdmin():
		return NotAdmin
	case r.Access == Admin && p.AdminNeedsTwoStep(u):
		return NeedTwoStep
	}
	return Allow
}

// changingPassword reports whether a request is one a user who must choose a new password
// may make: the password page itself, any other write a page posts (its own handler
// decides), and the few API calls of allowedWhileChanging.
func changingPassword(method, path string) bool {
	if rest, ok := strings.CutPrefix(path, APIBase); ok {
		return allowedWhileChanging[rest] || strings.HasPrefix(rest, "/auth/sessions/")
	}
	return path == ChangePasswordPage || method != "GET" && method != "HEAD"
}
