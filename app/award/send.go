package award

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/badgeadmin"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Recipient is one award to send: an address, the person's name, a note and the
// credential's expiry (nil: the badge's own validity).
type Recipient struct {
	Email     string
	Name      string
	Note      string
	ExpiresAt *time.Time
}

// awardable loads badge id and refuses a draft: an inactive badge, or a skill badge
// without a usable quiz (the rule that also keeps it from being activated).
func awardable(ctx context.Context, d bun.IDB, id string) (*model.Badge, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgBadgeNotFound)
	}
	var b model.Badge
	if err := d.NewSelect().Model(&b).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgBadgeNotFound)
		}
		return nil, err
	}
	if !b.IsActive {
		return nil, web.Unprocessable(MsgBadgeInactive)
	}
	if b.Type == model.TypeSkill {
		ok, err := badgeadmin.QuizReady(ctx, d, b.ID)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, web.Unprocessable(MsgBadgeNoQuiz)
		}
	}
	return &b, nil
}

// send awards b to r inside tx: a holder is refused, an open award of the badge to the
// address is replaced (its link stops working), the award row is written with a fresh
// token, the mail with the claim link queued and award.create audited.
func send(ctx context.Context, tx bun.Tx, actor *model.User, b *model.Badge, r Recipient, origin string, now time.Time, batch *string) (*Award, error) {
	if held, err := holds(ctx, tx, r.Email, b.ID, now); err != nil {
		return nil, err
	} else if held {
		return nil, web.Conflict(MsgAlreadyHolds)
	}
	tok := NewToken()
	a := &Award{ID: model.NewID(), BadgeID: b.ID, Email: r.Email, Name: r.Name, TokenHash: HashToken(tok), Note: r.Note,
		CreatedAt: now, ExpiresAt: now.Add(TTL), GrantExpiresAt: r.ExpiresAt, BatchID: batch, SentCount: 1, LastSentAt: &now}
	if actor != nil {
		a.CreatedBy = &actor.ID
	}
	if _, err := tx.NewDelete().Model((*Award)(nil)).
		Where("email = ? AND badge_id = ? AND claimed_at IS NULL AND withdrawn_at IS NULL", r.Email, b.ID).Exec(ctx); err != nil {
		return nil, err
	}
	if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
		return nil, err
	}
	if err := mail.Queue(ctx, tx, Mail(r.Email, r.Name, b.Name, r.Note, ClaimURL(origin, tok), a.ExpiresAt).Message()); err != nil {
		return nil, err
	}
	after := map[string]any{"badgeId": b.ID, "email": r.Email, "expiresAt": a.ExpiresAt}
	if r.Name != "" {
		after["name"] = r.Name
	}
	if r.ExpiresAt != nil {
		after["credentialExpiresAt"] = r.ExpiresAt
	}
	if err := audit.Write(ctx, tx, actor, "award.create", "award", a.ID, nil, after); err != nil {
		return nil, err
	}
	return a, nil
}
