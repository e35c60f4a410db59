package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
)

// target is one fresh database with a server in front of it.
type target struct {
	engine   string // sqlite, postgres
	bin      string
	dataDir  string
	dbURL    string // DATABASE_URL ("" for SQLite)
	pgAdmin  string // URL of the maintenance database (postgres only)
	pgName   string // the fresh database's name (postgres only)
	addr     string
	base     string // http://127.0.0.1:port
	adminPW  string
	cmd      *exec.Cmd
	logPath  string
	keep     bool
	extraEnv []string
	exited   chan error
}

// newTarget makes the data directory and, for PostgreSQL, a fresh database.
func newTarget(ctx context.Context, engine, bin, pgAdmin string, keep bool, extraEnv []string) (*target, error) {
	dir, err := os.MkdirTemp("", "meritmark-load-"+engine+"-")
	if err != nil {
		return nil, err
	}
	t := &target{engine: engine, bin: bin, dataDir: dir, keep: keep, extraEnv: extraEnv, adminPW: "load-admin-" + randHex(6)}
	t.logPath = filepath.Join(dir, "server.log")
	if engine == "postgres" {
		t.pgAdmin = pgAdmin
		t.pgName = "meritmark_load_" + randHex(6)
		adb, err := sql.Open("pgx", pgAdmin)
		if err != nil {
			t.cleanup()
			return nil, err
		}
		defer adb.Close()
		cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		if _, err := adb.ExecContext(cctx, "CREATE DATABASE "+t.pgName); err != nil {
			t.cleanup()
			return nil, fmt.Errorf("create database %s (is PostgreSQL running at %s?): %w", t.pgName, redactURL(pgAdmin), err)
		}
		u, _ := url.Parse(pgAdmin)
		u.Path = "/" + t.pgName
		t.dbURL = u.String()
	}
	return t, nil
}

func (t *target) env() []string {
	env := append(os.Environ(),
		"MERITMARK_DATA_DIR="+t.dataDir,
		"DATABASE_URL="+t.dbURL,
		"MERITMARK_DEMO_ADMIN_PASSWORD="+t.adminPW,
		// the admin approves applications during the set-up; two-step sign-in is not what
		// is measured (a load-test server only, never production)
		"MERITMARK_INSECURE_ADMIN_WITHOUT_2FA=1",
	)
	if t.addr != "" {
		env = append(env, "MERITMARK_ADDR="+t.addr)
	}
	return append(env, t.extraEnv...)
}

// seed runs `meritmark seed` (migrations and the demo content).
func (t *target) seed(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, t.bin, "seed")
	cmd.Env = t.env()
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s seed: %w\n%s", t.bin, err, out)
	}
	return nil
}

// start runs `meritmark serve` on a free port and waits for /readyz.
func (t *target) start(ctx context.Context) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	t.addr = "127.0.0.1:" + strconv.Itoa(port)
	t.base = "http://" + t.addr
	logf, err := os.OpenFile(t.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	t.cmd = exec.Command(t.bin, "serve")
	t.cmd.Env = t.env()
	t.cmd.Stdout, t.cmd.Stderr = logf, logf
	if err := t.cmd.Start(); err != nil {
		logf.Close()
		return err
	}
	t.exited = make(chan error, 1)
	go func() { t.exited <- t.cmd.Wait(); logf.Close() }()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		select {
		case err := <-t.exited:
			t.exited <- err
			return fmt.Errorf("the server exited during start (%v); its log:\n%s", err, t.logTail(30))
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		resp, err := http.Get(t.base + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("the server did not become ready in 60 s; its log:\n%s", t.logTail(30))
}

// cpuSeconds is the server process's user+system CPU time so far.
func (t *target) cpuSeconds() float64 {
	if t.cmd == nil || t.cmd.Process == nil {
		return 0
	}
	return procCPU(t.cmd.Process.Pid)
}

// stop ends the server (SIGTERM, then SIGKILL after 15 s).
func (t *target) stop() {
	if t.cmd == nil || t.cmd.Process == nil {
		return
	}
	_ = t.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-t.exited:
	case <-time.After(15 * time.Second):
		_ = t.cmd.Process.Kill()
		<-t.exited
	}
	t.cmd = nil
}

// cleanup removes the data directory and drops the PostgreSQL database.
func (t *target) cleanup() {
	t.stop()
	if t.keep {
		fmt.Fprintf(os.Stderr, "kept %s data in %s", t.engine, t.dataDir)
		if t.pgName != "" {
			fmt.Fprintf(os.Stderr, " and database %s", t.pgName)
		}
		fmt.Fprintln(os.Stderr)
		return
	}
	if t.pgName != "" {
		if adb, err := sql.Open("pgx", t.pgAdmin); err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
			if _, err := adb.ExecContext(ctx, "DROP DATABASE IF EXISTS "+t.pgName+" WITH (FORCE)"); err != nil {
				fmt.Fprintf(os.Stderr, "could not drop database %s: %v\n", t.pgName, err)
			}
			cancel()
			adb.Close()
		}
	}
	_ = os.RemoveAll(t.dataDir)
}

func (t *target) logTail(n int) string {
	b, err := os.ReadFile(t.logPath)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// logLines returns the server log lines that contain any of the words.
func (t *target) logLines(max int, words ...string) []string {
	b, err := os.ReadFile(t.logPath)
	if err != nil {
		return nil
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		for _, w := range words {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
		if len(out) >= max {
			break
		}
	}
	return out
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func randHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// procCPU reads a process's user+system CPU seconds from /proc.
func procCPU(pid int) float64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	// fields after the command: state(0) ppid(1) ... utime(11) stime(12)
	if len(f) < 13 {
		return 0
	}
	ut, _ := strconv.ParseFloat(f[11], 64)
	st, _ := strconv.ParseFloat(f[12], 64)
	return (ut + st) / 100 // USER_HZ is 100 on Linux
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

var errSkip = errors.New("skip")
