package pagecache_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"meritmark/app/apptest"
	. "meritmark/app/pagecache"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// A request never takes the versions of a read that started before it: with readers
// hammering the shared read, every read begun after a bump committed sees the bump.
func TestSharedReadSeesEveryEarlierCommit(t *testing.T) {
	d := apptest.OpenDB(t)
	pc := New(d, nil)
	ctx := context.Background()
	var stop atomic.Bool
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				if _, err := pc.ReadVersions(ctx); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := 0; i < 40; i++ {
		if err := Bump(ctx, d, Grants); err != nil {
			t.Fatal(err)
		}
		want, err := Read(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		var inner sync.WaitGroup
		for j := 0; j < 4; j++ {
			inner.Add(1)
			go func() {
				defer inner.Done()
				got, err := pc.ReadVersions(ctx)
				if err != nil {
					t.Error(err)
					return
				}
				if got[Grants] < want[Grants] {
					t.Errorf("bump %d: a later read saw grants version %d, want >= %d", i, got[Grants], want[Grants])
				}
			}()
		}
		inner.Wait()
	}
	stop.Store(true)
	wg.Wait()
}
