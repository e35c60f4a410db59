// Package apptest runs the whole application against a real database for tests: a fresh
// SQLite file per test, or (MERITMARK_TEST_DB=postgres) a database of the test's own: a
// pooled copy of a migrated template database, emptied for it (see dbtemplate.go). The
// server listens on a real loopback port; clients keep cookies like a browser. Pages are rendered by a fake renderer (so feature tests do
// not link V8): it answers the page name and its props as escaped JSON.
package apptest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gofiber/fiber/v3"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"meritmark/app"
	"meritmark/app/auth"
	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/ratelimit"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Engine is the database engine tests run on (MERITMARK_TEST_DB: sqlite or postgres).
func Engine() string {
	if os.Getenv("MERITMARK_TEST_DB") == "postgres" {
		return "postgres"
	}
	return "sqlite"
}

// PostgresAdminURL is where the test PostgreSQL server is.
func PostgresAdminURL() string {
	if v := os.Getenv("MERITMARK_TEST_PG_URL"); v != "" {
		return v
	}
	return "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"
}

// Main runs a package's tests: use it as `func TestMain(m *testing.M) { apptest.Main(m) }`.
// On PostgreSQL it checks the server first (and builds the template database once).
func Main(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	if os.Getenv("MERITMARK_TEST_LOG") != "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	}
	if Engine() != "postgres" {
		os.Exit(m.Run())
	}
	start := time.Now()
	admin, _, err := pgSetup()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	setup := time.Since(start)
	code := m.Run()
	ran := time.Since(start)
	pg.pool.close()
	if os.Getenv("MERITMARK_TEST_TIMING") != "" {
		fmt.Fprintf(os.Stderr, "apptest: PostgreSQL setup %s, tests %s, closing %s\n", setup.Round(time.Millisecond),
			(ran - setup).Round(time.Millisecond), (time.Since(start) - ran).Round(time.Millisecond))
	}
	admin.Close()
	os.Exit(code)
}

func randHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// OpenDB opens a fresh, migrated database for t and closes it at the end: on PostgreSQL a
// database of its own cloned from the template (dropped at the end), on SQLite a new file
// copied from a template migrated once per process.
func OpenDB(t testing.TB) *bun.DB {
	t.Helper()
	ctx := context.Background()
	if Engine() == "postgres" {
		d, err := db.Open(ctx, NewPostgresDatabase(t, true), "")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() }) // before the database is dropped (cleanups run last first)
		// parallel tests of two packages at once each hold a database: keep few idle
		// connections each, well inside the server's max_connections (100)
		d.DB.SetMaxIdleConns(4)
		return d
	}
	path := filepath.Join(t.TempDir(), "test.db")
	if err := copySQLiteTemplate(path); err != nil {
		t.Fatal(err)
	}
	d, err := db.Open(ctx, "sqlite:"+path, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// On SQLite a test's database is a copy of a template file migrated once per test process
// (migrating took most of a small test's time under -race).
var sqliteTmpl struct {
	once sync.Once
	data []byte
	err  error
}

// copySQLiteTemplate writes the migrated template database to path.
func copySQLiteTemplate(path string) error {
	sqliteTmpl.once.Do(func() {
		ctx := context.Background()
		dir, err := os.MkdirTemp("", "meritmark-sqlite-template-")
		if err != nil {
			sqliteTmpl.err = err
			return
		}
		file := filepath.Join(dir, "template.db")
		d, err := db.Open(ctx, "sqlite:"+file, "")
		if err != nil {
			sqliteTmpl.err = err
			return
		}
		err = db.Migrate(ctx, d)
		if err == nil {
			// everything into the main file, so that it alone is the whole database
			_, err = d.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)")
		}
		if cerr := d.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			sqliteTmpl.data, err = os.ReadFile(file)
		}
		if err != nil {
			sqliteTmpl.err = fmt.Errorf("apptest: SQLite template: %w", err)
		}
		_ = os.RemoveAll(dir)
	})
	if sqliteTmpl.err != nil {
		return sqliteTmpl.err
	}
	return os.WriteFile(path, sqliteTmpl.data, 0o600)
}

// FakeRenderer renders a page as its name and its props (escaped), so tests can read what
// a page was given without V8.
type FakeRenderer struct{}

// Render implements web.Renderer.
func (FakeRenderer) Render(_ context.Context, page string, props []byte) (string, []byte, error) {
	return `<main data-page="` + page + `"><pre id="props">` + html.EscapeString(string(props)) + `</pre></main>`, []byte("[]"), nil
}

// Env is a running application for one test.
type Env struct {
	T       testing.TB
	App     *app.App
	Deps    *app.Deps
	DB      *bun.DB
	URL     string // http://127.0.0.1:port
	DataDir string
}

// Option adjusts the dependencies before the app is built.
type Option func(*app.Deps)

// New starts the application for t.
func New(t testing.TB, opts ...Option) *Env {
	t.Helper()
	d := OpenDB(t)
	dataDir := t.TempDir()
	cfg, err := config.Load(func(string) string { return "" }, []string{"--data-dir", dataDir})
	if err != nil {
		t.Fatal(err)
	}
	cfg.PageCache = false // on with WithPageCache: most tests write rows directly
	store, err := storage.NewLocal(filepath.Join(dataDir, "uploads"))
	if err != nil {
		t.Fatal(err)
	}
	deps := &app.Deps{
		Config:   cfg,
		DB:       d,
		Site:     &web.Site{Renderer: FakeRenderer{}, SupportEmail: cfg.SupportEmail},
		Storage:  store,
		Mailer:   mail.NewWorker(d, mail.LogSender{}, cfg.MailFrom),
		Sessions: &session.Store{DB: d, Idle: cfg.SessionIdle, MaxAge: cfg.SessionMaxAge},
		Limiter:  &ratelimit.Limiter{DB: d},
	}
	for _, o := range opts {
		o(deps)
	}
	// the issuer as main opens it, on the database the options chose (keys generated into
	// this instance's data directory)
	if deps.Issuer == nil {
		if deps.Issuer, err = credential.Open(context.Background(), deps.DB, credential.Options{DataDir: dataDir}); err != nil {
			t.Fatal(err)
		}
	}
	a := app.New(deps)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = a.Listener(ln, fiber.ListenConfig{DisableStartupMessage: true})
	}()
	base := "http://" + ln.Addr().String()
	// wait until the server answers, so that Shutdown cannot run before Serve started
	for i := 0; ; i++ {
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			break
		}
		if i > 500 {
			t.Fatalf("apptest: server did not start: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Cleanup(func() {
		_ = a.ShutdownWithTimeout(5 * time.Second)
		<-done
	})
	return &Env{T: t, App: a, Deps: deps, DB: deps.DB, URL: base, DataDir: dataDir}
}

// Ctx is a background context.
func (e *Env) Ctx() context.Context { return context.Background() }

// CreateUser inserts a user with the given role and password.
func (e *Env) CreateUser(email, password, role string) *model.User {
	e.T.Helper()
	hash, err := auth.HashPassword(password)
	if err != nil {
		e.T.Fatal(err)
	}
	now := model.Now()
	// verified, so that grants are issued to it (a test of unverified members clears it)
	u := &model.User{ID: model.NewID(), Name: strings.Split(email, "@")[0], Email: email, PasswordHash: hash, Role: role,
		Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now}
	if role == model.RoleAdmin {
		// admins must have two-step sign-in (app/auth): a test admin has it on
		u.TOTPSecret, u.TOTPEnabledAt = TestTOTPSecret, &now
	}
	if _, err := e.DB.NewInsert().Model(u).Exec(e.Ctx()); err != nil {
		e.T.Fatal(err)
	}
	return u
}

// TestTOTPSecret is the two-step sign-in secret of the admins CreateUser makes.
const TestTOTPSecret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

// LoginAs returns a client signed in as u (a session created directly).
func (e *Env) LoginAs(u *model.User) *Client {
	e.T.Helper()
	tok, err := e.Deps.Sessions.Create(e.Ctx(), e.DB, u.ID, "127.0.0.1", "apptest")
	if err != nil {
		e.T.Fatal(err)
	}
	c := e.Client()
	base, _ := url.Parse(e.URL)
	c.HTTP.Jar.SetCookies(base, []*http.Cookie{{Name: session.CookieName, Value: tok, Path: "/"}})
	return c
}

// Member creates a user and returns it with a signed-in client.
func (e *Env) Member(email string) (*model.User, *Client) {
	u := e.CreateUser(email, "password123", model.RoleUser)
	return u, e.LoginAs(u)
}

// Admin creates an administrator and returns it with a signed-in client.
func (e *Env) Admin(email string) (*model.User, *Client) {
	u := e.CreateUser(email, "password123", model.RoleAdmin)
	return u, e.LoginAs(u)
}

// Parallel runs fn n times at once and waits.
func Parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); fn(i) }(i)
	}
	wg.Wait()
}

// Row loads the row of model T with primary key id, failing the test when it is missing.
func Row[T any](e *Env, id string) *T {
	e.T.Helper()
	v := new(T)
	if err := e.DB.NewSelect().Model(v).Where("id = ?", id).Scan(e.Ctx()); err != nil {
		e.T.Fatalf("load %T %s: %v", v, id, err)
	}
	return v
}

// WithPageCache turns the data-aware page cache on (apptest.New keeps it off).
func WithPageCache(d *app.Deps) { d.Config.PageCache = true }

// SharedDB makes the app use other's database (two instances on one database).
func SharedDB(other *Env) Option {
	return func(d *app.Deps) {
		d.DB = other.DB
		d.Sessions = &session.Store{DB: other.DB, Idle: d.Config.SessionIdle, MaxAge: d.Config.SessionMaxAge}
		d.Limiter = &ratelimit.Limiter{DB: other.DB}
		d.Mailer = mail.NewWorker(other.DB, mail.LogSender{}, d.Config.MailFrom)
	}
}

// LogBuffer is what the application logged during a test (CaptureLogs).
type LogBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String is everything logged so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// CaptureLogs sends the default logger to a buffer until t ends (then it logs nowhere
// again), for tests of what an operator is told.
func CaptureLogs(t testing.TB) *LogBuffer {
	l := &LogBuffer{}
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(l, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })
	return l
}

// Clock is a test's own time source: the real time until Set, then the time it was set to.
type Clock struct {
	mu sync.Mutex
	at time.Time
}

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() {
		return time.Now()
	}
	return c.at
}

// Set stops the clock at t (the zero time lets it follow the real time again).
func (c *Clock) Set(t time.Time) {
	c.mu.Lock()
	c.at = t
	c.mu.Unlock()
}

// WithClock makes the app's services that take a clock (Deps.Clock) read c, so that a test
// moves time for its own app alone and can run in parallel.
func WithClock(c *Clock) Option { return func(d *app.Deps) { d.Clock = c.Now } }
