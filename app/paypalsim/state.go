package paypalsim

import (
	"context"
	"errors"
	"sync"
	"time"
)

// state keeps what the simulator knows: orders, the answers kept for PayPal-Request-Id
// replays, and access tokens. memState keeps them in this process (New); dbState in the
// database (NewShared), so that every instance of the server sees one simulated PayPal.
type state interface {
	// atomic runs fn with exclusive access to the orders and answers it touches, across
	// every process sharing the state; an error from fn undoes its writes.
	atomic(ctx context.Context, fn func(tx stateTx) error) error
	putToken(ctx context.Context, token string, expires time.Time) error
	// tokenExpiry answers when token expires (ok false for an unknown token).
	tokenExpiry(ctx context.Context, token string) (exp time.Time, ok bool, err error)
	revokeTokens(ctx context.Context) error
}

// stateTx is the view of the state inside atomic. Orders are values: a change is kept
// only by putOrder.
type stateTx interface {
	order(id string) (*order, error)                 // nil when unknown
	orderByCapture(captureID string) (*order, error) // nil when unknown
	putOrder(o *order) error
	answer(key string) (*stored, error) // nil when none is kept
	// putAnswer keeps the answer for key; false when one is kept already (another process
	// answered the same request first).
	putAnswer(key string, st stored) (bool, error)
}

// errAnswered rolls back an operation whose request id was answered meanwhile.
var errAnswered = errors.New("paypalsim: request answered concurrently")

// idemKeep is how long answers are kept for PayPal-Request-Id replays (PayPal: 6 hours
// by default); older ones are dropped once many are kept.
const idemKeep = 6 * time.Hour

func cloneOrder(o *order) *order {
	if o == nil {
		return nil
	}
	c := *o
	if o.Capture != nil {
		cp := *o.Capture
		c.Capture = &cp
	}
	return &c
}

// memState is the state of one process.
type memState struct {
	mu       sync.Mutex
	tokens   map[string]time.Time
	orders   map[string]*order
	idem     map[string]stored // request id + path -> first answer
	captures map[string]string // capture id -> order id
}

func newMemState() *memState {
	return &memState{tokens: map[string]time.Time{}, orders: map[string]*order{}, idem: map[string]stored{}, captures: map[string]string{}}
}

func (m *memState) atomic(_ context.Context, fn func(tx stateTx) error) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	// one lock for everything: nothing can race, so fn never needs undoing
	return fn(memTx{m})
}

func (m *memState) putToken(_ context.Context, token string, expires time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	for t, exp := range m.tokens { // forget expired tokens
		if now.After(exp) {
			delete(m.tokens, t)
		}
	}
	m.tokens[token] = expires
	return nil
}

func (m *memState) tokenExpiry(_ context.Context, token string) (time.Time, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	exp, ok := m.tokens[token]
	return exp, ok, nil
}

func (m *memState) revokeTokens(context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.tokens = map[string]time.Time{}
	return nil
}

type memTx struct{ m *memState }

func (t memTx) order(id string) (*order, error) { return cloneOrder(t.m.orders[id]), nil }

func (t memTx) orderByCapture(captureID string) (*order, error) {
	id, ok := t.m.captures[captureID]
	if !ok {
		return nil, nil
	}
	return cloneOrder(t.m.orders[id]), nil
}

func (t memTx) putOrder(o *order) error {
	t.m.orders[o.ID] = cloneOrder(o)
	if o.Capture != nil {
		t.m.captures[o.Capture.ID] = o.ID
	}
	return nil
}

func (t memTx) answer(key string) (*stored, error) {
	st, ok := t.m.idem[key]
	if !ok {
		return nil, nil
	}
	return &st, nil
}

func (t memTx) putAnswer(key string, st stored) (bool, error) {
	if _, ok := t.m.idem[key]; ok {
		return false, nil
	}
	if len(t.m.idem) >= 10000 {
		for k, old := range t.m.idem {
			if st.at.Sub(old.at) > idemKeep {
				delete(t.m.idem, k)
			}
		}
	}
	t.m.idem[key] = st
	return true, nil
}
