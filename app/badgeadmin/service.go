package badgeadmin

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Service runs the badge management use cases; each change is one transaction with its
// audit entry.
type Service struct {
	DB     *bun.DB
	Events *events.Bus // catalogue changes are recorded as events.BadgeChanged
}

// changed audits a catalogue change and records it (badge.changed) in the same
// transaction: the subscribers (the catalogue's cached pages, webhooks) follow from it.
func (s *Service) changed(ctx context.Context, tx bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	if err := audit.Write(ctx, tx, actor, action, targetType, targetID, before, after); err != nil {
		return err
	}
	return s.Events.Record(ctx, tx, events.BadgeChanged, targetType, targetID, map[string]string{"action": action, "id": targetID})
}

// List answers every badge, inactive ones included.
func (s *Service) List(ctx context.Context) ([]View, error) { return views(ctx, s.DB, nil) }

// Stats answers the badge counts.
func (s *Service) Stats(ctx context.Context) (Stats, error) { return stats(ctx, s.DB) }

// Create adds a badge from the form (defaults for what is not given).
func (s *Service) Create(ctx context.Context, actor *model.User, in Input) (*View, error) {
	b := NewBadge()
	if msg := Apply(&b, in); msg != "" {
		return nil, web.BadRequest(msg).On(FieldOf(msg))
	}
	if in.IsActive != nil && *in.IsActive {
		if b.Type == model.TypeSkill {
			return nil, web.Unprocessable(MsgActivateNeedsQuiz)
		}
		b.IsActive = true
	}
	now := model.Now()
	b.ID = model.NewID()
	b.CreatedAt, b.UpdatedAt = now, now
	if actor != nil {
		id := actor.ID
		b.CreatedBy = &id
	}
	var out *View
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		taken, err := nameTaken(ctx, tx, b.Name, "")
		if err != nil {
			return err
		}
		if taken {
			return web.Conflict(MsgDuplicateName).On("name")
		}
		if _, err := tx.NewInsert().Model(&b).Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgDuplicateName).On("name")
			}
			return err
		}
		if out, err = view(ctx, tx, b.ID); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "badge.create", "badge", b.ID, nil, out)
	})
	return out, err
}

// Update edits a badge: given fields change, absent ones keep their value.
func (s *Service) Update(ctx context.Context, actor *model.User, id string, in Input) (*View, error) {
	var out *View
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := view(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgNotFound)
		}
		if err != nil {
			return err
		}
		b, err := getBadge(ctx, tx, id)
		if err != nil {
			return err
		}
		oldType := b.Type
		if msg := Apply(b, in); msg != "" {
			return web.BadRequest(msg).On(FieldOf(msg))
		}
		if b.Type != oldType {
			if before.GrantCount > 0 || before.ApplicationCount > 0 {
				return web.Conflict(MsgTypeLocked).On("type")
			}
			if before.Quiz != nil {
				return web.Conflict(MsgTypeHasQuiz).On("type")
			}
		}
		if !strings.EqualFold(b.Name, before.Name) {
			taken, err := nameTaken(ctx, tx, b.Name, id)
			if err != nil {
				return err
			}
			if taken {
				return web.Conflict(MsgDuplicateName).On("name")
			}
		}
		b.UpdatedAt = model.Now()
		if _, err := tx.NewUpdate().Model(b).WherePK().
			Column("name", "description", "category", "type", "level", "price_cents", "icon", "color", "criteria", "requires_resume", "valid_days", "valid_months", "updated_at").
			Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgDuplicateName).On("name")
			}
			return err
		}
		if out, err = view(ctx, tx, id); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "badge.update", "badge", id, before, out)
	})
	return out, err
}

// Toggle activates or deactivates a badge. A skill badge is activated only when its quiz
// can be taken (active, with at least one question).
func (s *Service) Toggle(ctx context.Context, actor *model.User, id string) (*View, error) {
	var out *View
	err := s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := view(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgNotFound)
		}
		if err != nil {
			return err
		}
		active := !before.IsActive
		if active && before.Type == model.TypeSkill {
			ok, err := QuizReady(ctx, tx, id)
			if err != nil {
				return err
			}
			if !ok {
				return web.Unprocessable(MsgActivateNeedsQuiz)
			}
		}
		if _, err := tx.NewUpdate().Model((*model.Badge)(nil)).Set("is_active = ?", active).Set("updated_at = ?", model.Now()).
			Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if out, err = view(ctx, tx, id); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "badge.toggle", "badge", id, before, out)
	})
	return out, err
}

// Delete removes a badge that nobody has applied for or earned, with its quiz (its
// question links; the questions stay in the bank) and its unfinished quiz attempts.
// Coupons limited to this badge lose it from their list; a coupon left with no badge at
// all is deactivated rather than widened to every badge.
func (s *Service) Delete(ctx context.Context, actor *model.User, id string) error {
	return s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		before, err := view(ctx, tx, id)
		if isNoRows(err) {
			return web.NotFound(MsgNotFound)
		}
		if err != nil {
			return err
		}
		grants, apps, err := usage(ctx, tx, id)
		if err != nil {
			return err
		}
		if grants > 0 || apps > 0 {
			return web.Conflict(MsgDeleteInUse)
		}
		quizIDs := tx.NewSelect().Model((*model.Quiz)(nil)).Column("id").Where("badge_id = ?", id)
		if _, err := tx.NewDelete().Model((*model.QuizAttempt)(nil)).Where("badge_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.QuizQuestion)(nil)).Where("quiz_id IN (?)", quizIDs).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.Quiz)(nil)).Where("badge_id = ?", id).Exec(ctx); err != nil {
			return err
		}
		if err := dropFromCoupons(ctx, tx, actor, id); err != nil {
			return err
		}
		if _, err := tx.NewDelete().Model((*model.Badge)(nil)).Where("id = ?", id).Exec(ctx); err != nil {
			return err
		}
		return s.changed(ctx, tx, actor, "badge.delete", "badge", id, before, nil)
	})
}

func dropFromCoupons(ctx context.Context, tx bun.Tx, actor *model.User, badgeID string) error {
	var coupons []model.Coupon
	if err := tx.NewSelect().Model(&coupons).Where("applicable_badges LIKE ?", `%"`+badgeID+`"%`).Scan(ctx); err != nil {
		return err
	}
	for _, c := range coupons {
		before := map[string]any{"applicableBadges": c.ApplicableBadges, "isActive": c.IsActive}
		kept := make([]string, 0, len(c.ApplicableBadges))
		for _, b := range c.ApplicableBadges {
			if b != badgeID {
				kept = append(kept, b)
			}
		}
		if len(kept) == len(c.ApplicableBadges) {
			continue
		}
		active := c.IsActive && len(kept) > 0
		if _, err := tx.NewUpdate().Model((*model.Coupon)(nil)).Set("applicable_badges = ?", jsonList(kept)).
			Set("is_active = ?", active).Set("updated_at = ?", model.Now()).Where("id = ?", c.ID).Exec(ctx); err != nil {
			return err
		}
		after := map[string]any{"applicableBadges": kept, "isActive": active, "reason": "badge deleted"}
		if err := audit.Write(ctx, tx, actor, "coupon.update", "coupon", c.ID, before, after); err != nil {
			return err
		}
	}
	return nil
}

func jsonList(l []string) string {
	b, _ := json.Marshal(l) // a []string always marshals
	return string(b)
}
