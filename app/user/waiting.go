package user

import (
	"context"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// WaitingForEmail names the badges approved for u whose grant waits for u to confirm the
// address (no credential names an unconfirmed address), oldest approval first; none once
// the address is confirmed.
func WaitingForEmail(ctx context.Context, d bun.IDB, u *model.User) ([]string, error) {
	names := []string{}
	if u == nil || u.EmailVerified() {
		return names, nil
	}
	err := d.NewRaw(`SELECT b.name FROM applications AS a JOIN badges AS b ON b.id = a.badge_id
WHERE a.user_id = ? AND a.status = ? AND NOT EXISTS (SELECT 1 FROM badge_grants AS g WHERE g.application_id = a.id)
ORDER BY a.updated_at, a.id`, u.ID, model.StatusApproved).Scan(ctx, &names)
	return names, err
}
