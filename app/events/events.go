// Package events is the one seam for what follows a change. A writer records a domain
// event (grant.issued, application.approved, badge.changed, ...) in the same transaction as
// its change, through the Bus it was given; the Bus stores it in domain_events, runs the
// subscribers that must change with it (page versions, the Hall of Fame, webhook
// deliveries) in that transaction, and runs the in-process effects that must not be seen
// before the commit (caches, waking workers) once it has committed. Subscribers are
// registered once, in the wiring (app.New); a writer knows none of them.
package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// The event types. A subscriber or a webhook endpoint names the ones it wants.
const (
	GrantIssued         = "grant.issued"
	GrantRevoked        = "grant.revoked"
	GrantExpiryChanged  = "grant.expiry_changed"
	GrantExpired        = "grant.expired"
	GrantDisplayChanged = "grant.display_changed" // the holder changed what its public page shows (the score)
	ApplicationSubmit   = "application.submitted"
	ApplicationApproved = "application.approved"
	ApplicationRejected = "application.rejected"
	// ApplicationRejectUndone: an admin took back a rejection within its undo window; the
	// application is in review again (a receiver of application.rejected undoes it)
	ApplicationRejectUndone = "application.reject_undone"
	PaymentCaptured         = "payment.captured"
	BadgeChanged            = "badge.changed"
	QuizChanged             = "quiz.changed"
	ProfileChanged          = "profile.changed"
	AwardClaimed            = "award.claimed"
)

// Types lists every event type (webhook endpoints choose among them).
var Types = []string{GrantIssued, GrantRevoked, GrantExpiryChanged, GrantExpired, GrantDisplayChanged, ApplicationSubmit,
	ApplicationApproved, ApplicationRejected, ApplicationRejectUndone, PaymentCaptured, BadgeChanged, QuizChanged, ProfileChanged, AwardClaimed}

// Known reports whether t is an event type.
func Known(t string) bool {
	for _, k := range Types {
		if k == t {
			return true
		}
	}
	return false
}

// Event is one recorded change.
type Event struct {
	bun.BaseModel `bun:"table:domain_events"`

	ID          string          `bun:"id,pk" json:"id"`
	Type        string          `bun:"type" json:"type"`
	SubjectType string          `bun:"subject_type" json:"subjectType"` // grant, application, badge, user, ...
	SubjectID   string          `bun:"subject_id" json:"subjectId"`
	Data        json.RawMessage `bun:"data,type:text" json:"data"`
	CreatedAt   time.Time       `bun:"created_at" json:"timestamp"`
}

// TxHandler follows an event inside the transaction that recorded it: its error rolls
// the change back.
type TxHandler func(ctx context.Context, tx bun.IDB, e *Event) error

// Handler follows an event once its transaction has committed (in this process only).
type Handler func(e *Event)

// Bus dispatches recorded events to the subscribers registered on it.
type Bus struct {
	mu    sync.RWMutex
	inTx  map[string][]TxHandler
	after map[string][]Handler
}

// New makes an empty bus.
func New() *Bus { return &Bus{inTx: map[string][]TxHandler{}, after: map[string][]Handler{}} }

// All is the type name that subscribes to every event.
const All = "*"

// InTx subscribes h, inside the recording transaction, to the given types (or All).
func (b *Bus) InTx(h TxHandler, types ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range types {
		b.inTx[t] = append(b.inTx[t], h)
	}
}

// AfterCommit subscribes h, after the recording transaction commits, to the given types
// (or All).
func (b *Bus) AfterCommit(h Handler, types ...string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, t := range types {
		b.after[t] = append(b.after[t], h)
	}
}

type pendingKey struct{}

// pending are the events a RunInTx recorded, for after its commit, and the bus that ran it.
type pending struct {
	bus    *Bus
	mu     sync.Mutex
	events []*Event
}

// ErrOutsideTx is returned by Record outside RunInTx: an event recorded there could not
// wait for its commit.
var ErrOutsideTx = errors.New("events: Record must run inside Bus.RunInTx")

// RunInTx runs fn in a transaction of d (as bun's RunInTx does); the events fn records
// are followed by their after-commit subscribers once it has committed, and dropped when it
// rolls back. Nested calls join the outer transaction's events.
func (b *Bus) RunInTx(ctx context.Context, d bun.IDB, fn func(ctx context.Context, tx bun.Tx) error) error {
	if _, nested := ctx.Value(pendingKey{}).(*pending); nested {
		return d.RunInTx(ctx, nil, fn)
	}
	if b == nil {
		return d.RunInTx(ctx, nil, dryRun(ctx, fn))
	}
	p := &pending{bus: b}
	err := d.RunInTx(context.WithValue(ctx, pendingKey{}, p), nil, dryRun(ctx, fn))
	if err != nil {
		return err
	}
	b.committed(p.events)
	return nil
}

type dryRunKey struct{}

// ErrDryRun is what RunInTx answers for a transaction of a DryRun context that succeeded:
// everything it did was rolled back and nothing followed it.
var ErrDryRun = errors.New("events: dry run rolled back")

// DryRun marks ctx so that the transactions Bus.RunInTx runs with it are rolled back at
// their end (answering ErrDryRun when they succeeded, or their own error): a preview runs
// the very code of a change, its rules included, and keeps nothing (the admin's bulk
// actions). Only the top transaction is rolled back; a nested one joins it.
func DryRun(ctx context.Context) context.Context { return context.WithValue(ctx, dryRunKey{}, true) }

// IsDryRun reports whether ctx is a DryRun context.
func IsDryRun(ctx context.Context) bool { v, _ := ctx.Value(dryRunKey{}).(bool); return v }

func dryRun(ctx context.Context, fn func(ctx context.Context, tx bun.Tx) error) func(ctx context.Context, tx bun.Tx) error {
	if !IsDryRun(ctx) {
		return fn
	}
	return func(ctx context.Context, tx bun.Tx) error {
		if err := fn(ctx, tx); err != nil {
			return err
		}
		return ErrDryRun
	}
}

func (b *Bus) committed(evs []*Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, e := range evs {
		for _, h := range append(b.after[e.Type], b.after[All]...) {
			func() {
				defer func() {
					if r := recover(); r != nil {
						slog.Error("events: an after-commit subscriber panicked", "type", e.Type, "panic", r)
					}
				}()
				h(e)
			}()
		}
	}
}

// Record records an event through the bus whose RunInTx runs the transaction of ctx: code
// that writes inside a caller's transaction (a grant issued during an approval, a claim,
// a confirmation) records on the caller's bus without being given it. Outside any
// Bus.RunInTx it is an error.
func Record(ctx context.Context, tx bun.IDB, typ, subjectType, subjectID string, data any) error {
	p, ok := ctx.Value(pendingKey{}).(*pending)
	if !ok {
		return fmt.Errorf("%w (%s)", ErrOutsideTx, typ)
	}
	return p.bus.Record(ctx, tx, typ, subjectType, subjectID, data)
}

// Record stores an event of type typ about a subject in tx (which must belong to a
// RunInTx of this bus) and runs its in-transaction subscribers; data is its JSON body
// (ids and what changed, no secrets: webhooks send it).
func (b *Bus) Record(ctx context.Context, tx bun.IDB, typ, subjectType, subjectID string, data any) error {
	p, ok := ctx.Value(pendingKey{}).(*pending)
	if !ok || b == nil {
		return fmt.Errorf("%w (%s)", ErrOutsideTx, typ)
	}
	if !Known(typ) {
		return fmt.Errorf("events: unknown event type %q", typ)
	}
	raw, err := json.Marshal(data)
	if err != nil {
		return fmt.Errorf("events: %s: %w", typ, err)
	}
	if data == nil {
		raw = json.RawMessage("{}")
	}
	e := &Event{ID: "evt_" + model.NewID(), Type: typ, SubjectType: subjectType, SubjectID: subjectID, Data: raw, CreatedAt: model.Now()}
	if _, err := tx.NewInsert().Model(e).Exec(ctx); err != nil {
		return err
	}
	b.mu.RLock()
	hs := append(append([]TxHandler(nil), b.inTx[typ]...), b.inTx[All]...)
	b.mu.RUnlock()
	for _, h := range hs {
		if err := h(ctx, tx, e); err != nil {
			return fmt.Errorf("events: %s: %w", typ, err)
		}
	}
	p.mu.Lock()
	p.events = append(p.events, e)
	p.mu.Unlock()
	return nil
}
