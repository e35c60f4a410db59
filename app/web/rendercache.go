package web

import (
	"bytes"
	"context"
	"hash/maphash"
	"sync"
	"sync/atomic"
	"time"
)

// RenderCache keeps recent server renders of pages for visitors. A render is a pure
// function of the page name and its props (the handler has already read the database and
// put everything the page shows into the props), so when a request produces the very same
// props again, byte for byte, the HTML is the same and V8 need not run: the data stays as
// fresh as the handler's queries. Only signed-out renders are kept (Site.Document decides),
// so the many one-off renders of signed-in members do not push out the hot public pages.
//
// Entries also expire after TTL, which bounds anything a page computes from the clock
// while rendering; the cache holds at most MaxEntries renders and MaxBytes of HTML and
// props, evicting an arbitrary entry when full.
type RenderCache struct {
	MaxEntries int
	MaxBytes   int
	TTL        time.Duration

	seed    maphash.Seed
	mu      sync.Mutex
	entries map[uint64]*renderEntry
	bytes   int

	hits, misses atomic.Int64
}

type renderEntry struct {
	page    string
	props   []byte
	html    string
	islands []byte
	expires time.Time
}

func (e *renderEntry) size() int {
	return len(e.page) + len(e.props) + len(e.html) + len(e.islands) + 64
}

// NewRenderCache makes a cache of at most entries renders and maxBytes bytes, each kept
// for ttl.
func NewRenderCache(entries, maxBytes int, ttl time.Duration) *RenderCache {
	return &RenderCache{MaxEntries: entries, MaxBytes: maxBytes, TTL: ttl, seed: maphash.MakeSeed(), entries: map[uint64]*renderEntry{}}
}

// Render answers from the cache when page was rendered with exactly these props less
// than TTL ago, else renders with next and keeps the result.
func (rc *RenderCache) Render(ctx context.Context, next Renderer, page string, props []byte) (string, []byte, error) {
	var h maphash.Hash
	h.SetSeed(rc.seed)
	h.WriteString(page)
	h.WriteByte(0)
	h.Write(props)
	key := h.Sum64()
	now := time.Now()

	rc.mu.Lock()
	if e := rc.entries[key]; e != nil {
		if e.page == page && bytes.Equal(e.props, props) && now.Before(e.expires) {
			html, islands := e.html, e.islands
			rc.mu.Unlock()
			rc.hits.Add(1)
			return html, islands, nil
		}
		rc.remove(key, e)
	}
	rc.mu.Unlock()
	rc.misses.Add(1)

	html, islands, err := next.Render(ctx, page, props)
	if err != nil {
		return html, islands, err
	}
	e := &renderEntry{page: page, props: append([]byte(nil), props...), html: html, islands: islands, expires: now.Add(rc.TTL)}
	if e.size() > rc.MaxBytes/4 {
		return html, islands, nil // too big to be worth a quarter of the cache
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if old := rc.entries[key]; old != nil {
		rc.remove(key, old)
	}
	for len(rc.entries) > 0 && (len(rc.entries) >= rc.MaxEntries || rc.bytes+e.size() > rc.MaxBytes) {
		for k, victim := range rc.entries { // map order is random: an arbitrary victim
			rc.remove(k, victim)
			break
		}
	}
	rc.entries[key] = e
	rc.bytes += e.size()
	return html, islands, nil
}

func (rc *RenderCache) remove(key uint64, e *renderEntry) {
	delete(rc.entries, key)
	rc.bytes -= e.size()
}

// Stats reports hits and misses so far, and the entries and bytes held.
func (rc *RenderCache) Stats() (hits, misses int64, entries, size int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return rc.hits.Load(), rc.misses.Load(), len(rc.entries), rc.bytes
}
