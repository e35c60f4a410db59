package web_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/model"
	"meritmark/app/web"
)

// countingRenderer renders "<p>page:props</p>" and counts its calls.
type countingRenderer struct {
	calls atomic.Int64
	fail  bool
}

func (r *countingRenderer) Render(_ context.Context, page string, props []byte) (string, []byte, error) {
	r.calls.Add(1)
	if r.fail {
		return "", nil, errors.New("boom")
	}
	return "<p>" + page + ":" + string(props) + "</p>", []byte(`[]`), nil
}

func TestRenderCacheReusesOnlyIdenticalProps(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	next := &countingRenderer{}
	rc := web.NewRenderCache(16, 1<<20, time.Minute)

	h1, _, err := rc.Render(ctx, next, "HomePage", []byte(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	h2, isl, err := rc.Render(ctx, next, "HomePage", []byte(`{"a":1}`))
	if err != nil || h2 != h1 || string(isl) != `[]` {
		t.Fatalf("second render = %q %q %v, want the first %q", h2, isl, err, h1)
	}
	if n := next.calls.Load(); n != 1 {
		t.Fatalf("renderer called %d times for identical props, want 1", n)
	}
	// one byte of difference in the props, or another page: a new render
	if h, _, _ := rc.Render(ctx, next, "HomePage", []byte(`{"a":2}`)); h != `<p>HomePage:{"a":2}</p>` {
		t.Fatalf("changed props rendered %q", h)
	}
	if h, _, _ := rc.Render(ctx, next, "AboutPage", []byte(`{"a":1}`)); h != `<p>AboutPage:{"a":1}</p>` {
		t.Fatalf("another page rendered %q", h)
	}
	if n := next.calls.Load(); n != 3 {
		t.Fatalf("renderer called %d times, want 3", n)
	}
	hits, misses, entries, _ := rc.Stats()
	if hits != 1 || misses != 3 || entries != 3 {
		t.Fatalf("stats hits=%d misses=%d entries=%d, want 1 3 3", hits, misses, entries)
	}
}

func TestRenderCacheExpiresAndIsBounded(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	next := &countingRenderer{}
	rc := web.NewRenderCache(4, 1<<20, 30*time.Millisecond)
	props := []byte(`{"x":true}`)
	rc.Render(ctx, next, "P", props)
	time.Sleep(50 * time.Millisecond)
	rc.Render(ctx, next, "P", props)
	if n := next.calls.Load(); n != 2 {
		t.Fatalf("an expired entry was reused (%d renders, want 2)", n)
	}

	rc = web.NewRenderCache(4, 1<<20, time.Minute)
	for i := 0; i < 50; i++ {
		rc.Render(ctx, next, "P", []byte(fmt.Sprintf(`{"i":%d}`, i)))
	}
	if _, _, entries, _ := rc.Stats(); entries != 4 {
		t.Fatalf("%d entries kept, want at most 4", entries)
	}

	// the byte bound: each entry is ~1 KB, 3 KB allow two
	rc = web.NewRenderCache(100, 3000, time.Minute)
	big := strings.Repeat("y", 400)
	for i := 0; i < 10; i++ {
		rc.Render(ctx, next, "P", []byte(fmt.Sprintf(`{"i":%d,"s":"%s"}`, i, big)))
	}
	if _, _, entries, size := rc.Stats(); size > 3000 || entries > 3 {
		t.Fatalf("%d entries, %d bytes kept, over the 3000 byte bound", entries, size)
	}
}

func TestRenderCacheDoesNotKeepFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	next := &countingRenderer{fail: true}
	rc := web.NewRenderCache(4, 1<<20, time.Minute)
	for i := 0; i < 2; i++ {
		if _, _, err := rc.Render(ctx, next, "P", []byte(`{}`)); err == nil {
			t.Fatal("a failed render answered no error")
		}
	}
	if n := next.calls.Load(); n != 2 {
		t.Fatalf("a failure was cached (%d renders, want 2)", n)
	}
}

func TestRenderCacheConcurrentUse(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	next := &countingRenderer{}
	rc := web.NewRenderCache(8, 1<<20, time.Minute)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				props := []byte(fmt.Sprintf(`{"k":%d}`, i%12))
				h, _, err := rc.Render(ctx, next, "P", props)
				if err != nil || h != "<p>P:"+string(props)+"</p>" {
					t.Errorf("render of %s = %q, %v", props, h, err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// Site.Document uses the cache for visitors only: a signed-in member's render (their
// name is in the shell) is never kept or reused.
func TestSiteCachesVisitorRendersOnly(t *testing.T) {
	t.Parallel()
	next := &countingRenderer{}
	site := &web.Site{Renderer: next, Cache: web.NewRenderCache(16, 1<<20, time.Minute)}
	app := fiber.New()
	app.Use(func(c fiber.Ctx) error {
		if c.Get("X-Test-User") != "" {
			web.SetViewer(c, &model.User{ID: "u1", Name: c.Get("X-Test-User"), Role: model.RoleUser})
		}
		return c.Next()
	})
	app.Get("/p", func(c fiber.Ctx) error {
		return site.Render(c, "HomePage", fiber.Map{"q": c.Query("q")}, web.Meta{Title: "Home"})
	})
	get := func(path, user string) string {
		t.Helper()
		req := httptest.NewRequest("GET", path, nil)
		if user != "" {
			req.Header.Set("X-Test-User", user)
		}
		resp, err := app.Test(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, resp.StatusCode)
		}
		b, _ := io.ReadAll(resp.Body)
		return string(b)
	}

	a := get("/p", "")
	b := get("/p", "")
	if a != b || next.calls.Load() != 1 {
		t.Fatalf("two visitor views of one page rendered %d times (want 1) or differ", next.calls.Load())
	}
	get("/p?q=x", "")
	if next.calls.Load() != 2 {
		t.Fatalf("other props were served from the cache")
	}
	m1 := get("/p", "Ada")
	m2 := get("/p", "Ada")
	if next.calls.Load() != 4 {
		t.Fatalf("signed-in renders: %d renderer calls in all, want 4 (members are never cached)", next.calls.Load())
	}
	if !strings.Contains(m1, "Ada") || m1 != m2 {
		t.Fatalf("the member's page lacks their name")
	}
	if strings.Contains(get("/p", ""), "Ada") {
		t.Fatal("a visitor got a member's render")
	}
}
