package db

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

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
// statement. In a transaction the statement runs on the transaction's connection, parsed
// once on it too (database/sql keeps a statement per connection); on any other bun.IDB it
// is an ordinary raw query.
func (p *Prepared) Scan(ctx context.Context, d bun.IDB, dest any, query string, args ...any) error {
	switch d := d.(type) {
	case *bun.DB:
		stmt, err := p.prepare(ctx, d, query)
		if err != nil {
			return err
		}
		return d.NewRaw(query, args...).Conn(stmtConn{stmt, args}).Scan(ctx, dest)
	case bun.Tx:
		q := d.NewRaw(query, args...)
		bdb := q.DB()
		on := p.prepared.Load()
		if on == nil || on.db != bdb.DB || on.query != query {
			// preparing takes a connection of the pool, which the transaction must not
			// wait for while it holds one (every connection could be a transaction's
			// doing the same): prepared beside it, for the next call
			go func() { _, _ = p.prepare(context.WithoutCancel(ctx), bdb, query) }() // a failure: tried again on the next call
			return q.Scan(ctx, dest)
		}
		// closed with the transaction; the statement it runs stays prepared, and is
		// prepared on the transaction's own connection if it is not yet
		return q.Conn(stmtConn{d.StmtContext(ctx, on.stmt), args}).Scan(ctx, dest)
	}
	return d.NewRaw(query, args...).Scan(ctx, dest)
}

// ScanBuilt is Scan of the SQL build writes, called only until the statement is prepared
// on d's database: a query bun's builder writes (so it selects the model's columns by
// name, as bun would) with bun.Safe("?") in place of each argument. build must write the
// same text for every call on one database.
func (p *Prepared) ScanBuilt(ctx context.Context, d bun.IDB, dest any, build func(bun.IDB) string, args ...any) error {
	var bdb *bun.DB
	switch d := d.(type) {
	case *bun.DB:
		bdb = d
	case bun.Tx:
		bdb = d.NewRaw("").DB()
	}
	if on := p.prepared.Load(); bdb != nil && on != nil && on.db == bdb.DB {
		return p.Scan(ctx, d, dest, on.query, args...)
	}
	return p.Scan(ctx, d, dest, build(d), args...)
}

// TimeArg is t as a prepared statement's argument compares it with the columns bun wrote:
// on SQLite the text bun writes a time as (the driver's own form differs), on PostgreSQL
// the time itself.
func TimeArg(d bun.IDB, t time.Time) any {
	if d.Dialect().Name() == dialect.PG {
		return t
	}
	return t.UTC().Format("2006-01-02 15:04:05.999999-07:00")
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
