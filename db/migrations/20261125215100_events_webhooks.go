package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// domain_events: every change that others follow (app/events), recorded in the change's
// transaction. webhook_endpoints and webhook_deliveries: outbound webhooks
// (app/webhook): a delivery is queued in the causing transaction and sent by a leased
// worker with retries.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE domain_events (
	id TEXT PRIMARY KEY,
	type TEXT NOT NULL,
	subject_type TEXT NOT NULL,
	subject_id TEXT NOT NULL,
	data TEXT NOT NULL,
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX domain_events_created_idx ON domain_events (created_at)`,
			`CREATE INDEX domain_events_subject_idx ON domain_events (subject_type, subject_id)`, `
CREATE TABLE webhook_endpoints (
	id TEXT PRIMARY KEY,
	url TEXT NOT NULL,
	description TEXT NOT NULL DEFAULT '',
	events TEXT NOT NULL,
	secret TEXT NOT NULL,
	paused_at {ts},
	failing_since {ts},
	created_by TEXT REFERENCES users(id) ON DELETE SET NULL,
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`, `
CREATE TABLE webhook_deliveries (
	id TEXT PRIMARY KEY,
	endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
	event_id TEXT NOT NULL,
	event_type TEXT NOT NULL,
	payload TEXT NOT NULL,
	status TEXT NOT NULL,
	attempts INTEGER NOT NULL DEFAULT 0,
	next_attempt_at {ts} NOT NULL,
	lease_until {ts},
	response_code INTEGER NOT NULL DEFAULT 0,
	last_error TEXT NOT NULL DEFAULT '',
	duration_ms INTEGER NOT NULL DEFAULT 0,
	created_at {ts} NOT NULL,
	delivered_at {ts}
)`,
			`CREATE UNIQUE INDEX webhook_deliveries_once ON webhook_deliveries (endpoint_id, event_id)`,
			`CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at)`,
			`CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at)`)
	}, noDown)
}
