package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/mail"
	"meritmark/app/pagecache"
	"meritmark/app/pagecache/scope"
	"meritmark/app/web"
)

// Handler serves verification and the credential documents.
type Handler struct {
	site    *web.Site
	svc     *Service
	support string
}

// New makes the handler on the credential issuer.
func New(d *bun.DB, site *web.Site, cfg *config.Config, iss *credential.Issuer, mailer *mail.Worker) *Handler {
	svc := NewService(d, iss, mailer, cfg.DataDir)
	svc.LinkedInOrgID = site.LinkedInOrganizationID
	return &Handler{site: site, svc: svc, support: cfg.SupportEmail}
}

// Service is the handler's service (tests and benchmarks use it).
func (h *Handler) Service() *Service { return h.svc }

func asset(path string, h fiber.Handler) web.Route {
	return web.Route{Method: "GET", Path: path, Access: web.Public, Kind: web.Asset, Handler: h}
}

// Routes lists the routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/verify/badge/:id", web.Public, h.verifyAPI),
		web.Post("/verify/file", web.Public, h.verifyFile).WithRawBody(),
		web.PageRoute("/verify-badge", web.Public, h.page).Cached(scope.Badges, scope.Grants, scope.Profiles),
		web.PageRoute("/verify/:verificationId", web.Public, h.page).Cached(scope.Badges, scope.Grants, scope.Profiles),
		asset("/.well-known/jwks.json", h.jwks),
		asset("/.well-known/jwks/:kid", h.jwk),
		asset("/.well-known/did.json", h.did),
		asset("/issuer", h.issuer),
		asset("/issuer/image.png", h.issuerImage),
		asset("/achievements/:badgeId", h.achievement),
		asset("/achievements/:badgeId/image.png", h.achievementImage),
		asset("/credentials/status", h.statusList),
		asset("/credentials/status/revocation", h.bitstringList(credential.PurposeRevocation)),
		asset("/credentials/status/suspension", h.bitstringList(credential.PurposeSuspension)),
		asset("/credentials/:id/card.png", h.card),
		asset("/badges/:id/card.png", h.badgeCard),
		asset("/credentials/:file", h.credential),
	}
}

// ---- verification ----

func (h *Handler) lookup(c fiber.Ctx, raw string) (*Result, *entry, error) {
	kind, id, ok := NormalizeID(raw)
	if !ok {
		if err := h.svc.ChargeMiss(c.IP()); err != nil {
			return nil, nil, err
		}
		return nil, nil, ErrNotFound
	}
	return h.svc.Lookup(c.Context(), kind, id, c.IP(), h.site.Origin(c))
}

// param is a path parameter, percent-decoded (Fiber leaves them encoded).
func param(c fiber.Ctx, name string) string {
	v := c.Params(name)
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}

// GET /verify/badge/{id} -> the verification response. An unknown id and a malformed id
// get the same 404 answer.
func (h *Handler) verifyAPI(c fiber.Ctx) error {
	res, _, err := h.lookup(c, param(c, "id"))
	switch {
	case errors.Is(err, ErrNotFound):
		c.Set("Cache-Control", "no-store")
		return c.Status(http.StatusNotFound).JSON(fiber.Map{"msg": MsgNotVerified, "isValid": false})
	case errors.Is(err, ErrRateLimited):
		c.Set("Retry-After", "60")
		return web.TooMany(MsgRateLimited)
	case err != nil:
		return err
	}
	c.Set("Cache-Control", "no-cache")
	return c.JSON(res)
}

// PageProps are the verify page's props.
type PageProps struct {
	Query       string  `json:"query"` // the id as entered
	Result      *Result `json:"result"`
	NotFound    bool    `json:"notFound"`
	RateLimited bool    `json:"rateLimited"`
	Error       string  `json:"error"`
	// History is the credential's renewal chain (newest first; empty when never renewed).
	History []HistoryItem `json:"history,omitempty"`
	// the bulk form posted without JavaScript (POST /verify-badge): its text, and the
	// table or the message
	BulkText  string      `json:"bulkText,omitempty"`
	Bulk      *BulkResult `json:"bulk,omitempty"`
	BulkError string      `json:"bulkError,omitempty"`
	// Holder: the viewer holds the credential shown (its Add to LinkedIn is theirs alone).
	Holder bool `json:"holder,omitempty"`
}

// GET /verify-badge[?id=…] and /verify/:verificationId: the result is in the HTML.
func (h *Handler) page(c fiber.Ctx) error {
	raw := param(c, "verificationId")
	if raw == "" {
		raw = c.Query("id")
	}
	raw = strings.TrimSpace(raw)
	if len(raw) > MaxInput {
		raw = raw[:MaxInput]
	}
	props := PageProps{Query: raw}
	if raw == "" {
		return h.site.Render(c, "VerifyPage", props, web.Meta{Title: "Verify a Badge",
			Description: "Check that a Meritmark badge is genuine: enter its verification ID to see the holder, the badge and the signed credential's checks."})
	}
	res, e, err := h.lookup(c, raw)
	switch {
	case errors.Is(err, ErrNotFound):
		props.NotFound = true
		return h.site.Render(c, "VerifyPage", props, web.Meta{Title: "Badge Not Found", NoIndex: true, Status: http.StatusNotFound})
	case errors.Is(err, ErrRateLimited):
		props.RateLimited, props.Error = true, MsgRateLimited
		c.Set("Retry-After", "60")
		return h.site.Render(c, "VerifyPage", props, web.Meta{Title: "Verify a Badge", NoIndex: true, Status: http.StatusTooManyRequests})
	case err != nil:
		return err
	}
	props.Result = res
	// the page shows this holder's grants and profile only: another holder's change
	// leaves its cached copy alone
	pagecache.Shows(c, pageScopes(e.userID)...)
	// every other signed-in viewer sees it as a visitor does (Holder below is the holder's)
	pagecache.SameForMembers(c, e.userID)
	if props.History, err = h.svc.History(c.Context(), e.publicID); err != nil {
		return err
	}
	v := web.Viewer(c)
	props.Holder = v != nil && v.ID == e.userID
	doc, err := h.site.Document(c, "VerifyPage", props, pageMeta(res, e.publicID))
	if err != nil {
		return err
	}
	return sendPage(c, doc)
}

// sendPage answers a rendered verify page with its ETag (304 when it matches).
func sendPage(c fiber.Ctx, doc []byte) error {
	etag := etagOf(doc)
	c.Set("Content-Type", "text/html; charset=utf-8")
	c.Set("Cache-Control", "no-cache")
	c.Set("ETag", etag)
	if match := c.Get("If-None-Match"); match != "" && match == etag {
		return c.SendStatus(http.StatusNotModified)
	}
	return c.Send(doc)
}

func pageMeta(r *Result, pvid string) web.Meta {
	m := web.Meta{Path: "/verify/" + pvid, Image: "/credentials/" + pvid + "/card.png", NoIndex: !r.IsValid,
		ImageWidth: 1200, ImageHeight: 630, // credential.Card
		ImageAlt: "Meritmark card of the " + r.Badge.Name + " badge held by " + r.User.Name}
	issued := day(r.IssuedAt)
	switch {
	case r.IsValid:
		m.Title = r.Badge.Name + " · Verified badge of " + r.User.Name
		m.Description = r.User.Name + " earned the " + r.Badge.Name + " badge (" + r.Badge.Category + ") from Meritmark on " + issued +
			". Verified: a signed Open Badges 3.0 credential."
		m.Type = "article"
		m.JSONLD = map[string]any{
			"@context": "https://schema.org", "@type": "EducationalOccupationalCredential",
			"name": r.Badge.Name, "description": r.Badge.Description, "credentialCategory": "badge",
			"educationalLevel": r.Badge.Level, "dateCreated": r.IssuedAt.Format(time.RFC3339),
			"url":          r.Credential.VerifyURL,
			"recognizedBy": map[string]any{"@type": "Organization", "name": web.SiteName, "url": r.Credential.Issuer},
		}
	case r.Status == StatusRevoked:
		m.Title = r.Badge.Name + " · Revoked badge"
		m.Description = r.Reason
	case r.Status == StatusExpired:
		m.Title = r.Badge.Name + " · Expired badge"
		m.Description = r.Reason
	default:
		m.Title = r.Badge.Name + " · Not verified"
		m.Description = r.Reason
	}
	return m
}

// ---- public documents ----

func etagOf(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + hex.EncodeToString(h[:12]) + `"`
}

// sendCached answers a public document with an ETag (304 when it matches).
func sendCached(c fiber.Ctx, ctype, cacheControl string, body []byte) error {
	return sendTagged(c, ctype, cacheControl, body, etagOf(body))
}

// sendTagged is sendCached with an ETag already known (images: no hashing per request).
func sendTagged(c fiber.Ctx, ctype, cacheControl string, body []byte, tag string) error {
	c.Set("Cache-Control", cacheControl)
	c.Set("ETag", tag)
	c.Set("Access-Control-Allow-Origin", "*") // verifiers fetch these from anywhere
	if c.Get("If-None-Match") == tag {
		return c.SendStatus(http.StatusNotModified)
	}
	c.Set("Content-Type", ctype)
	return c.Send(body)
}

func sendJSON(c fiber.Ctx, ctype, cacheControl string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return sendCached(c, ctype, cacheControl, b)
}

func notFoundDoc(c fiber.Ctx) error {
	c.Set("Cache-Control", "no-store")
	return c.Status(http.StatusNotFound).JSON(fiber.Map{"msg": "Not found."})
}

const (
	ctypeJSON   = "application/json; charset=utf-8"
	ctypeLD     = "application/ld+json; charset=utf-8"
	longCache   = "public, max-age=3600"
	shortCache  = "public, max-age=60"
	revalidated = "public, no-cache"
	immutable   = "public, max-age=31536000, immutable" // versioned URLs
)

// GET /.well-known/jwks.json: every issuing key, the active one first.
func (h *Handler) jwks(c fiber.Ctx) error {
	set, err := h.svc.Issuer.JWKS(c.Context(), h.site.Origin(c))
	if err != nil {
		return err
	}
	return sendJSON(c, "application/jwk-set+json", "public, max-age=300", set)
}

// GET /.well-known/jwks/{thumbprint}: one public key as a JWK (application/jwk+json), named
// by this URL when it is an ES256 key (the kid of the VC-JWTs it signed).
func (h *Handler) jwk(c fiber.Ctx) error {
	kid := param(c, "kid")
	if len(kid) != 43 {
		return notFoundDoc(c)
	}
	k := h.svc.Issuer.Lookup(c.Context(), kid)
	if k == nil {
		return notFoundDoc(c)
	}
	return sendJSON(c, "application/jwk+json", "public, max-age=300", credential.PublishedJWK(h.site.Origin(c), k))
}

// GET /.well-known/did.json: the DID document of did:web:{host}, every Ed25519 issuing
// key as a Multikey verification method under assertionMethod.
func (h *Handler) did(c fiber.Ctx) error {
	doc, err := h.svc.Issuer.DIDDocument(c.Context(), h.site.Origin(c))
	if err != nil {
		return err
	}
	return sendJSON(c, "application/did+json", "public, max-age=300", doc)
}

// GET /issuer/image.png: the issuer's image.
func (h *Handler) issuerImage(c fiber.Ctx) error {
	b := h.svc.IssuerImage()
	return sendCached(c, "image/png", longCache, b)
}

// GET /credentials/status/revocation and /credentials/status/suspension: the signed
// BitstringStatusListCredential of purpose.
func (h *Handler) bitstringList(purpose string) fiber.Handler {
	return func(c fiber.Ctx) error {
		b, err := h.svc.BitstringStatusList(c.Context(), h.site.Origin(c), purpose)
		if err != nil {
			return err
		}
		return sendCached(c, ctypeLD, "public, max-age=30", b)
	}
}

// GET /issuer: the issuer's Profile.
func (h *Handler) issuer(c fiber.Ctx) error {
	return sendJSON(c, ctypeLD, longCache, IssuerDocument(h.site.Origin(c), h.support))
}

// GET /achievements/{badgeId}: the badge as an Achievement.
func (h *Handler) achievement(c fiber.Ctx) error {
	a, err := h.svc.AchievementDocument(c.Context(), h.site.Origin(c), c.Params("badgeId"))
	if errors.Is(err, ErrNotFound) {
		return notFoundDoc(c)
	}
	if err != nil {
		return err
	}
	return sendJSON(c, ctypeLD, shortCache, a)
}

// GET /achievements/{badgeId}/image.png: the badge's medallion.
func (h *Handler) achievementImage(c fiber.Ctx) error {
	b, err := h.svc.AchievementImage(c.Context(), c.Params("badgeId"))
	if errors.Is(err, ErrNotFound) {
		return notFoundDoc(c)
	}
	if err != nil {
		return err
	}
	return sendCached(c, "image/png", shortCache, b)
}

// GET /credentials/status: the revocation list.
func (h *Handler) statusList(c fiber.Ctx) error {
	l, err := h.svc.StatusListDocument(c.Context(), h.site.Origin(c))
	if err != nil {
		return err
	}
	return sendJSON(c, ctypeLD, "public, max-age=30", l)
}

// GET /credentials/{id}/card.png: the verify page's social card.
func (h *Handler) card(c fiber.Ctx) error {
	b, version, err := h.svc.Card(c.Context(), c.Params("id"))
	if errors.Is(err, ErrNotFound) {
		return notFoundDoc(c)
	}
	if err != nil {
		return err
	}
	return sendTagged(c, "image/png", shortCache, b, `"card-`+version+`"`)
}

// GET /badges/{id}/card.png[?v=version]: the badge page's social card. The page links it
// with its version, and that URL never changes what it shows: immutable.
func (h *Handler) badgeCard(c fiber.Ctx) error {
	b, version, err := h.svc.BadgeCard(c.Context(), c.Params("id"))
	if errors.Is(err, ErrNotFound) {
		return notFoundDoc(c)
	}
	if err != nil {
		return err
	}
	cc := shortCache
	if c.Query("v") == version {
		cc = immutable
	}
	return sendTagged(c, "image/png", cc, b, `"bcard-`+version+`"`)
}

// GET /credentials/{id}[.json|.jwt|.png]: the credential (its id without an extension
// answers JSON, or the verify page for a browser).
func (h *Handler) credential(c fiber.Ctx) error {
	file := c.Params("file")
	id, ext := file, ""
	if i := strings.LastIndexByte(file, '.'); i > 0 {
		id, ext = file[:i], file[i+1:]
	}
	origin := h.site.Origin(c)
	download := func(name string) {
		if c.Query("download") != "" {
			c.Set("Content-Disposition", `attachment; filename="`+name+`"`)
		}
	}
	var err error
	switch ext {
	case "":
		if strings.Contains(c.Get("Accept"), "text/html") && publicRe.MatchString(id) {
			return c.Redirect().Status(http.StatusSeeOther).To("/verify/" + id)
		}
		var b []byte
		if b, _, err = h.svc.CredentialJSON(c.Context(), id, origin); err == nil {
			return sendCached(c, ctypeLD, revalidated, b)
		}
	case "json":
		var b []byte
		if b, _, err = h.svc.CredentialJSON(c.Context(), id, origin); err == nil {
			download("meritmark-credential-" + id + ".json")
			return sendCached(c, ctypeLD, revalidated, b)
		}
	case "jwt":
		var tok string
		if tok, err = h.svc.CredentialJWT(c.Context(), id, origin); err == nil {
			download("meritmark-credential-" + id + ".jwt")
			return sendCached(c, "application/vc+jwt", revalidated, []byte(tok))
		}
	case "png":
		var b []byte
		var tok string
		if b, tok, err = h.svc.BakedPNG(c.Context(), id, origin); err == nil {
			download("meritmark-badge-" + id + ".png")
			return sendTagged(c, "image/png", revalidated, b, `"baked-`+hash(tok)+`"`)
		}
	default:
		return notFoundDoc(c)
	}
	if errors.Is(err, ErrNotFound) {
		return notFoundDoc(c)
	}
	return err
}
