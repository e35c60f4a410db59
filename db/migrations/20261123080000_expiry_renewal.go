package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Expiry and renewal (app/renewal):
//   - badges.valid_months: a badge's validity period in months (NULL = valid_days, or
//     never expires); a grant's expires_at is set from it at issue;
//   - badge_grants.previous_grant_id: a renewed grant is a new credential that links to
//     the grant it renews (the verify page shows the chain);
//   - expiry_notices: one row per (grant, kind) — the 30- and 7-day reminders and the
//     expiry itself — claimed in the same transaction that queues the mail, so each is
//     sent once however many instances sweep.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE badges ADD COLUMN valid_months INTEGER`,
			`ALTER TABLE badge_grants ADD COLUMN previous_grant_id TEXT REFERENCES badge_grants(id) ON DELETE SET NULL`,
			`CREATE INDEX badge_grants_previous_idx ON badge_grants (previous_grant_id)`,
			`CREATE INDEX IF NOT EXISTS badge_grants_expires_idx ON badge_grants (expires_at)`, `
CREATE TABLE expiry_notices (
	grant_id TEXT NOT NULL REFERENCES badge_grants(id) ON DELETE CASCADE,
	kind TEXT NOT NULL,
	created_at {ts} NOT NULL,
	PRIMARY KEY (grant_id, kind)
)`)
	}, noDown)
}
