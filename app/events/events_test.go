package events_test

import (
	"context"
	"errors"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/events"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// In-transaction subscribers run in the recording transaction (their writes commit or
// roll back with it); after-commit subscribers run only once it committed; a nested
// RunInTx joins the outer one; an unknown type is refused.
func TestSubscribersFollowTheTransaction(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	b := events.New()
	var inTx, after []string
	b.InTx(func(ctx context.Context, tx bun.IDB, e *events.Event) error {
		inTx = append(inTx, e.Type)
		_, err := tx.NewRaw("INSERT INTO page_versions (scope, version) VALUES ('probe', 1) ON CONFLICT (scope) DO UPDATE SET version = page_versions.version + 1").Exec(ctx)
		return err
	}, events.GrantIssued)
	b.AfterCommit(func(e *events.Event) { after = append(after, e.Type) }, events.All)
	b.AfterCommit(func(*events.Event) { panic("a bad subscriber") }, events.BadgeChanged)

	boom := errors.New("boom")
	err := b.RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		if err := b.Record(ctx, tx, events.GrantIssued, "grant", "g1", nil); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) || len(inTx) != 1 || len(after) != 0 {
		t.Fatalf("rollback: %v, in tx %v, after %v", err, inTx, after)
	}
	version := func() int {
		var v int
		_ = d.NewSelect().Table("page_versions").Column("version").Where("scope = 'probe'").Scan(ctx, &v)
		return v
	}
	if version() != 0 {
		t.Fatal("the subscriber's write outlived the rollback")
	}
	err = b.RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		if err := b.Record(ctx, tx, events.GrantIssued, "grant", "g2", map[string]int{"n": 1}); err != nil {
			return err
		}
		if len(after) != 0 {
			t.Fatal("an after-commit subscriber ran before the commit")
		}
		return b.RunInTx(ctx, tx, func(ctx context.Context, tx bun.Tx) error { // nested
			return b.Record(ctx, tx, events.BadgeChanged, "badge", "b1", nil)
		})
	})
	if err != nil || version() != 1 || len(after) != 2 || after[0] != events.GrantIssued || after[1] != events.BadgeChanged {
		t.Fatalf("commit: %v, version %d, after %v", err, version(), after)
	}
	n, err := d.NewSelect().Table("domain_events").Count(ctx)
	if err != nil || n != 2 {
		t.Fatalf("domain_events has %d rows: %v", n, err)
	}
	err = b.RunInTx(ctx, d, func(ctx context.Context, tx bun.Tx) error {
		return b.Record(ctx, tx, "grant.nope", "grant", "g", nil)
	})
	if err == nil {
		t.Fatal("an unknown event type was recorded")
	}
}
