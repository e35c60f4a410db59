// Package ratelimit counts requests per key in fixed windows kept in the database, so that
// several instances share one count.
package ratelimit

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// Limiter answers whether another request under key is allowed.
type Limiter struct {
	DB  *bun.DB
	Now func() time.Time
}

// Allow counts one request for key in the current window of length per and reports
// whether the count is still within limit.
func (l *Limiter) Allow(ctx context.Context, key string, limit int, per time.Duration) (bool, error) {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	// window_start is the window's start in unix seconds
	window := now.Truncate(per).Unix()
	var count int
	err := l.DB.NewRaw(`INSERT INTO rate_limits (key, window_start, count) VALUES (?, ?, 1)
ON CONFLICT (key, window_start) DO UPDATE SET count = rate_limits.count + 1 RETURNING count`, key, window).Scan(ctx, &count)
	if err != nil {
		return false, err
	}
	return count <= limit, nil
}

// Sweep deletes windows that started before olderThan ago (called periodically).
func (l *Limiter) Sweep(ctx context.Context, olderThan time.Duration) error {
	_, err := l.DB.NewDelete().Table("rate_limits").Where("window_start < ?", time.Now().Add(-olderThan).Unix()).Exec(ctx)
	return err
}
