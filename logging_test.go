package main

import (
	"bytes"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"meritmark/app/config"
)

func TestLogFormatPicksTheHandler(t *testing.T) {
	prev := slog.Default()
	t.Cleanup(func() { slog.SetDefault(prev) })
	for format, want := range map[string]string{"json": "*slog.JSONHandler", "text": "*slog.TextHandler"} {
		cfg, err := config.Load(func(k string) string {
			return map[string]string{"MERITMARK_LOG_FORMAT": format, "MERITMARK_LOG_LEVEL": "warn"}[k]
		}, nil)
		if err != nil {
			t.Fatal(err)
		}
		setupLogging(cfg, false)
		var got string
		switch slog.Default().Handler().(type) {
		case *slog.JSONHandler:
			got = "*slog.JSONHandler"
		case *slog.TextHandler:
			got = "*slog.TextHandler"
		}
		if got != want {
			t.Errorf("MERITMARK_LOG_FORMAT=%s: handler %T, want %s", format, slog.Default().Handler(), want)
		}
		if slog.Default().Enabled(t.Context(), slog.LevelInfo) || !slog.Default().Enabled(t.Context(), slog.LevelWarn) {
			t.Errorf("MERITMARK_LOG_FORMAT=%s: the level (warn) is not kept", format)
		}
	}
}

// countingWriter counts the writes it gets.
type countingWriter struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	return w.buf.Write(p)
}

func (w *countingWriter) state() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes, w.buf.String()
}

func TestTheServersLogIsWrittenInBatches(t *testing.T) {
	w := &countingWriter{}
	b := newLogBuffer(w)
	log := slog.New(flushOnWarn{slog.NewTextHandler(b, nil), b}).With("app", "mm")
	for i := 0; i < 3; i++ {
		log.Info("request", "n", i)
	}
	if n, _ := w.state(); n != 0 {
		t.Fatalf("%d writes before the batch was due", n)
	}
	// the lines waiting are written together within LogFlushEvery
	deadline := time.Now().Add(5 * time.Second)
	for n, _ := w.state(); n == 0 && time.Now().Before(deadline); n, _ = w.state() {
		time.Sleep(10 * time.Millisecond)
	}
	if n, out := w.state(); n != 1 || strings.Count(out, "msg=request") != 3 || !strings.Contains(out, "app=mm") {
		t.Fatalf("%d writes of %q", n, out)
	}
	// a warning goes out at once, after the lines before it
	log.Info("before")
	log.Warn("careful")
	if n, out := w.state(); n != 2 || !strings.Contains(out, "msg=before") || strings.Index(out, "msg=before") > strings.Index(out, "msg=careful") {
		t.Fatalf("a warning: %d writes of %q", n, out)
	}
	// a full buffer is written without waiting
	line := strings.Repeat("x", 1000)
	for i := 0; i < LogBufferSize/1000+1; i++ {
		log.Info(line)
	}
	if n, _ := w.state(); n != 3 {
		t.Fatalf("a full buffer: %d writes", n)
	}
	// and Flush (the process's end) writes what is left
	log.Info("last")
	b.Flush()
	if n, out := w.state(); n != 4 || !strings.Contains(out, "msg=last") {
		t.Fatalf("the last lines: %d writes", n)
	}
	var none *logBuffer
	none.Flush() // a command's: nothing to write
}
