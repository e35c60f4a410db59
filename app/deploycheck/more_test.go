package deploycheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/seed"
	"meritmark/db"
)

// safeEnv is a deployment with no findings, changed by the pairs of over ("" removes).
func safeEnv(t *testing.T, over ...string) map[string]string {
	env := map[string]string{"MERITMARK_DATA_DIR": filepath.Join(t.TempDir(), "none"), "MERITMARK_BASE_URL": "https://badges.example",
		"MERITMARK_PAYPAL_BASE_URL": "https://api-m.paypal.com", "MERITMARK_PAYPAL_CLIENT_ID": "id", "MERITMARK_PAYPAL_SECRET": "s",
		"MERITMARK_SMTP_URL": "smtp://mail.internal:587", "MERITMARK_TRUSTED_PROXIES": "10.0.0.0/8"}
	for i := 0; i+1 < len(over); i += 2 {
		if over[i+1] == "" {
			delete(env, over[i])
		} else {
			env[over[i]] = over[i+1]
		}
	}
	return env
}

func runEnv(t *testing.T, over ...string) []Finding {
	t.Helper()
	fs, err := Run(context.Background(), load(t, safeEnv(t, over...)), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// Several instances on one PostgreSQL database: uploads in a local folder, and no shared
// wallet (OAuth) secret.
func TestSharedDatabaseWithLocalUploadsOrNoWalletSecret(t *testing.T) {
	t.Setenv("MERITMARK_SECRET_KEY", "a-long-enough-shared-secret-key")
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "")
	pg := []string{"DATABASE_URL", "postgres://db.internal/meritmark"}
	if got := settings(runEnv(t, pg...)); got != "MERITMARK_STORAGE_URL,MERITMARK_SECRET_OAUTH_HMAC" {
		t.Fatalf("findings %s", got)
	}
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "a-long-enough-shared-wallet-secret")
	if got := settings(runEnv(t, append(pg, "MERITMARK_STORAGE_URL", "s3://k:s@s3.internal/b")...)); got != "" {
		t.Fatalf("findings %s", got)
	}
	// SQLite: one instance, local uploads and its own secrets are fine
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "")
	if got := settings(runEnv(t)); got != "" {
		t.Fatalf("findings %s", got)
	}
}

// An https site without SMTP (members could never confirm their address) and without a
// trusted proxy (every client shares the proxy's address and the sign-in limit).
func TestHTTPSSiteWithoutMailOrTrustedProxy(t *testing.T) {
	fs := runEnv(t, "MERITMARK_SMTP_URL", "", "MERITMARK_TRUSTED_PROXIES", "")
	if got := settings(fs); got != "MERITMARK_SMTP_URL,MERITMARK_TRUSTED_PROXIES" || !strings.Contains(fs[0].Problem, "confirm") {
		t.Fatalf("findings %s: %v", got, fs)
	}
}

func TestPprofBeyondLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:6060", ":6060", "10.1.2.3:6060", "[::]:6060", "pprof.internal:6060"} {
		if got := settings(runEnv(t, "MERITMARK_PPROF", addr)); got != "MERITMARK_PPROF" {
			t.Errorf("%s: findings %q", addr, got)
		}
	}
	for _, addr := range []string{"127.0.0.1:6060", "localhost:6060", "[::1]:6060", "127.0.0.2:6060"} {
		if got := settings(runEnv(t, "MERITMARK_PPROF", addr)); got != "" {
			t.Errorf("%s: findings %q", addr, got)
		}
	}
}

func TestTrustedProxiesWiderThanPrivateRanges(t *testing.T) {
	for _, p := range []string{"0.0.0.0/0", "10.0.0.0/7", "::/0", "2000::/3", "::ffff:0.0.0.0/96"} {
		fs := runEnv(t, "MERITMARK_TRUSTED_PROXIES", "10.0.0.0/8,"+p)
		if got := settings(fs); got != "MERITMARK_TRUSTED_PROXIES" || !strings.Contains(fs[0].Problem, p) {
			t.Errorf("%s: findings %v", p, fs)
		}
	}
	if got := settings(runEnv(t, "MERITMARK_TRUSTED_PROXIES", "10.0.0.0/8,172.16.0.0/12,192.168.1.0/24,127.0.0.1,fd00::/8,203.0.113.7,173.245.48.0/20,2400:cb00::/32")); got != "" {
		t.Fatalf("findings %s", got)
	}
}

// The seeded demo coupons (FREEGRANT: 100 % off, 25 uses) while they can be redeemed.
func TestActiveDemoCouponsAreListed(t *testing.T) {
	ctx := context.Background()
	d := apptest.OpenDB(t)
	if _, err := seed.Run(ctx, d, "demo-0123456789ab"); err != nil {
		t.Fatal(err)
	}
	cfg := load(t, safeEnv(t))
	fs, err := Run(ctx, cfg, d, "")
	if err != nil || settings(fs) != "demo coupons" || !strings.Contains(fs[0].Problem, "FREEGRANT (100 % off, 25 uses, 0 used)") {
		t.Fatalf("%v %v", err, fs)
	}
	// FREEGRANT used up, the others switched off: nothing left to report
	if _, err := d.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = 25").Where("code = ?", "FREEGRANT").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := d.NewUpdate().Model((*model.Coupon)(nil)).Set("is_active = ?", false).Where("code IN ('HALFOFF', 'DEV20')").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	fs, _ = Run(ctx, cfg, d, "")
	if settings(fs) != "demo coupons" || strings.Contains(fs[0].Problem, "FREEGRANT") || !strings.Contains(fs[0].Problem, "WELCOME10") {
		t.Fatalf("%v", fs)
	}
	if _, err := d.NewUpdate().Model((*model.Coupon)(nil)).Set("is_active = ?", false).Where("code = ?", "WELCOME10").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if fs, _ = Run(ctx, cfg, d, ""); len(fs) != 0 {
		t.Fatalf("%v", fs)
	}
}

// A shared secret that differs from the one the database's first instance recorded; the
// check reads the secrets but never generates one.
func TestSharedSecretMismatchIsListed(t *testing.T) {
	ctx := context.Background()
	d := apptest.OpenDB(t)
	if _, err := db.RecordSecretFingerprints(ctx, d, map[string]string{"oauth-hmac": "first-instance-wallet-secret", "key": "first-instance-totp-key"}, model.Now()); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := load(t, safeEnv(t, "MERITMARK_DATA_DIR", dir))
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "another-wallet-secret")
	t.Setenv("MERITMARK_SECRET_KEY", "first-instance-totp-key")
	fs, err := Run(ctx, cfg, d, "")
	if err != nil || settings(fs) != "MERITMARK_SECRET_OAUTH_HMAC" || !strings.Contains(fs[0].Problem, "wallet") || strings.Contains(fs[0].String(), "another-wallet-secret") {
		t.Fatalf("%v %v", err, fs)
	}
	// the key from the data dir, as the server reads it
	t.Setenv("MERITMARK_SECRET_OAUTH_HMAC", "first-instance-wallet-secret")
	t.Setenv("MERITMARK_SECRET_KEY", "")
	if fs, _ = Run(ctx, cfg, d, ""); len(fs) != 0 {
		t.Fatalf("no key file: %v", fs)
	}
	if _, err := os.Stat(filepath.Join(dir, "secrets")); !os.IsNotExist(err) {
		t.Fatalf("the check generated a secret: %v", err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "secrets"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "secrets", "key"), []byte("a-key-of-its-own\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fs, _ = Run(ctx, cfg, d, ""); settings(fs) != "MERITMARK_SECRET_KEY" {
		t.Fatalf("key file: %v", fs)
	}
}
