package pagecache_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	. "meritmark/app/pagecache"
	"meritmark/db"
)

// openTwice opens one fresh database through two pools (as two processes would), and its
// URL for a LISTEN connection (PostgreSQL).
func openTwice(t *testing.T) (a, b *bun.DB, dsn string) {
	t.Helper()
	ctx := context.Background()
	if apptest.Engine() == "postgres" {
		dsn = apptest.NewPostgresDatabase(t, true)
	} else {
		dsn = "sqlite:" + filepath.Join(t.TempDir(), "pc.db")
	}
	var err error
	if a, err = db.Open(ctx, dsn, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	if db.EngineOf(a) == db.SQLite {
		if err := db.Migrate(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	if b, err = db.Open(ctx, dsn, ""); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b, dsn
}

// eventually polls cond for up to 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 5 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The versions a watching cache serves come from memory, and a write committed through
// another pool (another process, another instance) shows in them: at once on SQLite, on
// PostgreSQL as soon as its notification arrives.
func TestWatchedVersionsFollowOtherWriters(t *testing.T) {
	ctx := context.Background()
	a, b, dsn := openTwice(t)
	pc := New(a, nil)
	pc.Watch(dsn)
	t.Cleanup(pc.Close)
	if _, err := pc.ReadVersions(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the cache keeps the versions in memory", pc.Live)
	for i := range 20 {
		if err := Bump(ctx, b, Grants); err != nil {
			t.Fatal(err)
		}
		want, err := Read(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		if db.EngineOf(a) == db.SQLite {
			got, err := pc.ReadVersions(ctx)
			if err != nil || got != want {
				t.Fatalf("write %d: versions %v (%v), want %v", i, got, err, want)
			}
			continue
		}
		eventually(t, "the notification of a write", func() bool {
			got, err := pc.ReadVersions(ctx)
			return err == nil && got == want
		})
	}
}

// On PostgreSQL, a LISTEN connection that drops (its backend terminated) sends requests
// back to reading the versions until it listens again: no write in between is missed.
func TestDroppedListenConnectionFallsBackToReads(t *testing.T) {
	if apptest.Engine() != "postgres" {
		t.Skip("LISTEN/NOTIFY is PostgreSQL's")
	}
	ctx := context.Background()
	a, b, dsn := openTwice(t)
	pc := New(a, nil)
	pc.Watch(dsn)
	t.Cleanup(pc.Close)
	if _, err := pc.ReadVersions(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "listening", pc.Live)
	// the next bumps send no notification this cache can receive: it must not trust memory
	var n int
	if err := b.NewRaw(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = current_database() AND query LIKE 'LISTEN%'`).Scan(ctx, &n); err != nil || n != 1 {
		t.Fatalf("terminated %d listening backends (%v)", n, err)
	}
	eventually(t, "the drop noticed", func() bool { return !pc.Live() })
	for range 3 {
		if err := Bump(ctx, b, Badges); err != nil {
			t.Fatal(err)
		}
		want, _ := Read(ctx, b)
		if got, err := pc.ReadVersions(ctx); err != nil || got != want {
			t.Fatalf("after the drop: versions %v (%v), want %v", got, err, want)
		}
	}
	// it reconnects, reads afresh and follows notifications again
	eventually(t, "listening again", pc.Live)
	if err := Bump(ctx, b, Profiles); err != nil {
		t.Fatal(err)
	}
	want, _ := Read(ctx, b)
	eventually(t, "a write after the reconnection", func() bool {
		got, err := pc.ReadVersions(ctx)
		return err == nil && got == want
	})
}
