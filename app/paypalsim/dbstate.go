package paypalsim

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"sync/atomic"
	"time"

	"github.com/uptrace/bun"

	"meritmark/db"
)

// NewShared makes a simulator whose orders, replay answers and tokens live in the
// database d (tables paypal_sim_*): every server instance on the same database is one
// simulated PayPal account, so an order created through one instance can be approved and
// captured through another, and a restart (even a crash) loses nothing PayPal would have
// kept. Concurrent captures of one order from several instances capture it once: each
// operation runs in one transaction holding the order's row.
func NewShared(clientID, secret, webhookID string, d *bun.DB) *Sim {
	s := New(clientID, secret, webhookID)
	s.state = &dbState{db: d}
	return s
}

type simOrderRow struct {
	bun.BaseModel `bun:"table:paypal_sim_orders"`

	ID        string    `bun:"id,pk"`
	CaptureID *string   `bun:"capture_id"`
	Data      string    `bun:"data"`
	CreatedAt time.Time `bun:"created_at"`
	UpdatedAt time.Time `bun:"updated_at"`
}

type simAnswerRow struct {
	bun.BaseModel `bun:"table:paypal_sim_answers"`

	RequestKey string    `bun:"request_key,pk"`
	Status     int       `bun:"status"`
	Body       string    `bun:"body"`
	CreatedAt  time.Time `bun:"created_at"`
}

type simTokenRow struct {
	bun.BaseModel `bun:"table:paypal_sim_tokens"`

	Token     string    `bun:"token,pk"`
	ExpiresAt time.Time `bun:"expires_at"`
}

type dbState struct {
	db     *bun.DB
	issued atomic.Int64 // tokens issued by this process (old rows are swept now and then)
}

func (d *dbState) atomic(ctx context.Context, fn func(tx stateTx) error) error {
	return d.db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		return fn(&dbTx{ctx: ctx, tx: tx})
	})
}

func (d *dbState) putToken(ctx context.Context, token string, expires time.Time) error {
	if _, err := d.db.NewInsert().Model(&simTokenRow{Token: token, ExpiresAt: expires.UTC()}).Exec(ctx); err != nil {
		return err
	}
	if d.issued.Add(1)%50 == 1 { // sweep expired tokens and old answers now and then
		now := time.Now().UTC()
		if _, err := d.db.NewDelete().Model((*simTokenRow)(nil)).Where("expires_at < ?", now).Exec(ctx); err != nil {
			return err
		}
		if _, err := d.db.NewDelete().Model((*simAnswerRow)(nil)).Where("created_at < ?", now.Add(-idemKeep)).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (d *dbState) tokenExpiry(ctx context.Context, token string) (time.Time, bool, error) {
	var row simTokenRow
	err := d.db.NewSelect().Model(&row).Where("token = ?", token).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return time.Time{}, false, nil
	}
	if err != nil {
		return time.Time{}, false, err
	}
	return row.ExpiresAt, true, nil
}

func (d *dbState) revokeTokens(ctx context.Context) error {
	_, err := d.db.NewDelete().Model((*simTokenRow)(nil)).Where("1 = 1").Exec(ctx)
	return err
}

type dbTx struct {
	ctx context.Context
	tx  bun.Tx
}

// lockedOrder reads one order row, locking it on PostgreSQL until the transaction ends
// (SQLite transactions here are IMMEDIATE: one writer at a time already).
func (t *dbTx) lockedOrder(where string, arg any) (*order, error) {
	var row simOrderRow
	err := db.ForUpdate(t.tx, t.tx.NewSelect().Model(&row).Where(where, arg)).Scan(t.ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	o := new(order)
	if err := json.Unmarshal([]byte(row.Data), o); err != nil {
		return nil, err
	}
	return o, nil
}

func (t *dbTx) order(id string) (*order, error) { return t.lockedOrder("id = ?", id) }

func (t *dbTx) orderByCapture(captureID string) (*order, error) {
	return t.lockedOrder("capture_id = ?", captureID)
}

func (t *dbTx) putOrder(o *order) error {
	data, err := json.Marshal(o)
	if err != nil {
		return err
	}
	row := &simOrderRow{ID: o.ID, Data: string(data), CreatedAt: o.CreatedAt.UTC(), UpdatedAt: time.Now().UTC()}
	if o.Capture != nil {
		id := o.Capture.ID
		row.CaptureID = &id
	}
	_, err = t.tx.NewInsert().Model(row).
		On("CONFLICT (id) DO UPDATE").Set("data = EXCLUDED.data").Set("capture_id = EXCLUDED.capture_id").Set("updated_at = EXCLUDED.updated_at").
		Exec(t.ctx)
	return err
}

func (t *dbTx) answer(key string) (*stored, error) {
	var row simAnswerRow
	err := t.tx.NewSelect().Model(&row).Where("request_key = ?", key).Scan(t.ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &stored{status: row.Status, body: []byte(row.Body), at: row.CreatedAt}, nil
}

func (t *dbTx) putAnswer(key string, st stored) (bool, error) {
	res, err := t.tx.NewInsert().Model(&simAnswerRow{RequestKey: key, Status: st.status, Body: string(st.body), CreatedAt: st.at.UTC()}).
		On("CONFLICT (request_key) DO NOTHING").Exec(t.ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
