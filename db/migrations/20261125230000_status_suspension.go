package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// credential_revocations: every status list index that was ever revoked, kept for good
// (issue 36: a W3C Bitstring Status List revocation "is not reversible"). The revocation
// list and the 1EdTech Revocation List are built from it, so restoring a grant never turns
// a published revocation off: the restored grant is signed again under a new index. No
// foreign key: the revocation outlives the grant row.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE credential_revocations (
	idx INTEGER PRIMARY KEY,
	grant_id TEXT NOT NULL,
	public_verification_id TEXT NOT NULL,
	credential_origin TEXT NOT NULL DEFAULT '',
	revoked_at {ts} NOT NULL
)`,
			`INSERT INTO credential_revocations (idx, grant_id, public_verification_id, credential_origin, revoked_at)
SELECT status_index, id, public_verification_id, credential_origin, revoked_at FROM badge_grants
WHERE status_index > 0 AND revoked_at IS NOT NULL`,
		)
	}, noDown)
}
