package db

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"

	"meritmark/db/migrations"
)

// advisory lock key for migrations on PostgreSQL ("meritmrk" as an int64).
const migrateLockKey = 0x6d657269746d726b

// Migrate brings the schema up to date. On PostgreSQL it holds an advisory lock for the
// whole run, so several instances started together migrate once and the others wait
// (bun/migrate's own lock is a row that fails rather than waits).
func Migrate(ctx context.Context, d *bun.DB) error {
	if EngineOf(d) == Postgres {
		conn, err := d.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock(?)", int64(migrateLockKey)); err != nil {
			return fmt.Errorf("migration lock: %w", err)
		}
		defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(?)", int64(migrateLockKey)) //nolint:errcheck
	}
	m := migrate.NewMigrator(d, migrations.Migrations, migrate.WithMarkAppliedOnSuccess(true))
	if err := m.Init(ctx); err != nil {
		return fmt.Errorf("migration init: %w", err)
	}
	group, err := m.Migrate(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if !group.IsZero() {
		slog.Info("migrated", "group", group.ID, "migrations", len(group.Migrations))
	}
	return nil
}

var _ = sql.ErrNoRows
