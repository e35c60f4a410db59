package verify

import (
	"sync"
	"time"

	"meritmark/app/pagecache"
)

// LimitBurst and LimitRate size each client's bucket: 30 lookups at once, then one every
// two seconds (tests lower them).
var (
	LimitBurst = 30.0
	LimitRate  = 0.5
)

// Limiter is an in-memory token bucket per client IP for verification lookups: Burst
// lookups at once, refilled at Rate per second. Verification is a hot public path, so
// it is kept out of the database; each instance counts its own clients.
//
// Only lookups that reach the database cost a token (an unknown or malformed id, or a
// credential not in the cache): the limit is there to stop ids being guessed, and an id
// answered from the cache was already found by someone. When a client has no token left
// every lookup is refused with 429 until the bucket refills.
type Limiter struct {
	Burst float64
	Rate  float64 // tokens per second

	mu      sync.Mutex
	buckets map[string]*bucket
	now     func() time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

// NewLimiter makes a limiter.
func NewLimiter(burst, perSecond float64) *Limiter {
	return &Limiter{Burst: burst, Rate: perSecond, buckets: map[string]*bucket{}, now: time.Now}
}

func (l *Limiter) refill(ip string, now time.Time) *bucket {
	b := l.buckets[ip]
	if b == nil {
		if len(l.buckets) >= 100_000 { // forget full buckets first: they are the default
			for k, v := range l.buckets {
				if v.tokens+now.Sub(v.last).Seconds()*l.Rate >= l.Burst {
					delete(l.buckets, k)
				}
			}
		}
		b = &bucket{tokens: l.Burst, last: now}
		l.buckets[ip] = b
		return b
	}
	b.tokens += now.Sub(b.last).Seconds() * l.Rate
	if b.tokens > l.Burst {
		b.tokens = l.Burst
	}
	b.last = now
	return b
}

// Has reports whether ip has a token left (without taking it).
func (l *Limiter) Has(ip string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.refill(ip, l.now()).tokens >= 1
}

// Take takes one token from ip's bucket (it may go below one: the next Has says no).
func (l *Limiter) Take(ip string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.refill(ip, l.now())
	if b.tokens > 0 {
		b.tokens--
	}
	if b.tokens < 0 {
		b.tokens = 0
	}
}

// entry is one grant's verification, as last computed.
type entry struct {
	grantID     string
	userID      string // the holder
	fingerprint string // the record it was computed from
	result      Result // VerificationID left empty: it is the id as entered
	publicID    string
	checkedAt   time.Time          // when the record was last compared with the database
	checkedVer  pagecache.Versions // the page cache's versions then (zero outside it)
}

// cache holds verification results by grant, and which grant each id names. Entries are
// trusted for Fresh after the record was compared with the database (revokes and expiry
// changes made on this instance drop them at once; other instances' within Fresh).
type cache struct {
	mu      sync.RWMutex
	byGrant map[string]*entry
	byID    map[string]string // normalized id -> grant id
	max     int
}

func newCache(max int) *cache {
	return &cache{byGrant: map[string]*entry{}, byID: map[string]string{}, max: max}
}

// lookup returns the entry an id names, if cached.
func (c *cache) lookup(id string) *entry {
	c.mu.RLock()
	defer c.mu.RUnlock()
	g, ok := c.byID[id]
	if !ok {
		return nil
	}
	return c.byGrant[g]
}

func (c *cache) put(id string, e *entry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.byGrant) >= c.max || len(c.byID) >= 4*c.max {
		// drop about a quarter, in map order (random enough for a cache)
		n := 0
		for k := range c.byGrant {
			delete(c.byGrant, k)
			if n++; n >= c.max/4+1 {
				break
			}
		}
		n = 0
		for k := range c.byID {
			delete(c.byID, k)
			if n++; n >= c.max+1 {
				break
			}
		}
	}
	c.byGrant[e.grantID] = e
	c.byID[id] = e.grantID
}

// touch marks an entry as compared with the database now.
func (c *cache) touch(e *entry, now time.Time, ver pagecache.Versions) {
	c.mu.Lock()
	e.checkedAt, e.checkedVer = now, ver
	c.mu.Unlock()
}

// checkedSame reports whether e was last compared with the database at versions that
// agree with ver on what its verify page shows (pageScopes).
func (c *cache) checkedSame(e *entry, ver *pagecache.Versions) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return e.checkedVer.Same(ver, pageScopes(e.userID)...)
}

// pageScopes are the page cache scopes a holder's verify page (and result) shows: the
// badges, the issuer's keys and the holder's own grants and profile.
func pageScopes(userID string) []pagecache.Scope {
	return []pagecache.Scope{pagecache.Badges, pagecache.Keys, pagecache.Holder(userID)}
}

func (c *cache) fresh(e *entry, now time.Time, ttl time.Duration) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return now.Sub(e.checkedAt) < ttl
}

// drop forgets a grant's entry (its ids stay mapped: they never change).
func (c *cache) drop(grantID string) {
	c.mu.Lock()
	delete(c.byGrant, grantID)
	c.mu.Unlock()
}
