package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) Env { return func(k string) string { return m[k] } }

func TestDefaults(t *testing.T) {
	c, err := Load(env(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || c.DataDir != "./data" || c.DatabaseURL != "" || c.RenderTimeout != 2*time.Second {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestBadValuesAreExplained(t *testing.T) {
	cases := map[string]string{
		"MERITMARK_ADDR":           "localhost",
		"DATABASE_URL":             "mysql://x",
		"MERITMARK_BASE_URL":       "example.com",
		"MERITMARK_SMTP_URL":       "http://mail",
		"MERITMARK_SSR_WORKERS":    "many",
		"MERITMARK_RENDER_TIMEOUT": "soon",
		"MERITMARK_LOG_LEVEL":      "loud",
	}
	for k, v := range cases {
		_, err := Load(env(map[string]string{k: v}), nil)
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("%s=%s: error %v does not name the variable", k, v, err)
		}
	}
}

func TestFlagsOverrideEnv(t *testing.T) {
	c, err := Load(env(map[string]string{"MERITMARK_ADDR": ":9000"}), []string{"--addr", ":9100"})
	if err != nil || c.Addr != ":9100" {
		t.Fatalf("%v %+v", err, c)
	}
}

func TestSecretIsGeneratedOnceAndKept(t *testing.T) {
	dir := t.TempDir()
	c := &Config{DataDir: dir}
	a, err := c.Secret(env(nil), "signing")
	if err != nil || len(a) != 64 {
		t.Fatalf("%v %q", err, a)
	}
	b, _ := c.Secret(env(nil), "signing")
	if a != b {
		t.Fatal("secret changed between calls")
	}
	st, _ := os.Stat(filepath.Join(dir, "secrets", "signing"))
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("secret file mode %v", st.Mode())
	}
	if v, _ := c.Secret(env(map[string]string{"MERITMARK_SECRET_SIGNING": "given"}), "signing"); v != "given" {
		t.Fatal("configured secret ignored")
	}
}

// Instances started at the same moment on one data directory all get the one secret
// written, never an empty or half-written file (several rounds: the race is short).
func TestSecretRaceGivesEveryoneTheSameValue(t *testing.T) {
	for round := 0; round < 20; round++ {
		c := &Config{DataDir: t.TempDir()}
		const n = 8
		got := make([]string, n)
		errs := make([]error, n)
		done := make(chan struct{})
		for i := 0; i < n; i++ {
			go func(i int) {
				got[i], errs[i] = c.Secret(env(nil), "shared")
				done <- struct{}{}
			}(i)
		}
		for i := 0; i < n; i++ {
			<-done
		}
		for i := range got {
			if errs[i] != nil || len(got[i]) != 64 || got[i] != got[0] {
				t.Fatalf("round %d: caller %d got %q (%v), caller 0 %q", round, i, got[i], errs[i], got[0])
			}
		}
		entries, _ := os.ReadDir(filepath.Join(c.DataDir, "secrets"))
		if len(entries) != 1 {
			t.Fatalf("round %d: %d files left in secrets/ (temporary files must go)", round, len(entries))
		}
	}
}

func TestLinkedInOrganizationID(t *testing.T) {
	c, err := Load(env(map[string]string{"MERITMARK_LINKEDIN_ORGANIZATION_ID": "1337"}), nil)
	if err != nil || c.LinkedInOrganizationID != "1337" {
		t.Fatalf("%v %+v", err, c)
	}
	if c, _ := Load(env(nil), nil); c.LinkedInOrganizationID != "" {
		t.Fatalf("default %q", c.LinkedInOrganizationID)
	}
	for _, bad := range []string{"acme", "12a", "123456789012345678901", "-5"} {
		_, err := Load(env(map[string]string{"MERITMARK_LINKEDIN_ORGANIZATION_ID": bad}), nil)
		if err == nil || !strings.Contains(err.Error(), "MERITMARK_LINKEDIN_ORGANIZATION_ID") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// The development mailbox: on for make run (no SMTP, no base URL), off with either,
// loopback only, and never on an https origin; shutdown settings and their defaults.
func TestDevMailboxAndShutdown(t *testing.T) {
	load := func(m map[string]string) *Config {
		t.Helper()
		c, err := Load(env(m), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := load(nil); c.DevMailbox != DefaultDevMailbox || c.ShutdownDelay != 0 || c.ShutdownTimeout != 30*time.Second {
		t.Fatalf("make run: mailbox %q, drain %s/%s", c.DevMailbox, c.ShutdownDelay, c.ShutdownTimeout)
	}
	if c := load(map[string]string{"MERITMARK_SMTP_URL": "smtp://mail.example:25"}); c.DevMailbox != "" {
		t.Fatal("a mailbox beside SMTP")
	}
	if c := load(map[string]string{"MERITMARK_DEV_MAILBOX": "off"}); c.DevMailbox != "" {
		t.Fatal("off is on")
	}
	c := load(map[string]string{"MERITMARK_BASE_URL": "https://badges.example", "MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "secret"})
	if c.DevMailbox != "" || c.ShutdownDelay != 5*time.Second {
		t.Fatalf("https: mailbox %q, drain delay %s", c.DevMailbox, c.ShutdownDelay)
	}
	c = load(map[string]string{"MERITMARK_BASE_URL": "https://badges.example", "MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "secret", "MERITMARK_DEV_MAILBOX": "127.0.0.1:8025"})
	if err := c.ServeProblem(); err == nil || err.Error() != MsgDevMailboxOnHTTPS {
		t.Fatalf("a mailbox on https starts: %v", err)
	}
	if _, err := Load(env(map[string]string{"MERITMARK_DEV_MAILBOX": "0.0.0.0:8025"}), nil); err == nil || !strings.Contains(err.Error(), "MERITMARK_DEV_MAILBOX") {
		t.Fatalf("a mailbox beyond loopback: %v", err)
	}
	if _, err := Load(env(map[string]string{"MERITMARK_SHUTDOWN_TIMEOUT": "soon"}), nil); err == nil || !strings.Contains(err.Error(), "MERITMARK_SHUTDOWN_TIMEOUT") {
		t.Fatalf("a bad shutdown timeout: %v", err)
	}
}

// meritmark config masks secrets, and -h answers the usage of every setting.
func TestSettingsMaskedAndHelp(t *testing.T) {
	c, err := Load(env(map[string]string{"DATABASE_URL": "postgres://app:hunter2@db:5432/mm", "MERITMARK_PAYPAL_SECRET": "s3cr3t"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	var all strings.Builder
	for _, s := range c.Settings {
		all.WriteString(s.Env + "=" + s.Value + "\n")
	}
	if strings.Contains(all.String(), "hunter2") || strings.Contains(all.String(), "s3cr3t") || !strings.Contains(all.String(), "DATABASE_URL=postgres://app:xxxxx@db:5432/mm") {
		t.Fatalf("settings:\n%s", all.String())
	}
	_, err = Load(env(nil), []string{"-h"})
	var help *HelpError
	if !errors.As(err, &help) || !strings.Contains(help.Text, "MERITMARK_SHUTDOWN_DELAY") {
		t.Fatalf("-h: %v", err)
	}
}
