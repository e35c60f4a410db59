package application

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/db"
)

// badgeByID loads a badge (nil when none).
func badgeByID(ctx context.Context, d bun.IDB, id string) (*model.Badge, error) {
	var b model.Badge
	err := d.NewSelect().Model(&b).Where("id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, nil
	}
	return &b, err
}

// ownsBadge reports a live grant (not revoked, not expired, not in its renewal window) of
// the badge to the user.
func ownsBadge(ctx context.Context, d bun.IDB, userID, badgeID string, now time.Time) (bool, error) {
	return d.NewSelect().Model((*model.BadgeGrant)(nil)).
		Where("user_id = ?", userID).Where("badge_id = ?", badgeID).
		Where("revoked_at IS NULL").Where("(expires_at IS NULL OR expires_at > ?)", grant.HeldUntil(now)).
		Exists(ctx)
}

// openApplication is the user's open (awaiting_payment or pending) application for the
// badge, or nil.
func openApplication(ctx context.Context, d bun.IDB, userID, badgeID string) (*model.Application, error) {
	var a model.Application
	err := d.NewSelect().Model(&a).Where("user_id = ?", userID).Where("badge_id = ?", badgeID).
		Where("status IN (?)", bun.List([]string{model.StatusAwaitingPayment, model.StatusPending})).
		OrderExpr("created_at DESC").Limit(1).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, nil
	}
	return &a, err
}

// latestApplication is the user's most recent application for the badge, or nil.
func latestApplication(ctx context.Context, d bun.IDB, userID, badgeID string) (*model.Application, error) {
	var a model.Application
	err := d.NewSelect().Model(&a).Where("user_id = ?", userID).Where("badge_id = ?", badgeID).
		OrderExpr("created_at DESC, id DESC").Limit(1).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, nil
	}
	return &a, err
}

// hasUsedPass reports a passed attempt for the badge that an application already used.
func hasUsedPass(ctx context.Context, d bun.IDB, userID, badgeID string) (bool, error) {
	return d.NewSelect().Model((*model.QuizAttempt)(nil)).Where("user_id = ?", userID).Where("badge_id = ?", badgeID).
		Where("submitted_at IS NOT NULL").Where("passed = ?", true).Where("application_id IS NOT NULL").Exists(ctx)
}

// filesOf loads the files of the applications, by application id, oldest first.
func filesOf(ctx context.Context, d bun.IDB, appIDs ...string) (map[string][]model.ApplicationFile, error) {
	out := map[string][]model.ApplicationFile{}
	if len(appIDs) == 0 {
		return out, nil
	}
	var files []model.ApplicationFile
	if err := d.NewSelect().Model(&files).Where("application_id IN (?)", bun.List(appIDs)).
		OrderExpr("created_at ASC, id ASC").Scan(ctx); err != nil {
		return nil, err
	}
	for _, f := range files {
		out[f.ApplicationID] = append(out[f.ApplicationID], f)
	}
	return out, nil
}

// fileOf loads one file of one application together with the application's owner
// (nil when the pair does not exist).
func fileOf(ctx context.Context, d bun.IDB, appID, fileID string) (*model.ApplicationFile, string, error) {
	var f model.ApplicationFile
	err := d.NewSelect().Model(&f).Where("id = ?", fileID).Where("application_id = ?", appID).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	var owner string
	err = d.NewSelect().Model((*model.Application)(nil)).Column("user_id").Where("id = ?", appID).Scan(ctx, &owner)
	if db.IsNoRows(err) {
		return nil, "", nil
	}
	return &f, owner, err
}

// knownKeys returns which of keys have a file record.
func knownKeys(ctx context.Context, d bun.IDB, keys []string) (map[string]bool, error) {
	known := map[string]bool{}
	for len(keys) > 0 {
		n := min(len(keys), 500)
		var got []string
		if err := d.NewSelect().Model((*model.ApplicationFile)(nil)).Column("storage_key").
			Where("storage_key IN (?)", bun.List(keys[:n])).Scan(ctx, &got); err != nil {
			return nil, err
		}
		for _, k := range got {
			known[k] = true
		}
		keys = keys[n:]
	}
	return known, nil
}
