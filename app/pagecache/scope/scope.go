// Package scope names the kinds of data public pages show. A page route declares the
// scopes it shows on its row (web.Route.Cached); a write records an event whose scopes are
// bumped (app/subscribers.go), and the page cache drops every copy that showed them.
// It is a leaf package so that the route table (app/web) and the cache can both use it.
package scope

import (
	"hash/fnv"
	"strconv"
)

// Scope is a kind of data public pages show.
type Scope int

const (
	Badges   Scope               = iota // badges, their quizzes and questions (catalogue, badge pages)
	Grants                              // badge grants: issue, revoke, expiry (verify, profiles, Hall of Fame)
	Profiles                            // public profile fields of users (names, pictures, links)
	Keys                                // the issuer's signing keys (a retirement changes every credential's checks)
	holders                             // the first of the Holders buckets (see Holder)
	N        = holders + Holders        // how many scopes there are
)

// Holders is how many buckets the holders are spread over (see Holder).
const Holders = 64

// Holder is the scope of one holder's grants and public profile fields: every change
// that bumps Grants or Profiles for a holder also bumps it. A page showing one holder's
// data only (a verify page) names it in place of Grants and Profiles, so that another
// holder's change leaves its copies alone. Holders share Holders scopes by a hash of
// their id: a change invalidates the pages of the holders that share its bucket too, and
// the versions stay a fixed, small set.
func Holder(userID string) Scope {
	h := fnv.New32a()
	_, _ = h.Write([]byte(userID))
	return holders + Scope(h.Sum32()%Holders)
}

// IsHolder reports whether s is a holder's bucket.
func (s Scope) IsHolder() bool { return s >= holders && s < N }

var names = func() (n [N]string) {
	copy(n[:], []string{"badges", "grants", "profiles", "keys"})
	for i := holders; i < N; i++ {
		n[i] = "holder." + strconv.Itoa(int(i-holders))
	}
	return n
}()

func (s Scope) String() string { return names[s] }

// Names lists the scopes' names in order.
func Names() [N]string { return names }
