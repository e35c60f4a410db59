// Package outbox is the leased work queue behind the mail outbox (app/mail) and webhook
// deliveries (app/webhook): rows are written in the transaction that causes them, and
// workers on every instance claim them with a lease in one conditional update each, so
// exactly one claims a row, and a claim left by a crash lapses and is taken again.
package outbox

import (
	"context"
	"log/slog"
	"time"

	"github.com/uptrace/bun"
)

// Lapsed is the condition of a row whose claim has lapsed at the time bound to its ?.
const Lapsed = "(status = 'sending' AND (lease_until IS NULL OR lease_until < ?))"

// Claim takes up to limit rows of table matching cond (with args) for this worker: each
// becomes 'sending' with attempts + 1 and a lease until until, by an update that checks
// cond again, so that of several workers exactly one claims a row. id answers a row's id.
// The claimed rows are answered as they were read; the caller sets what the update set.
func Claim[T any](ctx context.Context, d bun.IDB, table, cond string, args []any, order string, limit int,
	until time.Time, id func(*T) string) ([]T, error) {
	var cands []T
	if err := d.NewSelect().Model(&cands).Where(cond, args...).Order(order).Limit(int64(limit)).Scan(ctx); err != nil {
		return nil, err
	}
	var claimed []T
	for i := range cands {
		res, err := d.NewUpdate().Table(table).Set("status = 'sending'").Set("attempts = attempts + 1").
			Set("lease_until = ?", until).Where("id = ?", id(&cands[i])).Where(cond, args...).Exec(ctx)
		if err != nil {
			return claimed, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue // another worker claimed it first
		}
		claimed = append(claimed, cands[i])
	}
	return claimed, nil
}

// Kicker wakes a worker's loop now rather than at its next tick.
type Kicker chan struct{}

// NewKicker makes a kicker.
func NewKicker() Kicker { return make(Kicker, 1) }

// Kick wakes the loop (never blocks; kicks while it works are folded into one).
func (k Kicker) Kick() {
	select {
	case k <- struct{}{}:
	default:
	}
}

// Loop calls flush until ctx ends: at once, then every interval and whenever kicked.
func Loop(ctx context.Context, name string, interval time.Duration, kick Kicker, flush func(context.Context) error) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if err := flush(ctx); err != nil && ctx.Err() == nil {
			slog.Warn(name, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-kick:
		}
	}
}
