package metrics

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Path is where the metrics server answers.
const Path = "/metrics"

// Listen starts the metrics server on addr (MERITMARK_METRICS_ADDR): a plain net/http
// server of its own, apart from the public application, answering GET /metrics (and 404
// to anything else). It answers the address it listens on (addr with a port 0 resolved)
// and stops when ctx is done; a failure to listen is returned at once.
func (m *Metrics) Listen(ctx context.Context, addr string) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.Handle("GET "+Path, m.Handler())
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ErrorLog:          slog.NewLogLogger(slog.Default().Handler(), slog.LevelWarn),
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			slog.Error("metrics server stopped", "addr", ln.Addr().String(), "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(sctx)
	}()
	return ln.Addr(), nil
}
