package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// users.disabled_at: an operator disabled the account (`meritmark disable-user`): it cannot
// sign in, its sessions and wallet tokens are gone, and enable-user clears it.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `ALTER TABLE users ADD COLUMN disabled_at {ts}`)
	}, noDown)
}
