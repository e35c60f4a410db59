package middleware

import (
	"bytes"
	"encoding/json"
	"mime"
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// MsgJSONContentType answers a body sent to the JSON API with another content type.
const MsgJSONContentType = "Send the request body as JSON (Content-Type: application/json)."

// MsgControlChars answers a query string or JSON string holding a control
// character.
const MsgControlChars = "The request contains a control character (such as NUL), which is not allowed."

// RequireJSON answers 415 to a request to the JSON API whose body is not declared as
// JSON (application/json or a +json type), multipart uploads excepted. A cross-site HTML
// form can only send text/plain, urlencoded or multipart bodies without a CORS
// preflight, so no form elsewhere can post JSON here, whatever the Origin check decides.
// raw, when set, names the routes that take other bodies on purpose (web.Route.RawBody).
func RequireJSON(raw func(c fiber.Ctx) bool) fiber.Handler {
	return func(c fiber.Ctx) error {
		switch c.Method() {
		case fiber.MethodGet, fiber.MethodHead, fiber.MethodOptions:
			return c.Next()
		}
		if raw != nil && raw(c) {
			return c.Next()
		}
		if !strings.HasPrefix(c.Path(), web.APIBase+"/") || (len(c.Request().Body()) == 0 && c.Request().Header.ContentLength() <= 0) {
			return c.Next()
		}
		mt, _, err := mime.ParseMediaType(c.Get(fiber.HeaderContentType))
		if err == nil && (mt == fiber.MIMEApplicationJSON || strings.HasSuffix(mt, "+json") || mt == fiber.MIMEMultipartForm) {
			return c.Next()
		}
		return web.E(fiber.StatusUnsupportedMediaType, MsgJSONContentType)
	}
}

// RefuseControlChars answers 400 to a request whose query string (decoded) holds a control character (U+0000–U+001F, U+007F), or whose JSON body holds one other
// than tab, line feed and carriage return inside a string or key. Such bytes are never
// meant (a NUL in a search made PostgreSQL fail the whole query: a 500 or 503).
func RefuseControlChars() fiber.Handler {
	return func(c fiber.Ctx) error {
		bad := false
		for k, v := range c.Request().URI().QueryArgs().All() {
			bad = bad || hasControl(k, false) || hasControl(v, false)
		}
		if !bad && len(c.Request().Body()) > 0 && strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationJSON) {
			bad = jsonHasControl(c.Request().Body())
		}
		if bad {
			return web.BadRequest(MsgControlChars)
		}
		return c.Next()
	}
}

// hasControl reports a C0 control or DEL in b; with text, tab, LF and CR are allowed.
func hasControl(b []byte, text bool) bool {
	for _, ch := range b {
		if ch < 0x20 || ch == 0x7f {
			if text && (ch == '\t' || ch == '\n' || ch == '\r') {
				continue
			}
			return true
		}
	}
	return false
}

// jsonHasControl decodes body and reports a control character in any string or key; a
// body that is not JSON is left to the handler (it answers its own message).
func jsonHasControl(body []byte) bool {
	if !bytes.Contains(body, []byte(`\u00`)) && !hasControl(body, true) {
		return false // no escape could hide one, and no raw one is there
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if d.Decode(&v) != nil {
		return false
	}
	return walkControl(v)
}

func walkControl(v any) bool {
	switch x := v.(type) {
	case string:
		return hasControl([]byte(x), true)
	case []any:
		for _, e := range x {
			if walkControl(e) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			if hasControl([]byte(k), true) || walkControl(e) {
				return true
			}
		}
	}
	return false
}

// NoStore marks every answer to a signed-in request, or one that sets a session cookie
// (sign-in), Cache-Control: no-store, so no browser or shared cache keeps a member's
// pages or API answers. isSignedIn is asked after the handler ran.
func NoStore(isSignedIn func(fiber.Ctx) bool, cookieNames ...string) fiber.Handler {
	return func(c fiber.Ctx) error {
		err := c.Next()
		signed := isSignedIn(c)
		for _, n := range cookieNames {
			signed = signed || len(c.Response().Header.PeekCookie(n)) > 0
		}
		if signed {
			c.Set(fiber.HeaderCacheControl, "no-store")
		}
		return err
	}
}
