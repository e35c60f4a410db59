package db

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// Listener is what Listen tells as its connection comes and goes.
type Listener struct {
	// Ready runs each time the connection is (again) listening: notifications sent from
	// then on will be delivered, so whatever they keep in step can be read afresh here. An
	// error drops the connection and Listen tries again.
	Ready func(ctx context.Context) error
	// Notify runs for each notification, with its payload, in the order they came.
	Notify func(payload string)
	// Lost runs as soon as the connection fails (or Ready did): notifications may be
	// missed from then until the next Ready.
	Lost func(err error)
	// Idle runs when no notification came for Interval, after the connection answered a
	// ping (a connection dropped without a word is found out then).
	Idle func(ctx context.Context)
	// Interval is how long Listen waits for a notification before pinging (default 1 s).
	Interval time.Duration
}

// Listen holds a connection of its own to the PostgreSQL database at dsn, listening on
// channel (an identifier the caller controls), until ctx ends. A broken connection is
// reported (Lost) and replaced, with a growing pause between attempts (up to 2 s).
func Listen(ctx context.Context, dsn, channel string, l Listener) {
	interval := l.Interval
	if interval <= 0 {
		interval = time.Second
	}
	pause := 50 * time.Millisecond
	for ctx.Err() == nil {
		err := listenOnce(ctx, dsn, channel, interval, l)
		if ctx.Err() != nil {
			return
		}
		if l.Lost != nil {
			l.Lost(err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(pause*2, 2*time.Second)
	}
}

var errNoNotifications = errors.New("db: listen connection ended")

// listenOnce connects, listens and waits for notifications until the connection fails.
func listenOnce(ctx context.Context, dsn, channel string, interval time.Duration, l Listener) error {
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	conn, err := pgx.Connect(cctx, dsn)
	cancel()
	if err != nil {
		return err
	}
	defer func() {
		cctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = conn.Close(cctx)
		cancel()
	}()
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{channel}.Sanitize()); err != nil {
		return err
	}
	if l.Ready != nil {
		if err := l.Ready(ctx); err != nil {
			return err
		}
	}
	for {
		wctx, cancel := context.WithTimeout(ctx, interval)
		n, err := conn.WaitForNotification(wctx)
		cancel()
		switch {
		case err == nil:
			if l.Notify != nil {
				l.Notify(n.Payload)
			}
			continue
		case ctx.Err() != nil:
			return ctx.Err()
		case !errors.Is(err, context.DeadlineExceeded) && !conn.PgConn().IsClosed() && !isTimeout(err):
			return err
		case conn.PgConn().IsClosed():
			return errNoNotifications
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err = conn.Ping(pctx)
		cancel()
		if err != nil {
			return err
		}
		if l.Idle != nil {
			l.Idle(ctx)
		}
	}
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}
