// Package middleware holds the cross-cutting HTTP layers: request id, recover, access
// log, security headers and the same-origin (CSRF) check.
package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

const requestIDKey = "mm.rid"

// RequestID gives every request an id (echoing a sane incoming X-Request-ID).
func RequestID() fiber.Handler {
	return func(c fiber.Ctx) error {
		id := c.Get("X-Request-ID")
		if id == "" || len(id) > 64 || strings.ContainsAny(id, " \t\r\n\"<>") {
			var b [8]byte
			_, _ = rand.Read(b[:])
			id = hex.EncodeToString(b[:])
		}
		c.Locals(requestIDKey, id)
		c.Set("X-Request-ID", id)
		return c.Next()
	}
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
		status := c.Response().StatusCode()
		dur := time.Since(start)
		if observe != nil {
			observe(c, status, dur)
		}
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		} else if strings.HasPrefix(c.Path(), "/static/") || c.Path() == "/healthz" || c.Path() == "/readyz" {
			level = slog.LevelDebug
		}
		slog.Log(c.Context(), level, "request", "method", c.Method(), "path", c.Path(), "status", status,
			"dur_ms", float64(dur.Microseconds())/1000, "ip", c.IP(), "rid", ID(c))
		return nil
	}
}

// SecurityHeaders sets the headers every answer carries. extraScriptSrc and extraFrameSrc
// name the payment provider's origins (its SDK also talks to the frame origins).
func SecurityHeaders(extraScriptSrc, extraFrameSrc string) fiber.Handler {
	csp := "default-src 'self'; script-src 'self' " + web.ThemeScriptCSP + extraScriptSrc +
		"; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob: https:; font-src 'self' data:; connect-src 'self'" + extraFrameSrc +
		"; frame-src 'self'" + extraFrameSrc + "; frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
	return func(c fiber.Ctx) error {
		c.Set("X-Content-Type-Options", "nosniff")
		c.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		c.Set("X-Frame-Options", "DENY")
		c.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=()")
		c.Set("Content-Security-Policy", csp)
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

// HSTS sets Strict-Transport-Security to value on every answer ("" = off: the origin is
// not https, or MERITMARK_HSTS=0).
func HSTS(value string) fiber.Handler {
	return func(c fiber.Ctx) error {
		if value != "" {
			c.Set(fiber.HeaderStrictTransportSecurity, value)
		}
		return c.Next()
	}
}
