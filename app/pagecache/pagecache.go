// Package pagecache serves visitors' pages whose data has not changed without running
// their handlers (no queries, no render). Each cached page names the data scopes it shows
// (badges, grants, profiles); every write that changes what a public page shows bumps the
// scope's version in the page_versions table, in the same transaction as the write
// (Bump). Each visitor request reads the versions (one small query, shared by the
// requests that arrive while it runs), so a write on any instance invalidates the pages of
// every instance at once. Entries are also bounded by TTL and, for pages that show grants,
// by the next moment a grant expires.
//
// Only requests without a signed-in user are served from or stored in the cache; only 200
// answers with HTML or JSON and no cookie are kept. Answers carry a weak ETag and a
// matching If-None-Match gets 304. An entry's gzip or brotli form is made once, when a
// request first needs it; brotli, which costs four times the CPU, only once the entry has
// been served BrotliAfter times (until then a client taking both gets gzip), so that pages
// a stream of writes keeps replacing are not compressed hard for a handful of visitors.
package pagecache

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"
	"github.com/valyala/fasthttp"

	"meritmark/app/pagecache/scope"
	"meritmark/app/web"
	mmdb "meritmark/db"
)

// Scope is a kind of data public pages show (see package scope).
type Scope = scope.Scope

const (
	Badges   = scope.Badges
	Grants   = scope.Grants
	Profiles = scope.Profiles
	Keys     = scope.Keys
	nScopes  = scope.N
)

// Holder is the scope of one holder's grants and profile (see scope.Holder).
func Holder(userID string) Scope { return scope.Holder(userID) }

var scopeNames = scope.Names()

// scopeByName finds a scope by its name in page_versions and notifications.
var scopeByName = func() map[string]Scope {
	m := make(map[string]Scope, nScopes)
	for i, n := range scopeNames {
		m[n] = Scope(i)
	}
	return m
}()

// Versions is one reading of every scope's version.
type Versions [nScopes]int64

// Same reports whether v and o agree on every one of scopes.
func (v *Versions) Same(o *Versions, scopes ...Scope) bool {
	for _, s := range scopes {
		if v[s] != o[s] {
			return false
		}
	}
	return true
}

// Bump marks scopes changed, inside the caller's transaction tx (so the versions move
// exactly when the write commits, and not at all when it rolls back).
func Bump(ctx context.Context, tx bun.IDB, scopes ...Scope) error {
	const upsert = `INSERT INTO page_versions (scope, version) VALUES (?, 1)
ON CONFLICT (scope) DO UPDATE SET version = page_versions.version + 1`
	query := upsert
	if tx.Dialect().Name().String() == "pg" {
		// every instance's LISTEN connection learns the new version at commit (Watch)
		query = `WITH b AS (` + upsert + ` RETURNING scope, version)
SELECT pg_notify('` + Channel + `', scope || ':' || version) FROM b`
	}
	for _, s := range scopes {
		if _, err := tx.NewRaw(query, s.String()).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

// Read reads the versions now.
func Read(ctx context.Context, db bun.IDB) (Versions, error) {
	return readWith(ctx, db, nil)
}

// readWith reads the versions, with stmt when there is one: the reader keeps the read
// prepared, as it runs before every visitor's page.
func readWith(ctx context.Context, db bun.IDB, stmt *mmdb.Prepared) (Versions, error) {
	var v Versions
	var rows []struct {
		Scope   string `bun:"scope"`
		Version int64  `bun:"version"`
	}
	const query = `SELECT scope, version FROM page_versions`
	var err error
	if stmt != nil {
		err = stmt.Scan(ctx, db, &rows, query)
	} else {
		err = db.NewRaw(query).Scan(ctx, &rows)
	}
	if err != nil {
		return v, err
	}
	for _, r := range rows {
		if s, ok := scopeByName[r.Scope]; ok {
			v[s] = r.Version
		}
	}
	return v, nil
}

type ctxKey struct{}

type showsKey struct{}

// Shows tells the cache, from the handler of a cached route, that this answer shows only
// scopes (of the data its route names): its copy is kept until one of those changes. A
// verify page names its holder (Holder) in place of every holder's grants and profiles.
func Shows(c fiber.Ctx, scopes ...Scope) {
	c.Locals(showsKey{}, scopes)
}

type membersKey struct{}

// SameForMembers tells the cache, from the handler of a cached page, that this page shows
// every signed-in viewer but except what it shows a visitor, header aside: a member's
// request for it is then made from the visitor's held copy with the member's header
// (Cache.Members) instead of a whole render. Only a page whose body reads nothing of the
// viewer may say so (app/pagetest compares both answers byte for byte).
func SameForMembers(c fiber.Ctx, except ...string) {
	c.Locals(membersKey{}, memberRule{except: except})
}

// memberRule is who, among the signed-in, gets a held page with their own header.
type memberRule struct{ except []string }

func (r *memberRule) allows(userID string) bool {
	if r == nil {
		return false
	}
	for _, id := range r.except {
		if id == userID {
			return false
		}
	}
	return true
}

// FromContext answers the versions the page cache read for this request, when it did:
// services that keep their own short-lived caches (Hall of Fame stats, verification
// results) compare them so that a page rebuilt after a write never shows older data.
func FromContext(ctx context.Context) (Versions, bool) {
	v, ok := ctx.Value(ctxKey{}).(Versions)
	return v, ok
}

// WithVersions returns ctx carrying v (tests, and the cache itself).
func WithVersions(ctx context.Context, v Versions) context.Context {
	return context.WithValue(ctx, ctxKey{}, v)
}

// Cache is the page cache of one instance.
type Cache struct {
	DB *bun.DB
	// Origin is the public origin of a request (pages carry it in links); part of the key.
	Origin func(fiber.Ctx) string
	// TTL bounds every entry (default 10 minutes); MaxBytes bounds the cache (default 64 MB).
	TTL      time.Duration
	MaxBytes int
	// Now is the clock (tests).
	Now func() time.Time
	// Members, when set, makes the page a signed-in member gets from body, a visitor's
	// held copy of a page that said SameForMembers (app: web.Site.ForViewer, which swaps
	// the header). An error leaves the request to the handler.
	Members func(c fiber.Ctx, body []byte) ([]byte, error)

	reader reader
	w      watch

	mu       sync.Mutex
	entries  map[string]*entry
	bytes    int
	building map[string]*building // the misses being rendered, by key

	hits, misses, stores, members atomic.Int64
}

// New makes a cache reading versions from d.
func New(d *bun.DB, origin func(fiber.Ctx) string) *Cache {
	pc := &Cache{DB: d, Origin: origin, TTL: 10 * time.Minute, MaxBytes: 64 << 20, Now: time.Now, entries: map[string]*entry{},
		building: map[string]*building{}}
	pc.reader.db = d
	return pc
}

type entry struct {
	stamp   Versions
	scopes  []Scope
	expires time.Time

	route   *fiber.Route // the route that rendered it
	members *memberRule  // nil: signed-in viewers get the page from its handler
	status  int
	headers [][2][]byte // canonical names, set as they are
	// contentType is the Content-Type the handler set
	contentType []byte
	body        []byte
	etag        string
	etagB       []byte       // etag, as it is set
	coded       [3]codedBody // by web.Encoding: the gzip and brotli forms, made on demand
	served      atomic.Int64
}

// BrotliAfter is how many times an entry is served before a client that takes gzip and
// brotli alike gets brotli (its brotli form costs ~1 ms to make for a 50 KB page, gzip's
// ~0.2 ms, for a tenth fewer bytes).
const BrotliAfter = 16

type codedBody struct {
	once sync.Once
	b    []byte // nil: not smaller than the body
}

// size is what the entry counts against MaxBytes: its body and, for the compressed forms
// it may make later, half as much again (HTML and JSON compress to a quarter or less).
func (e *entry) size() int { return len(e.body) + len(e.body)/2 + 256 }

// encoded is the body in coding enc, compressed on first use (concurrent first requests
// wait for the one compressing), or nil when enc is identity or does not make it smaller.
func (e *entry) encoded(enc web.Encoding) []byte {
	if enc == web.Identity || len(e.body) < 512 {
		return nil
	}
	cb := &e.coded[enc]
	cb.once.Do(func() {
		if b := web.Compress(enc, e.body, web.CachedGzipLevel, web.CachedBrotliLevel); len(b) < len(e.body) {
			cb.b = b
		}
	})
	return cb.b
}

// ReadVersions reads the versions as a request does (sharing a read that starts after
// the call, never one already under way).
func (pc *Cache) ReadVersions(ctx context.Context) (Versions, error) { return pc.versions(ctx) }

// Stats reports hits, misses and stores so far, and the entries held.
func (pc *Cache) Stats() (hits, misses, stores int64, entries int) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.hits.Load(), pc.misses.Load(), pc.stores.Load(), len(pc.entries)
}

// skipped headers are the ones made per request or per encoding, and the ones the
// middleware sets on every answer before the handler runs (they are set afresh on a hit).
var skipped = map[string]bool{"Date": true, "Content-Length": true, "Content-Encoding": true, "Etag": true,
	"X-Request-Id": true, "Set-Cookie": true, "Vary": true, "Server": true, "Connection": true, "Transfer-Encoding": true,
	"Content-Security-Policy": true, "X-Content-Type-Options": true, "Referrer-Policy": true, "X-Frame-Options": true,
	"Permissions-Policy": true, "Strict-Transport-Security": true, "Cross-Origin-Opener-Policy": true}

// Wrap serves the route's handler next through the cache; scopes are the data the page
// shows (none for a page that shows no data).
func (pc *Cache) Wrap(scopes []Scope, next fiber.Handler) fiber.Handler {
	return pc.WrapTTL(scopes, 0, next)
}

// WrapTTL is Wrap for a page that also shows data no scope follows (such as quiz
// attempts): its entries live at most ttl (when shorter than TTL; 0: TTL).
func (pc *Cache) WrapTTL(scopes []Scope, ttl time.Duration, next fiber.Handler) fiber.Handler {
	return func(c fiber.Ctx) error {
		m := c.Method()
		if m != fiber.MethodGet && m != fiber.MethodHead {
			return next(c)
		}
		if u := web.Viewer(c); u != nil {
			if pc.Members != nil && pc.serveMember(c, u.ID, scopes) {
				return nil
			}
			return next(c)
		}
		var cur Versions
		if len(scopes) > 0 {
			v, err := pc.versions(c.Context())
			if err != nil {
				return next(c) // the handler meets the same database and answers for it
			}
			cur = v
		}
		key := pc.key(c)
		now := pc.Now()
		pc.mu.Lock()
		e := pc.entries[key]
		if e != nil && now.Before(e.expires) && e.current(&cur) {
			pc.mu.Unlock()
			pc.hits.Add(1)
			return pc.serve(c, e)
		}
		// a miss: when the same page is being rendered at the same versions, its copy is
		// this request's too (after a write, a popular page is rendered once, not once
		// per request that arrives meanwhile)
		b := pc.building[key]
		if b != nil && b.stamp == cur {
			pc.mu.Unlock()
			if e := b.wait(c.Context()); e != nil {
				pc.hits.Add(1)
				return pc.serve(c, e)
			}
			pc.mu.Lock()
		}
		// this request renders it (a render at other versions, or one that shared
		// nothing, is left to finish on its own)
		b = &building{stamp: cur, done: make(chan struct{})}
		pc.building[key] = b
		pc.mu.Unlock()
		pc.misses.Add(1)
		var built *entry
		defer func() { pc.finish(key, b, built) }()
		// the handler runs with the versions read above (services keep their own caches
		// in step with them) and always renders the whole page: the cache answers
		// If-None-Match itself, with its own ETag
		inm := string(c.Request().Header.Peek(fiber.HeaderIfNoneMatch))
		c.Request().Header.Del(fiber.HeaderIfNoneMatch)
		parent := c.Context()
		if len(scopes) > 0 {
			c.SetContext(WithVersions(parent, cur))
		}
		err := next(c)
		c.SetContext(parent)
		shows := scopes
		if s, ok := c.Locals(showsKey{}).([]Scope); ok {
			shows = s
		}
		rule, members := c.Locals(membersKey{}).(memberRule)
		if inm != "" {
			c.Request().Header.Set(fiber.HeaderIfNoneMatch, inm)
		}
		if err != nil {
			return err
		}
		ne := pc.build(c, cur, shows, now)
		if ne == nil {
			return nil
		}
		if ttl > 0 && now.Add(ttl).Before(ne.expires) {
			ne.expires = now.Add(ttl)
		}
		if members && bytes.HasPrefix(ne.contentType, []byte("text/html")) {
			ne.members = &rule
		}
		pc.store(key, ne)
		built = ne
		return pc.serve(c, ne)
	}
}

// building is a miss being rendered: requests for the same page at the same versions
// wait for its entry.
type building struct {
	stamp Versions
	done  chan struct{}
	e     *entry // nil: the answer was not one to share
}

// wait is the entry b built, or nil when it built none or ctx ended first.
func (b *building) wait(ctx context.Context) *entry {
	select {
	case <-b.done:
		return b.e
	case <-ctx.Done():
		return nil
	}
}

// finish ends the rendering of key (which b stands for, unless a later one replaced it)
// with its entry e.
func (pc *Cache) finish(key string, b *building, e *entry) {
	pc.mu.Lock()
	if pc.building[key] == b {
		delete(pc.building, key)
	}
	pc.mu.Unlock()
	b.e = e
	close(b.done)
}

// serveMember answers c, the request of signed-in user userID, from the visitor's held
// copy of its page when that page said SameForMembers and is current, and reports whether
// it did. The answer is what the handler would have sent a member: the page with the
// member's header (Members), Cache-Control no-cache (the chain makes it no-store for a
// signed-in answer), no ETag, compressed by the chain as every member's answer is.
func (pc *Cache) serveMember(c fiber.Ctx, userID string, scopes []Scope) bool {
	// the entry first: most members' pages (the catalogue, a badge page) never said
	// SameForMembers, and need no versions read
	var buf [256]byte
	key := pc.appendKey(buf[:0], c)
	pc.mu.Lock()
	e := pc.entries[string(key)]
	pc.mu.Unlock()
	if e == nil || !e.members.allows(userID) || !pc.Now().Before(e.expires) {
		return false
	}
	var cur Versions
	if len(scopes) > 0 {
		v, err := pc.versions(c.Context())
		if err != nil {
			return false
		}
		cur = v
	}
	if !e.current(&cur) {
		return false
	}
	doc, err := pc.Members(c, e.body)
	if err != nil {
		return false
	}
	pc.members.Add(1)
	res := c.Response()
	res.Header.SetContentTypeBytes(e.contentType)
	res.Header.Set(fiber.HeaderCacheControl, "no-cache")
	_ = c.Status(e.status).Send(doc)
	return true
}

// MembersServed reports how many signed-in members' pages were made from held copies.
func (pc *Cache) MembersServed() int64 { return pc.members.Load() }

func (e *entry) current(cur *Versions) bool { return e.stamp.Same(cur, e.scopes...) }

func (pc *Cache) key(c fiber.Ctx) string {
	var buf [256]byte
	return string(pc.appendKey(buf[:0], c))
}

var (
	acceptHTML = []byte("text/html")
	acceptAny  = []byte("*/*")
)

// appendKey appends c's key to dst: the kind of answer (HTML or JSON), the origin and the
// URL. A hit looks it up without making a string of it.
func (pc *Cache) appendKey(dst []byte, c fiber.Ctx) []byte {
	return appendKey(dst, &c.Request().Header, pc.Origin(c))
}

func appendKey(dst []byte, h *fasthttp.RequestHeader, origin string) []byte {
	kind := byte('j')
	if acc := h.Peek(fiber.HeaderAccept); len(acc) == 0 || bytes.Contains(acc, acceptHTML) || bytes.Contains(acc, acceptAny) {
		kind = 'h'
	}
	dst = append(dst, kind, 0)
	dst = append(dst, origin...)
	dst = append(dst, 0)
	return append(dst, h.RequestURI()...)
}

// build makes an entry of the answer the handler just produced, or nil when it must not
// be shared.
func (pc *Cache) build(c fiber.Ctx, stamp Versions, scopes []Scope, now time.Time) *entry {
	res := c.Response()
	if res.StatusCode() != fiber.StatusOK || res.IsBodyStream() || len(res.Header.ContentEncoding()) > 0 ||
		len(res.Header.Peek(fiber.HeaderSetCookie)) > 0 {
		return nil
	}
	ct := string(res.Header.ContentType())
	if !strings.HasPrefix(ct, "text/html") && !strings.HasPrefix(ct, "application/json") {
		return nil
	}
	if cc := string(res.Header.Peek(fiber.HeaderCacheControl)); strings.Contains(cc, "no-store") || strings.Contains(cc, "private") {
		return nil
	}
	body := append([]byte(nil), res.Body()...)
	sum := sha256.Sum256(body)
	e := &entry{stamp: stamp, scopes: scopes, expires: now.Add(pc.TTL), route: c.Route(), status: res.StatusCode(), body: body,
		contentType: []byte(ct),
		etag:        `W/"p-` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`}
	e.etagB = []byte(e.etag)
	for _, s := range scopes {
		if s == Grants || s.IsHolder() {
			if t, ok := pc.nextExpiry(c.Context(), now); ok && t.Before(e.expires) {
				e.expires = t
			}
			break
		}
	}
	for k, v := range res.Header.All() {
		name := string(k)
		if !skipped[name] {
			e.headers = append(e.headers, [2][]byte{[]byte(name), append([]byte(nil), v...)})
		}
	}
	return e
}

// nextExpiry is the next moment a live grant expires (after it, pages showing grants
// change without any write).
func (pc *Cache) nextExpiry(ctx context.Context, now time.Time) (time.Time, bool) {
	var t []time.Time
	err := pc.DB.NewRaw(`SELECT expires_at FROM badge_grants WHERE expires_at > ? AND revoked_at IS NULL ORDER BY expires_at LIMIT 1`, now.UTC()).Scan(ctx, &t)
	if err != nil {
		return now, true // unknown: keep the entry no time at all
	}
	if len(t) == 0 {
		return time.Time{}, false
	}
	return t[0], true
}

func (pc *Cache) store(key string, e *entry) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if old := pc.entries[key]; old != nil {
		delete(pc.entries, key)
		pc.bytes -= old.size()
	}
	if e.size() > pc.MaxBytes/8 {
		return
	}
	for len(pc.entries) > 0 && pc.bytes+e.size() > pc.MaxBytes {
		for k, victim := range pc.entries { // map order is random: an arbitrary victim
			delete(pc.entries, k)
			pc.bytes -= victim.size()
			break
		}
	}
	pc.entries[key] = e
	pc.bytes += e.size()
	pc.stores.Add(1)
}

// serve answers c with e: 304 when If-None-Match names it, else the body in the coding
// the request accepts.
func (pc *Cache) serve(c fiber.Ctx, e *entry) error {
	pc.write(c.RequestCtx(), e)
	return nil
}

// write makes e the answer to ctx's request: its headers and ETag, a 304 for a matching
// If-None-Match, else its status and body in the coding the request takes.
func (pc *Cache) write(ctx *fasthttp.RequestCtx, e *entry) {
	res := &ctx.Response
	res.ResetBody()
	for _, h := range e.headers {
		res.Header.SetCanonical(h[0], h[1])
	}
	res.Header.SetCanonical(etagName, e.etagB)
	web.AddVaryTo(&res.Header, fiber.HeaderAcceptEncoding)
	res.Header.Del(fiber.HeaderContentEncoding)
	if inm := ctx.Request.Header.Peek(fiber.HeaderIfNoneMatch); len(inm) > 0 && etagMatch(string(inm), e.etag) {
		res.Header.Del(fiber.HeaderContentType)
		res.SetStatusCode(fiber.StatusNotModified)
		res.SetBodyString(notModified) // as fiber's SendStatus does
		return
	}
	res.SetStatusCode(e.status)
	// a young entry goes out as a per-request answer would (gzip on a tie), a proven one
	// as a kept body (brotli on a tie)
	var enc web.Encoding
	if e.served.Add(1) > BrotliAfter {
		enc = web.RequestEncodingOf(&ctx.Request.Header)
	} else {
		enc = web.DynamicEncodingOf(&ctx.Request.Header)
	}
	if b := e.encoded(enc); b != nil {
		res.Header.SetContentEncoding(enc.Token())
		res.SetBodyRaw(b)
		return
	}
	res.SetBodyRaw(e.body)
}

var notModified = fasthttp.StatusMessage(fiber.StatusNotModified)

var etagName = []byte(fiber.HeaderETag)

// etagMatch is If-None-Match's weak comparison against tag.
func etagMatch(header, tag string) bool {
	want := strings.TrimPrefix(tag, "W/")
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == want {
			return true
		}
	}
	return false
}

// reader reads the versions for many requests at once: a request joins a read that
// starts after it arrived (so it sees every write committed before it), never one
// already under way.
type reader struct {
	db      *bun.DB
	stmt    mmdb.Prepared
	mu      sync.Mutex
	running bool
	next    *flight
}

type flight struct {
	done chan struct{}
	v    Versions
	err  error
}

var errClosed = errors.New("pagecache: no database")

func (r *reader) read(ctx context.Context) (Versions, error) {
	if r.db == nil {
		return Versions{}, errClosed
	}
	r.mu.Lock()
	var f *flight
	if !r.running {
		r.running = true
		f = &flight{done: make(chan struct{})}
		go r.run(f) // in its own goroutine: every request waits no longer than its own deadline
	} else {
		if r.next == nil {
			r.next = &flight{done: make(chan struct{})}
		}
		f = r.next
	}
	r.mu.Unlock()
	select {
	case <-f.done:
		return f.v, f.err
	case <-ctx.Done():
		return Versions{}, ctx.Err()
	}
}

// run performs f's read, then starts the read queued meanwhile.
func (r *reader) run(f *flight) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	f.v, f.err = readWith(ctx, r.db, &r.stmt)
	cancel()
	close(f.done)
	r.mu.Lock()
	next := r.next
	r.next = nil
	if next == nil {
		r.running = false
	}
	r.mu.Unlock()
	if next != nil {
		go r.run(next)
	}
}

// Hit answers, as early in the middleware chain as it is called, a visitor's GET whose
// page is held and current, and reports whether it did; any other request it leaves alone
// for the caller to pass on. A request carrying any of cookies (a session's), an
// Authorization header or a body goes on (its answer may be a signed-in one, or a
// refusal); a held page was stored by Wrap for this very URL, origin and kind, so the
// checks the chain runs on the URL before Wrap stored it hold for the hit too. before,
// when given, runs just ahead of the answer with the route that rendered the page (app
// sets the security headers there, and metrics count the hit for that route: the request
// never reaches the router).
func (pc *Cache) Hit(c fiber.Ctx, before func(c fiber.Ctx, route *fiber.Route), cookies ...string) bool {
	_, ok := pc.HitRaw(c.RequestCtx(), func(*fasthttp.RequestCtx) (string, bool) { return pc.Origin(c), true },
		func(_ *fasthttp.RequestCtx, r *fiber.Route) {
			if before != nil {
				before(c, r)
			}
		}, cookies...)
	return ok
}

// HitRaw is Hit on the server's own request, before the framework makes a context of it
// or routes it (app: the server's first handler): origin tells the request's origin, or
// false when only the framework can (the request then goes on, to Hit).
// It returns the route that rendered the page it answered with.
func (pc *Cache) HitRaw(ctx *fasthttp.RequestCtx, origin func(*fasthttp.RequestCtx) (string, bool), before func(ctx *fasthttp.RequestCtx, route *fiber.Route), cookies ...string) (*fiber.Route, bool) {
	e := pc.heldFor(ctx, origin, cookies)
	if e == nil {
		return nil, false
	}
	pc.hits.Add(1)
	if before != nil {
		before(ctx, e.route)
	}
	pc.write(ctx, e)
	return e.route, true
}

// heldFor is the held, current page that answers ctx's request, or nil.
func (pc *Cache) heldFor(ctx *fasthttp.RequestCtx, origin func(*fasthttp.RequestCtx) (string, bool), cookies []string) *entry {
	if !ctx.IsGet() {
		return nil
	}
	h := &ctx.Request.Header
	// a body (which the checks after this point would read) or credentials: the whole way
	if len(h.Peek(fiber.HeaderAuthorization)) > 0 || h.ContentLength() > 0 || len(ctx.Request.Body()) > 0 {
		return nil
	}
	for _, name := range cookies {
		if len(h.Cookie(name)) > 0 {
			return nil
		}
	}
	o, ok := origin(ctx)
	if !ok {
		return nil
	}
	var buf [256]byte
	key := appendKey(buf[:0], h, o)
	pc.mu.Lock()
	e := pc.entries[string(key)]
	pc.mu.Unlock()
	if e == nil || !pc.Now().Before(e.expires) {
		return nil
	}
	var cur Versions
	if len(e.scopes) > 0 {
		// only versions had without the database: a read goes the whole way, under
		// the request's deadline (Wrap)
		v, ok := pc.held()
		if !ok {
			return nil
		}
		cur = v
	}
	if !e.current(&cur) {
		return nil
	}
	return e
}
