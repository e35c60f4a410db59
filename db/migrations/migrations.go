// Package migrations holds the schema history as timestamped Go files
// (YYYYMMDDHHMMSS_name.go, as bun/migrate requires). Each feature adds its own file.
//
// SQL is written once for both engines; Exec rewrites the few type tokens that differ:
//
//	{ts}   TIMESTAMP (SQLite, stored as UTC text) / TIMESTAMPTZ (PostgreSQL)
//	{bool} INTEGER (SQLite) / BOOLEAN (PostgreSQL)
//	{blob} BLOB / BYTEA
package migrations

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

// Migrations is the registry every migration file adds itself to.
var Migrations = migrate.NewMigrations()

// Exec runs each statement in one transaction, after rewriting the type tokens for the engine.
func Exec(ctx context.Context, d *bun.DB, statements ...string) error {
	pg := d.Dialect().Name().String() == "pg"
	r := strings.NewReplacer("{ts}", pick(pg, "TIMESTAMPTZ", "TIMESTAMP"), "{bool}", pick(pg, "BOOLEAN", "INTEGER"),
		"{blob}", pick(pg, "BYTEA", "BLOB"))
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, s := range statements {
			if _, err := tx.ExecContext(ctx, r.Replace(s)); err != nil {
				return fmt.Errorf("%w in: %s", err, firstLine(s))
			}
		}
		return nil
	})
}

func pick(pg bool, a, b string) string {
	if pg {
		return a
	}
	return b
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i > 0 {
		return s[:i]
	}
	return s
}

// noDown is used where rolling back is not supported.
func noDown(context.Context, *bun.DB) error { return nil }
