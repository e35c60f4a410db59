package verify

import (
	"errors"
	"io"
	"strings"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// POST /verify/file: a credential file, as the multipart field "file" or as the raw body
// (Content-Type image/png, application/vc+jwt, application/jwt, text/plain or
// application/[ld+]json), at most MaxFileBytes -> FileResult. Every upload costs a token of
// the verify rate limit. A file that is not a credential is answered 400 (422 for a JSON
// credential without a proof) with a message saying why; a credential from an issuer we do
// not trust is answered 200 with status "untrusted".
func (h *Handler) verifyFile(c fiber.Ctx) error {
	if err := h.svc.ChargeMiss(c.IP()); err != nil {
		c.Set("Retry-After", "60")
		return web.TooMany(MsgRateLimited)
	}
	data, err := uploadedFile(c)
	if err != nil {
		return err
	}
	up, err := ParseUpload(data)
	var bad *ErrUpload
	switch {
	case errors.As(err, &bad) && bad.Msg == MsgUnsigned:
		return web.Unprocessable(bad.Msg)
	case errors.As(err, &bad) && bad.Msg == MsgFileTooLarge:
		return web.TooLarge(bad.Msg)
	case errors.As(err, &bad):
		return web.BadRequest(bad.Msg)
	case err != nil:
		return err
	}
	res, err := h.svc.VerifyUpload(c.Context(), up, h.site.Origin(c))
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(res)
}

// uploadedFile reads the file of a POST /verify/file request.
func uploadedFile(c fiber.Ctx) ([]byte, error) {
	ctype := strings.ToLower(strings.TrimSpace(c.Get("Content-Type")))
	if i := strings.IndexByte(ctype, ';'); i >= 0 && !strings.HasPrefix(ctype, "multipart/") {
		ctype = strings.TrimSpace(ctype[:i])
	}
	switch {
	case strings.HasPrefix(ctype, "multipart/form-data"):
		fh, err := c.FormFile("file")
		if err != nil || fh == nil {
			return nil, web.BadRequest(MsgFileMissing)
		}
		if fh.Size > MaxFileBytes {
			return nil, web.TooLarge(MsgFileTooLarge)
		}
		f, err := fh.Open()
		if err != nil {
			return nil, web.BadRequest(MsgFileMissing)
		}
		defer f.Close()
		data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
		if err != nil {
			return nil, web.BadRequest(MsgFileMissing)
		}
		if len(data) > MaxFileBytes {
			return nil, web.TooLarge(MsgFileTooLarge)
		}
		return data, nil
	case ctype == "image/png" || ctype == "application/vc+jwt" || ctype == "application/jwt" || ctype == "text/plain" ||
		ctype == "application/json" || ctype == "application/ld+json" || ctype == "application/vc+ld+json" || ctype == "application/octet-stream":
		data := c.Request().Body()
		if len(data) > MaxFileBytes {
			return nil, web.TooLarge(MsgFileTooLarge)
		}
		if len(data) == 0 {
			return nil, web.BadRequest(MsgFileMissing)
		}
		return append([]byte(nil), data...), nil
	default:
		return nil, web.E(415, MsgFileMissing)
	}
}
