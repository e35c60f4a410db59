package apptest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"meritmark/db"
	"meritmark/db/migrations"
)

// On PostgreSQL every test gets its own database, cloned from a template database that
// holds the current schema: CREATE DATABASE ... TEMPLATE copies a migrated database in a
// few milliseconds, where running every migration took a quarter of a second or more.
//
// The template is named after a hash of the migrations (their names and, when the source
// is at hand, their files), so a changed schema gets a new template and a branch with other
// migrations uses its own. The first test process to need a template builds it under an
// advisory lock (parallel packages wait for it instead of racing), migrates it under a
// temporary name and renames it when complete, so a crash never leaves a half-migrated
// template behind. Nobody may be connected to a template while it is copied: the template
// refuses connections once built. Templates of other hashes unused for a day are dropped.

// templateLockKey is the advisory lock that guards building templates ("mmtmplt1").
const templateLockKey int64 = 0x6d6d746d706c7431

// staleTemplateAge is how long a template of another schema is kept after its last use.
const staleTemplateAge = 24 * time.Hour

var pg struct {
	once     sync.Once
	err      error
	admin    *sql.DB // connected to the server's maintenance database
	template string
	// pipelined: Main runs the package, so copies are made ahead and dropped behind
	pipelined bool
	pipe      pipeline
}

// pgSetup connects to the server and makes sure the template of the current schema exists
// (once per test process).
func pgSetup() (*sql.DB, string, error) {
	pg.once.Do(func() {
		admin, err := sql.Open("pgx", PostgresAdminURL())
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			err = admin.PingContext(ctx)
			cancel()
		}
		if err != nil {
			pg.err = fmt.Errorf("apptest: PostgreSQL at %s is not reachable: %w", PostgresAdminURL(), err)
			return
		}
		pg.admin = admin
		pg.template, pg.err = ensureTemplate(context.Background(), admin)
	})
	return pg.admin, pg.template, pg.err
}

// SchemaHash identifies the schema the migrations build: their names, and the contents of
// db/migrations/*.go when the source tree is at hand (an edited migration counts too).
func SchemaHash() string {
	h := sha256.New()
	for _, m := range migrations.Migrations.Sorted() {
		fmt.Fprintf(h, "%s\n", m.Name)
	}
	if _, self, _, ok := runtime.Caller(0); ok {
		files, _ := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "..", "db", "migrations", "*.go"))
		sort.Strings(files)
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				fmt.Fprintf(h, "%s %d\n", filepath.Base(f), len(b))
				h.Write(b)
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TemplateName is the name of the template database of the current schema.
func TemplateName() string { return "mm_tmpl_" + SchemaHash() }

func databaseURL(name string) string {
	u, _ := url.Parse(PostgresAdminURL())
	u.Path = "/" + name
	return u.String()
}

func ensureTemplate(ctx context.Context, admin *sql.DB) (string, error) {
	name := TemplateName()
	conn, err := admin.Conn(ctx)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", templateLockKey); err != nil {
		return "", fmt.Errorf("apptest: template lock: %w", err)
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", templateLockKey) //nolint:errcheck
	var exists bool
	if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
		return "", err
	}
	if !exists {
		start := time.Now()
		if err := buildTemplate(ctx, conn, name); err != nil {
			return "", fmt.Errorf("apptest: build template %s: %w", name, err)
		}
		if os.Getenv("MERITMARK_TEST_LOG") != "" {
			fmt.Fprintf(os.Stderr, "apptest: built template database %s in %s\n", name, time.Since(start).Round(time.Millisecond))
		}
	}
	now := time.Now().Unix()
	if _, err := conn.ExecContext(ctx, "COMMENT ON DATABASE "+name+" IS 'meritmark test template, last used "+strconv.FormatInt(now, 10)+"'"); err != nil {
		return "", err
	}
	dropStaleTemplates(ctx, conn, name, now)
	return name, nil
}

// buildTemplate migrates a new database under a temporary name and renames it to name
// once complete.
func buildTemplate(ctx context.Context, conn *sql.Conn, name string) error {
	build := name + "_build"
	// a build a crashed process left behind
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+build+" WITH (FORCE)"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+build); err != nil {
		return err
	}
	d, err := db.Open(ctx, databaseURL(build), "")
	if err != nil {
		return err
	}
	err = db.Migrate(ctx, d)
	d.Close()
	if err != nil {
		return err
	}
	// a closed client's backend may still be leaving: make sure none is connected
	if _, err := conn.ExecContext(ctx, "ALTER DATABASE "+build+" WITH ALLOW_CONNECTIONS false"); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", build); err != nil {
		return err
	}
	for i := 0; ; i++ {
		_, err = conn.ExecContext(ctx, "ALTER DATABASE "+build+" RENAME TO "+name)
		if err == nil || i == 50 || !strings.Contains(err.Error(), "being accessed") {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dropStaleTemplates drops the templates of other schemas not used for staleTemplateAge
// (another branch's may be in use right now: those stay).
func dropStaleTemplates(ctx context.Context, conn *sql.Conn, keep string, now int64) {
	rows, err := conn.QueryContext(ctx, `SELECT datname, COALESCE(shobj_description(oid, 'pg_database'), '')
		FROM pg_database WHERE datname LIKE 'mm\_tmpl\_%' AND datname NOT LIKE '%\_build' AND datname <> $1`, keep)
	if err != nil {
		return
	}
	var stale []string
	for rows.Next() {
		var name, comment string
		if rows.Scan(&name, &comment) != nil {
			continue
		}
		_, used, _ := strings.Cut(comment, "last used ")
		t, err := strconv.ParseInt(used, 10, 64)
		if err != nil || now-t > int64(staleTemplateAge/time.Second) {
			stale = append(stale, name)
		}
	}
	rows.Close()
	for _, name := range stale {
		_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name)
	}
}

// NewPostgresDatabase creates a database for t, dropped when t ends, and returns its URL:
// a copy of the migrated template (migrated true) or an empty one. On PostgreSQL only.
//
// In a package whose TestMain is Main, copies are made ahead (one is ready while a test
// runs) and dropped behind (in the background, waited for by Main), so that neither the
// copy nor the drop, a few hundred milliseconds each, is on a test's path.
func NewPostgresDatabase(t testing.TB, migrated bool) string {
	t.Helper()
	admin, tmpl, err := pgSetup()
	if err != nil {
		t.Fatal(err)
	}
	var name string
	if migrated && pg.pipelined {
		name, err = pg.pipe.take(admin, tmpl)
	} else {
		name, err = createDatabase(admin, tmpl, migrated)
	}
	if err != nil {
		t.Fatalf("apptest: %v", err)
	}
	t.Cleanup(func() {
		if pg.pipelined && pg.pipe.dropLater(name) {
			return
		}
		if err := dropDatabase(admin, name); err != nil {
			t.Logf("apptest: %v", err)
		}
	})
	return databaseURL(name)
}

func createDatabase(admin *sql.DB, tmpl string, migrated bool) (string, error) {
	name := "mm_t_" + randHex(6)
	q := "CREATE DATABASE " + name
	if migrated {
		q += " TEMPLATE " + tmpl
	}
	if _, err := admin.Exec(q); err != nil {
		return "", fmt.Errorf("%s: %w", q, err)
	}
	return name, nil
}

func dropDatabase(admin *sql.DB, name string) error {
	if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	return nil
}

// pipeline makes template copies ahead and drops used databases behind.
type pipeline struct {
	startOnce   sync.Once
	ready       chan made
	stop        chan struct{}
	makerDone   chan struct{}
	drops       chan string
	dropperDone chan struct{}
	mu          sync.Mutex
	closed      bool
}

type made struct {
	name string
	err  error
}

func (p *pipeline) start(admin *sql.DB, tmpl string) {
	p.startOnce.Do(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.ready, p.stop, p.makerDone = make(chan made, 1), make(chan struct{}), make(chan struct{})
		p.drops, p.dropperDone = make(chan string, 4096), make(chan struct{})
		go func() { // the maker: one copy waiting in ready, one more being made
			defer close(p.makerDone)
			for {
				name, err := createDatabase(admin, tmpl, true)
				select {
				case p.ready <- made{name, err}:
				case <-p.stop:
					if err == nil {
						p.drops <- name
					}
					return
				}
			}
		}()
		go func() { // the dropper
			defer close(p.dropperDone)
			for name := range p.drops {
				_ = dropDatabase(admin, name)
			}
		}()
	})
}

func (p *pipeline) take(admin *sql.DB, tmpl string) (string, error) {
	p.start(admin, tmpl)
	m := <-p.ready
	return m.name, m.err
}

// dropLater queues name for the dropper; false when it cannot (then drop it now).
func (p *pipeline) dropLater(name string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || p.drops == nil {
		return false
	}
	select {
	case p.drops <- name:
		return true
	default:
		return false
	}
}

// finish stops the maker, drops the copies nobody took and waits for every drop.
func (p *pipeline) finish() {
	p.mu.Lock()
	started := p.drops != nil
	p.mu.Unlock()
	if !started {
		return
	}
	close(p.stop)
	for waiting := true; waiting; {
		select {
		case m := <-p.ready:
			if m.err == nil {
				p.drops <- m.name
			}
		case <-p.makerDone:
			waiting = false
		}
	}
	select {
	case m := <-p.ready:
		if m.err == nil {
			p.drops <- m.name
		}
	default:
	}
	p.mu.Lock()
	p.closed = true
	close(p.drops)
	p.mu.Unlock()
	<-p.dropperDone
}
