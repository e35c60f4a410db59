package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Undo of a rejection and an administrator's change of a member's e-mail (issue 37, items 4
// and 5):
//   - outbox.not_before: a message is not sent before then (NULL: at once); a rejection's
//     mail waits for the few seconds its undo is offered;
//   - applications.undo_status / undo_mail_id: the status a rejection from review replaced
//     and its waiting mail, so that an undo can restore the one and withdraw the other;
//   - users.pending_email, email_change_hash, email_change_expires_at: a new address an
//     administrator set, waiting for its owner to follow the link mailed to it (SHA-256 of
//     the token); the address changes only then.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE outbox ADD COLUMN not_before {ts}`,
			`ALTER TABLE applications ADD COLUMN undo_status TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE applications ADD COLUMN undo_mail_id TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE users ADD COLUMN pending_email TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE users ADD COLUMN email_change_hash TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE users ADD COLUMN email_change_expires_at {ts}`,
		)
	}, noDown)
}
