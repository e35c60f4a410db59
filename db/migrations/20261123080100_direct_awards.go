package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Direct awards (app/award): an admin awards a badge to an e-mail address; the person
// gets a single-use claim link (only the token's SHA-256 is stored) and the credential is
// issued once they sign in with that address and claim it.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE badge_awards (
	id TEXT PRIMARY KEY,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE CASCADE,
	email TEXT NOT NULL,
	token_hash TEXT NOT NULL UNIQUE,
	note TEXT NOT NULL DEFAULT '',
	created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	expires_at {ts} NOT NULL,
	claimed_at {ts},
	claimed_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	grant_id TEXT REFERENCES badge_grants(id) ON DELETE SET NULL
)`,
			`CREATE INDEX badge_awards_email_idx ON badge_awards (email, badge_id)`,
			`CREATE UNIQUE INDEX badge_awards_open_uq ON badge_awards (email, badge_id) WHERE claimed_at IS NULL`)
	}, noDown)
}
