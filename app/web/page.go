package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"

	"meritmark/app/config"
)

// Renderer turns a page name and its props (JSON) into HTML. The SSR pool implements it;
// tests may use a fake so that their binaries do not link V8. islands is a JSON array of
// {"n": name, "p": props} for the islands the page rendered, in document order.
type Renderer interface {
	Render(ctx context.Context, page string, props []byte) (html string, islands []byte, err error)
}

// Assets names the built client files (from static/dist/manifest.json).
type Assets struct {
	Entry   string              `json:"entry"`   // client entry module
	CSS     string              `json:"css"`     // stylesheet
	Islands map[string][]string `json:"islands"` // island name -> its chunk and the chunks it imports
	Sizes   map[string]int      `json:"sizes"`   // gzipped bytes: "initial" (the entry), island name -> entry + what hydrating it loads
}

// Meta is what a page says about itself in <head>.
type Meta struct {
	Title       string // without the site name
	Description string
	Path        string // canonical path; default: the request path
	Image       string // og:image path or URL; default: the site card
	// ImageWidth, ImageHeight (pixels, when known) and ImageAlt describe Image for link
	// previews (og:image:width/height/alt, twitter:image:alt); the site card's are built in.
	ImageWidth  int
	ImageHeight int
	ImageAlt    string
	Type        string // og:type; default website
	NoIndex     bool
	JSONLD      any // structured data, marshalled with json.Marshal
	Status      int // HTTP status; default 200
}

// ShellUser is the part of the signed-in user every page's shell needs.
type ShellUser struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Email         string `json:"email"`
	Role          string `json:"role"`
	ProfilePicURL string `json:"profilePicUrl"`
}

// Shell is what the header and footer need on every page.
type Shell struct {
	User         *ShellUser `json:"user"`
	Path         string     `json:"path"`
	Origin       string     `json:"origin"`
	SupportEmail string     `json:"supportEmail"`
	// PaymentsSimulated shows the "payments are simulated" banner (Site.SimulatorBanner).
	PaymentsSimulated bool `json:"paymentsSimulated,omitempty"`
}

// Site renders pages into complete documents.
type Site struct {
	Renderer     Renderer
	Assets       Assets
	BaseURL      string // public origin; empty = from the request
	SupportEmail string
	Name         string // site name for titles; default Meritmark
	// SimulatorBanner puts a banner on every page: payments go to the built-in PayPal
	// simulator on a public https origin (MERITMARK_PAYPAL_SIMULATOR=1).
	SimulatorBanner bool
	// LinkedInOrganizationID is the issuer's LinkedIn company page id for Add-to-profile
	// links (config MERITMARK_LINKEDIN_ORGANIZATION_ID; copied by app.New when empty).
	LinkedInOrganizationID string
}

// SiteName is the product's name.
const SiteName = "Meritmark"

// DefaultImageAlt describes the site card (static/images/og-card.png, 1200x630).
const DefaultImageAlt = "Meritmark: verified professional badges"

// DefaultDescription is used when a page gives none.
const DefaultDescription = "Earn verified professional badges by passing a quiz or submitting proof, and share credentials anyone can verify."

// ThemeScript applies the saved theme before first paint (no flash). Light is the default;
// "system" follows the operating system's dark preference.
const ThemeScript = `(function(){try{var t=localStorage.getItem('vite-ui-theme')||'light';var d=t==='dark'||(t==='system'&&window.matchMedia('(prefers-color-scheme: dark)').matches);var r=document.documentElement;if(d)r.classList.add('dark');r.style.colorScheme=d?'dark':'light';}catch(e){}})();`

// ThemeScriptCSP is the CSP source allowing ThemeScript.
var ThemeScriptCSP = func() string {
	h := sha256.Sum256([]byte(ThemeScript))
	return "'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"
}()

// Origin is the public origin for links, canonical URLs, mail and credentials: the
// configured base URL. Without one (a server on loopback: serve refuses anything else)
// the request's own origin is used only when its host is a loopback one (localhost,
// 127.0.0.1, ::1); any other Host header, which the client chooses, gives the address the
// connection arrived at instead, so a request with "Host: evil.example" never gets a link
// to evil.example mailed or signed.
func (s *Site) Origin(c fiber.Ctx) string {
	if s.BaseURL != "" {
		return s.BaseURL
	}
	host, scheme := c.Host(), c.Scheme()
	if m := lastOrigin.Load(); m != nil && m.host == host && m.scheme == scheme {
		return m.origin // the loopback origin of the last request: every request of a dev server
	}
	if config.IsLoopbackHost(host) && !strings.ContainsAny(host, "/\\?#@ ") {
		o := scheme + "://" + host
		lastOrigin.Store(&originMemo{host: strings.Clone(host), scheme: strings.Clone(scheme), origin: o})
		return o
	}
	if la := c.RequestCtx().LocalAddr(); config.IsLoopbackHost(la.String()) { // fasthttp's LocalAddr is never nil
		return "http://" + la.String()
	}
	return "http://localhost"
}

// OriginRaw is Origin for a request the framework has not made a context of: false when
// only Origin can tell (trusted proxies may set the host and scheme; a Host header that is
// not a loopback one).
func (s *Site) OriginRaw(ctx *fasthttp.RequestCtx, proxied bool) (string, bool) {
	if s.BaseURL != "" {
		return s.BaseURL, true
	}
	if proxied {
		return "", false
	}
	scheme := "http"
	if ctx.IsTLS() {
		scheme = "https"
	}
	host := ctx.Host()
	if m := lastOrigin.Load(); m != nil && m.host == string(host) && m.scheme == scheme {
		return m.origin, true
	}
	return "", false // the first request from a host makes the memo through Origin
}

// originMemo is a loopback origin Origin made, and the host and scheme it came from.
type originMemo struct{ host, scheme, origin string }

var lastOrigin atomic.Pointer[originMemo]

// ShellFor builds the shell props for this request.
func (s *Site) ShellFor(c fiber.Ctx) Shell {
	sh := Shell{Path: c.Path(), Origin: s.Origin(c), SupportEmail: s.SupportEmail, PaymentsSimulated: s.SimulatorBanner}
	if u := Viewer(c); u != nil {
		sh.User = &ShellUser{ID: u.ID, Name: u.Name, Email: u.Email, Role: u.Role, ProfilePicURL: u.ProfilePicURL()}
	}
	return sh
}

type pageProps struct {
	Shell Shell `json:"shell"`
	Page  any   `json:"page"`
}

type islandOut struct {
	Name  string          `json:"n"`
	Props json.RawMessage `json:"p"`
	Lazy  int             `json:"l"` // 1: hydrated on first interaction, so not preloaded
}

// Render server-renders page with props and answers the whole document.
func (s *Site) Render(c fiber.Ctx, page string, props any, meta Meta) error {
	doc, err := s.Document(c, page, props, meta)
	if err != nil {
		return err
	}
	status := meta.Status
	if status == 0 {
		status = http.StatusOK
	}
	c.Set("Content-Type", "text/html; charset=utf-8")
	c.Set("Cache-Control", "no-cache")
	return c.Status(status).Send(doc)
}

// Document renders the page into a complete HTML document.
func (s *Site) Document(c fiber.Ctx, page string, props any, meta Meta) ([]byte, error) {
	if props == nil {
		props = struct{}{}
	}
	pj, err := json.Marshal(pageProps{Shell: s.ShellFor(c), Page: props})
	if err != nil {
		return nil, fmt.Errorf("marshal props of %s: %w", page, err)
	}
	body, islandsJSON, err := s.Renderer.Render(c.Context(), page, pj)
	if err != nil {
		return nil, &RenderError{Page: page, Err: err}
	}
	var islands []islandOut
	if len(islandsJSON) > 0 {
		if err := json.Unmarshal(islandsJSON, &islands); err != nil {
			return nil, &RenderError{Page: page, Err: fmt.Errorf("islands: %w", err)}
		}
	}
	return s.document(c, body, islands, meta)
}

// ShellPage is the page name the SSR bundle renders as the layout around no page
// (views/entry-server.tsx): ForViewer cuts the viewer's header out of it.
const ShellPage = "__shell"

var (
	headerStart = []byte(`<div data-island="Header" data-island-id="0" `)
	headerEnd   = []byte(`<main id="main"`)
	headerProps = []byte(`<script type="application/json" id="props-i0">`)
	scriptEnd   = []byte(`</script>`)
)

// headerSpan is where the header island stands in a document or a body: from its element
// to the <main> after it (views/components/Layout.tsx).
func headerSpan(doc []byte) (start, end int, ok bool) {
	start = bytes.Index(doc, headerStart)
	if start < 0 {
		return 0, 0, false
	}
	end = bytes.Index(doc[start:], headerEnd)
	if end < 0 {
		return 0, 0, false
	}
	return start, start + end, true
}

// ErrNoHeader is answered by ForViewer for a document it cannot find the header of.
var ErrNoHeader = errors.New("web: no header island to swap")

// ForViewer makes the document c's viewer gets from doc, the document a visitor got for
// the same URL and origin: doc with the header island, and its props, of c's viewer in
// place of the visitor's. It renders the layout alone (ShellPage), a fraction of a whole
// page. The caller vouches that the page shows every signed-in viewer what it shows a
// visitor, header aside (pagecache.SameForMembers); a test compares the two byte for
// byte on every such page (app/pagetest).
func (s *Site) ForViewer(c fiber.Ctx, doc []byte) ([]byte, error) {
	hs, he, ok := headerSpan(doc)
	if !ok {
		return nil, ErrNoHeader
	}
	ps := bytes.Index(doc, headerProps)
	if ps < he {
		return nil, ErrNoHeader
	}
	ps += len(headerProps)
	pe := bytes.Index(doc[ps:], scriptEnd)
	if pe < 0 {
		return nil, ErrNoHeader
	}
	pe += ps
	pj, err := json.Marshal(pageProps{Shell: s.ShellFor(c), Page: struct{}{}})
	if err != nil {
		return nil, err
	}
	body, islandsJSON, err := s.Renderer.Render(c.Context(), ShellPage, pj)
	if err != nil {
		return nil, &RenderError{Page: ShellPage, Err: err}
	}
	var islands []islandOut
	if err := json.Unmarshal(islandsJSON, &islands); err != nil || len(islands) == 0 || islands[0].Name != "Header" {
		return nil, ErrNoHeader
	}
	props, err := json.Marshal(islands[0].Props) // as document writes it
	if err != nil {
		return nil, err
	}
	bhs, bhe, ok := headerSpan([]byte(body))
	if !ok {
		return nil, ErrNoHeader
	}
	header := body[bhs:bhe]
	out := make([]byte, 0, len(doc)+len(header)-(he-hs)+len(props)-(pe-ps))
	out = append(out, doc[:hs]...)
	out = append(out, header...)
	out = append(out, doc[he:ps]...)
	out = append(out, props...)
	return append(out, doc[pe:]...), nil
}

// RenderError is a failure inside the page renderer.
type RenderError struct {
	Page string
	Err  error
}

func (e *RenderError) Error() string { return "render " + e.Page + ": " + e.Err.Error() }
func (e *RenderError) Unwrap() error { return e.Err }

func (s *Site) document(c fiber.Ctx, body string, islands []islandOut, meta Meta) ([]byte, error) {
	origin := s.Origin(c)
	title := SiteName
	if meta.Title != "" {
		title = meta.Title + " | " + SiteName
	}
	desc := meta.Description
	if desc == "" {
		desc = DefaultDescription
	}
	path := meta.Path
	if path == "" {
		path = c.Path()
	}
	canonical := origin + path
	image, imgW, imgH, imgAlt := meta.Image, meta.ImageWidth, meta.ImageHeight, meta.ImageAlt
	if image == "" {
		image, imgW, imgH = "/static/images/og-card.png", 1200, 630
		if imgAlt == "" {
			imgAlt = DefaultImageAlt
		}
	}
	if imgAlt == "" {
		imgAlt = title
	}
	if strings.HasPrefix(image, "/") {
		image = origin + image
	}
	ogType := meta.Type
	if ogType == "" {
		ogType = "website"
	}

	var b bytes.Buffer
	b.Grow(len(body) + 4096)
	esc := html.EscapeString
	b.WriteString(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`)
	fmt.Fprintf(&b, `<title>%s</title><meta name="description" content="%s"><link rel="canonical" href="%s">`, esc(title), esc(desc), esc(canonical))
	if meta.NoIndex {
		b.WriteString(`<meta name="robots" content="noindex">`)
	}
	fmt.Fprintf(&b, `<meta property="og:site_name" content="%s"><meta property="og:type" content="%s"><meta property="og:title" content="%s"><meta property="og:description" content="%s"><meta property="og:url" content="%s"><meta property="og:image" content="%s">`,
		SiteName, esc(ogType), esc(title), esc(desc), esc(canonical), esc(image))
	if imgW > 0 && imgH > 0 {
		fmt.Fprintf(&b, `<meta property="og:image:width" content="%d"><meta property="og:image:height" content="%d">`, imgW, imgH)
	}
	fmt.Fprintf(&b, `<meta property="og:image:alt" content="%s">`, esc(imgAlt))
	fmt.Fprintf(&b, `<meta name="twitter:card" content="summary_large_image"><meta name="twitter:title" content="%s"><meta name="twitter:description" content="%s"><meta name="twitter:image" content="%s"><meta name="twitter:image:alt" content="%s">`,
		esc(title), esc(desc), esc(image), esc(imgAlt))
	b.WriteString(`<meta name="theme-color" content="#4f46e5"><link rel="icon" href="/static/images/favicon.svg" type="image/svg+xml">`)
	b.WriteString(`<script>` + ThemeScript + `</script>`)
	if s.Assets.CSS != "" {
		fmt.Fprintf(&b, `<link rel="stylesheet" href="%s">`, esc(s.Assets.CSS))
	}
	// The chunks of the islands hydrated at load are named on the entry's script tag
	// (data-preload) and the entry asks for them all at once (views/entry-client.ts), instead
	// of <link rel="modulepreload"> in the head: the parser's preloads are fetched at high
	// priority before the first paint, which Lighthouse's simulated slow 4G counted as
	// render-blocking (first paint 2.6 s against 1.1 s on a page without them).
	var preload []string
	if len(islands) > 0 && s.Assets.Entry != "" {
		seen := map[string]bool{s.Assets.Entry: true}
		for _, is := range islands {
			if is.Lazy == 1 {
				continue
			}
			for _, f := range s.Assets.Islands[is.Name] {
				if !seen[f] {
					seen[f] = true
					preload = append(preload, f)
				}
			}
		}
	}
	if meta.JSONLD != nil {
		ld, err := json.Marshal(meta.JSONLD) // escapes <, > and &: inert inside <script>
		if err != nil {
			return nil, err
		}
		b.WriteString(`<script type="application/ld+json">`)
		b.Write(ld)
		b.WriteString(`</script>`)
	}
	b.WriteString(`</head><body class="min-h-screen bg-background text-foreground antialiased"><div id="root">`)
	b.WriteString(body)
	b.WriteString(`</div>`)
	for i, is := range islands {
		// json.Marshal of a RawMessage compacts it and escapes <, >, &, U+2028 and U+2029,
		// so no props value can close this script element.
		pj, err := json.Marshal(is.Props)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, `<script type="application/json" id="props-i%d">`, i)
		b.Write(pj)
		b.WriteString(`</script>`)
	}
	if len(islands) > 0 && s.Assets.Entry != "" {
		if len(preload) > 0 {
			fmt.Fprintf(&b, `<script type="module" src="%s" data-preload="%s"></script>`, esc(s.Assets.Entry), esc(strings.Join(preload, " ")))
		} else {
			fmt.Fprintf(&b, `<script type="module" src="%s"></script>`, esc(s.Assets.Entry))
		}
	}
	b.WriteString(`</body></html>`)
	return b.Bytes(), nil
}

// FallbackErrorPage is the document answered when even the error page cannot be
// rendered: it needs nothing but Go.
func FallbackErrorPage() []byte {
	return []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Unexpected Application Error! | Meritmark</title><meta name="robots" content="noindex"><style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#111}a{color:#4f46e5}</style></head><body><h1>Unexpected Application Error!</h1><p>Something went wrong while showing this page. Please try again.</p><p><a href="/">Return Home</a></p></body></html>`)
}

// LogRenderError logs a render failure once with its page.
func LogRenderError(c fiber.Ctx, err error) {
	slog.Error("render failed", "path", c.Path(), "err", err)
}
