package app

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"time"

	"github.com/gofiber/fiber/v3"
)

// Drain is how Serve stops once its context is done (SIGTERM): Delay is how long /readyz
// answers 503 while requests are still accepted (a load balancer's health check sees it and
// sends no more); Timeout bounds how long the requests accepted by then may take to finish.
type Drain struct {
	Delay   time.Duration
	Timeout time.Duration
	// Force, when it receives, skips what is left of Delay (a second signal).
	Force <-chan struct{}
}

// Serve answers requests on ln until ctx is done, then drains: /readyz turns 503, the
// listener stays open for d.Delay, then closes, and Serve returns once every request in
// flight (a download, an upload, a sign-in) has finished, or d.Timeout has passed.
func (a *App) Serve(ctx context.Context, ln net.Listener, d Drain) error {
	served := make(chan error, 1)
	go func() { served <- a.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true}) }()
	select {
	case err := <-served: // the listener failed on its own
		return err
	case <-ctx.Done():
	}
	start := time.Now()
	a.draining.Store(true)
	slog.Info("shutting down: /readyz answers 503, then the listener closes", "delay", d.Delay.String(), "timeout", d.Timeout.String())
	if d.Delay > 0 {
		t := time.NewTimer(d.Delay)
		select {
		case <-t.C:
		case <-d.Force:
			t.Stop()
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), d.Timeout)
	defer cancel()
	err := a.ShutdownWithContext(sctx) // closes the listener, waits for requests in flight
	if lerr := <-served; lerr != nil && err == nil && !errors.Is(lerr, net.ErrClosed) {
		err = lerr
	}
	if err != nil {
		slog.Error("shut down with requests unfinished", "err", err, "took_ms", time.Since(start).Milliseconds())
		return err
	}
	slog.Info("shut down: every accepted request finished", "took_ms", time.Since(start).Milliseconds())
	return nil
}
