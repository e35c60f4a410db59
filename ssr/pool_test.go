package ssr

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

const homeProps = `{"shell":{"user":null,"path":"/","origin":"http://localhost:8080","supportEmail":"support@meritmark.example"},"page":{}}`

func newPool(t *testing.T, o Options) *Pool {
	t.Helper()
	p, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func TestRendersTheHomePageWithItsIslands(t *testing.T) {
	p := newPool(t, Options{Workers: 1})
	html, islands, err := p.Render(context.Background(), "HomePage", []byte(homeProps))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html, "Discover Badges") || !strings.Contains(html, `data-island="Header"`) {
		t.Fatalf("home page HTML lacks its content: %.300s", html)
	}
	if !strings.Contains(string(islands), `"n":"Header"`) {
		t.Fatalf("islands %s", islands)
	}
}

func TestUnknownPageAndBadPropsAreErrorsNotCrashes(t *testing.T) {
	p := newPool(t, Options{Workers: 1})
	if _, _, err := p.Render(context.Background(), "NoSuchPage", []byte(homeProps)); err == nil {
		t.Fatal("unknown page rendered")
	}
	if _, _, err := p.Render(context.Background(), "HomePage", []byte(`{not json`)); err == nil {
		t.Fatal("bad props rendered")
	}
	if _, _, err := p.Render(context.Background(), "HomePage", []byte(homeProps)); err != nil {
		t.Fatalf("pool broken after errors: %v", err)
	}
}

func TestConcurrentRendersShareThePool(t *testing.T) {
	p := newPool(t, Options{Workers: 2})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			html, _, err := p.Render(context.Background(), "HomePage", []byte(homeProps))
			if err == nil && !strings.Contains(html, "Discover Badges") {
				err = errors.New("bad html")
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, _ := p.Stats(); n != 40 {
		t.Fatalf("renders counted %d", n)
	}
}

const loopBundle = `globalThis.__mmRender = function (page, json) {
  if (page === 'loop') { for (;;) {} }
  if (page === 'throw') { throw new Error('boom') }
  return '[]\n<p>' + page + '</p>';
};`

func TestWatchdogTerminatesARunawayRender(t *testing.T) {
	p := newPool(t, Options{Workers: 1, Timeout: 100 * time.Millisecond, Source: loopBundle})
	start := time.Now()
	_, _, err := p.Render(context.Background(), "loop", []byte("{}"))
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("runaway render: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("watchdog took %v", d)
	}
	html, _, err := p.Render(context.Background(), "ok", []byte("{}"))
	if err != nil || html != "<p>ok</p>" {
		t.Fatalf("after a terminated render: %q %v", html, err)
	}
	if _, recycled := p.Stats(); recycled != 1 {
		t.Fatalf("the terminated isolate was not replaced: recycled=%d", recycled)
	}
	if _, _, err := p.Render(context.Background(), "throw", []byte("{}")); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("a throwing render: %v", err)
	}
}

func TestIsolatesAreRecycledAfterMaxRenders(t *testing.T) {
	p := newPool(t, Options{Workers: 1, MaxRenders: 3, Source: loopBundle})
	for i := 0; i < 10; i++ {
		if _, _, err := p.Render(context.Background(), "ok", []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	if _, recycled := p.Stats(); recycled != 3 {
		t.Fatalf("recycled %d isolates over 10 renders with MaxRenders 3, want 3", recycled)
	}
}

func TestRenderWaitsForAFreeIsolateOrTheContext(t *testing.T) {
	p := newPool(t, Options{Workers: 1, Timeout: time.Second, Source: loopBundle})
	go p.Render(context.Background(), "loop", []byte("{}")) //nolint:errcheck
	time.Sleep(20 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, _, err := p.Render(ctx, "ok", []byte("{}")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the context's deadline while the only isolate is busy, got %v", err)
	}
}

func BenchmarkRenderHome(b *testing.B) {
	p, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	props := []byte(homeProps)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := p.Render(context.Background(), "HomePage", props); err != nil {
				b.Fatal(err)
			}
		}
	})
}
