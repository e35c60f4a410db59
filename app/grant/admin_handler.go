package grant

import (
	"encoding/json"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
)

// ---- admin ----

// AdminHandler serves the admin's grant actions.
type AdminHandler struct {
	site *web.Site
	svc  *Admin
}

// NewAdmin makes the handler on the credential issuer.
func NewAdmin(d *bun.DB, site *web.Site, iss *credential.Issuer, mailer *mail.Worker, bus *events.Bus) *AdminHandler {
	return &AdminHandler{site: site, svc: &Admin{DB: d, Issuer: iss, Mailer: mailer, Events: bus}}
}

// Routes lists the admin's grant routes.
func (h *AdminHandler) Routes() []web.Route {
	return []web.Route{
		web.Post("/admin/grants/bulk", web.Admin, h.bulk),
		web.Put("/admin/grants/:id/revoke", web.Admin, h.revoke),
		web.Put("/admin/grants/:id/expiry", web.Admin, h.expiry),
	}
}

// PUT /admin/grants/{id}/revoke {category, reason} -> {msg, grant}: category is one of
// RevocationCategories (the public verification shows its label only); reason is the
// admin's note (optional but for "other"), kept for the audit log and the holder's notice.
func (h *AdminHandler) revoke(c fiber.Ctx) error {
	var body struct {
		Category string  `json:"category"`
		Reason   *string `json:"reason"`
	}
	if err := web.BindJSON(c, &body); err != nil {
		return err
	}
	note := ""
	if body.Reason != nil {
		note = *body.Reason
	}
	reason, msg := CategoryReason(body.Category, note)
	if msg != "" {
		return web.BadRequest(msg)
	}
	g, err := h.svc.Revoke(c.Context(), web.Viewer(c), c.Params("id"), strings.TrimSpace(body.Category), reason, h.site.Origin(c))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgRevoked, "grant": grantJSON(g)})
}

// PUT /admin/grants/{id}/expiry {expiresAt: ISO 8601 | null} -> {msg, grant}; the
// credential is signed again with the new validUntil.
func (h *AdminHandler) expiry(c fiber.Ctx) error {
	var body map[string]json.RawMessage
	if err := web.BindJSON(c, &body); err != nil {
		return err
	}
	raw, ok := body["expiresAt"]
	if !ok {
		return web.BadRequest(MsgExpiryRequired)
	}
	var at *time.Time
	if s := strings.TrimSpace(string(raw)); s != "null" {
		var v string
		if err := json.Unmarshal(raw, &v); err != nil {
			return web.BadRequest(MsgExpiryInvalid)
		}
		t, ok := ParseExpiry(v)
		if !ok {
			return web.BadRequest(MsgExpiryInvalid)
		}
		at = &t
	}
	g, err := h.svc.SetExpiry(c.Context(), web.Viewer(c), c.Params("id"), at, h.site.Origin(c))
	if err != nil {
		return err
	}
	msg := MsgExpirySet
	if at == nil {
		msg = MsgExpiryCleared
	}
	return c.JSON(fiber.Map{"msg": msg, "grant": grantJSON(g)})
}
