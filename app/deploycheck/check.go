// Package deploycheck lists the unsafe settings of a deployment (`meritmark check`): no
// configured origin, the PayPal simulator on an https origin, no HSTS, a metrics address
// reachable from beyond private networks, the demo admin's password unchanged, a TOTP
// sealing key that is too short or not shared by the instances of one PostgreSQL
// database, data files other users of the machine can read, and (more.go) local uploads or
// an unshared wallet secret on PostgreSQL, an https site without mail or without trusted
// proxies, profiling or trusted proxies beyond private ranges, active demo coupons, and
// shared secrets that differ from the other instances'.
package deploycheck

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/model"
	"meritmark/app/seed"
	"meritmark/db"
)

// Finding is one unsafe setting: what it is about and why it is unsafe.
type Finding struct {
	Setting string
	Problem string
}

func (f Finding) String() string { return f.Setting + ": " + f.Problem }

// maxFileFindings bounds how many world-readable paths are listed one by one.
const maxFileFindings = 10

// Run checks cfg and, when d is not nil, the database. demoPassword is the demo admin's
// seeded password ("" = unknown: that check is skipped).
func Run(ctx context.Context, cfg *config.Config, d *bun.DB, demoPassword string) ([]Finding, error) {
	var out []Finding
	add := func(setting, format string, args ...any) {
		out = append(out, Finding{Setting: setting, Problem: fmt.Sprintf(format, args...)})
	}
	if cfg.BaseURL == "" {
		add("MERITMARK_BASE_URL", "not set: links in mail and credentials can only point to this machine (loopback); set the public https origin")
	}
	if err := cfg.ServeProblem(); err != nil && cfg.BaseURL == "" {
		add("MERITMARK_ADDR", "%q listens beyond loopback without MERITMARK_BASE_URL: serve refuses to start", cfg.Addr)
	}
	if cfg.BaseURL != "" && !cfg.Secure() {
		add("MERITMARK_BASE_URL", "%q is not https: passwords and session cookies travel unencrypted", cfg.BaseURL)
	}
	if cfg.Secure() && cfg.Simulated() {
		if cfg.PayPalSimulator {
			add("MERITMARK_PAYPAL_SIMULATOR", "the built-in PayPal simulator takes payments on the https origin %s (allowed by MERITMARK_PAYPAL_SIMULATOR=1): members approve their own payments", cfg.BaseURL)
		} else {
			add("MERITMARK_PAYPAL_BASE_URL", "not set on the https origin %s: the built-in PayPal simulator would take payments (serve refuses to start)", cfg.BaseURL)
		}
	}
	if cfg.Secure() && cfg.DevMailbox != "" {
		add("MERITMARK_DEV_MAILBOX", "set on the https origin %s: the development mailbox shows every mail, reset and claim links included (serve refuses to start)", cfg.BaseURL)
	}
	if cfg.HSTSHeader() == "" {
		if cfg.Secure() {
			add("MERITMARK_HSTS", "HSTS is off (MERITMARK_HSTS=0): browsers may be downgraded to http")
		} else {
			add("MERITMARK_HSTS", "HSTS is off: it is only sent on an https MERITMARK_BASE_URL")
		}
	}
	if cfg.MetricsExposed() {
		add("MERITMARK_METRICS_ADDR", "%q accepts connections beyond loopback and private networks: anyone who reaches it reads the metrics (routes, traffic, sign-in failures); listen on 127.0.0.1 or a private address, or firewall the port", cfg.MetricsAddr)
	}
	if d != nil && demoPassword != "" {
		unchanged, err := demoAdminUnchanged(ctx, d, demoPassword)
		if err != nil {
			return out, err
		}
		if unchanged {
			add("demo admin", "%s still has the seeded demo password: sign in and change it, or remove the account", seed.DemoAdminEmail)
		}
	}
	if cfg.AdminsWithoutTwoStep {
		add("MERITMARK_INSECURE_ADMIN_WITHOUT_2FA", "set: administrators may work without two-step sign-in (a test switch; never set it on a real site)")
	}
	switch key := strings.TrimSpace(os.Getenv("MERITMARK_SECRET_KEY")); {
	case key != "" && len(key) < 16:
		add("MERITMARK_SECRET_KEY", "shorter than 16 characters: two-step sign-in cannot be set up and sealed TOTP secrets cannot be checked")
	case key == "" && strings.HasPrefix(cfg.DatabaseURL, "postgres"):
		add("MERITMARK_SECRET_KEY", "not set with a shared database: each instance seals TOTP secrets with the key in its own data dir, so two-step sign-in fails on the others (set the same key everywhere)")
	}
	out = append(out, readableFiles(cfg)...)
	more, err := moreFindings(ctx, cfg, d) // more.go
	return append(out, more...), err
}

// demoAdminUnchanged reports whether the seeded admin account still signs in with the
// seeded password.
func demoAdminUnchanged(ctx context.Context, d *bun.DB, password string) (bool, error) {
	var users []model.User
	if err := d.NewSelect().Model(&users).Where("email = ?", seed.DemoAdminEmail).Limit(1).Scan(ctx); err != nil {
		if strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "does not exist") {
			return false, nil // a database never migrated has no accounts
		}
		return false, err
	}
	if len(users) == 0 {
		return false, nil
	}
	ok, err := auth.CheckPassword(users[0].PasswordHash, password)
	return ok && err == nil, nil
}

// readableFiles lists the data files (the data directory, and a SQLite file configured
// elsewhere with its -wal and -shm) that other users of the machine can read or write.
func readableFiles(cfg *config.Config) []Finding {
	var paths []string
	_ = filepath.WalkDir(cfg.DataDir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		paths = append(paths, p)
		return nil
	})
	if file, ok := db.SQLitePath(cfg.DatabaseURL, ""); ok && cfg.DatabaseURL != "" {
		for _, p := range []string{file, file + "-wal", file + "-shm"} {
			if _, err := os.Lstat(p); err == nil {
				paths = append(paths, p)
			}
		}
	}
	var out []Finding
	n := 0
	for _, p := range paths {
		st, err := os.Lstat(p)
		if err != nil || st.Mode()&fs.ModeSymlink != 0 || st.Mode().Perm()&0o007 == 0 {
			continue
		}
		n++
		if n <= maxFileFindings {
			want := "0600"
			if st.IsDir() {
				want = "0700"
			}
			out = append(out, Finding{Setting: "data files", Problem: fmt.Sprintf("%s is %04o, readable by every user of the machine (want %s)", p, st.Mode().Perm(), want)})
		}
	}
	if n > maxFileFindings {
		out = append(out, Finding{Setting: "data files", Problem: fmt.Sprintf("%d more paths in %s are readable by every user of the machine", n-maxFileFindings, cfg.DataDir)})
	}
	return out
}
