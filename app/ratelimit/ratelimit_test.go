package ratelimit_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/ratelimit"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestFixedWindowSharedThroughTheDatabase(t *testing.T) {
	d := apptest.OpenDB(t)
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	// two limiters over one database behave like two instances
	a := &ratelimit.Limiter{DB: d, Now: func() time.Time { return now }}
	b := &ratelimit.Limiter{DB: d, Now: func() time.Time { return now }}
	ctx := context.Background()
	var allowed atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			l := a
			if i%2 == 1 {
				l = b
			}
			ok, err := l.Allow(ctx, "login:ip:1.2.3.4", 5, time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				allowed.Add(1)
			}
		}(i)
	}
	wg.Wait()
	if allowed.Load() != 5 {
		t.Fatalf("allowed %d of 20 with limit 5", allowed.Load())
	}
	if ok, _ := a.Allow(ctx, "login:ip:5.6.7.8", 5, time.Minute); !ok {
		t.Fatal("another key was limited")
	}
	now = now.Add(time.Minute)
	if ok, _ := a.Allow(ctx, "login:ip:1.2.3.4", 5, time.Minute); !ok {
		t.Fatal("a new window is still limited")
	}
	if err := a.Sweep(ctx, 0); err != nil {
		t.Fatal(err)
	}
}
