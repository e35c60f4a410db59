package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// The mail outbox becomes crash-safe and forgets what it sent: a claimed message carries
// a lease (lease_until) after which a message still 'sending' (its worker died between
// claiming and recording the result) is claimed again; and a sent message keeps only its
// envelope, its body (which may hold a one-time link) is cleared, for the messages
// already sent too.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE outbox ADD COLUMN lease_until {ts}`,
			`UPDATE outbox SET body_text = '', body_html = '' WHERE status = 'sent'`)
	}, noDown)
}
