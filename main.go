// Command meritmark is the whole product in one binary:
//
//	meritmark [serve]        run the web server (default)
//	meritmark migrate        bring the database schema up to date
//	meritmark seed           add the demo content when the database is empty
//	meritmark create-admin --email E --password P --name N [--promote]
//	meritmark rotate-key     add a new active credential signing key (old ones keep verifying)
//	meritmark rotate-key --retire KID   take a (compromised) key out of the JWKS and DID document
//	meritmark verify <file.jwt|file.png|url> [--issuer O] [--jwks F] [--offline] [--email E] [--json]
//	meritmark check          list unsafe deployment settings (exit status 1 when any)
//	meritmark help           every command and setting (also serve -h)
//
// and the operator's commands (commands.go): version, config, backup, restore,
// reset-password, reset-2fa, flush-sessions, disable-user, enable-user.
//
// main only wires: config -> db -> ssr pool -> app.New -> Listen.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app"
	"meritmark/app/application"
	"meritmark/app/assets"
	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/deploycheck"
	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/obapi"
	"meritmark/app/ratelimit"
	"meritmark/app/renewal"
	"meritmark/app/seed"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
	"meritmark/ssr"
)

func main() {
	err := run(os.Args[1:])
	logs.Flush()
	if err != nil {
		fmt.Fprintln(os.Stderr, "meritmark:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cmd := "serve"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	} else if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		cmd = "version"
	}
	switch cmd {
	case "serve":
		return serve(args)
	case "migrate":
		return withDB(args, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
			fmt.Println("database is up to date")
			return nil
		})
	case "seed":
		return withDB(args, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
			pw, err := demoAdminPassword(cfg)
			if err != nil {
				return err
			}
			res, err := seed.Run(ctx, d, pw)
			if err != nil {
				return err
			}
			if res.Seeded {
				fmt.Printf("seeded %d demo badges, quizzes and coupons\n", res.Badges)
			} else {
				fmt.Println("demo content already present")
			}
			fmt.Printf("demo admin: %s / %s\n", res.AdminEmail, pw)
			return nil
		})
	case "create-admin":
		return createAdmin(args)
	case "reset-password", "reset-2fa", "flush-sessions", "disable-user", "enable-user":
		return accountCommand(cmd, args)
	case "config":
		return showConfig(args)
	case "health":
		return health(args)
	case "backup", "restore":
		return backupCommand(cmd, args)
	case "version", "--version":
		fmt.Println("meritmark " + app.BuildVersion())
		return nil
	case "rotate-key":
		fs := flag.NewFlagSet("rotate-key", flag.ContinueOnError)
		retire := fs.String("retire", "", "retire the key KID (compromised): it leaves the JWKS and the DID document")
		rest, err := commandFlags(fs, args)
		if err != nil {
			return err
		}
		return withDB(rest, func(ctx context.Context, cfg *config.Config, d *bun.DB) error {
			if *retire != "" {
				return credential.RetireKey(ctx, d, cfg.DataDir, cfg.CredentialKeys, *retire, os.Stdout)
			}
			return credential.RotateKey(ctx, d, cfg.DataDir, cfg.CredentialKeys, os.Stdout)
		})
	case "verify":
		return credential.VerifyCommand(context.Background(), args, os.Stdout)
	case "routes": // hidden: the route table as JSON for the browser tests (routes_cmd.go)
		return routesCmd(args)
	case "check":
		return check(args)
	case "help", "-h", "--help":
		return help(args)
	}
	return fmt.Errorf("unknown command %q (meritmark help lists them)", cmd)
}

// logs holds the server's log lines until they are written (serve only; nil otherwise).
var logs *logBuffer

// setupLogging makes the default logger: text or JSON lines (MERITMARK_LOG_FORMAT) on
// standard error at the configured level. buffered (the server) writes them in batches
// (logBuffer); a command writes each line at once.
func setupLogging(cfg *config.Config, buffered bool) {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	var out io.Writer = os.Stderr
	if buffered {
		logs = newLogBuffer(os.Stderr)
		out = logs
	}
	var h slog.Handler = slog.NewTextHandler(out, opts)
	if cfg.LogFormat == "json" { // MERITMARK_LOG_FORMAT=json: one JSON object a line
		h = slog.NewJSONHandler(out, opts)
	}
	if buffered {
		h = flushOnWarn{h, logs}
	}
	slog.SetDefault(slog.New(h))
}

func withDB(args []string, fn func(context.Context, *config.Config, *bun.DB) error) error {
	cfg, err := loadConfig(args)
	if err != nil || cfg == nil {
		return err
	}
	setupLogging(cfg, false)
	ctx := context.Background()
	d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := db.Migrate(ctx, d); err != nil {
		return err
	}
	return fn(ctx, cfg, d)
}

// check prints the unsafe settings of this deployment and fails when there is any.
func check(args []string) error {
	cfg, err := loadConfig(args)
	if err != nil || cfg == nil {
		return err
	}
	ctx := context.Background()
	var d *bun.DB
	if cfg.DatabaseURL != "" || dirExists(cfg.DataDir) { // never creates a data dir
		if d, err = db.Open(ctx, cfg.DatabaseURL, cfg.DataDir); err != nil {
			return err
		}
		defer d.Close()
	}
	// the demo password without generating one: the environment, else the seeded secret
	pw := os.Getenv("MERITMARK_DEMO_ADMIN_PASSWORD")
	if b, err := os.ReadFile(filepath.Join(cfg.DataDir, "secrets", "demo-admin-password")); pw == "" && err == nil && len(strings.TrimSpace(string(b))) >= 12 {
		pw = "demo-" + strings.TrimSpace(string(b))[:12]
	}
	findings, err := deploycheck.Run(ctx, cfg, d, pw)
	if err != nil {
		return err
	}
	if len(findings) == 0 {
		fmt.Println("meritmark check: no unsafe settings found")
		return nil
	}
	fmt.Printf("meritmark check: %d unsafe setting(s):\n", len(findings))
	for _, f := range findings {
		fmt.Println("  - " + f.String())
	}
	return fmt.Errorf("%d unsafe setting(s); see above", len(findings))
}

func dirExists(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

func demoAdminPassword(cfg *config.Config) (string, error) {
	if v := os.Getenv("MERITMARK_DEMO_ADMIN_PASSWORD"); v != "" {
		return v, nil
	}
	s, err := cfg.Secret(nil, "demo-admin-password")
	if err != nil {
		return "", err
	}
	return "demo-" + s[:12], nil
}

func serve(args []string) error {
	start := time.Now()
	cfg, err := loadConfig(args)
	if err != nil || cfg == nil {
		return err
	}
	setupLogging(cfg, true)
	// no origin to trust beyond loopback, or the PayPal simulator on a public https site
	if err := cfg.ServeProblem(); err != nil {
		return err
	}
	if cfg.SimulatorBanner() {
		slog.Warn("the built-in PayPal simulator takes payments on an https origin (MERITMARK_PAYPAL_SIMULATOR=1): nothing is charged, every page shows a banner")
	}
	if cfg.AdminsWithoutTwoStep { // browser tests of other features only
		slog.Warn("MERITMARK_INSECURE_ADMIN_WITHOUT_2FA=1: administrators may work without two-step sign-in; never set it in production")
	}
	if cfg.PprofAddr != "" {
		startPprof(cfg.PprofAddr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()

	d, err := db.Open(ctx, cfg.DatabaseURL, cfg.DataDir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := db.Migrate(ctx, d); err != nil {
		return err
	}

	workers := cfg.SSRWorkers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	procsFor(workers)
	gcFor()
	var m *metrics.Metrics // MERITMARK_METRICS_ADDR: nil (off) records nothing
	if cfg.MetricsAddr != "" {
		m = metrics.New(app.BuildVersion())
	}
	pool, err := ssr.New(ssr.Options{Workers: workers, Timeout: cfg.RenderTimeout, Observe: m.RenderObserver()})
	if err != nil {
		return err
	}
	defer pool.Close()
	m.WatchRenderPool(pool)
	manifest, err := assets.Manifest()
	if err != nil {
		return err
	}

	var store storage.Store
	if cfg.StorageURL == "" {
		if store, err = storage.NewLocal(filepath.Join(cfg.DataDir, "uploads")); err != nil {
			return err
		}
	} else if dir, ok := strings.CutPrefix(cfg.StorageURL, "file://"); ok {
		// a folder several instances share (a network mount, or one machine's disk)
		if store, err = storage.NewLocal(dir); err != nil {
			return fmt.Errorf("MERITMARK_STORAGE_URL: %w", err)
		}
	} else if store, err = storage.NewS3(ctx, cfg.StorageURL); err != nil {
		return fmt.Errorf("MERITMARK_STORAGE_URL: %w", err)
	}

	var sender mail.Sender = mail.LogSender{}
	if cfg.DevMailbox != "" && cfg.SMTPURL == "" { // make run: the mails on a loopback page
		box := &mail.Mailbox{}
		sender = box
		go box.Serve(ctx, cfg.DevMailbox)
	}
	if cfg.SMTPURL != "" {
		if sender, err = mail.NewSMTP(cfg.SMTPURL); err != nil {
			return err
		}
	}
	mailer := mail.NewWorker(d, sender, cfg.MailFrom)
	mailer.Metrics = m
	go mailer.Run(ctx, 5*time.Second)

	// the credential issuing keys: a bad MERITMARK_CREDENTIAL_KEYS stops the start here
	issuer, err := credential.Open(ctx, d, credential.Options{DataDir: cfg.DataDir, Configured: cfg.CredentialKeys, BaseURL: cfg.BaseURL})
	if err != nil {
		return err
	}
	a := app.New(&app.Deps{
		Config:   cfg,
		DB:       d,
		Site:     &web.Site{Renderer: pool, Assets: manifest, BaseURL: cfg.BaseURL, SupportEmail: cfg.SupportEmail, SimulatorBanner: cfg.SimulatorBanner()},
		Storage:  store,
		Mailer:   mailer,
		Sessions: &session.Store{DB: d, Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge, Secure: cfg.Secure()},
		Limiter:  &ratelimit.Limiter{DB: d},
		Issuer:   issuer,
		Policy:   web.Policy{AdminsWithoutTwoStep: cfg.AdminsWithoutTwoStep},
		Static:   assets.Handler(),
		Metrics:  m,
	})
	if m != nil { // its own server, never the public one (docs/observability.md)
		maddr, err := m.Listen(ctx, cfg.MetricsAddr)
		if err != nil {
			return fmt.Errorf("MERITMARK_METRICS_ADDR: %w", err)
		}
		slog.Info("metrics are served", "url", "http://"+maddr.String()+metrics.Path)
	}

	go a.Webhooks.Run(ctx, 30*time.Second) // outbound webhooks, woken by every committed event
	go sweepOrphans(ctx, d, store)
	// expiry reminders (30 and 7 days before) and expiries, once each across instances; an
	// expiry is recorded when it happens (the sweeper wakes at the next one), so the Hall of
	// Fame stops counting the badge at once
	sweeper := &renewal.Sweeper{DB: d, Mailer: mailer, BaseURL: cfg.BaseURL, Events: a.Deps.Events}
	sweeper.Follow(a.Deps.Events)
	go sweeper.Run(ctx, 15*time.Minute)

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		return err
	}
	url := cfg.BaseURL
	if url == "" {
		_, port, _ := net.SplitHostPort(ln.Addr().String())
		url = "http://localhost:" + port
	}
	slog.Info("meritmark is serving", "version", app.BuildVersion(), "url", url, "addr", ln.Addr().String(), "db", string(db.EngineOf(d)), "ssr_workers", workers, "startup_ms", time.Since(start).Milliseconds())
	// the start's lines are written before the banner and before the first answer: an
	// operator (or a test) that sees the site up sees how it started
	logs.Flush()
	if cfg.LogFormat != "json" { // JSON logs stay one object a line
		fmt.Fprintf(os.Stderr, "\n  Meritmark is running at %s\n\n", url)
	}
	go func() { // a second signal during the drain ends the process at once
		<-ctx.Done()
		stop()
	}()
	return a.Serve(ctx, ln, app.Drain{Delay: cfg.ShutdownDelay, Timeout: cfg.ShutdownTimeout})
}

// orphanAge is how old an uploaded file no application records must be before the sweep
// deletes it: younger ones may belong to a submission still between storage and the
// database on this or another instance.
const orphanAge = time.Hour

// sweepOrphans deletes uploaded files that no application records (left by a submission
// cut off between storage and the database, e.g. by a crash), at startup and then hourly.
func sweepOrphans(ctx context.Context, d *bun.DB, store storage.Store) {
	for {
		if _, err := application.SweepOrphans(ctx, d, store, orphanAge); err != nil && ctx.Err() == nil {
			slog.Warn("sweeping orphaned uploads failed", "err", err)
		}
		if err := auth.SweepThrottle(ctx, d, time.Now()); err != nil && ctx.Err() == nil {
			slog.Warn("sweeping sign-in counts failed", "err", err)
		}
		if _, err := obapi.SweepExpired(ctx, d, time.Now()); err != nil && ctx.Err() == nil {
			slog.Warn("sweeping expired OAuth tokens failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Hour):
		}
	}
}
