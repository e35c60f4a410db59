package obapi

import (
	"context"
	"sort"

	"github.com/uptrace/bun"
)

// EndGrants ends every wallet grant of userID inside tx: the consents (connected apps)
// and every authorization code, access and refresh token issued to any app for them. It
// answers the names of the apps that were connected (sorted, each once), so the caller
// can tell the member. app/auth calls it when the account changes hands or proves its
// address: a password reset, a password change and the address's first confirmation
// (an app connected before then may have been connected by someone else).
func EndGrants(ctx context.Context, tx bun.IDB, userID string) ([]string, error) {
	var names []string
	if err := tx.NewRaw(`SELECT DISTINCT c.name FROM oauth_clients c
WHERE c.id IN (SELECT client_id FROM oauth_consents WHERE user_id = ?)
   OR c.id IN (SELECT client_id FROM oauth_tokens WHERE user_id = ?)`, userID, userID).Scan(ctx, &names); err != nil {
		return nil, err
	}
	if _, err := tx.NewDelete().Model((*consentRow)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return nil, err
	}
	if _, err := tx.NewDelete().Model((*tokenRow)(nil)).Where("user_id = ?", userID).Exec(ctx); err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}
