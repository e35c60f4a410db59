package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Credentials every verifier accepts (app/credential, issue 15):
//
//   - signing_keys.alg: each issuing seed now gives two public keys, the Ed25519 one
//     ("EdDSA": Data Integrity proofs, and the VC-JWTs signed before) and a P-256 one
//     ("ES256": new VC-JWTs); both are recorded so every instance verifies the others'.
//   - badge_grant_credentials: each grant's credential as JSON-LD with its Data Integrity
//     proof (eddsa-rdfc-2022), signed with the VC-JWT in the same transaction (a table of
//     its own, so code reading badge_grants rows is untouched).
//   - credential_status_slots: the status list index of every credential, unique; new
//     indexes are drawn at random (the existing grants keep theirs, recorded here first).
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`ALTER TABLE signing_keys ADD COLUMN alg TEXT NOT NULL DEFAULT 'EdDSA'`,
			`
CREATE TABLE badge_grant_credentials (
	grant_id TEXT PRIMARY KEY REFERENCES badge_grants(id) ON DELETE CASCADE,
	credential_ld TEXT NOT NULL
)`, `
CREATE TABLE credential_status_slots (
	idx INTEGER PRIMARY KEY,
	grant_id TEXT NOT NULL
)`,
			`INSERT INTO credential_status_slots (idx, grant_id) SELECT status_index, id FROM badge_grants WHERE status_index > 0`,
		)
	}, noDown)
}
