// Package pages serves the static public pages: home, about, services, contact, the four
// policy pages, robots.txt and the sitemap.
package pages

import (
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/pagecache"
	"meritmark/app/pagecache/scope"
	"meritmark/app/web"
)

// Handler serves the marketing and policy pages.
type Handler struct {
	site *web.Site
	db   *bun.DB
}

// New makes the handler; db lists the active badges in the sitemap.
func New(site *web.Site, db *bun.DB) *Handler { return &Handler{site: site, db: db} }

type static struct {
	path, page, title, desc string
	props                   fiber.Map
}

var staticPages = []static{
	{"/", "HomePage", "", "Earn verified professional badges by passing a timed quiz or submitting proof, and share credentials anyone can verify in one click.", nil},
	{"/about", "AboutPage", "About", "Meritmark's mission: professional credentials that verify themselves.", nil},
	{"/services", "ServicesPage", "Services", "Badge programs for organisations: design, setup, launch and scale verified credentials.", nil},
	{"/contact", "ContactPage", "Contact", "Contact the Meritmark team. We reply within 24 hours.", nil},
	{"/shippingpolicy", "PolicyPage", "Shipping Policy", "How Meritmark delivers digital badges.", fiber.Map{"kind": "shipping"}},
	{"/termsandconditions", "PolicyPage", "Terms and Conditions", "The terms for using Meritmark.", fiber.Map{"kind": "terms"}},
	{"/cancellationsandrefunds", "PolicyPage", "Cancellations and Refunds", "Refunds within 7 days for duplicate payments or technical errors.", fiber.Map{"kind": "refunds"}},
	{"/privacypolicy", "PolicyPage", "Privacy Policy", "How Meritmark handles your personal data.", fiber.Map{"kind": "privacy"}},
}

// sameForMembers are the static pages that read nothing of the viewer (no useShell in
// their components): a member gets the visitor's held copy with their own header
// (pagecache.SameForMembers). The others prefill forms or links for the signed-in.
var sameForMembers = map[string]bool{"HomePage": true, "AboutPage": true}

// Routes lists the pages.
func (h *Handler) Routes() []web.Route {
	var rs []web.Route
	for _, p := range staticPages {
		p := p
		rs = append(rs, web.PageRoute(p.path, web.Public, func(c fiber.Ctx) error {
			if sameForMembers[p.page] {
				pagecache.SameForMembers(c)
			}
			props := p.props
			if props == nil {
				props = fiber.Map{}
			}
			return h.site.Render(c, p.page, props, web.Meta{Title: p.title, Description: p.desc})
		}).Cached())
	}
	rs = append(rs,
		// the contact form posted as a plain form (JavaScript off): never in the address
		web.Route{Method: "POST", Path: "/contact", Access: web.Public, Kind: web.Page, Handler: h.contactForm},
		web.Route{Method: "GET", Path: "/robots.txt", Access: web.Public, Kind: web.Asset, Handler: h.robots},
		web.Route{Method: "GET", Path: "/sitemap.xml", Access: web.Public, Kind: web.Asset, Handler: h.sitemap}.Cached(scope.Badges),
	)
	return rs
}

// RobotsRules keeps crawlers off the private pages only, path by path. The public profile
// /profile/{id} (what Share Profile copies) stays open, or link-preview bots, which obey
// robots.txt, would show no card for it: only the signed-in /profile itself ("$" ends the
// match, RFC 9309 longest match makes "Allow: /profile/" win) is disallowed.
const RobotsRules = "User-agent: *\n" +
	"Allow: /profile/\n" +
	"Disallow: /profile$\n" +
	"Disallow: /admin\n" +
	"Disallow: /backend/\n" +
	"Disallow: /quiz/\n" +
	"Disallow: /proof-upload/\n" +
	"Disallow: /resume-upload/\n" +
	"Disallow: /payment/\n" +
	"Disallow: /payment-success/\n" +
	"Disallow: /payment-failed/\n" +
	"Disallow: /reset-password\n"

func (h *Handler) robots(c fiber.Ctx) error {
	c.Set("Content-Type", "text/plain; charset=utf-8")
	return c.SendString(RobotsRules + "Sitemap: " + h.site.Origin(c) + "/sitemap.xml\n")
}

func (h *Handler) sitemap(c fiber.Ctx) error {
	origin := h.site.Origin(c)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n" + `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for _, p := range append([]string{"/badges", "/hall-of-fame", "/verify-badge"}, paths()...) {
		b.WriteString("<url><loc>" + origin + p + "</loc></url>")
	}
	var ids []string
	if err := h.db.NewSelect().Model((*model.Badge)(nil)).Column("id").Where("is_active = ?", true).Order("created_at").Scan(c.Context(), &ids); err != nil {
		return err
	}
	for _, id := range ids {
		b.WriteString("<url><loc>" + origin + "/badges/" + id + "</loc></url>")
	}
	b.WriteString("</urlset>\n")
	c.Set("Content-Type", "application/xml; charset=utf-8")
	return c.SendString(b.String())
}

func paths() []string {
	var ps []string
	for _, p := range staticPages {
		ps = append(ps, p.path)
	}
	return ps
}
