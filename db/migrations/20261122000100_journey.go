package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// The journey's tables: quiz attempts, applications and their files, orders, payments,
// coupons and redemptions, grants, the audit log, webhook events.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE quiz_attempts (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	quiz_id TEXT NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE CASCADE,
	layout TEXT NOT NULL,
	answers TEXT NOT NULL DEFAULT '{}',
	started_at {ts} NOT NULL,
	deadline {ts} NOT NULL,
	submitted_at {ts},
	correct_count INTEGER NOT NULL DEFAULT 0,
	total INTEGER NOT NULL DEFAULT 0,
	score DOUBLE PRECISION NOT NULL DEFAULT 0,
	passing_score INTEGER NOT NULL DEFAULT 70,
	passed {bool} NOT NULL DEFAULT FALSE,
	application_id TEXT
)`,
			`CREATE INDEX quiz_attempts_user_badge_idx ON quiz_attempts (user_id, badge_id, started_at)`, `
CREATE TABLE applications (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE RESTRICT,
	type TEXT NOT NULL,
	status TEXT NOT NULL,
	payment_status TEXT NOT NULL DEFAULT 'pending',
	full_name TEXT NOT NULL DEFAULT '',
	email TEXT NOT NULL DEFAULT '',
	position TEXT NOT NULL DEFAULT '',
	linkedin TEXT NOT NULL DEFAULT '',
	portfolio TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '',
	quiz_attempt_id TEXT REFERENCES quiz_attempts(id) ON DELETE SET NULL,
	quiz_score DOUBLE PRECISION,
	price_cents BIGINT NOT NULL DEFAULT 0,
	payment_id TEXT,
	payment_completed_at {ts},
	reviewed_at {ts},
	reviewed_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	rejection_reason TEXT NOT NULL DEFAULT '',
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`,
			`CREATE INDEX applications_user_badge_idx ON applications (user_id, badge_id, created_at)`,
			`CREATE INDEX applications_status_idx ON applications (status, created_at)`,
			// one open application per user and badge
			`CREATE UNIQUE INDEX applications_open_uq ON applications (user_id, badge_id) WHERE status IN ('awaiting_payment', 'pending')`, `
CREATE TABLE application_files (
	id TEXT PRIMARY KEY,
	application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
	kind TEXT NOT NULL,
	storage_key TEXT NOT NULL UNIQUE,
	original_name TEXT NOT NULL,
	content_type TEXT NOT NULL,
	size BIGINT NOT NULL,
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX application_files_app_idx ON application_files (application_id)`, `
CREATE TABLE coupons (
	id TEXT PRIMARY KEY,
	code TEXT NOT NULL UNIQUE,
	name TEXT NOT NULL DEFAULT '',
	description TEXT NOT NULL DEFAULT '',
	discount_type TEXT NOT NULL,
	discount_value BIGINT NOT NULL,
	minimum_cents BIGINT NOT NULL DEFAULT 0,
	maximum_discount_cents BIGINT,
	usage_limit INTEGER,
	used_count INTEGER NOT NULL DEFAULT 0,
	valid_from {ts} NOT NULL,
	valid_until {ts} NOT NULL,
	is_active {bool} NOT NULL DEFAULT TRUE,
	applicable_badges TEXT NOT NULL DEFAULT '[]',
	applicable_categories TEXT NOT NULL DEFAULT '[]',
	created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`, `
CREATE TABLE payment_orders (
	order_id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE CASCADE,
	amount_cents BIGINT NOT NULL,
	original_cents BIGINT NOT NULL,
	discount_cents BIGINT NOT NULL,
	currency TEXT NOT NULL DEFAULT 'USD',
	coupon_id TEXT REFERENCES coupons(id) ON DELETE SET NULL,
	coupon_code TEXT NOT NULL DEFAULT '',
	status TEXT NOT NULL DEFAULT 'created',
	request_id TEXT NOT NULL UNIQUE,
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`,
			`CREATE INDEX payment_orders_app_idx ON payment_orders (application_id)`, `
CREATE TABLE payments (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE CASCADE,
	provider TEXT NOT NULL,
	order_id TEXT UNIQUE,
	capture_id TEXT UNIQUE,
	transaction_id TEXT NOT NULL,
	status TEXT NOT NULL,
	amount_cents BIGINT NOT NULL,
	original_cents BIGINT NOT NULL,
	discount_cents BIGINT NOT NULL DEFAULT 0,
	currency TEXT NOT NULL DEFAULT 'USD',
	coupon_id TEXT REFERENCES coupons(id) ON DELETE SET NULL,
	coupon_code TEXT NOT NULL DEFAULT '',
	created_at {ts} NOT NULL,
	completed_at {ts}
)`,
			`CREATE INDEX payments_app_idx ON payments (application_id)`,
			`CREATE INDEX payments_created_idx ON payments (created_at)`, `
CREATE TABLE coupon_redemptions (
	id TEXT PRIMARY KEY,
	coupon_id TEXT NOT NULL REFERENCES coupons(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	application_id TEXT NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
	payment_id TEXT REFERENCES payments(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	UNIQUE (coupon_id, user_id, application_id)
)`, `
CREATE TABLE badge_grants (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	badge_id TEXT NOT NULL REFERENCES badges(id) ON DELETE RESTRICT,
	application_id TEXT UNIQUE REFERENCES applications(id) ON DELETE SET NULL,
	verification_id TEXT NOT NULL UNIQUE,
	public_verification_id TEXT NOT NULL UNIQUE,
	status_index INTEGER NOT NULL DEFAULT 0,
	granted_at {ts} NOT NULL,
	expires_at {ts},
	revoked_at {ts},
	revocation_reason TEXT NOT NULL DEFAULT '',
	credential_jwt TEXT NOT NULL DEFAULT '',
	granted_by TEXT REFERENCES users(id) ON DELETE SET NULL
)`,
			`CREATE INDEX badge_grants_user_idx ON badge_grants (user_id, granted_at)`,
			`CREATE INDEX badge_grants_badge_idx ON badge_grants (badge_id)`, `
CREATE TABLE audit_log (
	id TEXT PRIMARY KEY,
	actor_id TEXT REFERENCES users(id) ON DELETE SET NULL,
	actor_email TEXT NOT NULL DEFAULT '',
	action TEXT NOT NULL,
	target_type TEXT NOT NULL,
	target_id TEXT NOT NULL,
	before TEXT NOT NULL DEFAULT 'null',
	after TEXT NOT NULL DEFAULT 'null',
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX audit_log_created_idx ON audit_log (created_at)`, `
CREATE TABLE password_resets (
	id TEXT PRIMARY KEY,
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	expires_at {ts} NOT NULL,
	used_at {ts},
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX password_resets_user_idx ON password_resets (user_id)`, `
CREATE TABLE webhook_events (
	id TEXT PRIMARY KEY,
	type TEXT NOT NULL,
	received_at {ts} NOT NULL
)`)
	}, noDown)
}
