package audit_test

import (
	"context"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/audit"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func entries(t *testing.T, env *apptest.Env, targetID string) []model.AuditEntry {
	t.Helper()
	var es []model.AuditEntry
	if err := env.DB.NewSelect().Model(&es).Where("target_id = ?", targetID).Order("created_at").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return es
}

func TestWriteRecordsTheEntry(t *testing.T) {
	env := apptest.New(t)
	ctx := context.Background()
	admin := env.CreateUser("boss@x.io", "password123", model.RoleAdmin)
	if err := audit.Write(ctx, env.DB, admin, "badge.update", "badge", "b1", nil, map[string]any{"name": "Go"}); err != nil {
		t.Fatal(err)
	}
	if err := audit.Write(ctx, env.DB, nil, "grant.expiry", "badge", "b1", []string{"a"}, nil); err != nil {
		t.Fatal(err)
	}
	es := entries(t, env, "b1")
	if len(es) != 2 {
		t.Fatalf("%d entries, want 2", len(es))
	}
	e := es[0]
	apptest.Expect(t, "entry", e,
		apptest.Eq("e.Action", e.Action, "badge.update"),
		apptest.Eq("e.TargetType", e.TargetType, "badge"),
		apptest.Eq("e.Before", e.Before, "null"),
		apptest.Eq("e.After", e.After, `{"name":"Go"}`),
		apptest.True("e.ActorID != nil", e.ActorID != nil))
	apptest.Expect(t, "entry", e,
		apptest.Eq("*e.ActorID", *e.ActorID, admin.ID),
		apptest.Eq("e.ActorEmail", e.ActorEmail, "boss@x.io"))
	if e := es[1]; e.ActorID != nil || e.ActorEmail != "" || e.Before != `["a"]` || e.After != "null" {
		t.Fatalf("system entry %+v", e)
	}
}

// A view that cannot be marshalled is an error (never a silent "null"), and the caller's
// transaction then keeps nothing.
func TestWriteRefusesAnUnmarshallableView(t *testing.T) {
	env := apptest.New(t)
	ctx := context.Background()
	for _, tc := range []struct{ before, after any }{{func() {}, nil}, {nil, make(chan int)}} {
		err := env.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if err := audit.Write(ctx, tx, nil, "coupon.update", "coupon", "c1", nil, nil); err != nil {
				t.Fatal(err)
			}
			return audit.Write(ctx, tx, nil, "coupon.update", "coupon", "c1", tc.before, tc.after)
		})
		if err == nil {
			t.Fatalf("before %T after %T: no error", tc.before, tc.after)
		}
	}
	if es := entries(t, env, "c1"); len(es) != 0 {
		t.Fatalf("%d entries kept after the failed writes", len(es))
	}
}

// A save that changed nothing (the same object, apart from updatedAt) writes no entry;
// creations, deletions and snapshot-less actions always do.
func TestWriteSkipsAnUnchangedSave(t *testing.T) {
	env := apptest.New(t)
	ctx := context.Background()
	same := map[string]any{"name": "Go", "updatedAt": "2026-01-01"}
	later := map[string]any{"name": "Go", "updatedAt": "2026-01-02"}
	for _, tc := range []struct {
		before, after any
	}{{same, later}, {nil, same}, {same, nil}, {nil, nil}, {same, map[string]any{"name": "Rust", "updatedAt": "2026-01-02"}}} {
		if err := audit.Write(ctx, env.DB, nil, "badge.update", "badge", "b1", tc.before, tc.after); err != nil {
			t.Fatal(err)
		}
	}
	if es := entries(t, env, "b1"); len(es) != 4 {
		t.Fatalf("%d entries, want 4 (all but the unchanged save)", len(es))
	}
}
