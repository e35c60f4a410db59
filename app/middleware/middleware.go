// Package middleware holds the cross-cutting HTTP layers: request id, recover, access
// log, security headers and the same-origin (CSRF) check.
package middleware

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	"meritmark/app/web"
)

const requestIDKey = "mm.rid"

// RequestID gives every request an id (echoing a sane incoming X-Request-ID).
func RequestID() fiber.Handler {
	return func(c fiber.Ctx) error {
		c.Locals(requestIDKey, RequestIDRaw(c.RequestCtx()))
		return c.Next()
	}
}

// RequestIDRaw gives ctx's request its id, sets it on the answer and returns it:
// RequestID's work, for a request answered before the framework makes a context of it.
func RequestIDRaw(ctx *fasthttp.RequestCtx) string {
	var id string
	if given := ctx.Request.Header.Peek("X-Request-ID"); len(given) > 0 && len(given) <= 64 &&
		!bytes.ContainsAny(given, " \t\r\n\"<>") {
		id = string(given)
	} else {
		id = newRequestID()
	}
	ctx.Response.Header.Set("X-Request-ID", id)
	return id
}

// Request ids are unique, not secret: a random prefix drawn at start and a counter (16 hex
// digits as before, without a read of the system's random source per request).
var (
	ridPrefix = func() uint64 {
		var b [8]byte
		_, _ = rand.Read(b[:])
		return binary.BigEndian.Uint64(b[:]) &^ (1<<32 - 1)
	}()
	ridNext atomic.Uint64
)

func newRequestID() string {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], ridPrefix|(ridNext.Add(1)&(1<<32-1)))
	var b [16]byte
	hex.Encode(b[:], n[:])
	return string(b[:])
}

// ID returns this request's id.
func ID(c fiber.Ctx) string {
	s, _ := c.Locals(requestIDKey).(string)
	return s
}

// Recover turns a panic in a handler into an error (500), logged with its stack.
func Recover() fiber.Handler {
	return func(c fiber.Ctx) (err error) {
		defer func() {
			if r := recover(); r != nil {
				slog.Error("panic", "path", c.Path(), "rid", ID(c), "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
				err = fmt.Errorf("panic: %v", r)
			}
		}()
		return c.Next()
	}
}

// AccessLog writes one structured line per request with its status and duration. observe,
// when not nil, is given the same status and duration (the request metrics: one clock
// reading for both).
func AccessLog(errorHandler fiber.ErrorHandler, observe func(c fiber.Ctx, status int, d time.Duration)) fiber.Handler {
	return func(c fiber.Ctx) error {
		start := time.Now()
		err := c.Next()
		if err != nil {
			// answer the error now so the status is known when logging
			if herr := errorHandler(c, err); herr != nil {
				_ = c.SendStatus(fiber.StatusInternalServerError)
			}
		}
		Logged(c, start, observe)
		return nil
	}
}

// Logged counts and logs the answer c holds, begun at start: what AccessLog does after
// the chain, for an answer given before AccessLog's place in it (a held page).
func Logged(c fiber.Ctx, start time.Time, observe func(c fiber.Ctx, status int, d time.Duration)) {
	status := c.Response().StatusCode()
	dur := time.Since(start)
	if observe != nil {
		observe(c, status, dur)
	}
	logAnswer(c.Context(), c.Method(), c.Path(), status, dur, c.IP, ID(c))
}

// LoggedRaw is Logged for an answer given before the framework made a context of the
// request: the metrics count it apart (the caller), ip is the client's address.
func LoggedRaw(ctx *fasthttp.RequestCtx, start time.Time, ip func() string, rid string) {
	if !slog.Default().Enabled(ctx, slog.LevelInfo) && ctx.Response.StatusCode() < 500 {
		return // logAnswer's own first test, before the method and path are copied out
	}
	logAnswer(ctx, string(ctx.Method()), string(ctx.Path()), ctx.Response.StatusCode(), time.Since(start), ip, rid)
}

// logAnswer writes the access line of one answer.
func logAnswer(ctx context.Context, method, path string, status int, dur time.Duration, ip func() string, rid string) {
	if status < 500 && !slog.Default().Enabled(ctx, slog.LevelInfo) {
		return // below an error nothing logs under info: the path is not even read
	}
	level := slog.LevelInfo
	if status >= 500 {
		level = slog.LevelError
	} else if strings.HasPrefix(path, "/static/") || path == "/healthz" || path == "/readyz" {
		level = slog.LevelDebug
	}
	h := slog.Default().Handler()
	if !h.Enabled(ctx, level) {
		return // the line's fields (the client's address among them) are not worth making
	}
	// the record is made here, not by slog.Log, which takes the caller's stack on every
	// line for a source no handler of ours prints
	r := slog.NewRecord(time.Now(), level, "request", 0)
	r.AddAttrs(slog.String("method", method), slog.String("path", path), slog.Int("status", status),
		slog.Float64("dur_ms", float64(dur.Microseconds())/1000), slog.String("ip", ip()), slog.String("rid", rid))
	_ = h.Handle(ctx, r)
}

// Headers are the headers every answer carries (the security headers, and HSTS when it is
// configured), made once and set without parsing or normalising their names: a held page
// (app/pagecache) sets them itself before the rest of the chain would.
type Headers struct{ kv [][2][]byte }

// NewHeaders makes the security headers; extraScriptSrc and extraFrameSrc name the payment
// provider's origins (its SDK also talks to the frame origins), and hsts is the
// Strict-Transport-Security value ("" = off: the origin is not https, or MERITMARK_HSTS=0).
func NewHeaders(extraScriptSrc, extraFrameSrc, hsts string) *Headers {
	csp := "default-src 'self'; script-src 'self' " + web.ThemeScriptCSP + extraScriptSrc +
		"; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'" + extraFrameSrc +
		"; frame-src 'self'" + extraFrameSrc + "; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
	h := &Headers{}
	add := func(k, v string) { h.kv = append(h.kv, [2][]byte{[]byte(k), []byte(v)}) }
	add("X-Content-Type-Options", "nosniff")
	add("Referrer-Policy", "strict-origin-when-cross-origin")
	add("X-Frame-Options", "DENY")
	add("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
	add("Content-Security-Policy", csp)
	if hsts != "" {
		add(fiber.HeaderStrictTransportSecurity, hsts)
	}
	return h
}

// Set puts the headers on c's answer (their names are already canonical).
func (h *Headers) Set(c fiber.Ctx) { h.SetOn(&c.Response().Header) }

// SetOn sets the headers on rh.
func (h *Headers) SetOn(rh *fasthttp.ResponseHeader) {
	for _, kv := range h.kv {
		rh.SetCanonical(kv[0], kv[1])
	}
}

// Handler sets the headers on every answer.
func (h *Headers) Handler() fiber.Handler {
	return func(c fiber.Ctx) error {
		h.Set(c)
		return c.Next()
	}
}

// MsgCrossSite answers a state-changing request sent from another origin.
const MsgCrossSite = "Cross-site request refused."

// SameOrigin refuses state-changing requests that a browser sent from another site
// (CSRF), the way Go's net/http.CrossOriginProtection does: Sec-Fetch-Site first, then
// the full origin (scheme, host and port) of Origin, or of Referer without it, against
// the configured base URL and the request's own origin (its scheme and host as fiber
// sees them: forwarded ones only from a trusted proxy). Requests without either header
// are not from a browser form or script of another site and pass. exempt, when given,
// names routes that authenticate every request without cookies (web.Route.CrossSite).
func SameOrigin(baseURL string, exempt ...func(c fiber.Ctx) bool) fiber.Handler {
	base := NormalizeOrigin(baseURL)
	return func(c fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		for _, ex := range exempt {
			if ex(c) {
				return c.Next()
			}
		}
		if strings.HasPrefix(c.Path(), web.APIBase+"/payments/paypal-webhook") {
			return c.Next() // server-to-server, verified by signature
		}
		switch c.Get("Sec-Fetch-Site") {
		case "same-origin", "none":
			return c.Next()
		case "cross-site", "same-site":
			return web.Forbidden(MsgCrossSite)
		}
		origin := c.Get("Origin")
		if origin == "" {
			if ref := c.Get("Referer"); ref != "" {
				origin = ref
			}
		}
		if origin == "" {
			return c.Next()
		}
		got := NormalizeOrigin(origin)
		if got == "" {
			return web.Forbidden(MsgCrossSite)
		}
		if (base != "" && got == base) || got == NormalizeOrigin(c.Scheme()+"://"+c.Host()) {
			return c.Next()
		}
		return web.Forbidden(MsgCrossSite)
	}
}

// NormalizeOrigin reduces a URL to its origin "scheme://host[:port]", lower-cased, the
// default port (80 for http, 443 for https) dropped; "" when it has no http(s) scheme or
// no host (such as Origin: null).
func NormalizeOrigin(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return ""
	}
	host := strings.ToLower(u.Host)
	if h, port, err := net.SplitHostPort(host); err == nil &&
		((scheme == "http" && port == "80") || (scheme == "https" && port == "443")) {
		host = h
		if strings.Contains(h, ":") {
			host = "[" + h + "]"
		}
	}
	return scheme + "://" + host
}
