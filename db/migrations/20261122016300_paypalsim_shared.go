package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// The built-in PayPal simulator's state (app/paypalsim), kept in the database so that
// several instances share one simulated PayPal (an order created through one instance is
// approved and captured through another) and a restart loses no order: its orders (the
// order as JSON, with the capture id for settlement), the answers kept for
// PayPal-Request-Id replays, and its access tokens.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE paypal_sim_orders (
	id TEXT PRIMARY KEY,
	capture_id TEXT UNIQUE,
	data TEXT NOT NULL,
	created_at {ts} NOT NULL,
	updated_at {ts} NOT NULL
)`, `
CREATE TABLE paypal_sim_answers (
	request_key TEXT PRIMARY KEY,
	status INTEGER NOT NULL,
	body TEXT NOT NULL,
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX paypal_sim_answers_created_idx ON paypal_sim_answers (created_at)`, `
CREATE TABLE paypal_sim_tokens (
	token TEXT PRIMARY KEY,
	expires_at {ts} NOT NULL
)`,
			`CREATE INDEX paypal_sim_tokens_expires_idx ON paypal_sim_tokens (expires_at)`)
	}, noDown)
}
