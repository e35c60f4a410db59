// Package scope names the kinds of data public pages show. A page route declares the
// scopes it shows on its row (web.Route.Cached); a write records an event whose scopes are
// bumped (app/subscribers.go), and the page cache drops every copy that showed them.
// It is a leaf package so that the route table (app/web) and the cache can both use it.
package scope

// Scope is a kind of data public pages show.
type Scope int

const (
	Badges   Scope = iota // badges, their quizzes and questions (catalogue, badge pages)
	Grants                // badge grants: issue, revoke, expiry (verify, profiles, Hall of Fame)
	Profiles              // public profile fields of users (names, pictures, links)
	N                     // how many scopes there are
)

var names = [N]string{"badges", "grants", "profiles"}

func (s Scope) String() string { return names[s] }

// Names lists the scopes' names in order.
func Names() [N]string { return names }
