package webhook

import (
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/events"
	"meritmark/app/web"
)

// Handler serves the webhook administration API (admins only).
type Handler struct{ svc *Service }

// NewHandler makes the handler of svc.
func NewHandler(svc *Service) *Handler { return &Handler{svc: svc} }

// Routes lists the routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/admin/webhooks", web.Admin, h.list),
		web.Post("/admin/webhooks", web.Admin, h.create),
		web.Get("/admin/webhooks/:id", web.Admin, h.get),
		web.Put("/admin/webhooks/:id", web.Admin, h.update),
		web.Delete("/admin/webhooks/:id", web.Admin, h.delete),
		web.Post("/admin/webhooks/:id/secret", web.Admin, h.rotate),
		web.Get("/admin/webhooks/:id/deliveries", web.Admin, h.deliveries),
		web.Post("/admin/webhooks/:id/deliveries/:deliveryId/resend", web.Admin, h.resend),
	}
}

// Messages of success.
const (
	MsgCreated  = "Webhook endpoint added. Copy its signing secret now: it is shown only once."
	MsgUpdated  = "Webhook endpoint updated."
	MsgDeleted  = "Webhook endpoint deleted."
	MsgRotated  = "New signing secret made. Copy it now: it is shown only once, and deliveries are signed with it from now on."
	MsgResent   = "Delivery queued again."
	MsgLimitBad = "limit must be a whole number from 1 to 200."
)

func (h *Handler) list(c fiber.Ctx) error {
	vs, err := h.svc.List(c.Context())
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"endpoints": vs, "events": events.Types})
}

func (h *Handler) create(c fiber.Ctx) error {
	var in Input
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	v, secret, err := h.svc.Create(c.Context(), web.Viewer(c), in)
	if err != nil {
		return err
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{"msg": MsgCreated, "endpoint": v, "secret": secret})
}

func (h *Handler) get(c fiber.Ctx) error {
	v, err := h.svc.Get(c.Context(), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"endpoint": v})
}

func (h *Handler) update(c fiber.Ctx) error {
	var in Input
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := h.svc.Update(c.Context(), web.Viewer(c), c.Params("id"), in)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgUpdated, "endpoint": v})
}

func (h *Handler) delete(c fiber.Ctx) error {
	if err := h.svc.Delete(c.Context(), web.Viewer(c), c.Params("id")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgDeleted})
}

func (h *Handler) rotate(c fiber.Ctx) error {
	secret, err := h.svc.RotateSecret(c.Context(), web.Viewer(c), c.Params("id"))
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgRotated, "secret": secret})
}

func (h *Handler) deliveries(c fiber.Ctx) error {
	limit := 50
	if q := c.Query("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > 200 {
			return web.BadRequest(MsgLimitBad)
		}
		limit = n
	}
	ds, err := h.svc.Deliveries(c.Context(), c.Params("id"), c.Query("status"), limit)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"deliveries": ds})
}

func (h *Handler) resend(c fiber.Ctx) error {
	if err := h.svc.Resend(c.Context(), web.Viewer(c), c.Params("id"), c.Params("deliveryId")); err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgResent})
}
