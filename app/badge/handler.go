package badge

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/model"
	"meritmark/app/pagecache/scope"
	"meritmark/app/quiz"
	"meritmark/app/web"
)

// Handler serves the badge API and the catalogue and detail pages.
type Handler struct {
	site *web.Site
	svc  *Service
}

// New makes the handler.
func New(d *bun.DB, site *web.Site) *Handler {
	return &Handler{site: site, svc: &Service{DB: d}}
}

// Service is the handler's service (tests and benchmarks use it directly).
func (h *Handler) Service() *Service { return h.svc }

// Routes lists the badge routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/badges/with-ownership", web.Public, h.list).Cached(scope.Badges),
		web.Get("/badges/:id", web.Public, h.get).Cached(scope.Badges),
		web.PageRoute("/badges", web.Public, h.cataloguePage).Cached(scope.Badges),
		web.PageRoute("/badges/:id", web.Public, h.detailPage).Cached(scope.Badges),
		// the report also counts quiz attempts, which no scope follows (a submission
		// would otherwise flush every badge page): its copies lag by 5 minutes at most
		web.PageRoute("/badges/:id/assessment", web.Public, h.reportPage).CachedFor(5*time.Minute, scope.Badges),
		web.PageRoute("/badge/:id", web.Public, h.redirectOld),
	}
}

// GET /badges/with-ownership -> {badges}: with isOwned and applicationStatus when signed in.
func (h *Handler) list(c fiber.Ctx) error {
	viewer := web.Viewer(c)
	items, err := h.svc.Catalogue(c.Context(), viewer)
	if err != nil {
		return err
	}
	if viewer != nil {
		return c.JSON(fiber.Map{"badges": items})
	}
	plain := make([]Badge, len(items))
	for i := range items {
		plain[i] = items[i].Badge
	}
	return c.JSON(fiber.Map{"badges": plain})
}

// GET /badges/{id} -> {badge, application, grant}.
func (h *Handler) get(c fiber.Ctx) error {
	d, err := h.svc.Detail(c.Context(), c.Params("id"), web.Viewer(c))
	if errors.Is(err, ErrNotFound) {
		return web.NotFound(MsgNotFound)
	}
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"badge": d.Badge, "application": d.Mine.Application, "grant": d.Mine.Grant})
}

// CataloguePageSize is how many matching cards the catalogue shows before 'Show all'.
const CataloguePageSize = 24

// CatalogueProps are the catalogue page's props. Badges holds every active badge's card;
// MatchIDs are the ones the server's filter kept for q and category, in order, which is
// what the page renders: the first PageSize of them, or all with ?show=all.
type CatalogueProps struct {
	Badges   []Card   `json:"badges"`
	Q        string   `json:"q"`
	Category string   `json:"category"`
	MatchIDs []string `json:"matchIds"`
	PageSize int      `json:"pageSize"`
	ShowAll  bool     `json:"showAll"`
}

func (h *Handler) cataloguePage(c fiber.Ctx) error {
	items, err := h.svc.Cards(c.Context(), web.Viewer(c))
	if err != nil {
		return err
	}
	q := NormalizeQuery(c.Query("q"))
	cat := NormalizeCategory(c.Query("category"))
	ids := make([]string, 0, len(items))
	for i := range items {
		if Matches(&items[i], q, cat) {
			ids = append(ids, items[i].ID)
		}
	}
	origin := h.site.Origin(c)
	list := make([]listItemLD, len(items))
	for i := range items {
		list[i] = listItemLD{Type: "ListItem", Position: i + 1, URL: origin + "/badges/" + items[i].ID, Name: items[i].Name}
	}
	meta := web.Meta{
		Title:       "Discover Professional Badges",
		Description: "Browse " + strconv.Itoa(len(items)) + " professional badges in development, design, management, data science, marketing and DevOps. Earn one by quiz or proof and share a credential anyone can verify.",
		Path:        "/badges",
		JSONLD: collectionLD{Context: "https://schema.org", Type: "CollectionPage", Name: "Discover Professional Badges", URL: origin + "/badges",
			MainEntity: itemListLD{Type: "ItemList", NumberOfItems: len(items), ItemListElement: list}},
	}
	return h.site.Render(c, "BadgesPage", CatalogueProps{Badges: items, Q: q, Category: cat, MatchIDs: ids,
		PageSize: CataloguePageSize, ShowAll: c.Query("show") == "all"}, meta)
}

// The catalogue's structured data: a schema.org CollectionPage whose ItemList names every
// badge. Structs rather than maps, as the catalogue is built on every visit: maps are
// encoded by sorting their keys each time (11 µs for 13 badges, against 3 µs). The fields
// are in the order of the maps' sorted keys, so the JSON is the same.
type collectionLD struct {
	Context    string     `json:"@context"`
	Type       string     `json:"@type"`
	MainEntity itemListLD `json:"mainEntity"`
	Name       string     `json:"name"`
	URL        string     `json:"url"`
}

type itemListLD struct {
	Type            string       `json:"@type"`
	ItemListElement []listItemLD `json:"itemListElement"`
	NumberOfItems   int          `json:"numberOfItems"`
}

type listItemLD struct {
	Type     string `json:"@type"`
	Name     string `json:"name"`
	Position int    `json:"position"`
	URL      string `json:"url"`
}

// DetailProps are the badge detail page's props.
type DetailProps struct {
	NotFound         bool         `json:"notFound"`
	Badge            *Badge       `json:"badge"`
	Application      *Application `json:"application"`
	Grant            *Grant       `json:"grant"`
	Actions          *Actions     `json:"actions"`
	Share            *Share       `json:"share"`
	CriteriaExpanded bool         `json:"criteriaExpanded"`
	// Assessment: a skill badge's quiz in the open (pass mark, draw and pool, time limit,
	// retake rule, pass rate, holders) and the viewer's next attempt (app/quiz).
	Assessment *quiz.Assessment `json:"assessment"`
}

func (h *Handler) detailPage(c fiber.Ctx) error {
	viewer := web.Viewer(c)
	d, err := h.svc.Detail(c.Context(), c.Params("id"), viewer)
	if errors.Is(err, ErrNotFound) {
		return h.site.Render(c, "BadgeDetailPage", DetailProps{NotFound: true},
			web.Meta{Title: MsgNotFound, NoIndex: true, Status: http.StatusNotFound})
	}
	if err != nil {
		return err
	}
	b := &d.Badge
	props := DetailProps{Badge: b, Application: d.Mine.Application, Grant: d.Mine.Grant,
		CriteriaExpanded: c.Query("criteria") == "full"}
	if b.Type == model.TypeSkill {
		if props.Assessment, err = quiz.PublicAssessment(c.Context(), h.svc.DB, b.ID, viewer, model.Now()); err != nil {
			return err
		}
		if viewer != nil {
			if err := h.svc.QuizState(c.Context(), viewer, b, props.Assessment, &d.Mine); err != nil {
				return err
			}
		}
	}
	acts := ActionsFor(b, viewer != nil, &d.Mine)
	props.Actions = &acts
	origin := h.site.Origin(c)
	if d.Mine.Grant != nil && d.Mine.Grant.Standing.Held { // no sharing of an expired or revoked badge
		sh := ShareWith(origin, h.site.LinkedInOrganizationID, b, d.Mine.Grant)
		props.Share = &sh
	}
	meta := web.Meta{
		Title:       b.Name,
		Description: Summary(b),
		Path:        "/badges/" + b.ID,
		JSONLD:      JSONLD(origin, b),
		NoIndex:     !b.IsActive,
	}
	withCard(&meta, b)
	return h.site.Render(c, "BadgeDetailPage", props, meta)
}

// withCard makes the badge's own social card (GET /badges/{id}/card.png, drawn by
// credential.BadgeCard) the page's og:image, at its version: the URL changes with the card.
func withCard(m *web.Meta, b *Badge) {
	in := credential.BadgeCardInput{Name: b.Name, Category: b.Category, Level: b.Level, Type: b.Type, Color: b.Color}
	m.Image = CardPath(b.ID) + "?v=" + in.Version()
	m.ImageWidth, m.ImageHeight = credential.CardWidth, credential.CardHeight
	m.ImageAlt = "Meritmark card of the " + b.Name + " badge, with its medallion"
}

// CardPath is the path of a badge's social card.
func CardPath(id string) string { return "/badges/" + id + "/card.png" }

// /badge/{id} (the original's back link) -> 301 /badges/{id}.
func (h *Handler) redirectOld(c fiber.Ctx) error {
	to := "/badges/" + url.PathEscape(c.Params("id"))
	if q := string(c.Request().URI().QueryString()); q != "" {
		to += "?" + q
	}
	return c.Redirect().Status(http.StatusMovedPermanently).To(to)
}
