package halloffame

import (
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/pagecache"
	"meritmark/app/pagecache/scope"
	"meritmark/app/web"
)

// Handler serves the Hall of Fame API and page.
type Handler struct {
	site *web.Site
	svc  *Service
}

// New makes the handler. It listens to the credential issuer, which hears of every grant
// made, re-signed or revoked on this instance, to drop its cached stats.
func New(d *bun.DB, site *web.Site, iss *credential.Issuer) *Handler {
	h := &Handler{site: site, svc: &Service{DB: d}}
	iss.OnChange(func(string) { h.svc.Invalidate() })
	return h
}

// Service is the handler's service (benchmarks use it directly).
func (h *Handler) Service() *Service { return h.svc }

// Routes lists the Hall of Fame routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/hall-of-fame", web.Public, h.api).Cached(scope.Badges, scope.Grants, scope.Profiles),
		web.PageRoute("/hall-of-fame", web.Public, h.page).Cached(scope.Badges, scope.Grants, scope.Profiles),
	}
}

// GET /hall-of-fame?search=&category=&sort=badges|recent|name&page=&limit= ->
// {users, stats, pagination, query}.
func (h *Handler) api(c fiber.Ctx) error {
	q, msg := ParseQuery(func(k string) string { return c.Query(k) })
	if msg != "" {
		return web.BadRequest(msg)
	}
	res, err := h.svc.List(c.Context(), q)
	if err != nil {
		return err
	}
	shows(c, q, res)
	c.Set("Cache-Control", "public, max-age=10")
	return c.JSON(res)
}

// shows tells the page cache what res shows: the badges, every grant (they decide the
// standings and the stat cards) and the profiles of the earners listed, not everyone's.
// A search or the order by name depends on every earner's profile: those keep the route's
// scopes.
func shows(c fiber.Ctx, q Query, res *Result) {
	if q.Search != "" || q.Sort == SortName {
		return
	}
	s := make([]pagecache.Scope, 0, 2+len(res.Users))
	s = append(s, pagecache.Badges, pagecache.Grants)
	for _, u := range res.Users {
		s = append(s, pagecache.Holder(u.ID))
	}
	pagecache.Shows(c, s...)
}

// PageProps are the page's props.
type PageProps struct {
	Result *Result `json:"result"`
	Query  Query   `json:"query"`
	Error  string  `json:"error"`
}

// lenientQuery reads the page's query, dropping any parameter that is not valid (a
// hand-edited address still shows the Hall of Fame).
func lenientQuery(c fiber.Ctx) Query {
	bad := map[string]bool{}
	for _, k := range []string{"search", "q", "category", "sort", "page", "limit"} {
		only := k
		if _, msg := ParseQuery(func(x string) string {
			if x == only {
				return c.Query(x)
			}
			return ""
		}); msg != "" {
			bad[k] = true
		}
	}
	q, _ := ParseQuery(func(k string) string {
		if bad[k] {
			return ""
		}
		return c.Query(k)
	})
	return q
}

// GET /hall-of-fame (page): filters in the address, so it works with JavaScript off.
func (h *Handler) page(c fiber.Ctx) error {
	q := lenientQuery(c)
	props := PageProps{Query: q}
	status := http.StatusOK
	res, err := h.svc.List(c.Context(), q)
	if err != nil {
		slog.Error("hall of fame", "err", err)
		props.Error = MsgLoadFailed
		status = http.StatusServiceUnavailable
	} else {
		props.Result = res
		shows(c, q, res)
		pagecache.SameForMembers(c) // nothing on it depends on who looks
	}
	title := "Hall of Fame"
	if q.Page > 1 {
		title += " (page " + strconv.Itoa(q.Page) + ")"
	}
	return h.site.Render(c, "HallOfFamePage", props, web.Meta{
		Title:       title,
		Description: "Meet the professionals who earned the most verified Meritmark badges: top performers, their recent badges and their work.",
		Path:        q.URL(q.Page),
		NoIndex:     q.Filtered(),
		Status:      status,
	})
}
