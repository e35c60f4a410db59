package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Bulk actions and awards from a CSV (issue 37 items 2 and 3):
//   - audit_log.batch_id: the bulk action an entry belongs to (one entry per item);
//   - badge_awards: the recipient's name, the credential's expiry chosen by the issuer
//     (NULL: the badge's own validity), the CSV batch, when the link was last sent and how
//     often, and a withdrawal (the claim link stops working; the row stays in the register).
//     The one-open-award-per-address index now ignores withdrawn awards.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE audit_log ADD COLUMN batch_id TEXT`,
			`CREATE INDEX audit_log_batch_idx ON audit_log (batch_id) WHERE batch_id IS NOT NULL`,
			`ALTER TABLE badge_awards ADD COLUMN name TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE badge_awards ADD COLUMN grant_expires_at {ts}`,
			`ALTER TABLE badge_awards ADD COLUMN batch_id TEXT`,
			`ALTER TABLE badge_awards ADD COLUMN sent_count INTEGER NOT NULL DEFAULT 1`,
			`ALTER TABLE badge_awards ADD COLUMN last_sent_at {ts}`,
			`ALTER TABLE badge_awards ADD COLUMN withdrawn_at {ts}`,
			`ALTER TABLE badge_awards ADD COLUMN withdrawn_by TEXT`,
			`UPDATE badge_awards SET last_sent_at = created_at`,
			`DROP INDEX badge_awards_open_uq`,
			`CREATE UNIQUE INDEX badge_awards_open_uq ON badge_awards (email, badge_id) WHERE claimed_at IS NULL AND withdrawn_at IS NULL`,
			`CREATE INDEX badge_awards_created_idx ON badge_awards (created_at, id)`,
		)
	}, noDown)
}
