package middleware

import (
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// MinCompressSize is the smallest body worth compressing.
const MinCompressSize = 512

// Compress compresses HTML, JSON and other text answers with gzip or brotli, as the
// request's Accept-Encoding allows (Vary: Accept-Encoding; gzip when the client takes
// both alike, see web.DynamicEncoding). Answers that already carry a
// Content-Encoding (precompressed static files, cached pages) pass as they are, and so do
// streams, ranges and small bodies. It runs outside the access log, so error pages are
// compressed too.
func Compress() fiber.Handler {
	return func(c fiber.Ctx) error {
		// a strong ETag names one representation: the compressed one gets the handler's
		// tag with a suffix ("x-br"), taken off again when it comes back in If-None-Match
		// so that the handler's own comparison still answers 304
		suffix := ""
		if inm := string(c.Request().Header.Peek(fiber.HeaderIfNoneMatch)); inm != "" {
			for _, sfx := range etagSuffixes {
				if strings.HasSuffix(inm, sfx+`"`) {
					suffix = sfx
					c.Request().Header.Set(fiber.HeaderIfNoneMatch, strings.TrimSuffix(inm, sfx+`"`)+`"`)
					break
				}
			}
		}
		if err := c.Next(); err != nil {
			return err
		}
		res := c.Response()
		if res.StatusCode() == fiber.StatusNotModified {
			if suffix != "" {
				tagETag(c, suffix)
			}
			return nil
		}
		ctype := string(res.Header.ContentType())
		if !web.Compressible(ctype) {
			return nil
		}
		web.AddVary(c, fiber.HeaderAcceptEncoding)
		status := res.StatusCode()
		if status < 200 || status == fiber.StatusNoContent || status == fiber.StatusNotModified ||
			res.IsBodyStream() || len(res.Header.ContentEncoding()) > 0 || len(res.Header.Peek(fiber.HeaderContentRange)) > 0 {
			return nil
		}
		body := res.Body()
		if len(body) < MinCompressSize {
			return nil
		}
		enc := web.DynamicEncoding(c)
		if enc == web.Identity {
			return nil
		}
		out := web.Compress(enc, body, web.DynamicGzipLevel, web.DynamicBrotliLevel)
		if len(out) >= len(body) {
			return nil
		}
		res.SetBodyRaw(out)
		res.Header.SetContentEncoding(enc.Token())
		tagETag(c, "-"+enc.Token())
		return nil
	}
}

var etagSuffixes = []string{"-br", "-gzip"}

// tagETag appends suffix inside a strong ETag of the answer (weak ones name the content
// whatever its coding, and stay).
func tagETag(c fiber.Ctx, suffix string) {
	tag := string(c.Response().Header.Peek(fiber.HeaderETag))
	if len(tag) >= 2 && strings.HasPrefix(tag, `"`) && strings.HasSuffix(tag, `"`) {
		c.Set(fiber.HeaderETag, tag[:len(tag)-1]+suffix+`"`)
	}
}
