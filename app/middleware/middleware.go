// Package middleware holds the cross-cutting HTTP layers: request id, recover, access
// log, security headers and the same-origin (CSRF) check.
package middleware

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
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

// AccessLog writes one structured line per request with its status and duration.
func AccessLog(errorHandler fiber.ErrorHandler) fiber.Handler {
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
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		} else if strings.HasPrefix(c.Path(), "/static/") || c.Path() == "/healthz" || c.Path() == "/readyz" {
			level = slog.LevelDebug
		}
		slog.Log(c.Context(), level, "request", "method", c.Method(), "path", c.Path(), "status", status,
			"dur_ms", float64(time.Since(start).Microseconds())/1000, "ip", c.IP(), "rid", ID(c))
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

// SameOrigin refuses state-changing requests that a browser sent from another site
// (CSRF), the way Go's net/http.CrossOriginProtection does: Sec-Fetch-Site first, then
// Origin against the request's host (or the configured base URL). Requests without either
// header are not from a browser form or script of another site and pass.
func SameOrigin(baseURL string) fiber.Handler {
	var baseHost string
	if u, err := url.Parse(baseURL); err == nil {
		baseHost = u.Host
	}
	return func(c fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		if strings.HasPrefix(c.Path(), web.APIBase+"/payments/paypal-webhook") {
			return c.Next() // server-to-server, verified by signature
		}
		switch c.Get("Sec-Fetch-Site") {
		case "same-origin", "none":
			return c.Next()
		case "cross-site", "same-site":
			return web.Forbidden("Cross-site request refused.")
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
		u, err := url.Parse(origin)
		if err != nil || u.Host == "" {
			return web.Forbidden("Cross-site request refused.")
		}
		if u.Host == c.Host() || (baseHost != "" && u.Host == baseHost) {
			return c.Next()
		}
		return web.Forbidden("Cross-site request refused.")
	}
}
