// Package pagetest runs the application with the real V8 renderer and the built assets,
// for the tests that check pages as a browser receives them. Only this package (and ssr,
// main) links V8.
package pagetest

import (
	"sync"
	"testing"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/assets"
	"meritmark/ssr"
)

var (
	poolOnce sync.Once
	pool     *ssr.Pool
	poolErr  error
)

// Pool is the shared isolate pool for this test binary (made once, by whichever of the
// parallel tests asks first).
func Pool(t testing.TB) *ssr.Pool {
	t.Helper()
	poolOnce.Do(func() { pool, poolErr = ssr.New(ssr.Options{Workers: 2}) })
	if poolErr != nil {
		t.Fatalf("ssr pool: %v (run `make assets` first)", poolErr)
	}
	return pool
}

// New starts the application with the real renderer and assets.
func New(t testing.TB, opts ...apptest.Option) *apptest.Env {
	t.Helper()
	p := Pool(t)
	manifest, err := assets.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	return apptest.New(t, append([]apptest.Option{func(d *app.Deps) {
		d.Site.Renderer = p
		d.Site.Assets = manifest
		d.Static = assets.Handler()
	}}, opts...)...)
}
