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

// NegotiateEncoding picks the coding for an Accept-Encoding header: the one the client
// ranks higher (q), prefer when it ranks brotli and gzip alike, the other when prefer is
// refused, else none. A coding with q=0 is refused; "*" stands for the codings not named.
func NegotiateEncoding(header string, prefer Encoding) Encoding {
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
	case br > 0 && (br > gz || br == gz && prefer != Gzip):
		return Brotli
	case gz > 0:
		return Gzip
	case br > 0:
		return Brotli
	}
	return Identity
}

// RequestEncoding is the coding to send c a body compressed once and kept (a build file,
// a cached page): brotli first, the smaller.
func RequestEncoding(c fiber.Ctx) Encoding { return RequestEncodingOf(&c.Request().Header) }

// RequestEncodingOf is RequestEncoding of a request's header.
func RequestEncodingOf(h *fasthttp.RequestHeader) Encoding {
	return negotiate(h.Peek(fiber.HeaderAcceptEncoding), Brotli)
}

// negotiate is NegotiateEncoding, without parsing (or copying) the headers browsers and
// clients send most.
func negotiate(header []byte, prefer Encoding) Encoding {
	switch string(header) { // compared in place: no copy
	case "":
		return Identity
	case "gzip", "gzip, deflate":
		return Gzip
	case "br":
		return Brotli
	case "gzip, deflate, br", "gzip, deflate, br, zstd", "br, gzip", "gzip, br", "br, gzip, deflate":
		return prefer
	}
	return NegotiateEncoding(string(header), prefer)
}

// DynamicEncoding is the coding to compress c's answer with on the fly (pages for
// members, the API): gzip first when the client ranks both alike. Brotli is a tenth
// smaller at the levels a request can afford, but its Go encoder takes four times the
// CPU (a 55 KB catalogue: brotli 4, 7.5 KB in 0.7-0.8 ms; gzip 5, 8.3 KB in 0.18 ms).
func DynamicEncoding(c fiber.Ctx) Encoding { return DynamicEncodingOf(&c.Request().Header) }

// DynamicEncodingOf is DynamicEncoding of a request's header.
func DynamicEncodingOf(h *fasthttp.RequestHeader) Encoding {
	return negotiate(h.Peek(fiber.HeaderAcceptEncoding), Gzip)
}

// Compression levels for answers compressed per request (pages for members, the API):
// fast ones, since they cost every request. Gzip 1 takes about half gzip 5's CPU for an
// eighth more bytes (the 55 KB catalogue: 8,370 B against 7,495 B, 142-252 µs against
// 373-509 µs of CPU in alternated rounds on a loaded machine); a member's page is
// rendered for them alone, so its compression is paid on every view. A cached page is
// compressed once per coding, and again after every write that changes it (see
// pagecache): brotli 6 is within 1 % of brotli 9's size for half its CPU (the seeded home
// page: 7,771 B in 1.0 ms against 7,709 B in 2.3 ms), gzip 6 within 4 % of gzip 9's for a
// third (8,667 B in 0.3 ms against 8,336 B in 1.0 ms).
const (
	DynamicGzipLevel   = 1
	DynamicBrotliLevel = 4
	CachedGzipLevel    = 6
	CachedBrotliLevel  = 6
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

var varyName = []byte(fiber.HeaderVary)

// AddVary adds token to the response's Vary header (once).
func AddVary(c fiber.Ctx, token string) { AddVaryTo(&c.Response().Header, token) }

// AddVaryTo adds token to h's Vary header (once).
func AddVaryTo(h *fasthttp.ResponseHeader, token string) {
	if len(h.Peek(fiber.HeaderVary)) == 0 {
		h.SetCanonical(varyName, []byte(token))
		return
	}
	v := string(h.Peek(fiber.HeaderVary))
	for _, t := range strings.Split(v, ",") {
		if strings.EqualFold(strings.TrimSpace(t), token) {
			return
		}
	}
	if v == "" {
		h.Set(fiber.HeaderVary, token)
	} else {
		h.Set(fiber.HeaderVary, v+", "+token)
	}
}
