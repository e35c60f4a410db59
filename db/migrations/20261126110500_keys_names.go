package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Issue 36, items 6 and 10:
//   - signing_keys.retired_at: `meritmark rotate-key --retire KID` took the key out of the
//     JWKS and the DID document; what it signed no longer verifies;
//   - badge_grants.revocation_category: the category the administrator chose for a
//     revocation (app/grant RevocationCategories); the public verification shows only its
//     label, never the free text of revocation_reason;
//   - users.name_in_credentials: the holder's choice that new credentials name them (an
//     unhashed IdentityObject of type "name" beside the hashed e-mail address).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE signing_keys ADD COLUMN retired_at {ts}`,
			`ALTER TABLE badge_grants ADD COLUMN revocation_category TEXT NOT NULL DEFAULT ''`,
			`ALTER TABLE users ADD COLUMN name_in_credentials {bool} NOT NULL DEFAULT FALSE`,
		)
	}, noDown)
}
