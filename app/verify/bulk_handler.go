package verify

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
)

// Bulk checks per client (signed-in user, else network address) and window.
var (
	BulkLimit  = 20
	BulkWindow = time.Minute
)

// bulkBodyLimit leaves room for a 1 MB CSV written as a JSON string.
const bulkBodyLimit = 2*MaxBulkBytes + 4096

// BulkHandler serves bulk verification and receipt checks.
type BulkHandler struct {
	site    *web.Site
	svc     *Service
	limiter *ratelimit.Limiter
}

// NewBulk makes the bulk handler on the credential issuer.
func NewBulk(d *bun.DB, site *web.Site, cfg *config.Config, iss *credential.Issuer, limiter *ratelimit.Limiter) *BulkHandler {
	svc := NewService(d, iss, nil, cfg.DataDir)
	svc.LinkedInOrgID = site.LinkedInOrganizationID
	return &BulkHandler{site: site, svc: svc, limiter: limiter}
}

// Service is the handler's service (benchmarks use it).
func (h *BulkHandler) Service() *Service { return h.svc }

// Routes lists the routes.
func (h *BulkHandler) Routes() []web.Route {
	return []web.Route{
		web.Post("/verify/bulk", web.Public, h.bulk).WithBodyLimit(bulkBodyLimit).WithRawBody(),
		web.Post("/verify/receipts/check", web.Public, h.checkReceipt).WithBodyLimit(bulkBodyLimit).WithRawBody(),
		// the bulk form of /verify-badge posted as a plain form (JavaScript off)
		web.Route{Method: "POST", Path: "/verify-badge", Access: web.Public, Kind: web.Page, Handler: h.bulkForm}.WithBodyLimit(bulkBodyLimit),
	}
}

// POST /verify-badge (ids: pasted IDs or links, one per line): the bulk form posted
// without JavaScript. The page comes back with the same table and signed receipt as POST
// /verify/bulk, or with the message (4xx) and the text as typed; the same rate limit.
func (h *BulkHandler) bulkForm(c fiber.Ctx) error {
	text := c.FormValue("ids")
	render := func(props PageProps, status int) error {
		err := h.site.Render(c, "VerifyPage", props, web.Meta{Title: "Verify a Badge", Path: "/verify-badge", NoIndex: true, Status: status})
		c.Set("Cache-Control", "no-store")
		return err
	}
	again := func(status int, msg string) error {
		if len(text) > MaxBulkBytes {
			text = ""
		}
		return render(PageProps{BulkText: text, BulkError: msg}, status)
	}
	entries, err := ParseBulkText(text)
	var eb *ErrBulk
	if errors.As(err, &eb) {
		if eb.Msg == MsgBulkTooLarge {
			return again(http.StatusRequestEntityTooLarge, eb.Msg)
		}
		return again(http.StatusBadRequest, eb.Msg)
	}
	if err != nil {
		return err
	}
	ok, err := h.limiter.Allow(c.Context(), clientKey(c), BulkLimit, BulkWindow)
	if err != nil {
		return err
	}
	if !ok {
		c.Set("Retry-After", "60")
		return again(http.StatusTooManyRequests, MsgBulkRateLimited)
	}
	origin := h.site.Origin(c)
	res, err := h.svc.Bulk(c.Context(), entries, origin)
	if err != nil {
		return err
	}
	if res.Receipt, err = h.svc.SignReceipt(res, origin); err != nil {
		return err
	}
	return render(PageProps{BulkText: text, Bulk: res}, http.StatusOK)
}

func clientKey(c fiber.Ctx) string {
	if u := web.Viewer(c); u != nil {
		return "verify-bulk:u:" + u.ID
	}
	return "verify-bulk:ip:" + c.IP()
}

// readBulk reads the entries from a JSON body ({"ids": [...]} or {"csv": "..."}), a CSV or
// text body, or a multipart upload (field "file").
func readBulk(c fiber.Ctx) ([]BulkEntry, error) {
	ctype := strings.ToLower(c.Get("Content-Type"))
	switch {
	case strings.HasPrefix(ctype, "application/json"):
		var body struct {
			IDs  []json.RawMessage `json:"ids"`
			CSV  *string           `json:"csv"`
			Text *string           `json:"text"`
		}
		if len(strings.TrimSpace(string(c.Body()))) == 0 {
			return nil, web.BadRequest(MsgBulkEmpty)
		}
		if err := json.Unmarshal(c.Body(), &body); err != nil {
			return nil, web.BadRequest(MsgBulkFormat)
		}
		switch {
		case body.CSV != nil:
			return ParseBulkText(*body.CSV)
		case body.Text != nil:
			return ParseBulkText(*body.Text)
		case body.IDs != nil:
			if len(body.IDs) > MaxBulkIDs {
				return nil, &ErrBulk{MsgBulkTooMany}
			}
			ids := make([]string, len(body.IDs))
			for i, r := range body.IDs {
				if err := json.Unmarshal(r, &ids[i]); err != nil {
					return nil, web.BadRequest(MsgBulkFormat)
				}
			}
			return ParseBulkList(ids)
		}
		return nil, web.BadRequest(MsgBulkFormat)
	case strings.HasPrefix(ctype, "text/csv"), strings.HasPrefix(ctype, "text/plain"), strings.HasPrefix(ctype, "application/csv"):
		return ParseBulkText(string(c.Body()))
	case strings.HasPrefix(ctype, "multipart/form-data"):
		fh, err := c.FormFile("file")
		if err != nil {
			if v := c.FormValue("csv"); v != "" {
				return ParseBulkText(v)
			}
			return nil, web.BadRequest(MsgBulkFormat)
		}
		if fh.Size > MaxBulkBytes {
			return nil, &ErrBulk{MsgBulkTooLarge}
		}
		f, err := fh.Open()
		if err != nil {
			return nil, web.BadRequest(MsgBulkFormat)
		}
		defer f.Close()
		b, err := io.ReadAll(io.LimitReader(f, MaxBulkBytes+1))
		if err != nil {
			return nil, web.BadRequest(MsgBulkFormat)
		}
		return ParseBulkText(string(b))
	}
	return nil, web.BadRequest(MsgBulkFormat)
}

// POST /verify/bulk (JSON {ids} or {csv}, a CSV body, or a multipart "file") -> the table
// with a signed receipt; ?format=csv answers the table as a CSV download.
func (h *BulkHandler) bulk(c fiber.Ctx) error {
	entries, err := readBulk(c)
	var eb *ErrBulk
	if errors.As(err, &eb) {
		if eb.Msg == MsgBulkTooLarge {
			return web.TooLarge(eb.Msg)
		}
		return web.BadRequest(eb.Msg)
	}
	if err != nil {
		return err
	}
	ok, err := h.limiter.Allow(c.Context(), clientKey(c), BulkLimit, BulkWindow)
	if err != nil {
		return err
	}
	if !ok {
		c.Set("Retry-After", "60")
		return web.TooMany(MsgBulkRateLimited)
	}
	origin := h.site.Origin(c)
	res, err := h.svc.Bulk(c.Context(), entries, origin)
	if err != nil {
		return err
	}
	c.Set("Cache-Control", "no-store")
	if c.Query("format") == "csv" {
		c.Set("Content-Type", "text/csv; charset=utf-8")
		c.Set("Content-Disposition", `attachment; filename="meritmark-verification-`+res.CheckedAt.Format("20060102-150405")+`.csv"`)
		return c.Send(BulkCSV(res))
	}
	if res.Receipt, err = h.svc.SignReceipt(res, origin); err != nil {
		return err
	}
	return c.JSON(res)
}

// POST /verify/receipts/check {receipt} (or the saved receipt file as the body) -> whether
// Meritmark signed it, and what it says.
func (h *BulkHandler) checkReceipt(c fiber.Ctx) error {
	raw := strings.TrimSpace(string(c.Body()))
	if raw == "" {
		return web.BadRequest(MsgReceiptMissing)
	}
	res, err := h.svc.CheckReceipt(c.Context(), raw)
	switch {
	case errors.Is(err, ErrReceiptInvalid):
		return web.BadRequest(MsgReceiptInvalid)
	case errors.Is(err, ErrReceiptTampered):
		return web.Unprocessable(MsgReceiptTampered)
	case err != nil:
		return err
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(res)
}
