package award

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/user"
	"meritmark/app/web"
	"meritmark/db"
)

// Handler serves direct awards.
type Handler struct {
	DB     *bun.DB
	Site   *web.Site
	Mailer *mail.Worker
	Events *events.Bus        // a claim records award.claimed (and grant.issued)
	Issuer *credential.Issuer // signs the grant a claim makes
	now    func() time.Time
}

// New makes the handler.
func New(d *bun.DB, site *web.Site, iss *credential.Issuer, mailer *mail.Worker, bus *events.Bus) *Handler {
	return &Handler{DB: d, Site: site, Issuer: iss, Mailer: mailer, Events: bus, now: model.Now}
}

// Routes lists the routes.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		web.Post("/admin/awards", web.Admin, h.create),
		web.Get("/admin/awards", web.Admin, h.register),
		web.Post("/admin/awards/csv", web.Admin, h.uploadCSV).WithBodyLimit(CSVBodyLimit),
		web.Post("/admin/awards/:id/resend", web.Admin, h.resend),
		web.Post("/admin/awards/:id/withdraw", web.Admin, h.withdraw),
		web.Post("/awards/claim", web.Member, h.claim),
		web.PageRoute("/claim/:token", web.Public, h.page),
	}
}

// CreateInput is the body of POST /admin/awards.
type CreateInput struct {
	BadgeID string `json:"badgeId"`
	Email   string `json:"email"`
	Note    string `json:"note"`
}

// AwardJSON is an award as the admin sees it (never the token).
type AwardJSON struct {
	ID        string    `json:"_id"`
	BadgeID   string    `json:"badgeId"`
	BadgeName string    `json:"badgeName"`
	Email     string    `json:"email"`
	ExpiresAt time.Time `json:"expiresAt"`
}

func holds(ctx context.Context, d bun.IDB, email, badgeID string, now time.Time) (bool, error) {
	return d.NewSelect().Model((*model.BadgeGrant)(nil)).
		Join("JOIN users AS u ON u.id = badge_grant.user_id").
		Where("u.email = ? AND badge_grant.badge_id = ?", email, badgeID).
		Where("badge_grant.revoked_at IS NULL AND (badge_grant.expires_at IS NULL OR badge_grant.expires_at > ?)", now).Exists(ctx)
}

// POST /admin/awards {badgeId, email, note} -> 201 {msg, award}: the address gets a claim
// link (a second award of the same badge to the same address replaces the open one).
func (h *Handler) create(c fiber.Ctx) error {
	var in CreateInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	email := auth.NormalizeEmail(in.Email)
	if !auth.ValidEmail(email) {
		return web.BadRequest(MsgEmailInvalid)
	}
	in.BadgeID = strings.TrimSpace(in.BadgeID)
	if in.BadgeID == "" {
		return web.BadRequest(MsgBadgeRequired)
	}
	note, ok := CleanNote(in.Note)
	if !ok {
		return web.BadRequest(MsgNoteTooLong)
	}
	if !model.ValidID(in.BadgeID) {
		return web.NotFound(MsgBadgeNotFound)
	}
	actor := web.Viewer(c)
	origin := h.Site.Origin(c)
	now := h.now()
	var out AwardJSON
	err := h.DB.RunInTx(c.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		b, err := awardable(ctx, tx, in.BadgeID)
		if err != nil {
			return err
		}
		a, err := send(ctx, tx, actor, b, Recipient{Email: email, Note: note}, origin, now, nil)
		if err != nil {
			return err
		}
		out = AwardJSON{ID: a.ID, BadgeID: b.ID, BadgeName: b.Name, Email: email, ExpiresAt: a.ExpiresAt.UTC()}
		return nil
	})
	if err != nil {
		return err
	}
	if h.Mailer != nil {
		h.Mailer.Kick()
	}
	return c.Status(http.StatusCreated).JSON(fiber.Map{"msg": MsgSent, "award": out})
}

// find loads the award of a token (nil when the token is malformed or unknown).
func find(ctx context.Context, d bun.IDB, tok string, lock bool) (*Award, error) {
	if !ValidToken(tok) {
		return nil, nil
	}
	var a Award
	q := d.NewSelect().Model(&a).Where("token_hash = ?", HashToken(tok))
	if lock {
		q = db.ForUpdate(d, q)
	}
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, nil
		}
		return nil, err
	}
	return &a, nil
}

// ClaimResult is the answer of a claim.
type ClaimResult struct {
	Msg            string `json:"msg"`
	VerificationID string `json:"verificationId"`
	VerifyURL      string `json:"verifyUrl"`
}

var errClaimed = errors.New("claimed concurrently")

// POST /awards/claim {token, nameInCredentials?} -> {msg, verificationId, verifyUrl}: the
// signed-in member whose address the award was sent to gets the badge (once);
// nameInCredentials, when given, is their choice that credentials issued from now on
// (this one first) name them.
func (h *Handler) claim(c fiber.Ctx) error {
	var body struct {
		Token             string `json:"token"`
		NameInCredentials *bool  `json:"nameInCredentials"`
	}
	if err := web.BindJSON(c, &body); err != nil {
		return err
	}
	u := web.Viewer(c)
	origin := h.Site.Origin(c)
	now := h.now()
	var res ClaimResult
	err := h.Events.RunInTx(c.Context(), h.DB, func(ctx context.Context, tx bun.Tx) error {
		a, err := find(ctx, tx, strings.TrimSpace(body.Token), true)
		switch {
		case err != nil:
			return err
		case a == nil:
			return web.NotFound(MsgLinkInvalid)
		case a.ClaimedAt != nil:
			return web.Conflict(MsgLinkUsed)
		case a.WithdrawnAt != nil:
			return web.E(http.StatusGone, MsgWithdrawn)
		case !now.Before(a.ExpiresAt):
			return web.E(http.StatusGone, MsgLinkExpired)
		case !strings.EqualFold(u.Email, a.Email):
			return web.Forbidden(MsgWrongAccount)
		}
		if !u.EmailVerified() {
			// a credential only ever names a verified address (the account's own check)
			return web.Forbidden(MsgConfirmFirst)
		}
		if held, err := holds(ctx, tx, a.Email, a.BadgeID, now); err != nil {
			return err
		} else if held {
			return web.Conflict(MsgYouAlreadyHold)
		}
		var b model.Badge
		if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
			return err
		}
		by := ""
		if a.CreatedBy != nil {
			by = *a.CreatedBy
		}
		if body.NameInCredentials != nil {
			if err := user.SetNameInCredentialsTx(ctx, tx, u, *body.NameInCredentials); err != nil {
				return err
			}
		}
		g, err := grant.IssueDirect(ctx, tx, grant.DirectInput{Issuer: h.Issuer, UserID: u.ID, Badge: &b, GrantedBy: by, Now: now, Origin: origin, ExpiresAt: a.GrantExpiresAt})
		if err != nil {
			return err
		}
		r, err := tx.NewUpdate().Model((*Award)(nil)).Set("claimed_at = ?", now).Set("claimed_by = ?", u.ID).Set("grant_id = ?", g.ID).
			Where("id = ? AND claimed_at IS NULL AND withdrawn_at IS NULL", a.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if err := events.Record(ctx, tx, events.AwardClaimed, "award", a.ID, map[string]string{"awardId": a.ID, "grantId": g.ID, "userId": u.ID}); err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n != 1 {
			return errClaimed
		}
		res = ClaimResult{Msg: MsgClaimed, VerificationID: g.VerificationID, VerifyURL: strings.TrimRight(origin, "/") + "/verify/" + g.PublicVerificationID}
		return nil
	})
	if errors.Is(err, errClaimed) {
		return web.Conflict(MsgLinkUsed)
	}
	if err != nil {
		return err
	}
	return c.JSON(res)
}

// PageProps are the claim page's props (never the token's award id or hash).
type PageProps struct {
	Token       string     `json:"token"`
	State       string     `json:"state"` // ready, signin, wrong, claimed, withdrawn, expired, invalid
	BadgeName   string     `json:"badgeName"`
	BadgeID     string     `json:"badgeId"`
	MaskedEmail string     `json:"maskedEmail"`
	Note        string     `json:"note"`
	ExpiresAt   *time.Time `json:"expiresAt"`
	// Unconfirmed: the right member is signed in but has not confirmed the address yet
	Unconfirmed bool `json:"unconfirmed"`
	// NameInCredentials: the signed-in member's current choice (the claim may change it)
	NameInCredentials bool `json:"nameInCredentials"`
}

func mask(email string) string {
	at := strings.LastIndexByte(email, '@')
	if at < 1 {
		return ""
	}
	return string([]rune(email[:at])[0]) + "***" + email[at:]
}

// GET /claim/{token}: the award and what to do next.
func (h *Handler) page(c fiber.Ctx) error {
	tok := c.Params("token")
	a, err := find(c.Context(), h.DB, tok, false)
	if err != nil {
		return err
	}
	meta := web.Meta{Title: "Claim your badge", NoIndex: true}
	c.Set("Cache-Control", "no-store")
	c.Set("Referrer-Policy", "no-referrer")
	if a == nil {
		meta.Status = http.StatusNotFound
		return h.Site.Render(c, "ClaimAwardPage", PageProps{State: "invalid"}, meta)
	}
	var b model.Badge
	if err := h.DB.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(c.Context()); err != nil {
		return err
	}
	exp := a.ExpiresAt.UTC()
	p := PageProps{Token: tok, BadgeName: b.Name, BadgeID: b.ID, MaskedEmail: mask(a.Email), Note: a.Note, ExpiresAt: &exp}
	u := web.Viewer(c)
	switch {
	case a.ClaimedAt != nil:
		p.State, p.Token = "claimed", ""
	case a.WithdrawnAt != nil:
		p.State, p.Token = "withdrawn", ""
	case !h.now().Before(a.ExpiresAt):
		p.State, p.Token = "expired", ""
	case u == nil:
		p.State = "signin"
	case !strings.EqualFold(u.Email, a.Email):
		p.State = "wrong"
	default:
		p.State, p.NameInCredentials = "ready", u.NameInCredentials
		p.Unconfirmed = !u.EmailVerified()
	}
	return h.Site.Render(c, "ClaimAwardPage", p, meta)
}

// SignupPrefill answers, for the sign-up page's next address, the address an open award
// was sent to and its badge's name when next is that award's claim link (/claim/{token});
// empty otherwise. Whoever holds the link got it at that address, and the account must
// be made with it (and confirmed) to claim the badge.
func (h *Handler) SignupPrefill(ctx context.Context, next string) (string, string) {
	tok, ok := strings.CutPrefix(next, "/claim/")
	if !ok || strings.ContainsAny(tok, "/?#") {
		return "", ""
	}
	a, err := find(ctx, h.DB, tok, false)
	if err != nil || a == nil || a.ClaimedAt != nil || a.WithdrawnAt != nil || !h.now().Before(a.ExpiresAt) {
		return "", ""
	}
	var b model.Badge
	if err := h.DB.NewSelect().Model(&b).Column("name").Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
		return "", ""
	}
	return a.Email, b.Name
}
