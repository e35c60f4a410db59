package pagecache_test

import (
	"context"
	"io"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

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

// Requests that miss the same page at the same versions while it renders share its one
// render: after a write, a popular page is not rendered once per waiting visitor.
func TestConcurrentMissesRenderOnce(t *testing.T) {
	pc := New(apptest.OpenDB(t), func(fiber.Ctx) string { return "http://meritmark.test" })
	var calls atomic.Int32
	release := make(chan struct{})
	app := fiber.New()
	app.Get("/hall-of-fame", pc.Wrap([]Scope{Grants}, func(c fiber.Ctx) error {
		calls.Add(1)
		<-release
		c.Set("Content-Type", "text/html; charset=utf-8")
		return c.SendString("<!doctype html><p>standings</p>")
	}))
	get := func() (int, string) {
		res, err := app.Test(httptest.NewRequest("GET", "/hall-of-fame", nil), fiber.TestConfig{Timeout: 10 * time.Second})
		if err != nil {
			t.Error(err)
			return 0, ""
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	var wg sync.WaitGroup
	bodies := make([]string, 8)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if st, b := get(); st == 200 {
				bodies[i] = b
			}
		}()
		if i == 0 {
			for calls.Load() == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}
	time.Sleep(200 * time.Millisecond) // the others arrive while the first renders
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("8 concurrent misses rendered the page %d times, want once", n)
	}
	for i, b := range bodies {
		if b != "<!doctype html><p>standings</p>" {
			t.Errorf("request %d got %q", i, b)
		}
	}
	// a write since: the next request renders again
	if err := Bump(context.Background(), pc.DB, Grants); err != nil {
		t.Fatal(err)
	}
	get()
	if n := calls.Load(); n != 2 {
		t.Fatalf("after a write the page was rendered %d times in all, want 2", n)
	}
}
