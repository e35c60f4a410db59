package user

import (
	"context"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// grants lists the user's badge grants with their badges, newest first; revoked grants
// only withRevoked (they are no longer the holder's badges, but the holder's own profile
// shows them as revoked). Every member's page with their badges reads them (the profile,
// the nav's badges), so the two forms are prepared.
func grants(ctx context.Context, d bun.IDB, userID string, withRevoked bool) ([]grantRow, error) {
	var rows []grantRow
	i := 0
	if withRevoked {
		i = 1
	}
	err := grantsStmts[i].Scan(ctx, d, &rows, grantsSQL[i], userID)
	return rows, err
}

// grantsSQL is grants' read: [0] without the revoked grants, [1] with them.
var grantsSQL = [2]string{grantsRead(" AND g.revoked_at IS NULL"), grantsRead("")}

// grantsStmts hold grantsSQL prepared (for one database at a time: tests open several).
var grantsStmts [2]db.Prepared

func grantsRead(revoked string) string {
	return `SELECT g.id, g.badge_id, b.name, b.category, b.icon, b.color, b.type AS badge_type, b.is_active AS badge_active,
	g.granted_at, g.expires_at, g.revoked_at, g.previous_grant_id, g.verification_id, g.public_verification_id, g.hide_score
FROM badge_grants AS g JOIN badges AS b ON b.id = g.badge_id
WHERE g.user_id = ?` + revoked + `
ORDER BY g.granted_at DESC, g.id`
}

// findUser loads a user by id (db.ErrNotFound when there is none).
func findUser(ctx context.Context, d bun.IDB, id string) (*model.User, error) {
	var u model.User
	if err := d.NewSelect().Model(&u).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, db.ErrNotFound
		}
		return nil, err
	}
	return &u, nil
}

// updateProfile writes the editable details. The email and role are not among them.
func updateProfile(ctx context.Context, d bun.IDB, id string, p ProfileInput) error {
	_, err := d.NewUpdate().Model((*model.User)(nil)).
		Set("name = ?", p.Name).Set("position = ?", p.Position).Set("linkedin = ?", p.LinkedIn).
		Set("portfolio = ?", p.Portfolio).Set("updated_at = ?", model.Now()).
		Where("id = ?", id).Exec(ctx)
	return err
}

// swapPicture sets the user's picture key from old to key, only if it still is old
// (compare-and-swap, so two uploads at once cannot both delete the same old file and
// leave the other's file orphaned).
func swapPicture(ctx context.Context, d bun.IDB, id, old, key string) (bool, error) {
	res, err := d.NewUpdate().Model((*model.User)(nil)).
		Set("profile_pic_key = ?", key).Set("updated_at = ?", model.Now()).
		Where("id = ? AND profile_pic_key = ?", id, old).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
