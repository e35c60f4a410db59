// Package ssr renders React pages to HTML inside a pool of V8 isolates (rogchap.com/v8go).
//
// Rules that keep it fast and bounded (see the architecture doc):
//   - one isolate per worker, created before serving, used by one goroutine at a time
//     (handed out through a buffered channel);
//   - props go in as one JSON string; every value crossing the boundary is released after
//     the render, or memory grows without bound;
//   - a worker is recycled after MaxRenders renders or past MaxHeap bytes of heap;
//   - a watchdog terminates a render that runs past the timeout.
//
// Only this package (and main, which wires it) imports v8go.
package ssr

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	v8 "rogchap.com/v8go"
)

//go:embed all:dist
var dist embed.FS

// BundleName is the server bundle inside dist (built by esbuild.config.mjs).
const BundleName = "dist/server.js"

// Bundle returns the embedded server bundle.
func Bundle() (string, error) {
	b, err := fs.ReadFile(dist, BundleName)
	if err != nil || len(b) == 0 {
		return "", errors.New("ssr: server bundle missing: run `make assets` (node esbuild.config.mjs) before building")
	}
	return string(b), nil
}

// Options tune the pool.
type Options struct {
	Workers int           // isolates; 0 = runtime.NumCPU()
	Timeout time.Duration // longest a render may run; 0 = 2s
	// MaxRenders recycles an isolate after this many renders; 0 = 100,000. A fresh isolate
	// runs its first ~3,000 renders at up to 3x the CPU while V8 optimises the bundle, so a
	// low value costs throughput (5,000 measured 1.3-1.8 ms CPU/render in steady rounds vs
	// 0.8-1.1 ms for 100,000, bench/ssrpool -max-renders); MaxHeap bounds the memory.
	MaxRenders int
	MaxHeap    uint64 // recycle past this much used heap; 0 = 256 MiB
	Source     string // bundle source; "" = the embedded one
	// Observe, when set, is told of each render how long it waited for an isolate and how
	// long it ran there (the metrics' queue wait and render time histograms).
	Observe func(wait, run time.Duration)
}

// Pool is a set of isolates ready to render.
type Pool struct {
	opts     Options
	src      string
	workers  chan *worker
	closed   atomic.Bool
	mu       sync.Mutex // orders Close with isolates given back (put)
	renders  atomic.Int64
	recycled atomic.Int64
	waiting  atomic.Int64 // renders waiting for an isolate
}

type worker struct {
	iso     *v8.Isolate
	ctx     *v8.Context
	render  *v8.Function // __mmRender(page, propsJSON): the HTML
	islands *v8.Function // __mmIslands(): the last render's islands, as JSON
	undef   *v8.Value
	pages   map[string]*v8.Value // page-name strings, made once per isolate
	renders int
}

// ErrTimeout is returned when a render ran past the timeout and was terminated.
var ErrTimeout = errors.New("ssr: render timed out")

// ErrClosed is answered by Render after Close.
var ErrClosed = errors.New("ssr: the render pool is closed")

// New creates the pool and all its isolates (so the first request does not pay for it).
func New(opts Options) (*Pool, error) {
	if opts.Workers <= 0 {
		opts.Workers = runtime.NumCPU()
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 2 * time.Second
	}
	if opts.MaxRenders <= 0 {
		opts.MaxRenders = 100_000
	}
	if opts.MaxHeap == 0 {
		opts.MaxHeap = 256 << 20
	}
	src := opts.Source
	if src == "" {
		var err error
		if src, err = Bundle(); err != nil {
			return nil, err
		}
	}
	p := &Pool{opts: opts, src: src, workers: make(chan *worker, opts.Workers)}
	type res struct {
		w   *worker
		err error
	}
	out := make(chan res, opts.Workers)
	for i := 0; i < opts.Workers; i++ {
		go func() { w, err := p.newWorker(); out <- res{w, err} }()
	}
	var firstErr error
	for i := 0; i < opts.Workers; i++ {
		r := <-out
		if r.err != nil {
			if firstErr == nil {
				firstErr = r.err
			}
			continue
		}
		p.workers <- r.w
	}
	if firstErr != nil {
		p.Close()
		return nil, firstErr
	}
	return p, nil
}

func (p *Pool) newWorker() (*worker, error) {
	iso := v8.NewIsolate()
	ctx := v8.NewContext(iso)
	v, err := ctx.RunScript(p.src, "server.js")
	if err != nil {
		ctx.Close()
		iso.Dispose()
		return nil, fmt.Errorf("ssr: load bundle: %w", err)
	}
	if v != nil {
		v.Release()
	}
	// the promises the bundle settles as it loads (views/lib/deferred.tsx: the parts an
	// island's browser code fetches apart, which the server must hold before a render)
	ctx.PerformMicrotaskCheckpoint()
	fn, err := globalFunc(ctx, "__mmRender")
	if err == nil {
		var islands *v8.Function
		if islands, err = globalFunc(ctx, "__mmIslands"); err == nil {
			return &worker{iso: iso, ctx: ctx, render: fn, islands: islands, undef: v8.Undefined(iso), pages: map[string]*v8.Value{}}, nil
		}
	}
	ctx.Close()
	iso.Dispose()
	return nil, err
}

func globalFunc(ctx *v8.Context, name string) (*v8.Function, error) {
	v, err := ctx.Global().Get(name)
	if err != nil || !v.IsFunction() {
		return nil, errors.New("ssr: bundle does not define globalThis." + name)
	}
	return v.AsFunction()
}

func (w *worker) dispose() {
	w.ctx.Close()
	w.iso.Dispose()
}

// Render renders page with props (JSON) and returns its HTML and the islands it used.
func (p *Pool) Render(ctx context.Context, page string, props []byte) (string, []byte, error) {
	if p.closed.Load() {
		return "", nil, ErrClosed
	}
	var w *worker
	var start time.Time
	if p.opts.Observe != nil {
		start = time.Now()
	}
	select {
	case w = <-p.workers:
	default: // none free: queue
		p.waiting.Add(1)
		select {
		case w = <-p.workers:
			p.waiting.Add(-1)
		case <-ctx.Done():
			p.waiting.Add(-1)
			return "", nil, ctx.Err()
		}
	}
	var got time.Time
	if p.opts.Observe != nil {
		got = time.Now()
	}
	html, islands, err := p.renderOn(w, page, props)
	if p.opts.Observe != nil {
		p.opts.Observe(got.Sub(start), time.Since(got))
	}
	p.renders.Add(1)
	w.renders++
	if errors.Is(err, ErrTimeout) || w.renders >= p.opts.MaxRenders || heapUsed(w.iso) > p.opts.MaxHeap {
		w.dispose()
		p.recycled.Add(1)
		nw, nerr := p.newWorker()
		if nerr != nil {
			slog.Error("ssr: could not replace isolate", "err", nerr)
			// put a slot back by retrying later; never leave the pool empty
			go p.refill()
		} else {
			p.put(nw)
		}
	} else {
		p.put(w)
	}
	if err != nil {
		return "", nil, err
	}
	return html, []byte(islands), nil
}

func (p *Pool) refill() {
	for !p.closed.Load() {
		time.Sleep(time.Second)
		if w, err := p.newWorker(); err == nil {
			p.put(w)
			return
		}
	}
}

// put gives an isolate back to the pool, or disposes of it once the pool is closed (a
// render that was in flight when Close ran).
func (p *Pool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Load() {
		w.dispose()
		return
	}
	p.workers <- w // never blocks: the channel holds every isolate of the pool
}

func heapUsed(iso *v8.Isolate) uint64 { return iso.GetHeapStatistics().UsedHeapSize }

func (p *Pool) renderOn(w *worker, page string, props []byte) (html, islands string, err error) {
	// page names are few and fixed: keep their values for the isolate's life (they are
	// released with its context); only the props and the result are per render
	pageV, ok := w.pages[page]
	if !ok {
		v, err := v8.NewValue(w.iso, page)
		if err != nil {
			return "", "", err
		}
		if len(w.pages) < 256 {
			w.pages[page] = v
		} else {
			defer v.Release()
		}
		pageV = v
	}
	propsV, err := v8.NewValue(w.iso, string(props))
	if err != nil {
		return "", "", err
	}
	defer propsV.Release()

	fired := make(chan struct{})
	watchdog := time.AfterFunc(p.opts.Timeout, func() {
		w.iso.TerminateExecution()
		close(fired)
	})
	res, err := w.render.Call(w.undef, pageV, propsV)
	var isl *v8.Value
	if err == nil {
		isl, err = w.islands.Call(w.undef)
	}
	if !watchdog.Stop() {
		// it fired, or is firing as the render returns: wait until it has terminated
		// this isolate, which is then replaced (ErrTimeout), so the termination can never
		// land on the next render given this isolate
		<-fired
		release(res, isl)
		return "", "", ErrTimeout
	}
	defer release(res, isl)
	if err != nil {
		return "", "", fmt.Errorf("ssr: %s: %w", page, err)
	}
	return res.String(), isl.String(), nil
}

func release(vs ...*v8.Value) {
	for _, v := range vs {
		if v != nil {
			v.Release()
		}
	}
}

// Stats reports renders done and isolates recycled.
func (p *Pool) Stats() (renders, recycled int64) { return p.renders.Load(), p.recycled.Load() }

// Size is the number of isolates the pool keeps.
func (p *Pool) Size() int { return p.opts.Workers }

// Idle is the number of isolates free now.
func (p *Pool) Idle() int { return len(p.workers) }

// Waiting is the number of renders waiting for a free isolate now.
func (p *Pool) Waiting() int { return int(p.waiting.Load()) }

// Close disposes every idle isolate. In-flight renders finish on their own isolates,
// which are then disposed of; a Render after Close answers ErrClosed.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed.Swap(true) {
		return
	}
	for {
		select {
		case w := <-p.workers:
			w.dispose()
		default:
			return
		}
	}
}

// SetFlags sets V8 flags for the process (before the first isolate is made; benchmarks).
func SetFlags(flags ...string) { v8.SetFlags(flags...) }
