package user

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/pagecache/scope"
	"meritmark/app/ratelimit"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Handler is the HTTP side of the user feature.
type Handler struct {
	svc     *Service
	site    *web.Site
	limiter *ratelimit.Limiter
	cards   *credential.ImageCache // drawn profile cards
}

// New makes the handler. limiter may be nil (no upload limit).
func New(d *bun.DB, site *web.Site, store storage.Store, limiter *ratelimit.Limiter, bus *events.Bus) *Handler {
	return &Handler{svc: NewService(d, store, bus), site: site, limiter: limiter, cards: credential.NewImageCache(256)}
}

// Picture uploads are decoded server-side (CPU and memory): 20 per member an hour.
const (
	picturesPerHour    = 20
	MsgTooManyPictures = "Too many picture uploads. Please wait an hour and try again."
)

// Routes lists the feature's routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Get("/users/badges", web.Member, h.badges),
		web.Put("/users/badges/:id/score", web.Member, h.scoreVisibility),
		web.Put("/users/credential-name", web.Member, h.credentialName),
		web.Post("/users/profile", web.Member, h.updateProfile),
		// the body holds one picture of at most 10 MB plus the multipart framing; a picture
		// just over 10 MB still reaches the handler, which names the limit
		web.Post("/users/profile-pic", web.Member, h.picture).WithBodyLimit(MaxPictureBytes + 1<<20),
		web.PageRoute("/profile", web.Member, h.profilePage),
		web.PageRoute("/profile/:id", web.Public, h.publicPage).Cached(scope.Badges, scope.Grants, scope.Profiles),
		{Method: "GET", Path: "/profile/:id/card.png", Access: web.Public, Kind: web.Asset, Handler: h.card},
		{Method: "GET", Path: "/media/*", Access: web.Public, Kind: web.Asset, Handler: h.media},
	}
}

func validationOr(err error) error {
	if msg, ok := IsValidation(err); ok {
		return web.BadRequest(msg)
	}
	return err
}

// GET /users/badges -> {badges}
func (h *Handler) badges(c fiber.Ctx) error {
	list, err := Earned(c.Context(), h.svc.DB, web.Viewer(c).ID, false)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"badges": list})
}

// PUT /users/badges/{grantId}/score {hidden} -> {msg, hideScore}: whether the public
// verify page shows the score (the signed credential carries it either way).
func (h *Handler) scoreVisibility(c fiber.Ctx) error {
	var b struct {
		Hidden *bool `json:"hidden"`
	}
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	if b.Hidden == nil {
		return web.BadRequest(MsgHiddenMissing)
	}
	if err := h.svc.SetScoreHidden(c.Context(), web.Viewer(c).ID, c.Params("id"), *b.Hidden); err != nil {
		return err
	}
	msg := MsgScoreShown
	if *b.Hidden {
		msg = MsgScoreHidden
	}
	return c.JSON(fiber.Map{"msg": msg, "hideScore": *b.Hidden})
}

// PUT /users/credential-name {nameInCredentials} -> {msg, nameInCredentials}: whether the
// credentials signed from now on name the holder.
func (h *Handler) credentialName(c fiber.Ctx) error {
	var b struct {
		On *bool `json:"nameInCredentials"`
	}
	if err := web.BindJSON(c, &b); err != nil {
		return err
	}
	if b.On == nil {
		return web.BadRequest(MsgNameChoiceMissing)
	}
	if err := h.svc.SetNameInCredentials(c.Context(), web.Viewer(c), *b.On); err != nil {
		return err
	}
	msg := MsgNameOff
	if *b.On {
		msg = MsgNameOn
	}
	return c.JSON(fiber.Map{"msg": msg, "nameInCredentials": *b.On})
}

// POST /users/profile (name, email, position, linkedin, portfolio) -> {msg, user}
func (h *Handler) updateProfile(c fiber.Ctx) error {
	var in ProfileInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	u, err := h.svc.UpdateProfile(c.Context(), web.Viewer(c), in)
	if err != nil {
		return validationOr(err)
	}
	j, err := View(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgProfileUpdated, "user": j})
}

// POST /users/profile-pic multipart profilePic -> {msg, profilePicUrl}
func (h *Handler) picture(c fiber.Ctx) error {
	if h.limiter != nil {
		ok, err := h.limiter.Allow(c.Context(), "profile-pic:"+web.Viewer(c).ID, picturesPerHour, time.Hour)
		if err != nil {
			return err
		}
		if !ok {
			return web.TooMany(MsgTooManyPictures)
		}
	}
	fh, err := c.FormFile("profilePic")
	if err != nil || fh == nil {
		return web.BadRequest(MsgPictureMissing)
	}
	if fh.Size > MaxPictureBytes {
		return web.TooLarge(MsgPictureTooLarge)
	}
	if fh.Size == 0 {
		return web.BadRequest(MsgPictureBroken)
	}
	f, err := fh.Open()
	if err != nil {
		return fmt.Errorf("open upload: %w", err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxPictureBytes+1))
	if err != nil {
		return fmt.Errorf("read upload: %w", err)
	}
	if len(data) > MaxPictureBytes {
		return web.TooLarge(MsgPictureTooLarge)
	}
	url, err := h.svc.SetPicture(c.Context(), web.Viewer(c).ID, data)
	if err != nil {
		return validationOr(err)
	}
	return c.JSON(fiber.Map{"msg": MsgPictureUpdated, "profilePicUrl": url})
}

// GET /profile: the member's own profile.
func (h *Handler) profilePage(c fiber.Ctx) error {
	u := web.Viewer(c)
	j, badges, err := OwnProfile(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	waiting, err := WaitingForEmail(c.Context(), h.svc.DB, u)
	if err != nil {
		return err
	}
	return h.site.Render(c, "ProfilePage", fiber.Map{"user": j, "badges": badges, "held": Held(badges), "categories": Categories(badges),
		"origin": h.site.Origin(c), "waitingBadges": waiting},
		web.Meta{Title: "My Profile", Description: "Your Meritmark profile and earned badges.", NoIndex: true})
}

// GET /profile/:id: the public, shareable profile.
func (h *Handler) publicPage(c fiber.Ctx) error {
	id := c.Params("id")
	if !model.ValidID(id) {
		return web.NotFound("Profile not found.")
	}
	p, err := Public(c.Context(), h.svc.DB, id)
	if errors.Is(err, db.ErrNotFound) {
		return web.NotFound("Profile not found.")
	}
	if err != nil {
		return err
	}
	origin := h.site.Origin(c)
	v := web.Viewer(c)
	desc := publicDescription(p)
	person := map[string]any{"@type": "Person", "name": p.Name, "url": origin + "/profile/" + p.ID}
	if p.Position != "" {
		person["jobTitle"] = p.Position
	}
	if p.ProfilePicURL != "" {
		person["image"] = origin + p.ProfilePicURL
	}
	var same []string
	for _, l := range []string{p.LinkedIn, p.Portfolio} {
		if l != "" && ValidWebURL(l) { // only http(s) links, whatever got stored
			same = append(same, l)
		}
	}
	if len(same) > 0 {
		person["sameAs"] = same
	}
	return h.site.Render(c, "PublicProfilePage", fiber.Map{
		"profile": p, "origin": origin, "isOwner": v != nil && v.ID == p.ID,
	}, web.Meta{
		Title: p.Name, Description: desc, Type: "profile", Path: "/profile/" + p.ID,
		Image:      CardPath(p.ID) + "?v=" + cardInput(p).Version(),
		ImageWidth: credential.CardWidth, ImageHeight: credential.CardHeight,
		ImageAlt: "Meritmark card of " + p.Name + "'s profile",
		JSONLD:   map[string]any{"@context": "https://schema.org", "@type": "ProfilePage", "mainEntity": person},
	})
}

// MsgProfileNotFound answers a profile (or its card) that does not exist.
const MsgProfileNotFound = "Profile not found."

// CardPath is the path of a public profile's social card.
func CardPath(id string) string { return "/profile/" + id + "/card.png" }

// cardInput is what the profile's card shows (the picture itself is read when drawn).
func cardInput(p *PublicProfile) credential.ProfileCardInput {
	in := credential.ProfileCardInput{Name: p.Name, Position: p.Position, Held: p.Held,
		PictureKey: strings.TrimPrefix(p.ProfilePicURL, "/media/")}
	for _, b := range p.Badges {
		if b.Standing.Held && len(in.Badges) < 3 {
			in.Badges = append(in.Badges, b.Name)
		}
	}
	return in
}

// GET /profile/{id}/card.png[?v=version]: the public profile's social card (1200x630).
// The page links it with its version; that URL never changes what it shows: immutable.
func (h *Handler) card(c fiber.Ctx) error {
	notFound := func() error { // an image's 404 is JSON, not the not-found page
		c.Set("Cache-Control", "no-store")
		return c.Status(http.StatusNotFound).JSON(fiber.Map{"msg": MsgProfileNotFound})
	}
	id := c.Params("id")
	if !model.ValidID(id) {
		return notFound()
	}
	p, err := Public(c.Context(), h.svc.DB, id)
	if errors.Is(err, db.ErrNotFound) {
		return notFound()
	}
	if err != nil {
		return err
	}
	in := cardInput(p)
	version := in.Version()
	b, err := h.cards.Make(p.ID+"-"+version, func() ([]byte, error) {
		in.Picture = h.loadPicture(c.Context(), in.PictureKey)
		return credential.ProfileCard(in), nil
	})
	if err != nil {
		return err
	}
	tag := `"pcard-` + version + `"`
	cc := "public, max-age=60"
	if c.Query("v") == version {
		cc = "public, max-age=31536000, immutable"
	}
	c.Set("Cache-Control", cc)
	c.Set("ETag", tag)
	if c.Get("If-None-Match") == tag {
		return c.SendStatus(http.StatusNotModified)
	}
	c.Set("Content-Type", "image/png")
	return c.Send(b)
}

// loadPicture decodes a stored profile picture (nil when there is none or it cannot be read:
// the card then shows the initials).
func (h *Handler) loadPicture(ctx context.Context, key string) image.Image {
	if key == "" || !ValidPictureKey(key) {
		return nil
	}
	rc, err := h.svc.Store.Open(ctx, key)
	if err != nil {
		return nil
	}
	defer rc.Close()
	img, err := png.Decode(io.LimitReader(rc, 8<<20))
	if err != nil {
		return nil
	}
	return img
}

func publicDescription(p *PublicProfile) string {
	n := p.Held
	badges := fmt.Sprintf("%d verified badges", n)
	if n == 1 {
		badges = "1 verified badge"
	}
	who := p.Name
	if p.Position != "" {
		who += ", " + p.Position
	}
	return who + ", holds " + badges + " on Meritmark."
}

// GET /media/*: a stored profile picture. Only keys this package generates are served.
func (h *Handler) media(c fiber.Ctx) error {
	key := c.Params("*")
	if !ValidPictureKey(key) {
		return web.NotFound("Not found.")
	}
	rc, err := h.svc.Store.Open(c.Context(), key)
	if errors.Is(err, storage.ErrNotFound) {
		return web.NotFound("Not found.")
	}
	if err != nil {
		return err
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, 8<<20))
	if err != nil {
		return err
	}
	c.Set("Content-Type", "image/png")
	c.Set("X-Content-Type-Options", "nosniff")
	// a key is never reused: each upload gets a new one
	c.Set("Cache-Control", "public, max-age=31536000, immutable")
	c.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	c.Set("Content-Disposition", "inline")
	return c.Status(http.StatusOK).Send(data)
}
