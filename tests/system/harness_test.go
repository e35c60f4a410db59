// Package system runs the real bin/meritmark as separate processes and proves what only
// whole processes can show: two instances sharing one PostgreSQL database (scale-out), a
// kill -9 in the middle of payments and approvals, the database going away and coming
// back, and a PayPal capture that times out across instances.
//
// The binary is built once per run (or taken from MERITMARK_BIN). Each test gets its own
// database: a fresh SQLite file, or (MERITMARK_TEST_DB=postgres) a fresh PostgreSQL
// database it creates and drops. Quick variants run in `make test`; MERITMARK_SOAK=1
// (`make soak`) makes them long.
package system

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/pagecache"
	"meritmark/app/session"
	"meritmark/db"
)

// binary is the meritmark binary the tests run.
var binary string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	flag.Parse()
	// the test's own calls into app packages (a sweep) log nothing
	slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
	binary = os.Getenv("MERITMARK_BIN")
	if binary == "" {
		dir, err := os.MkdirTemp("", "meritmark-system-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "system:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "meritmark")
		root, err := moduleRoot()
		if err != nil {
			fmt.Fprintln(os.Stderr, "system:", err)
			return 1
		}
		start := time.Now()
		cmd := exec.Command("go", "build", "-o", binary, ".")
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "system: go build: %v\n%s", err, out)
			return 1
		}
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "system: built %s in %s\n", binary, time.Since(start).Round(time.Millisecond))
		}
	}
	return m.Run()
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found")
		}
		dir = parent
	}
}

// ---- databases ----

func postgresMode() bool { return os.Getenv("MERITMARK_TEST_DB") == "postgres" }

// soak reports whether the long variants run (make soak).
func soak() bool { return os.Getenv("MERITMARK_SOAK") != "" }

// requirePostgres skips t outside the PostgreSQL pass; in it, an unreachable server
// fails the test, and so it does in any pass under CI=true (CI must not pass by skipping).
func requirePostgres(t *testing.T) {
	t.Helper()
	err := pingPostgres()
	if !postgresMode() {
		if err != nil && os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: PostgreSQL at %s is required for this test and is not reachable: %v", apptest.PostgresAdminURL(), err)
		}
		t.Skip("runs in the PostgreSQL pass (MERITMARK_TEST_DB=postgres)")
	}
	if err != nil {
		t.Fatalf("PostgreSQL at %s is not reachable: %v", apptest.PostgresAdminURL(), err)
	}
}

func pingPostgres() error {
	admin, err := sql.Open("pgx", apptest.PostgresAdminURL())
	if err != nil {
		return err
	}
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return admin.PingContext(ctx)
}

// newPostgresDB creates an empty database for t (dropped at the end) and returns its URL:
// the servers under test migrate it themselves (so two instances starting together race
// for the migration, as in production); apptest's template pool is for tests that need a
// migrated schema at once.
func newPostgresDB(t *testing.T) string {
	t.Helper()
	return apptest.NewPostgresDatabase(t, false)
}

// store is a test's database: the URL the server is given ("" = SQLite in its data
// dir) and a connection of the test's own for setup and checks.
type store struct {
	URL     string
	DataDir string
	DB      *bun.DB
}

// newStore makes the test's database on the engine of this pass.
func newStore(t *testing.T) *store {
	t.Helper()
	s := &store{DataDir: t.TempDir()}
	if postgresMode() {
		requirePostgres(t)
		s.URL = newPostgresDB(t)
	}
	return s
}

// open connects the test to the database (after a server created the schema).
func (s *store) open(t *testing.T) *bun.DB {
	t.Helper()
	if s.DB != nil {
		return s.DB
	}
	var err error
	if s.URL != "" {
		s.DB, err = db.Open(context.Background(), s.URL, "")
	} else {
		s.DB, err = db.Open(context.Background(), "", s.DataDir)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.DB.Close() })
	return s.DB
}

// ---- server processes ----

// instance is one running `meritmark serve`.
type instance struct {
	t    *testing.T
	Name string
	URL  string
	Addr string
	env  []string
	logs *logBuffer
	cmd  *exec.Cmd
	done chan struct{}
	// ready is set by waitReadyNoFatal when the server answered /readyz.
	ready bool
}

// serverEnv is the environment of a server: this process's environment without any
// Meritmark setting, plus the given ones.
func serverEnv(vars map[string]string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "MERITMARK_") || strings.HasPrefix(kv, "DATABASE_URL=") {
			continue
		}
		env = append(env, kv)
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// launch starts a server with vars (MERITMARK_ADDR is added) without waiting for it.
func launch(t *testing.T, name string, vars map[string]string) *instance {
	t.Helper()
	addr := freeAddr(t)
	// the harness's admin works without two-step sign-in (app/auth tests that path)
	all := map[string]string{"MERITMARK_ADDR": addr, "MERITMARK_SSR_WORKERS": "1", "MERITMARK_LOG_LEVEL": "info",
		"MERITMARK_INSECURE_ADMIN_WITHOUT_2FA": "1"}
	for k, v := range vars {
		all[k] = v
	}
	in := &instance{t: t, Name: name, URL: "http://" + addr, Addr: addr, env: serverEnv(all), logs: &logBuffer{}}
	in.start()
	t.Cleanup(func() {
		in.kill()
		if t.Failed() {
			t.Logf("---- %s log (last lines) ----\n%s", in.Name, in.logs.tail(60))
		}
	})
	return in
}

func (in *instance) start() {
	in.t.Helper()
	cmd := exec.Command(binary, "serve")
	cmd.Env = in.env
	cmd.Stdout = in.logs
	cmd.Stderr = in.logs
	if err := cmd.Start(); err != nil {
		in.t.Fatal(err)
	}
	in.cmd, in.done = cmd, make(chan struct{})
	done := in.done
	go func() {
		_ = cmd.Wait()
		close(done)
	}()
}

// restart starts the server again with the same settings (after kill or stop).
func (in *instance) restart() {
	in.t.Helper()
	in.logs.mark()
	in.start()
}

func (in *instance) running() bool {
	select {
	case <-in.done:
		return false
	default:
		return true
	}
}

// waitReady waits until /readyz answers 200.
func (in *instance) waitReady(timeout time.Duration) {
	in.t.Helper()
	if err := in.awaitReady(timeout); err != nil {
		in.t.Fatalf("%v:\n%s", err, in.logs.tail(40))
	}
}

// waitReadyNoFatal is waitReady for another goroutine: it sets in.ready.
func (in *instance) waitReadyNoFatal(timeout time.Duration) {
	in.ready = in.awaitReady(timeout) == nil
}

func (in *instance) awaitReady(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		res, err := http.Get(in.URL + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return in.awaitStarted(deadline)
			}
		}
		if !in.running() {
			return fmt.Errorf("%s exited before it was ready", in.Name)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s", in.Name, timeout)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// awaitStarted waits until this start's "meritmark is serving" line has been read from
// the server's output: the server writes its start's lines before it answers, but they
// reach logBuffer through a pipe, so a test reading them at once could miss them.
func (in *instance) awaitStarted(deadline time.Time) error {
	for {
		out := in.logs.sinceMark()
		serving, banner := strings.Index(out, "meritmark is serving"), strings.Index(out, "Meritmark is running at")
		switch {
		case banner >= 0 && (serving < 0 || serving > banner):
			return fmt.Errorf("%s printed its banner before its start's log lines:\n%s", in.Name, out)
		case serving >= 0:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("%s answered /readyz, but its start's log lines never came", in.Name)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// kill sends SIGKILL (kill -9) and waits for the process to be gone.
func (in *instance) kill() {
	if in.cmd == nil || !in.running() {
		return
	}
	_ = in.cmd.Process.Signal(syscall.SIGKILL)
	<-in.done
}

// logBuffer collects a server's output (safe for concurrent use); mark starts a new
// section (a restart) that sinceMark reads.
type logBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	start int
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// sinceMark is what was written since the last mark.
func (l *logBuffer) sinceMark() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return string(l.buf.Bytes()[l.start:])
}

func (l *logBuffer) mark() {
	l.mu.Lock()
	l.start = l.buf.Len()
	l.mu.Unlock()
}

// lines are the log lines containing every one of parts.
func (l *logBuffer) lines(parts ...string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(l.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
next:
	for sc.Scan() {
		for _, p := range parts {
			if !strings.Contains(sc.Text(), p) {
				continue next
			}
		}
		out = append(out, sc.Text())
	}
	return out
}

func (l *logBuffer) tail(n int) string {
	ls := strings.Split(strings.TrimRight(l.String(), "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

// ---- clients ----

// browser is one person's browser: one cookie jar whatever instance it talks to (a
// cookie ignores the port, as behind a load balancer every instance is one origin).
type browser struct {
	t   *testing.T
	jar http.CookieJar
}

func newBrowser(t *testing.T) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, jar: jar}
}

// on is the browser talking to instance in (API paths relative to /backend/api/v1).
func (b *browser) on(in *instance) *apptest.Client {
	c := (&apptest.Env{T: b.t, URL: in.URL}).Client()
	c.HTTP.Jar = b.jar
	return c
}

// sessionCookie is the session token the browser holds.
func (b *browser) sessionCookie(in *instance) string {
	u, _ := url.Parse(in.URL)
	for _, c := range b.jar.Cookies(u) {
		if c.Name == session.CookieName {
			return c.Value
		}
	}
	return ""
}

// signedIn is a browser holding a session created directly in the database for u.
func signedIn(t *testing.T, d *bun.DB, u *model.User, in *instance) *browser {
	t.Helper()
	ss := &session.Store{DB: d, Idle: 24 * time.Hour, MaxAge: 24 * time.Hour}
	tok, err := ss.Create(context.Background(), d, u.ID, "127.0.0.1", "system-test")
	if err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t)
	base, _ := url.Parse(in.URL)
	b.jar.SetCookies(base, []*http.Cookie{{Name: session.CookieName, Value: tok, Path: "/"}})
	return b
}

// ---- rows ----

// addUser inserts a user (a real password hash only when password is given).
func addUser(t *testing.T, d *bun.DB, email, password, role string) *model.User {
	t.Helper()
	hash := "x"
	if password != "" {
		var err error
		if hash, err = auth.HashPassword(password); err != nil {
			t.Fatal(err)
		}
	}
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: strings.Split(email, "@")[0], Email: email, PasswordHash: hash, Role: role,
		Position: "Engineer", LinkedIn: "https://linkedin.com/in/" + strings.Split(email, "@")[0],
		Skills: []string{}, CreatedAt: now, UpdatedAt: now, EmailVerifiedAt: &now} // a confirmed address: grants are issued to it
	if _, err := d.NewInsert().Model(u).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return u
}

func addBadge(t *testing.T, d *bun.DB, name, typ string, priceCents int64) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Description: name + " badge", Category: "Development", Type: typ,
		Level: "intermediate", PriceCents: priceCents, Icon: "Award", Color: "blue", Criteria: "Show your work.", IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	if _, err := d.NewInsert().Model(b).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	// written behind the app's back: tell the page cache, as the app's own writes do
	if err := pagecache.Bump(context.Background(), d, pagecache.Badges); err != nil {
		t.Fatal(err)
	}
	return b
}

func addQuiz(t *testing.T, d *bun.DB, b *model.Badge, n int) map[string]model.Question {
	t.Helper()
	ctx := context.Background()
	now := model.Now()
	qz := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: b.Name + " Assessment", Description: "Show what you know.",
		PassingScore: 70, TimeLimit: 15, IsActive: true, CreatedAt: now}
	if _, err := d.NewInsert().Model(qz).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	qs := map[string]model.Question{}
	for i := 0; i < n; i++ {
		q := model.Question{ID: model.NewID(), Text: fmt.Sprintf("Question %d?", i+1),
			Options:      []string{fmt.Sprintf("q%d-A", i), fmt.Sprintf("q%d-B", i), fmt.Sprintf("q%d-C", i), fmt.Sprintf("q%d-D", i)},
			CorrectIndex: i % 4, Difficulty: "medium", Explanation: "because", Topic: "t", Category: "Development", CreatedAt: now}
		if _, err := d.NewInsert().Model(&q).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := d.NewInsert().Model(&model.QuizQuestion{QuizID: qz.ID, QuestionID: q.ID, Position: i}).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		qs[q.ID] = q
	}
	if err := pagecache.Bump(ctx, d, pagecache.Badges); err != nil {
		t.Fatal(err)
	}
	return qs
}

func addCoupon(t *testing.T, d *bun.DB, code string, percent int64) *model.Coupon {
	t.Helper()
	now := model.Now()
	c := &model.Coupon{ID: model.NewID(), Code: code, Name: code, DiscountType: "percentage", DiscountValue: percent * 100,
		ValidFrom: now.Add(-time.Hour), ValidUntil: now.Add(30 * 24 * time.Hour), IsActive: true,
		ApplicableBadges: []string{}, ApplicableCategories: []string{}, CreatedAt: now, UpdatedAt: now}
	if _, err := d.NewInsert().Model(c).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return c
}

func count(t *testing.T, d bun.IDB, table, where string, args ...any) int {
	t.Helper()
	n, err := d.NewSelect().Table(table).Where(where, args...).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// Files an application submission carries (valid by their magic numbers).
var (
	pdfFile = []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
	pngFile = append([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, bytes.Repeat([]byte{7}, 200)...)
)

// ---- a TCP proxy that can cut the database off ----

// proxy forwards connections to target until cut: then it stops listening and closes
// every connection (the database went away); restore listens again on the same address.
type proxy struct {
	t      *testing.T
	target string
	Addr   string

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	frozen bool
}

func newProxy(t *testing.T, target string) *proxy {
	t.Helper()
	p := &proxy{t: t, target: target, conns: map[net.Conn]struct{}{}}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p.Addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(p.cut)
	return p
}

func (p *proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c)
		}
	}()
}

func (p *proxy) forward(c net.Conn) {
	up, err := net.DialTimeout("tcp", p.target, 5*time.Second)
	if err != nil {
		c.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // cut meanwhile
		p.mu.Unlock()
		c.Close()
		up.Close()
		return
	}
	p.conns[c], p.conns[up] = struct{}{}, struct{}{}
	p.mu.Unlock()
	pipe := func(dst, src net.Conn) {
		buf := make([]byte, 32<<10)
		for {
			n, err := src.Read(buf)
			if n > 0 {
				for p.isFrozen() { // a partition: the bytes go nowhere until it heals
					time.Sleep(10 * time.Millisecond)
				}
				if _, werr := dst.Write(buf[:n]); werr != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
		dst.Close()
		src.Close()
	}
	go pipe(up, c)
	pipe(c, up)
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

func (p *proxy) isFrozen() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.frozen
}

// thaw ends a freeze.
func (p *proxy) thaw() {
	p.mu.Lock()
	p.frozen = false
	p.mu.Unlock()
}

// cut makes the database unreachable: new connections are refused, open ones reset.
func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0) // RST, as a crashed server's host answers
		}
		c.Close()
		delete(p.conns, c)
	}
}

// restore brings the database back on the same address.
func (p *proxy) restore() {
	p.t.Helper()
	var ln net.Listener
	var err error
	for i := 0; i < 50; i++ {
		if ln, err = net.Listen("tcp", p.Addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		p.t.Fatalf("proxy: listen again on %s: %v", p.Addr, err)
	}
	p.serve(ln)
}

// freeze makes the database silent: connections stay open (and new ones are accepted)
// but nothing is forwarded any more, as in a network partition.
func (p *proxy) freeze() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.frozen = true
}
