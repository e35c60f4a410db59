package migrations

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
)

// Signed credentials (app/credential), verification (app/verify) and the Hall of Fame
// (app/halloffame):
//
//   - signing_keys: the public half of every issuing key any instance has used, so that
//     each instance serves the whole JWKS and verifies credentials signed elsewhere (the
//     private seeds never enter the database: data/keys or MERITMARK_CREDENTIAL_KEYS).
//   - badge_grants.credential_origin: the public origin the credential's ids were built
//     with when it was signed (MERITMARK_BASE_URL, else the request's origin then).
//   - credential_status_seq and a unique status_index: each credential's index in the
//     revocation list, handed out once (existing grants are numbered here).
//   - hall_of_fame / hall_of_fame_categories: a summary per earner kept by the grant and
//     revoke transactions, so the ranking over a million grants is an index walk.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		pg := d.Dialect().Name().String() == "pg"
		r := strings.NewReplacer("{ts}", pick(pg, "TIMESTAMPTZ", "TIMESTAMP"), "{bool}", pick(pg, "BOOLEAN", "INTEGER"))
		statements := []string{`
CREATE TABLE signing_keys (
	kid TEXT PRIMARY KEY,
	public_key TEXT NOT NULL,
	created_at {ts} NOT NULL
)`,
			`ALTER TABLE badge_grants ADD COLUMN credential_origin TEXT NOT NULL DEFAULT ''`,
			`CREATE TABLE credential_status_seq (
	id INTEGER PRIMARY KEY,
	last_index INTEGER NOT NULL
)`,
			// number the grants that exist, oldest first
			`UPDATE badge_grants SET status_index = s.rn
FROM (SELECT id, ROW_NUMBER() OVER (ORDER BY granted_at, id) AS rn FROM badge_grants) AS s
WHERE badge_grants.id = s.id`,
			`INSERT INTO credential_status_seq (id, last_index) SELECT 1, COALESCE(MAX(status_index), 0) FROM badge_grants`,
			`CREATE UNIQUE INDEX badge_grants_status_index_uq ON badge_grants (status_index) WHERE status_index > 0`,
			`CREATE INDEX badge_grants_user_live_idx ON badge_grants (user_id, revoked_at, granted_at)`, `
CREATE TABLE hall_of_fame (
	user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
	total_badges INTEGER NOT NULL,
	last_earned_at {ts} NOT NULL
)`,
			`CREATE INDEX hall_of_fame_rank_idx ON hall_of_fame (total_badges DESC, last_earned_at DESC, user_id)`,
			`CREATE INDEX hall_of_fame_recent_idx ON hall_of_fame (last_earned_at DESC, user_id)`, `
CREATE TABLE hall_of_fame_categories (
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	category TEXT NOT NULL,
	badges INTEGER NOT NULL,
	PRIMARY KEY (user_id, category)
)`,
			`CREATE INDEX hall_of_fame_categories_cat_idx ON hall_of_fame_categories (category, user_id)`, `
CREATE TABLE hall_of_fame_state (
	id INTEGER PRIMARY KEY,
	categories_signature TEXT NOT NULL
)`,
			`INSERT INTO hall_of_fame_state (id, categories_signature) VALUES (1, '')`,
			`INSERT INTO hall_of_fame (user_id, total_badges, last_earned_at)
SELECT user_id, COUNT(*), MAX(granted_at) FROM badge_grants WHERE revoked_at IS NULL GROUP BY user_id`,
			`INSERT INTO hall_of_fame_categories (user_id, category, badges)
SELECT g.user_id, b.category, COUNT(*) FROM badge_grants g JOIN badges b ON b.id = g.badge_id
WHERE g.revoked_at IS NULL GROUP BY g.user_id, b.category`,
			`CREATE INDEX users_name_lower_idx ON users (lower(name), id)`,
		}
		return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, s := range statements {
				if _, err := tx.ExecContext(ctx, r.Replace(s)); err != nil {
					return fmt.Errorf("%w in: %s", err, firstLine(s))
				}
			}
			if !pg {
				return nil
			}
			// PostgreSQL: a trigram index for the Hall of Fame's search (name, title,
			// company). pg_trgm ships with PostgreSQL, but creating an extension may not be
			// allowed; the search works without the index (it scans), so a refusal is not
			// an error.
			if _, err := tx.ExecContext(ctx, "SAVEPOINT trgm"); err != nil {
				return err
			}
			for _, s := range []string{
				`CREATE EXTENSION IF NOT EXISTS pg_trgm`,
				`CREATE INDEX users_search_trgm_idx ON users USING gin ((lower(name || ' ' || position || ' ' || company)) gin_trgm_ops)`,
			} {
				if _, err := tx.ExecContext(ctx, s); err != nil {
					_, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT trgm")
					return rerr
				}
			}
			_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT trgm")
			return err
		})
	}, noDown)
}
