// Package app assembles the Fiber application: middleware, the route table and errors.
package app

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/middleware"
	"meritmark/app/pagecache"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/app/webhook"
	"meritmark/db"
)

// Deps is what the application is built from; main wires the real parts, tests their own.
type Deps struct {
	Config   *config.Config
	DB       *bun.DB
	Site     *web.Site
	Storage  storage.Store
	Mailer   *mail.Worker
	Sessions *session.Store
	Limiter  *ratelimit.Limiter
	// Static serves /static/*; nil in tests that do not need assets.
	Static fiber.Handler
	// Issuer signs and verifies credentials (opened once by main: credential.Open);
	// required.
	Issuer *credential.Issuer
	// Policy is what the access guard enforces beyond each route's access level.
	Policy web.Policy
	// Events is the bus writers record domain events on (app/events); nil = a new one.
	Events *events.Bus
	// Extra routes appended to the route table (tests use it to mount probes).
	Extra []web.Route
	// Metrics records requests, the page cache, the database pool, the outbox and sign-ins
	// (nil = off: MERITMARK_METRICS_ADDR unset); see metrics.go.
	Metrics *metrics.Metrics
	// Clock is the time source of the services that take one (nil = model.Now); tests set
	// it (apptest.WithClock) instead of a package global, so they can run in parallel.
	Clock func() time.Time
	// ReadTimeout is how long a client may take to send a request's header and an
	// ordinary body (0 = DefaultReadTimeout); routes with a body limit above
	// DefaultBodyLimit (uploads) get UploadReadTimeout from the end of their header.
	ReadTimeout time.Duration
}

// App is the built application.
type App struct {
	*fiber.App
	Deps   *Deps
	Routes []web.Route
	// PageCache serves visitors' pages whose data has not changed (nil when off).
	PageCache *pagecache.Cache
	// headers are the security headers every answer carries (a cache hit sets them itself)
	headers *middleware.Headers
	// observe counts each answer in the metrics (nil without them)
	observe func(fiber.Ctx, int, time.Duration)
	// bigRoutes are the routes accepting more than DefaultBodyLimit (see requestConfig).
	bigRoutes []web.Route
	// rawBody are the API routes ("METHOD /path") that take non-JSON bodies on purpose.
	rawBody map[string]bool
	// crossSite are the routes ("METHOD /path") other origins may post to (OAuth).
	crossSite map[string]bool
	// Webhooks delivers outbound webhooks; main runs its worker (Webhooks.Run).
	Webhooks *webhook.Service
	// draining is set when shutdown starts: /readyz answers 503 (serve.go).
	draining atomic.Bool
}

// DefaultBodyLimit is the request body limit for routes that set none.
const DefaultBodyLimit = 1 << 20

// MaxBodyLimit is the largest body any route accepts (uploads).
const MaxBodyLimit = 128 << 20

// DefaultReadTimeout cuts off a client that has not sent its whole request (header and an
// ordinary body) within it: slow-header and slow-body clients cannot hold a connection.
const DefaultReadTimeout = 15 * time.Second

// UploadReadTimeout is the time a route with a large body limit (an upload) gets to
// receive its body, counted from the end of its header.
const UploadReadTimeout = 10 * time.Minute

// New builds the application.
func New(d *Deps) *App {
	if d.Issuer == nil {
		panic("app: Deps.Issuer is required (credential.Open)")
	}
	a := &App{Deps: d}
	a.subscribe()
	a.checkSharedSecrets() // instances of one database with different secrets (secrets.go)
	readTimeout := d.ReadTimeout
	if readTimeout <= 0 {
		readTimeout = DefaultReadTimeout
	}
	f := fiber.New(fiber.Config{
		AppName:      "meritmark",
		ErrorHandler: a.errorHandler,
		BodyLimit:    MaxBodyLimit,
		ReadTimeout:  readTimeout,
		WriteTimeout: 60 * time.Second,
		IdleTimeout:  120 * time.Second,
		Immutable:    true,
		// X-Forwarded-For/-Proto/-Host are believed only from the proxies in
		// MERITMARK_TRUSTED_PROXIES; middleware.ForwardedClient resolves the client address
		// from X-Forwarded-For into ProxyHeader (see there)
		TrustProxy:         len(d.Config.TrustedProxies) > 0,
		TrustProxyConfig:   fiber.TrustProxyConfig{Proxies: d.Config.TrustedProxies},
		ProxyHeader:        middleware.ClientIPHeader,
		EnableIPValidation: true,
	})
	a.App = f
	// The body limit and read timeout of each request are chosen from its route as soon as
	// its header is in, before any body byte is read: a body over its route's limit is
	// refused (413) without being buffered, and only upload routes may send for long.
	f.Server().HeaderReceived = func(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
		return a.requestConfig(h)
	}
	a.observe = a.observeRequest()
	a.headers = middleware.NewHeaders(" https://www.paypal.com https://www.paypalobjects.com", " https://www.paypal.com https://www.sandbox.paypal.com", d.Config.HSTSHeader())
	f.Use(middleware.ForwardedClient(trustedPrefixes(d.Config)))
	f.Use(middleware.RequestID())
	// a visitor's page the cache holds leaves here when the server's first handler could
	// not answer it (hitRaw: an origin only the framework resolves): it sets the security
	// headers and is counted and logged as AccessLog would, before compression, the access
	// log's own wrapping, the session, routing and the request's deadline cost anything
	// (pagecache.go; a hit is a copy of bytes, so these layers were most of its cost)
	f.Use(a.cacheHit)
	f.Use(middleware.Compress())
	f.Use(middleware.AccessLog(a.errorHandler, a.observe))
	f.Use(middleware.Recover())
	f.Use(a.headers.Handler())
	f.Use(refuseEncodedBodies)

	f.Get("/healthz", a.healthz)
	f.Get("/readyz", a.ready)
	if d.Static != nil {
		f.Get("/static/*", d.Static)
		f.Get("/favicon.ico", func(c fiber.Ctx) error {
			return c.Redirect().Status(http.StatusMovedPermanently).To("/static/images/favicon.svg")
		})
	}

	f.Use(middleware.SameOrigin(d.Config.BaseURL, func(c fiber.Ctx) bool { return a.crossSite[c.Method()+" "+c.Path()] }))
	// JSON API bodies must say they are JSON (415); NUL and other control characters in
	// a query or JSON string are refused (400) before any handler sees them
	f.Use(middleware.RequireJSON(func(c fiber.Ctx) bool { return a.rawBody[c.Method()+" "+c.Path()] }))
	f.Use(middleware.RefuseControlChars())
	f.Use(a.requestDeadline)
	if d.Sessions != nil {
		f.Use(d.Sessions.Middleware())
		// signed-in answers (and the sign-in's own) are never cached
		f.Use(middleware.NoStore(func(c fiber.Ctx) bool { return web.Viewer(c) != nil }, session.CookieName, session.SecureCookieName))
	}
	a.Routes = append(a.routeTable(), d.Extra...)
	a.cachePages() // visitors' pages through the data-aware page cache (pagecache.go)
	// a visitor's page the cache holds leaves before the framework sees the request
	// (hitRaw, pagecache.go)
	f.Server().Handler = a.firstHandler(f.Server().Handler)
	for _, r := range a.Routes {
		f.Add([]string{r.Method}, r.Path, accessGuard(r, d.Policy), bodyLimit(r), r.Handler)
		if r.BodyLimit > DefaultBodyLimit {
			a.bigRoutes = append(a.bigRoutes, r)
		}
		if r.RawBody {
			if a.rawBody == nil {
				a.rawBody = map[string]bool{}
			}
			a.rawBody[r.Method+" "+r.Path] = true
		}
		if r.CrossSite {
			if a.crossSite == nil {
				a.crossSite = map[string]bool{}
			}
			a.crossSite[r.Method+" "+r.Path] = true
		}
	}
	a.watch()          // the metrics of the page cache, the database and the outbox (metrics.go)
	a.addHeadRoutes(f) // HEAD answers wherever GET does (head.go)
	f.Use(a.notFound)
	return a
}

// trustedPrefixes parses MERITMARK_TRUSTED_PROXIES (validated by config.Load).
func trustedPrefixes(cfg *config.Config) []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range cfg.TrustedProxies {
		if p, err := config.ParsePrefix(s); err == nil {
			ps = append(ps, p)
		}
	}
	return ps
}

func (a *App) healthz(c fiber.Ctx) error {
	return c.JSON(fiber.Map{"status": "ok", "version": BuildVersion()})
}

func (a *App) ready(c fiber.Ctx) error {
	if a.draining.Load() {
		c.Set("Connection", "close")
		return c.Status(http.StatusServiceUnavailable).JSON(fiber.Map{"status": "draining", "msg": "shutting down"})
	}
	ctx, cancel := context.WithTimeout(c.Context(), 2*time.Second)
	defer cancel()
	if err := a.Deps.DB.PingContext(ctx); err != nil {
		return c.Status(http.StatusServiceUnavailable).JSON(fiber.Map{"status": "not ready", "msg": "database unreachable"})
	}
	return c.JSON(fiber.Map{"status": "ready"})
}

// accessGuard is the one guard: it answers what the access policy decides for the
// viewer on route r (web.Policy.Check): 401 without a session, 403 for a non-admin on an
// admin route, the two-step set-up for an admin without it, the password page for a user
// who must choose a new password. Pages send visitors to /login?next=… instead; the admin
// page itself shows 'Access Denied' to signed-in non-admins.
func accessGuard(r web.Route, p web.Policy) fiber.Handler {
	return func(c fiber.Ctx) error {
		switch p.Check(r, c.Method(), c.Path(), web.Viewer(c)) {
		case web.NeedSignIn:
			if r.Kind == web.Page {
				return c.Redirect().To("/login?next=" + urlQueryEscape(c.OriginalURL()))
			}
			return web.Unauthorized(web.MsgLoginRequired)
		case web.NotAdmin:
			if r.Kind == web.Page {
				return c.Next() // the page renders Access Denied with status 403
			}
			return web.Forbidden(web.MsgAdminRequired)
		case web.NeedTwoStep:
			// an admin without two-step sign-in sets it up before anything admin opens
			if r.Kind == web.Page {
				return c.Redirect().To("/account/two-factor?next=" + urlQueryEscape(c.OriginalURL()))
			}
			return web.Forbidden(auth.MsgAdminNeedsMFA)
		case web.NeedNewPassword:
			if r.Kind == web.Page {
				return c.Redirect().To(web.ChangePasswordPage + "?next=" + urlQueryEscape(c.OriginalURL()))
			}
			return web.Forbidden(session.MsgMustChangePassword)
		}
		return c.Next()
	}
}

func bodyLimit(r web.Route) fiber.Handler {
	limit := r.BodyLimit
	if limit == 0 {
		limit = DefaultBodyLimit
	}
	return func(c fiber.Ctx) error {
		// the raw body: c.Body() would decompress it
		if n := c.Request().Header.ContentLength(); n > limit || len(c.Request().Body()) > limit {
			return web.TooLarge("The request is too large.")
		}
		return c.Next()
	}
}

// MsgUnreadable answers a request the server could not read.
const MsgUnreadable = "The request could not be read."

// requestDeadline gives the request's context (the one handlers pass to the database,
// PayPal and storage) a deadline: Config.RequestTimeout, or UploadReadTimeout for a
// multipart upload. A database that stops answering (a partition, a hung server) then
// costs a request a 503 after it, instead of the request and its pool connection waiting
// forever. The error handler runs after it with the context restored (an error page is
// still rendered).
func (a *App) requestDeadline(c fiber.Ctx) error {
	budget := a.Deps.Config.RequestTimeout
	if budget <= 0 {
		budget = 60 * time.Second
	}
	if strings.HasPrefix(strings.ToLower(c.Get("Content-Type")), "multipart/") {
		budget = max(budget, UploadReadTimeout)
	}
	parent := c.Context()
	ctx, cancel := context.WithTimeout(parent, budget)
	c.SetContext(ctx)
	err := c.Next()
	cancel()
	c.SetContext(parent)
	return err
}

// MsgEncodedBody answers a request body sent with a Content-Encoding.
const MsgEncodedBody = "Compressed request bodies are not accepted."

// refuseEncodedBodies answers 415 to a request whose body has a Content-Encoding. Fiber's
// c.Body() (and fasthttp's multipart reader) would otherwise inflate a gzip, deflate,
// brotli or zstd body without any limit: a 200 KB request became 200 MB in memory (a
// "zip bomb"). Browsers never compress request bodies, so nothing legitimate is lost.
func refuseEncodedBodies(c fiber.Ctx) error {
	if ce := strings.TrimSpace(string(c.Request().Header.ContentEncoding())); ce != "" && !strings.EqualFold(ce, "identity") {
		return web.E(http.StatusUnsupportedMediaType, MsgEncodedBody)
	}
	return c.Next()
}

// requestConfig is the body limit and read timeout of the request whose header is h:
// those of the route it is for when that route accepts more than DefaultBodyLimit (and,
// for a signed-in route, a session cookie came with it), else DefaultBodyLimit and the
// server's read timeout. Only the few upload routes can make the server read a large
// body; fiber's BodyLimit (MaxBodyLimit) is the outer bound.
func (a *App) requestConfig(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	path := "" // read only for a method some upload route takes (never for a GET)
	for _, r := range a.bigRoutes {
		if r.Method != string(h.Method()) {
			continue
		}
		if path == "" {
			path = requestPath(h.RequestURI())
		}
		if matchRoute(r.Path, path) {
			if r.Access != web.Public && !a.sessionAllows(h, r.Access) {
				// without a live session (of an admin, for an admin route) the guard
				// answers 401/403 anyway: a visitor, or a made-up cookie, cannot make the
				// server take in a large body first
				break
			}
			return fasthttp.RequestConfig{MaxRequestBodySize: r.BodyLimit, ReadTimeout: UploadReadTimeout}
		}
	}
	return fasthttp.RequestConfig{MaxRequestBodySize: DefaultBodyLimit}
}

// sessionAllows reports whether the request whose header is h carries a live session
// (looked up in the database, before any body byte is read) of a user the access level
// admits.
func (a *App) sessionAllows(h *fasthttp.RequestHeader, access web.Access) bool {
	s := a.Deps.Sessions
	if s == nil {
		return false
	}
	tok := string(h.Cookie(s.Cookie()))
	if tok == "" {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, u, err := s.Lookup(ctx, tok)
	return err == nil && u != nil && (access != web.Admin || u.IsAdmin())
}

// requestPath is the path of a request URI (origin form "/p?q" or absolute form
// "http://host/p?q").
func requestPath(uri []byte) string {
	s := string(uri)
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if !strings.HasPrefix(s, "/") {
		if i := strings.Index(s, "://"); i >= 0 {
			s = s[i+3:]
			if j := strings.IndexByte(s, '/'); j >= 0 {
				s = s[j:]
			} else {
				s = "/"
			}
		}
	}
	return s
}

// matchRoute reports whether path is one fiber routes to pattern: literal segments equal
// (ignoring case, as fiber does by default), ":param" segments non-empty, a trailing
// slash ignored. Patterns with wildcards never match (they are not upload routes), so
// such a request keeps the default limit.
func matchRoute(pattern, path string) bool {
	if strings.ContainsAny(pattern, "*+?") {
		return false
	}
	if len(path) > 1 {
		path = strings.TrimSuffix(path, "/")
	}
	ps, xs := strings.Split(pattern, "/"), strings.Split(path, "/")
	if len(ps) != len(xs) {
		return false
	}
	for i, p := range ps {
		if strings.HasPrefix(p, ":") {
			if xs[i] == "" {
				return false
			}
			continue
		}
		if !strings.EqualFold(p, xs[i]) {
			return false
		}
	}
	return true
}

func (a *App) notFound(c fiber.Ctx) error {
	if strings.HasPrefix(c.Path(), web.APIBase+"/") || c.Path() == web.APIBase {
		return web.NotFound("Not found.")
	}
	slog.Info("page not found", "path", c.Path())
	return a.Deps.Site.Render(c, "NotFoundPage", fiber.Map{"path": c.Path()}, web.Meta{Title: "Page not found", NoIndex: true, Status: http.StatusNotFound})
}

// errorHandler answers every error: {"msg"} for the API, a page for pages.
func (a *App) errorHandler(c fiber.Ctx, err error) error {
	status := http.StatusInternalServerError
	msg := web.MsgInternal
	var we *web.Error
	var fe *fiber.Error
	field := ""
	switch {
	case errors.As(err, &we):
		status, msg, field = we.Status, we.Msg, we.Field
	case errors.As(err, &fe):
		status, msg = fe.Code, fe.Message
		switch status {
		case http.StatusRequestEntityTooLarge:
			msg = "The request is too large."
		case http.StatusBadRequest:
			// a request the server could not read (a malformed header or multipart body):
			// fasthttp's own text describes, and may quote, the bytes; it is not shown
			msg = MsgUnreadable
		case http.StatusRequestTimeout:
			msg = "The request took too long to arrive."
		}
	case db.IsUnavailable(err) || errors.Is(err, context.DeadlineExceeded):
		status, msg = http.StatusServiceUnavailable, web.MsgUnavailable
		slog.Warn("service unavailable", "path", c.Path(), "err", err, "rid", middleware.ID(c))
	default:
		slog.Error("request failed", "path", c.Path(), "err", err, "rid", middleware.ID(c))
	}
	if status == http.StatusServiceUnavailable {
		c.Set("Retry-After", "5")
	}
	// a request fasthttp could not read has been reset (no Host is left): it was not a
	// page navigation, so it gets JSON like the API
	if strings.HasPrefix(c.Path(), web.APIBase) || !acceptsHTML(c) || len(c.Request().Header.Host()) == 0 {
		if field != "" {
			return c.Status(status).JSON(fiber.Map{"msg": msg, "field": field})
		}
		return c.Status(status).JSON(fiber.Map{"msg": msg})
	}
	if status == http.StatusNotFound {
		return a.notFound(c)
	}
	var re *web.RenderError
	if errors.As(err, &re) {
		web.LogRenderError(c, err)
	}
	props := fiber.Map{"requestId": middleware.ID(c), "status": status}
	title := "Unexpected Application Error!"
	if status == http.StatusServiceUnavailable {
		// the database (or another part) is down for a moment: the page says so
		props["message"] = msg
		title = "Temporarily unavailable"
	}
	if status < 500 {
		props["message"] = msg
		title = msg
	}
	doc, rerr := a.Deps.Site.Document(c, "ErrorPage", props, web.Meta{Title: title, NoIndex: true})
	if rerr != nil {
		doc = web.FallbackErrorPage()
	}
	c.Set("Content-Type", "text/html; charset=utf-8")
	return c.Status(status).Send(doc)
}

func acceptsHTML(c fiber.Ctx) bool {
	acc := c.Get("Accept")
	return acc == "" || strings.Contains(acc, "text/html") || strings.Contains(acc, "*/*")
}
