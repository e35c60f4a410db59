package web

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
)

// Encoding is a content coding the server sends: brotli, gzip or none.
type Encoding int

const (
	Identity Encoding = iota
	Gzip
	Brotli
)

// Token is the Content-Encoding value ("" for identity).
func (e Encoding) Token() string {
	return [...]string{"", "gzip", "br"}[e]
}

// NegotiateEncoding picks the coding for an Accept-Encoding header: brotli when the
// client accepts it, else gzip, else none. A coding with q=0 is refused; "*" stands for
// the codings not named.
func NegotiateEncoding(header string) Encoding {
	if header == "" {
		return Identity
	}
	br, gz, star := -1.0, -1.0, -1.0
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && f >= 0 && f <= 1 {
					q = f
				} else {
					q = 0
				}
			}
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "br":
			br = q
		case "gzip", "x-gzip":
			gz = q
		case "*":
			star = q
		}
	}
	if br < 0 {
		br = star
	}
	if gz < 0 {
		gz = star
	}
	switch {
	case br > 0 && br >= gz:
		return Brotli
	case gz > 0:
		return Gzip
	case br > 0:
		return Brotli
	}
	return Identity
}

// RequestEncoding is the coding to answer c with.
func RequestEncoding(c fiber.Ctx) Encoding {
	return NegotiateEncoding(string(c.Request().Header.Peek(fiber.HeaderAcceptEncoding)))
}

// Compression levels for answers compressed per request (pages for members, the API):
// fast ones, since they cost every request. Cached pages are compressed once, harder.
const (
	DynamicGzipLevel   = 5
	DynamicBrotliLevel = 4
	CachedGzipLevel    = 9
	CachedBrotliLevel  = 9
)

// Compress encodes body with e at the given levels (gzip, brotli).
func Compress(e Encoding, body []byte, gzipLevel, brotliLevel int) []byte {
	switch e {
	case Gzip:
		return fasthttp.AppendGzipBytesLevel(nil, body, gzipLevel)
	case Brotli:
		return fasthttp.AppendBrotliBytesLevel(nil, body, brotliLevel)
	}
	return body
}

// Compressible reports whether a Content-Type is worth compressing (text, JSON, XML, SVG,
// JavaScript).
func Compressible(ctype string) bool {
	ct, _, _ := strings.Cut(ctype, ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	switch {
	case strings.HasPrefix(ct, "text/"):
		return true
	case strings.HasSuffix(ct, "json"), strings.HasSuffix(ct, "+xml"), ct == "application/xml",
		ct == "application/javascript", ct == "application/vc+jwt", ct == "application/jwt":
		return true
	}
	return false
}

// AddVary adds token to the response's Vary header (once).
func AddVary(c fiber.Ctx, token string) {
	v := string(c.Response().Header.Peek(fiber.HeaderVary))
	for _, t := range strings.Split(v, ",") {
		if strings.EqualFold(strings.TrimSpace(t), token) {
			return
		}
	}
	if v == "" {
		c.Set(fiber.HeaderVary, token)
	} else {
		c.Set(fiber.HeaderVary, v+", "+token)
	}
}
