package badgeadmin

import (
	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Handler serves the badge management API (admin only).
type Handler struct{ svc *Service }

// New makes the handler.
func New(d *bun.DB, bus *events.Bus) *Handler { return &Handler{svc: &Service{DB: d, Events: bus}} }

// Routes lists the badge management routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/badge-management/badges", web.Admin, h.list),
		web.Get("/badge-management/stats", web.Admin, h.stats),
		web.Post("/badge-management/badges", web.Admin, h.create),
		web.Put("/badge-management/badges/:id", web.Admin, h.update),
		web.Delete("/badge-management/badges/:id", web.Admin, h.delete),
		web.Patch("/badge-management/badges/:id/toggle", web.Admin, h.toggle),
		web.Get("/admin/badges", web.Admin, h.list),
	}
}

func (h *Handler) list(c fiber.Ctx) error {
	vs, err := h.svc.List(c.Context())
	if err != nil {
		return err
	}
	return c.JSON(vs)
}

func (h *Handler) stats(c fiber.Ctx) error {
	s, err := h.svc.Stats(c.Context())
	if err != nil {
		return err
	}
	return c.JSON(s)
}

func (h *Handler) create(c fiber.Ctx) error {
	var in Input
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := h.svc.Create(c.Context(), web.Viewer(c), in)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Badge created successfully", "badge": v})
}

func (h *Handler) update(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgNotFound)
	}
	var in Input
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	v, err := h.svc.Update(c.Context(), web.Viewer(c), id, in)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Badge updated successfully", "badge": v})
}

func (h *Handler) delete(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgNotFound)
	}
	if err := h.svc.Delete(c.Context(), web.Viewer(c), id); err != nil {
		return err
	}
	return web.OK(c, "Badge deleted successfully")
}

func (h *Handler) toggle(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgNotFound)
	}
	v, err := h.svc.Toggle(c.Context(), web.Viewer(c), id)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": "Badge status updated successfully", "badge": v})
}
