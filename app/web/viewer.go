package web

import (
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/model"
	"meritmark/app/pagecache/scope"
)

const viewerKey = "mm.viewer"

// SetViewer records the signed-in user for this request (done by the session middleware).
func SetViewer(c fiber.Ctx, u *model.User) { c.Locals(viewerKey, u) }

// Viewer is the signed-in user, or nil.
func Viewer(c fiber.Ctx) *model.User {
	u, _ := c.Locals(viewerKey).(*model.User)
	return u
}

// Access says who may use a route.
type Access int

const (
	Public Access = iota // anyone
	Member               // signed in
	Admin                // signed in with role admin
)

func (a Access) String() string {
	return [...]string{"public", "member", "admin"}[a]
}

// Kind says whether a route answers JSON or a page.
type Kind int

const (
	API Kind = iota
	Page
	Asset
)

// Route is one row of the route table.
type Route struct {
	Method  string
	Path    string
	Access  Access
	Kind    Kind
	Handler fiber.Handler
	// BodyLimit overrides the default request body limit (bytes) for this route.
	BodyLimit int
	// RawBody lets an API route take a body that is not JSON (a CSV, a PNG, a JWT as
	// text): the JSON content-type rule skips it. Only for routes that change nothing a
	// cross-site form could abuse (public checks of what is posted).
	RawBody bool
	// CrossSite exempts a route from the same-origin (CSRF) check: only for endpoints that
	// never act on a session cookie and authenticate each request themselves (the OAuth
	// token, revocation and registration endpoints, called by other sites' servers).
	CrossSite bool
	// Cache, on a visitor GET row, serves the route through the page cache (see Cached).
	Cache *Cache
}

// Cache says how the page cache holds a route's answers: one copy per URL and encoding,
// dropped as soon as a write bumps one of Scopes (the data the page shows; none for a page
// that shows no data), and after TTL at the latest when TTL is set (for a page that also
// shows data no scope follows).
type Cache struct {
	Scopes []scope.Scope
	TTL    time.Duration
}

// Cached serves a visitor GET route through the page cache, its copies kept until a
// write touches one of scopes.
func (r Route) Cached(scopes ...scope.Scope) Route {
	r.Cache = &Cache{Scopes: scopes}
	return r
}

// CachedFor is Cached with copies that live at most ttl.
func (r Route) CachedFor(ttl time.Duration, scopes ...scope.Scope) Route {
	r.Cache = &Cache{Scopes: scopes, TTL: ttl}
	return r
}

// APIBase is where the JSON API lives.
const APIBase = "/backend/api/v1"

// Get, Post, Put, Patch, Delete build API rows (path relative to APIBase).
func Get(path string, a Access, h fiber.Handler) Route    { return apiRoute("GET", path, a, h) }
func Post(path string, a Access, h fiber.Handler) Route   { return apiRoute("POST", path, a, h) }
func Put(path string, a Access, h fiber.Handler) Route    { return apiRoute("PUT", path, a, h) }
func Patch(path string, a Access, h fiber.Handler) Route  { return apiRoute("PATCH", path, a, h) }
func Delete(path string, a Access, h fiber.Handler) Route { return apiRoute("DELETE", path, a, h) }

func apiRoute(m, path string, a Access, h fiber.Handler) Route {
	return Route{Method: m, Path: APIBase + path, Access: a, Kind: API, Handler: h}
}

// PageRoute builds a GET row for a server-rendered page.
func PageRoute(path string, a Access, h fiber.Handler) Route {
	return Route{Method: "GET", Path: path, Access: a, Kind: Page, Handler: h}
}

// WithBodyLimit sets a route's body limit.
func (r Route) WithBodyLimit(n int) Route { r.BodyLimit = n; return r }

// WithRawBody marks an API route that accepts non-JSON bodies (see Route.RawBody).
func (r Route) WithRawBody() Route { r.RawBody = true; return r }

// WithCrossSite marks a route that other origins may post to (see Route.CrossSite).
func (r Route) WithCrossSite() Route { r.CrossSite = true; return r }
