package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzLoad: any environment either stops the start with an error naming the variable,
// or gives a configuration every part of the server can rely on.
func FuzzLoad(f *testing.F) {
	f.Add(":8080", "", "", "", "", "0", "2s", "168h", "info", "false", "")
	f.Add("127.0.0.1:9000", "https://meritmark.example", "postgres://u@h/db", "smtp://u:p@mail:25", "https://api-m.paypal.com", "4", "500ms", "1h", "debug", "true", "--addr=:0")
	f.Add("localhost", "example.com", "mysql://x", "http://mail", "ftp://x", "many", "soon", "-1h", "loud", "maybe", "--nope")
	f.Add(":99999", "https://a.example/path", "sqlite:/tmp/x.db", "smtps://mail", "http://", "257", "1ns", "59s", "WARN", "1", "--base-url=https://b.example/")
	f.Add(":1", "https://user:pw@a.example", "", "", "", "1", "10ms", "1m", "error", "no", "")
	f.Add(":1", "https://a.example?x=1", "", "", "", "1", "10ms", "1m", "error", "no", "")
	f.Add(":1", "https://a.example#frag", "", "", "", "1", "10ms", "1m", "error", "no", "")
	f.Add(":1", "javascript://a.example", "", "", "", "1", "10ms", "1m", "error", "no", "")
	f.Fuzz(func(t *testing.T, addr, base, dbURL, smtp, paypal, workers, render, idle, level, dev, flag string) {
		vars := map[string]string{
			"MERITMARK_ADDR": addr, "MERITMARK_BASE_URL": base, "DATABASE_URL": dbURL, "MERITMARK_SMTP_URL": smtp,
			"MERITMARK_PAYPAL_BASE_URL": paypal, "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "secret",
			"MERITMARK_SSR_WORKERS": workers, "MERITMARK_RENDER_TIMEOUT": render, "MERITMARK_SESSION_IDLE": idle,
			"MERITMARK_SESSION_MAX_AGE": idle, "MERITMARK_LOG_LEVEL": level, "MERITMARK_DEV": dev,
		}
		var args []string
		if flag != "" {
			args = []string{flag}
		}
		c, err := Load(env(vars), args)
		if err != nil {
			if !strings.Contains(err.Error(), "MERITMARK_") && !strings.Contains(err.Error(), "DATABASE_URL") && !strings.HasPrefix(err.Error(), "config: ") {
				t.Fatalf("error names no variable: %v", err)
			}
			return
		}
		if _, port, err := net.SplitHostPort(c.Addr); err != nil {
			t.Fatalf("Addr %q", c.Addr)
		} else if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
			t.Fatalf("Addr %q port", c.Addr)
		}
		if c.BaseURL != "" {
			// the base URL is pasted in front of paths in links, canonical URLs and mail:
			// it must be a bare origin
			u, err := url.Parse(c.BaseURL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Path != "" ||
				u.RawQuery != "" || u.Fragment != "" || u.User != nil || strings.HasSuffix(c.BaseURL, "/") || u.Opaque != "" {
				t.Fatalf("BaseURL %q is not a bare http(s) origin", c.BaseURL)
			}
			if u.Scheme+"://"+u.Host != c.BaseURL {
				t.Fatalf("BaseURL %q is not scheme://host", c.BaseURL)
			}
		}
		if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") &&
			!strings.HasPrefix(c.DatabaseURL, "sqlite:") && !strings.HasPrefix(c.DatabaseURL, "file:") {
			t.Fatalf("DatabaseURL %q", c.DatabaseURL)
		}
		if c.SSRWorkers < 0 || c.SSRWorkers > 256 {
			t.Fatalf("SSRWorkers %d", c.SSRWorkers)
		}
		if c.RenderTimeout < 10*time.Millisecond || c.SessionIdle < time.Minute || c.SessionMaxAge < time.Minute {
			t.Fatalf("durations %s %s %s", c.RenderTimeout, c.SessionIdle, c.SessionMaxAge)
		}
		switch strings.ToLower(c.LogLevel) {
		case "debug", "info", "warn", "error":
		default:
			t.Fatalf("LogLevel %q", c.LogLevel)
		}
		if c.DataDir == "" {
			t.Fatal("empty DataDir")
		}
	})
}
