package main

import (
	"log/slog"
	"testing"

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
		setupLogging(cfg)
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
