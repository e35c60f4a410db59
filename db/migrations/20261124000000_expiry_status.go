package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// badge_grants.expiry_in_status: the grant's expiry was set or brought forward after its
// credential was first signed, so copies downloaded before carry a later validUntil (or
// none); once expires_at passes, the status lists mark the credential (app/verify,
// expirystatus.go) so those copies fail status checks too.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `ALTER TABLE badge_grants ADD COLUMN expiry_in_status {bool} NOT NULL DEFAULT FALSE`)
	}, noDown)
}
