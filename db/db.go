// Package db opens the database (SQLite by default, PostgreSQL for scale), runs the
// migrations and maps driver errors to one vocabulary.
package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/dialect/sqlitedialect"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// Engine names the database engine behind a *bun.DB.
type Engine string

const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// SQLiteDSN is the connection string for a SQLite file: WAL, a busy timeout and immediate
// transactions, without which concurrent writers fail with SQLITE_BUSY.
func SQLiteDSN(path string) string {
	return "file:" + path + "?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
}

// Open connects to databaseURL: empty means a SQLite file meritmark.db in dataDir,
// "postgres://..." means PostgreSQL, "sqlite:PATH" or "file:PATH" a SQLite file elsewhere.
func Open(ctx context.Context, databaseURL, dataDir string) (*bun.DB, error) {
	switch {
	case databaseURL == "":
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			return nil, fmt.Errorf("create data dir: %w", err)
		}
		_ = os.Chmod(dataDir, 0o700) // only this user reads the data dir (older ones were 0750)
		return openSQLite(ctx, filepath.Join(dataDir, "meritmark.db"))
	case strings.HasPrefix(databaseURL, "postgres://"), strings.HasPrefix(databaseURL, "postgresql://"):
		return openPostgres(ctx, databaseURL)
	case strings.HasPrefix(databaseURL, "sqlite:"):
		return openSQLite(ctx, strings.TrimPrefix(databaseURL, "sqlite:"))
	case strings.HasPrefix(databaseURL, "file:"):
		return openSQLite(ctx, strings.TrimPrefix(databaseURL, "file:"))
	}
	return nil, fmt.Errorf("DATABASE_URL must be empty, postgres://… or sqlite:PATH (got %q)", redact(databaseURL))
}

func openSQLite(ctx context.Context, path string) (*bun.DB, error) {
	// the database file is this user's alone (0600); SQLite gives its -wal and -shm files
	// the database file's mode, and older files are narrowed here
	if f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		if st, err := os.Stat(p); err == nil && st.Mode().Perm()&0o077 != 0 {
			_ = os.Chmod(p, 0o600)
		}
	}
	sqldb, err := openGated(SQLiteDSN(path), SQLiteBusyTimeout)
	if err != nil {
		return nil, err
	}
	// One writer at a time is SQLite's rule, kept by the write gate; readers run in
	// parallel under WAL.
	sqldb.SetMaxOpenConns(SQLiteConns)
	sqldb.SetMaxIdleConns(SQLiteConns)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	bdb := bun.NewDB(sqldb, sqlitedialect.New())
	if err := bdb.PingContext(ctx); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	return bdb, nil
}

func openPostgres(ctx context.Context, dsn string) (*bun.DB, error) {
	sqldb, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, err
	}
	sqldb.SetMaxOpenConns(20)
	sqldb.SetMaxIdleConns(20)
	sqldb.SetConnMaxIdleTime(5 * time.Minute)
	bdb := bun.NewDB(sqldb, pgdialect.New())
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if err := bdb.PingContext(pctx); err != nil {
		bdb.Close()
		return nil, fmt.Errorf("open postgres %s: %w", redact(dsn), err)
	}
	return bdb, nil
}

// EngineOf tells which engine a database runs on.
func EngineOf(d bun.IDB) Engine {
	if d.Dialect().Name().String() == "pg" {
		return Postgres
	}
	return SQLite
}

func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil || u.User == nil {
		return dsn
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// ErrNotFound is what stores return for a missing row.
var ErrNotFound = errors.New("not found")

// IsUniqueViolation reports a unique or primary-key constraint failure on either engine.
func IsUniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		code := sqErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsNoRows reports sql.ErrNoRows.
func IsNoRows(err error) bool { return errors.Is(err, sql.ErrNoRows) }

// IsUnavailable reports an error that means the database cannot be reached right now
// (the request may succeed if tried again later): on PostgreSQL a connection that cannot
// be made or broke mid-query, a server shutting down or out of connections; on SQLite a
// lock held past the busy timeout, or a file that cannot be opened, read or grown.
func IsUnavailable(err error) bool {
	if err == nil {
		return false
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		// class 08: connection exception; 57P0x: admin shutdown / cannot connect now;
		// 53300: too many connections
		return strings.HasPrefix(pgErr.Code, "08") || strings.HasPrefix(pgErr.Code, "57P") || pgErr.Code == "53300"
	}
	var cErr *pgconn.ConnectError
	if errors.As(err, &cErr) {
		return true
	}
	var sqErr *sqlite.Error
	if errors.As(err, &sqErr) {
		switch sqErr.Code() & 0xff { // the primary result code
		case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_FULL:
			return true
		}
		return false
	}
	if errors.Is(err, ErrWriterBusy) {
		return true
	}
	// the connection broke under a query (reset, refused, timed out, closed mid-answer)
	var netErr net.Error
	if errors.As(err, &netErr) || errors.Is(err, driver.ErrBadConn) || errors.Is(err, sql.ErrConnDone) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNREFUSED) ||
		errors.Is(err, syscall.EPIPE) || pgconn.Timeout(err) {
		return true
	}
	msg := err.Error()
	// database/sql's pool after Close ("sql: database is closed") has no exported error
	return strings.Contains(msg, "sql: database is closed") || strings.Contains(msg, "connection refused") || strings.Contains(msg, "bad connection") ||
		strings.Contains(msg, "driver: bad connection") || strings.Contains(msg, "conn closed") ||
		strings.Contains(msg, "failed to connect")
}

// SQLitePath is the file of a SQLite database as Open picks it from databaseURL and
// dataDir, or false on PostgreSQL.
func SQLitePath(databaseURL, dataDir string) (string, bool) {
	if databaseURL == "" {
		return filepath.Join(dataDir, "meritmark.db"), true
	}
	for _, prefix := range []string{"sqlite:", "file:"} {
		if p, ok := strings.CutPrefix(databaseURL, prefix); ok {
			if i := strings.IndexByte(p, '?'); i >= 0 {
				p = p[:i]
			}
			return p, p != ""
		}
	}
	return "", false
}

// ForUpdate locks the rows q selects until d's transaction ends. Only PostgreSQL needs row
// locks: SQLite transactions begin IMMEDIATE (_txlock=immediate), one writer at a time,
// so there q is returned as it is.
func ForUpdate(d bun.IDB, q *bun.SelectQuery) *bun.SelectQuery {
	if EngineOf(d) == Postgres {
		return q.For("UPDATE")
	}
	return q
}
