package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Account security (issue 16): verified e-mail addresses, sign-in throttling that spares
// owners (known devices), a forced first password change, and TOTP two-factor with
// recovery codes.
//
// Existing administrators count as verified (they were created by the operator); existing
// members verify through the resend link before a new grant is issued to them.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE users ADD COLUMN email_verified_at {ts}`,
			`ALTER TABLE users ADD COLUMN must_change_password {bool} NOT NULL DEFAULT FALSE`,
			`ALTER TABLE users ADD COLUMN totp_secret TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE users ADD COLUMN totp_enabled_at {ts}`,
			`ALTER TABLE users ADD COLUMN totp_last_step BIGINT NOT NULL DEFAULT 0`,
			`UPDATE users SET email_verified_at = created_at WHERE role = 'admin'`, `
CREATE TABLE email_verifications (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	expires_at {ts} NOT NULL,
	used_at {ts},
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX email_verifications_user_idx ON email_verifications (user_id)`, `
CREATE TABLE login_throttle (
	key TEXT PRIMARY KEY,
	failures INTEGER NOT NULL,
	locked_until {ts},
	updated_at {ts} NOT NULL
)`, `
CREATE TABLE login_devices (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	kind TEXT NOT NULL,
	created_at {ts} NOT NULL,
	last_used_at {ts} NOT NULL
)`,
			`CREATE INDEX login_devices_user_idx ON login_devices (user_id)`, `
CREATE TABLE mfa_recovery_codes (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	used_at {ts},
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX mfa_recovery_codes_user_idx ON mfa_recovery_codes (user_id)`, `
CREATE TABLE mfa_challenges (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	ip TEXT NOT NULL DEFAULT '',
	user_agent TEXT NOT NULL DEFAULT '',
	failures INTEGER NOT NULL DEFAULT 0,
	expires_at {ts} NOT NULL,
	created_at {ts} NOT NULL
)`)
	}, noDown)
}
