package deploycheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/config"
	"meritmark/app/seed"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func load(t *testing.T, env map[string]string) *config.Config {
	t.Helper()
	c, err := config.Load(func(k string) string { return env[k] }, nil)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func settings(fs []Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.Setting)
	}
	return strings.Join(s, ",")
}

func TestUnsafeSettingsAreListed(t *testing.T) {
	ctx := context.Background()
	d := apptest.OpenDB(t)
	if _, err := seed.Run(ctx, d, "demo-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meritmark.db"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "uploads"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "uploads", "a.pdf"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// everything wrong: simulator allowed on https, HSTS off, demo password, admins without
	// two-step sign-in, 0644 files
	cfg := load(t, map[string]string{"MERITMARK_DATA_DIR": dir, "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_SIMULATOR": "1", "MERITMARK_HSTS": "0", "MERITMARK_INSECURE_ADMIN_WITHOUT_2FA": "1"})
	fs, err := Run(ctx, cfg, d, "demo-0123456789ab")
	if err != nil {
		t.Fatal(err)
	}
	if got := settings(fs); got != "MERITMARK_PAYPAL_SIMULATOR,MERITMARK_HSTS,demo admin,MERITMARK_INSECURE_ADMIN_WITHOUT_2FA,data files,data files,MERITMARK_SMTP_URL,MERITMARK_TRUSTED_PROXIES,demo coupons" {
		t.Fatalf("findings %s: %v", got, fs)
	}
	all := ""
	for _, f := range fs {
		all += f.String() + "\n"
	}
	for _, want := range []string{filepath.Join(dir, "meritmark.db") + " is 0644", filepath.Join(dir, "uploads") + " is 0755", seed.DemoAdminEmail} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	if strings.Contains(all, "a.pdf") {
		t.Errorf("a 0600 file listed:\n%s", all)
	}

	// no base URL, and a public listen
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_ADDR": ":8080"}), nil, "")
	if got := settings(fs); got != "MERITMARK_BASE_URL,MERITMARK_ADDR,MERITMARK_HSTS" {
		t.Fatalf("findings %s: %v", got, fs)
	}
	// PostgreSQL (instances may share it) without a shared TOTP sealing key; a short key
	// (the rest of the cluster set up: shared wallet secret, a bucket, mail, the proxy)
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "a-long-enough-shared-wallet-secret")
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s", "DATABASE_URL": "postgres://db.internal/meritmark", "MERITMARK_STORAGE_URL": "s3://k:s@s3.internal/b",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8"}), nil, "")
	if got := settings(fs); got != "MERITMARK_SECRET_KEY" || !strings.Contains(fs[0].Problem, "shared database") {
		t.Fatalf("findings %s: %v", got, fs)
	}
	t.Setenv("MERITMARK_SECRET_KEY", "too-short")
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s", "DATABASE_URL": "postgres://db.internal/meritmark", "MERITMARK_STORAGE_URL": "s3://k:s@s3.internal/b",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8"}), nil, "")
	if got := settings(fs); got != "MERITMARK_SECRET_KEY" || !strings.Contains(fs[0].Problem, "shorter than 16") {
		t.Fatalf("findings %s: %v", got, fs)
	}
	t.Setenv("MERITMARK_SECRET_KEY", "a-long-enough-shared-secret-key")
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s", "DATABASE_URL": "postgres://db.internal/meritmark", "MERITMARK_STORAGE_URL": "s3://k:s@s3.internal/b",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8"}), nil, "")
	if len(fs) != 0 {
		t.Fatalf("findings with a shared key: %v", fs)
	}
	t.Setenv("MERITMARK_SECRET_KEY", "")
	// the simulator on https without the explicit setting
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8"}), nil, "")
	if got := settings(fs); got != "MERITMARK_PAYPAL_BASE_URL" {
		t.Fatalf("findings %s: %v", got, fs)
	}
	// the development mailbox asked for on an https origin
	fs, _ = Run(ctx, load(t, map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s", "MERITMARK_DEV_MAILBOX": "127.0.0.1:8025",
		"MERITMARK_SMTP_URL": "smtp://mail.example:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.1"}), nil, "")
	if got := settings(fs); got != "MERITMARK_DEV_MAILBOX" {
		t.Fatalf("findings %s: %v", got, fs)
	}
}

func TestASafeDeploymentHasNoFindings(t *testing.T) {
	ctx := context.Background()
	d := apptest.OpenDB(t)
	if _, err := seed.Run(ctx, d, "demo-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	// the admin changed the password (create-admin resets it)
	if err := seed.EnsureAdmin(ctx, d, seed.DemoAdminEmail, "a-long-new-password", "Admin", true); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meritmark.db"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// the demo coupons switched off
	if _, err := d.NewUpdate().Table("coupons").Set("is_active = ?", false).Where("1 = 1").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	cfg := load(t, map[string]string{"MERITMARK_DATA_DIR": dir, "MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8, 203.0.113.7"})
	fs, err := Run(ctx, cfg, d, "demo-0123456789ab")
	if err != nil || len(fs) != 0 {
		t.Fatalf("%v %v", err, fs)
	}
}

// The metrics server has no authentication: an address beyond loopback and private
// networks is reported, a loopback or private one is not.
func TestPublicMetricsAddressIsReported(t *testing.T) {
	ctx := context.Background()
	safe := map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s",
		"MERITMARK_SMTP_URL": "smtp://mail.example:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.1"}
	with := func(addr string) map[string]string {
		m := map[string]string{"MERITMARK_METRICS_ADDR": addr}
		for k, v := range safe {
			m[k] = v
		}
		return m
	}
	for _, addr := range []string{":9090", "0.0.0.0:9090", "203.0.113.7:9090", "metrics.example.com:9090"} {
		fs, err := Run(ctx, load(t, with(addr)), nil, "")
		if err != nil {
			t.Fatal(err)
		}
		if got := settings(fs); got != "MERITMARK_METRICS_ADDR" || !strings.Contains(fs[0].Problem, `"`+addr+`" accepts connections beyond loopback and private networks`) {
			t.Errorf("%s: findings %s: %v", addr, got, fs)
		}
	}
	for _, addr := range []string{"", "127.0.0.1:9090", "localhost:9090", "[::1]:9090", "10.0.3.4:9090", "192.168.1.2:9090"} {
		fs, err := Run(ctx, load(t, with(addr)), nil, "")
		if err != nil || len(fs) != 0 {
			t.Errorf("%q: %v %v", addr, err, fs)
		}
	}
}
