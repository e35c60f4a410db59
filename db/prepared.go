package db

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect"
)

// Prepared holds one read that runs on every request of some kind (a session's lookup,
// the page cache's counters, the catalogue) prepared on the database, which then parses
// it once per connection and has the driver bind its arguments. bun writes arguments
// into the SQL text, so every other query is parsed again on each call: in bench-load's
// mix SQLite's parser took about an eighth of the server's CPU, more than running the
// statements did.
//
// The SQL uses ? for each argument, as bun's raw queries do (rewritten to $1, $2... for
// PostgreSQL), and must select named columns, not *, so that a column added by a newer
// instance's migration cannot change a statement prepared before it. A Prepared is meant
// for one SQL text; its zero value is ready.
type Prepared struct {
	mu       sync.Mutex // held while preparing
	prepared atomic.Pointer[preparedOn]
}

type preparedOn struct {
	db    *sql.DB
	query string
	stmt  *sql.Stmt
}

// Scan runs query with args and scans its rows into dest, as bun's raw query does (same
// scanning, same sql.ErrNoRows for a struct, same query hooks) but on the prepared
// statement. In a transaction (d is not a *bun.DB) it is an ordinary raw query.
func (p *Prepared) Scan(ctx context.Context, d bun.IDB, dest any, query string, args ...any) error {
	bdb, ok := d.(*bun.DB)
	if !ok {
		return d.NewRaw(query, args...).Scan(ctx, dest)
	}
	stmt, err := p.prepare(ctx, bdb, query)
	if err != nil {
		return err
	}
	return bdb.NewRaw(query, args...).Conn(stmtConn{stmt, args}).Scan(ctx, dest)
}

// stmtConn runs a prepared statement with its arguments, in place of the text bun made
// by writing the arguments into the query (which its hooks still see).
type stmtConn struct {
	stmt *sql.Stmt
	args []any
}

func (c stmtConn) QueryContext(ctx context.Context, _ string, _ ...any) (*sql.Rows, error) {
	return c.stmt.QueryContext(ctx, c.args...)
}

func (c stmtConn) QueryRowContext(ctx context.Context, _ string, _ ...any) *sql.Row {
	return c.stmt.QueryRowContext(ctx, c.args...)
}

func (c stmtConn) ExecContext(ctx context.Context, _ string, _ ...any) (sql.Result, error) {
	return c.stmt.ExecContext(ctx, c.args...)
}

// prepare answers query prepared on bdb's pool, preparing it on first use (a failed
// prepare is not kept: the next call tries again).
func (p *Prepared) prepare(ctx context.Context, bdb *bun.DB, query string) (*sql.Stmt, error) {
	if on := p.prepared.Load(); on != nil && on.db == bdb.DB && on.query == query {
		return on.stmt, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if on := p.prepared.Load(); on != nil && on.db == bdb.DB && on.query == query {
		return on.stmt, nil
	}
	text := query
	if bdb.Dialect().Name() == dialect.PG {
		text = dollarPlaceholders(query)
	}
	stmt, err := bdb.DB.PrepareContext(ctx, text)
	if err != nil {
		return nil, err
	}
	// a statement prepared before on another database (tests open several) is left to
	// that database's Close: another caller may still be running it
	p.prepared.Store(&preparedOn{db: bdb.DB, query: query, stmt: stmt})
	return stmt, nil
}

// dollarPlaceholders rewrites each ? outside quotes to $1, $2... (PostgreSQL's form).
func dollarPlaceholders(q string) string {
	var b strings.Builder
	n := 0
	var quote byte
	for i := 0; i < len(q); i++ {
		c := q[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '?':
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
