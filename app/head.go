package app

import (
	"github.com/gofiber/fiber/v3"
)

// addHeadRoutes registers HEAD beside every GET route: the route table's and the static
// ones registered in New. Fiber would add them itself at start-up, but after the
// catch-all not-found handler, which then answered 404 to every HEAD (link checkers and
// unfurlers saw share links and og:images as broken). The GET handler runs unchanged;
// fasthttp sends its status and headers (Content-Length included) without the body.
func (a *App) addHeadRoutes(f *fiber.App) {
	f.Head("/healthz", a.healthz)
	f.Head("/readyz", a.ready)
	if a.Deps.Static != nil {
		f.Head("/static/*", a.Deps.Static)
		f.Head("/favicon.ico", func(c fiber.Ctx) error {
			return c.Redirect().Status(fiber.StatusMovedPermanently).To("/static/images/favicon.svg")
		})
	}
	for _, r := range a.Routes {
		if r.Method == fiber.MethodGet {
			f.Add([]string{fiber.MethodHead}, r.Path, accessGuard(r, a.Deps.Policy), bodyLimit(r), r.Handler)
		}
	}
}
