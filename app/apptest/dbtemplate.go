package apptest

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
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

// On PostgreSQL every test gets a database of its own with the current schema, without
// running a migration: a copy of a template database that holds the migrated schema.
//
// The template is named after a hash of the migrations (their names and, when the source
// is at hand, their files), so a changed schema gets a new template and a branch with other
// migrations uses its own. The first test process to need a template builds it under an
// advisory lock (parallel packages wait for it instead of racing), migrates it under a
// temporary name and renames it when complete, so a crash never leaves a half-migrated
// template behind. Nobody may be connected to a template while it is copied: the template
// refuses connections once built. Templates of other hashes unused for a day are dropped,
// with their pools. Copies are pooled and emptied between tests (see dbPool below).
//
// Measured (2 loaded cores): migrating a schema took 1.3-2.8 s per test; cloning the
// template 0.4 s plus 0.4-2.5 s to drop it; resetting a pooled copy takes tens of ms.

// templateLockKey is the advisory lock that guards building templates ("mmtmplt1").
const templateLockKey int64 = 0x6d6d746d706c7431

// staleTemplateAge is how long a template of another schema is kept after its last use.
const staleTemplateAge = 24 * time.Hour

var pg struct {
	once     sync.Once
	err      error
	admin    *sql.DB // connected to the server's maintenance database
	template string
	pool     dbPool
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
	h.Write([]byte("apptest template v2 (mm_pristine)\n"))
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
	if err == nil {
		_, err = d.DB.ExecContext(ctx, pristineSQL)
	}
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
		pools, err := conn.QueryContext(ctx, "SELECT datname FROM pg_database WHERE datname LIKE $1",
			strings.Replace(name, "mm_tmpl_", "mm_pool_", 1)+"\\_%")
		if err != nil {
			continue
		}
		var names []string
		for pools.Next() {
			var n string
			if pools.Scan(&n) == nil {
				names = append(names, n)
			}
		}
		pools.Close()
		for _, n := range names {
			_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+n+" WITH (FORCE)")
		}
	}
}

// NewPostgresDatabase returns the URL of a database for t alone until t ends: a migrated
// one from the pool (migrated true) or a new empty one, dropped at the end. On PostgreSQL only.
func NewPostgresDatabase(t testing.TB, migrated bool) string {
	t.Helper()
	admin, tmpl, err := pgSetup()
	if err != nil {
		t.Fatal(err)
	}
	if migrated {
		p, err := pg.pool.take(admin, tmpl)
		if err != nil {
			t.Fatalf("apptest: %v", err)
		}
		t.Cleanup(func() { pg.pool.give(p) })
		return databaseURL(p.name)
	}
	name := "mm_t_" + randHex(6)
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		t.Fatalf("apptest: create database %s: %v", name, err)
	}
	t.Cleanup(func() {
		if _, err := admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"); err != nil {
			t.Logf("apptest: drop database %s: %v", name, err)
		}
	})
	return databaseURL(name)
}

// The pool. Creating a database from the template takes a few hundred milliseconds and
// dropping one more (DROP DATABASE waits for a checkpoint of the whole server), so the
// copies are kept and reused: mm_pool_<hash>_<n>, each held by one test process at a time
// (a session advisory lock on its name, released when the process ends, even by a crash).
// A test gets a copy emptied again: every table of the schema is cleared and the rows the
// migrations inserted are put back from the copy's mm_pristine schema (made with the
// template), in one transaction, tens of milliseconds. A copy whose schema a test changed
// (its fingerprint differs from the template's) is dropped and cloned again.

type pooled struct {
	name string
	lock *sql.Conn // holds the advisory lock on name for this process
	db   *sql.DB   // for resets
}

type dbPool struct {
	mu   sync.Mutex
	free []*pooled
}

// fingerprintSQL summarises the public schema: relations, their columns and constraints.
const fingerprintSQL = `SELECT md5(COALESCE(string_agg(x, ',' ORDER BY x), '')) FROM (
	SELECT c.relname || '.' || c.relkind::text || '.' || COALESCE(a.attname, '') || '.' || COALESCE(a.atttypid::text, '') AS x
	FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
	WHERE n.nspname = 'public'
	UNION ALL SELECT 'constraint.' || conname FROM pg_constraint WHERE connamespace = 'public'::regnamespace) s`

// pristineSQL, run in the template once migrated: the reference fingerprint, and a copy
// of every table the migrations put rows in.
const pristineSQL = `CREATE SCHEMA mm_pristine;
CREATE TABLE mm_pristine.meta AS ` + fingerprintSQL + `;
DO $$ DECLARE t text; n boolean; BEGIN
	FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'bun\_%' LOOP
		EXECUTE format('SELECT EXISTS (SELECT 1 FROM public.%I)', t) INTO n;
		IF n THEN EXECUTE format('CREATE TABLE mm_pristine.%I AS SELECT * FROM public.%I', t, t); END IF;
	END LOOP;
END $$;`

// resetSQL empties every table (foreign keys not checked meanwhile), puts the pristine rows
// back and reports whether the schema is still the template's.
const resetSQL = `DO $$ DECLARE t text; BEGIN
	SET LOCAL session_replication_role = replica;
	FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'bun\_%' LOOP
		EXECUTE format('DELETE FROM public.%I', t);
	END LOOP;
	FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'mm_pristine' AND tablename <> 'meta' LOOP
		EXECUTE format('INSERT INTO public.%I SELECT * FROM mm_pristine.%I', t, t);
	END LOOP;
END $$`

func (p *dbPool) take(admin *sql.DB, tmpl string) (*pooled, error) {
	p.mu.Lock()
	var c *pooled
	if n := len(p.free); n > 0 {
		c, p.free = p.free[n-1], p.free[:n-1]
	}
	p.mu.Unlock()
	ctx := context.Background()
	if c == nil {
		var err error
		if c, err = claim(ctx, admin, tmpl); err != nil {
			return nil, err
		}
	}
	if err := c.reset(ctx); err != nil {
		// a test changed the schema (or the copy is broken): clone it again
		c.db.Close()
		if err := recreate(ctx, c.lock, c.name, tmpl); err != nil {
			c.lock.Close()
			return nil, err
		}
		if c.db, err = sql.Open("pgx", databaseURL(c.name)); err != nil {
			return nil, err
		}
	}
	return c, nil
}

func (p *dbPool) give(c *pooled) {
	p.mu.Lock()
	p.free = append(p.free, c)
	p.mu.Unlock()
}

// claim takes the first free slot of the pool (creating its database if needed).
func claim(ctx context.Context, admin *sql.DB, tmpl string) (*pooled, error) {
	prefix := strings.Replace(tmpl, "mm_tmpl_", "mm_pool_", 1) + "_"
	for i := 0; i < 1000; i++ {
		name := prefix + strconv.Itoa(i)
		conn, err := admin.Conn(ctx)
		if err != nil {
			return nil, err
		}
		var got bool
		if err := conn.QueryRowContext(ctx, "SELECT pg_try_advisory_lock(hashtext($1))", name).Scan(&got); err != nil {
			conn.Close()
			return nil, err
		}
		if !got {
			conn.Close()
			continue
		}
		var exists bool
		if err := conn.QueryRowContext(ctx, "SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1)", name).Scan(&exists); err != nil {
			conn.Close()
			return nil, err
		}
		if !exists {
			if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
				conn.Close()
				return nil, fmt.Errorf("create database %s: %w", name, err)
			}
		}
		d, err := sql.Open("pgx", databaseURL(name))
		if err != nil {
			conn.Close()
			return nil, err
		}
		return &pooled{name: name, lock: conn, db: d}, nil
	}
	return nil, errors.New("no free slot in the database pool")
}

func recreate(ctx context.Context, conn *sql.Conn, name, tmpl string) error {
	if _, err := conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
		return fmt.Errorf("drop database %s: %w", name, err)
	}
	if _, err := conn.ExecContext(ctx, "CREATE DATABASE "+name+" TEMPLATE "+tmpl); err != nil {
		return fmt.Errorf("create database %s: %w", name, err)
	}
	return nil
}

// reset empties the copy back to the template's content; an error when its schema is no
// longer the template's.
func (c *pooled) reset(ctx context.Context) error {
	tx, err := c.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	if _, err := tx.ExecContext(ctx, resetSQL); err != nil {
		return err
	}
	var same bool
	if err := tx.QueryRowContext(ctx, "SELECT ("+fingerprintSQL+") = (SELECT md5 FROM mm_pristine.meta)").Scan(&same); err != nil {
		return err
	}
	if !same {
		return errors.New("the schema was changed")
	}
	return tx.Commit()
}

// close releases every slot this process holds.
func (p *dbPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.free {
		c.db.Close()
		c.lock.Close()
	}
	p.free = nil
}
