package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// users.deleted_at: the member deleted the account (app/account). The row stays as an
// anonymised tombstone because payments, applications and badge grants reference it
// (ON DELETE CASCADE would erase the accounting records and the revoked grants that
// verifiers must still see as revoked); everything personal in it is cleared.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `ALTER TABLE users ADD COLUMN deleted_at {ts}`)
	}, noDown)
}
