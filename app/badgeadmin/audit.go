package badgeadmin

import (
	"context"
	"encoding/json"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/pagecache"
)

// Audit writes one audit_log entry for an admin change, inside the caller's transaction,
// so that the entry exists exactly when the change does. before and after are the
// target's JSON views (nil is written as null). Used by the badge, quiz and coupon admin.
func Audit(ctx context.Context, db bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	e := &model.AuditEntry{
		ID: model.NewID(), Action: action, TargetType: targetType, TargetID: targetID,
		Before: auditJSON(before), After: auditJSON(after), CreatedAt: model.Now(),
	}
	if actor != nil {
		id := actor.ID
		e.ActorID = &id
		e.ActorEmail = actor.Email
	}
	_, err := db.NewInsert().Model(e).Exec(ctx)
	return err
}

func auditJSON(v any) string {
	if v == nil {
		return "null"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

// CatalogueChanged audits a change to a badge, quiz or question and, in the same
// transaction, marks the catalogue's public pages changed (app/pagecache).
func CatalogueChanged(ctx context.Context, tx bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	if err := pagecache.Bump(ctx, tx, pagecache.Badges); err != nil {
		return err
	}
	return Audit(ctx, tx, actor, action, targetType, targetID, before, after)
}
