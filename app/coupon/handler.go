package coupon

import (
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Handler serves the coupon administration API (admin only).
type Handler struct{ svc *Service }

// New makes the handler; clock is the time source (nil = model.Now).
func New(d *bun.DB, clock func() time.Time) *Handler {
	return &Handler{svc: &Service{DB: d, Clock: clock}}
}

// Routes lists the coupon administration routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/coupons", web.Admin, h.list),
		web.Get("/coupons/stats", web.Admin, h.stats),
		web.Post("/coupons", web.Admin, h.create),
		web.Post("/coupons/free-grant", web.Admin, h.freeGrant),
		web.Put("/coupons/:id", web.Admin, h.update),
		web.Delete("/coupons/:id", web.Admin, h.delete),
		web.Patch("/coupons/:id/toggle", web.Admin, h.toggle),
	}
}

// GET /coupons?status=&search= -> every coupon the filter shows, as an array (the spec's
// client); with page, pageSize, sort or format -> {coupons, total, page, pageSize, ...}, or
// format=csv every coupon the filter shows as a CSV download.
func (h *Handler) list(c fiber.Ctx) error {
	search := c.Query("search")
	if len(search) > 200 {
		return web.BadRequest("The search text is too long.")
	}
	pg, asCSV, table, err := admin.TableQuery(c, Sorts)
	if err != nil {
		return err
	}
	if !table {
		// the spec's client: every coupon the filter shows, as an array
		vs, err := h.svc.List(c.Context(), c.Query("status"), search)
		if err != nil {
			return err
		}
		return c.JSON(vs)
	}
	// the dashboard's table: a page, a sort, or every row as CSV
	if asCSV {
		t, err := h.svc.Export(c.Context(), c.Query("status"), search, pg.Sort)
		if err != nil {
			return err
		}
		return t.Send(c, "coupons")
	}
	out, err := h.svc.Page(c.Context(), c.Query("status"), search, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
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
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": "Coupon created successfully", "coupon": v})
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
	return c.JSON(fiber.Map{"msg": "Coupon updated successfully", "coupon": v})
}

func (h *Handler) delete(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound(MsgNotFound)
	}
	if err := h.svc.Delete(c.Context(), web.Viewer(c), id); err != nil {
		return err
	}
	return web.OK(c, "Coupon deleted successfully")
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
	return c.JSON(fiber.Map{"msg": "Coupon status updated successfully", "coupon": v})
}

func (h *Handler) freeGrant(c fiber.Ctx) error {
	v, err := h.svc.FreeGrant(c.Context(), web.Viewer(c))
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(fiber.Map{"msg": FreeGrantMessage(v.Code), "coupon": v})
}
