package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// secret_fingerprints: a fingerprint (HMAC-SHA256 of a fixed label keyed with the secret,
// truncated; never the secret) of each secret the instances of one database must share,
// written by the first instance to start (db.RecordSecretFingerprints). An instance with
// another secret logs an error naming the setting; `meritmark check` reports it.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `CREATE TABLE secret_fingerprints (
	name TEXT PRIMARY KEY,
	fingerprint TEXT NOT NULL,
	created_at {ts} NOT NULL
)`)
	}, noDown)
}
