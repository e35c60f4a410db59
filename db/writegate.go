package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"strings"
	"sync"
	"time"
)

// SQLite lets one connection write at a time. Left to itself, a connection that finds the
// write lock taken sleeps in SQLite's busy handler (1, 2, 5, 10 ... 100 ms) and tries again,
// holding its pool connection all the while: under bench-load's mix a tenth of the requests
// write, the sleeping writers held most of the pool's connections, and the reads queued
// for a connection behind them (3,500 waits a second, ten requests waiting at any moment).
//
// So this process's writers take turns in Go: a transaction (every one takes the write
// lock at BEGIN, _txlock=immediate) or a write outside one waits for the writeGate, in
// the order they came, and gets the lock at once when its turn comes. Another process on
// the same file (a CLI command beside the server) still meets the busy handler. A writer
// that waits longer than the busy timeout gets ErrWriterBusy, as SQLITE_BUSY before.

// ErrWriterBusy is a write that waited for this process's other writers longer than the
// busy timeout. IsUnavailable reports it.
var ErrWriterBusy = errors.New("sqlite: database is locked (waited for other writers)")

// writeGate is held by the connection writing.
type writeGate struct {
	turn    chan struct{} // a token while taken; blocked senders are woken in order
	timeout time.Duration
}

func newWriteGate(timeout time.Duration) *writeGate {
	return &writeGate{turn: make(chan struct{}, 1), timeout: timeout}
}

// take waits for the gate; the returned func gives it back (once, however often called).
func (g *writeGate) take(ctx context.Context) (func(), error) {
	select {
	case g.turn <- struct{}{}:
	default:
		t := time.NewTimer(g.timeout)
		defer t.Stop()
		select {
		case g.turn <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-t.C:
			return nil, ErrWriterBusy
		}
	}
	var once sync.Once
	return func() { once.Do(func() { <-g.turn }) }, nil
}

// writes reports whether query may write: anything but a SELECT, VALUES, PRAGMA,
// EXPLAIN or a WITH that does not insert, update or delete. A write taken for a read
// only waits its turn; a read taken for a write meets the busy handler, as before.
func writes(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	for strings.HasPrefix(q, "--") || strings.HasPrefix(q, "/*") {
		if strings.HasPrefix(q, "--") {
			i := strings.IndexByte(q, '\n')
			if i < 0 {
				return false
			}
			q = q[i+1:]
		} else {
			i := strings.Index(q, "*/")
			if i < 0 {
				return false
			}
			q = q[i+2:]
		}
		q = strings.TrimLeft(q, " \t\r\n(")
	}
	word := q
	if i := strings.IndexAny(q, " \t\r\n(;"); i >= 0 {
		word = q[:i]
	}
	switch strings.ToUpper(word) {
	case "SELECT", "VALUES", "PRAGMA", "EXPLAIN":
		return false
	case "WITH":
		u := strings.ToUpper(q)
		return strings.Contains(u, "INSERT") || strings.Contains(u, "UPDATE") || strings.Contains(u, "DELETE") || strings.Contains(u, "REPLACE")
	}
	return true
}

// sqliteConn is what the modernc driver's connection implements.
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// gatedConnector opens the driver's connections behind one writeGate.
type gatedConnector struct {
	drv  driver.Driver
	dsn  string
	gate *writeGate
}

func (c *gatedConnector) Connect(context.Context) (driver.Conn, error) {
	cn, err := c.drv.Open(c.dsn)
	if err != nil {
		return nil, err
	}
	sc, ok := cn.(sqliteConn)
	if !ok {
		return cn, nil // not the driver this was written for: no gate
	}
	return &gatedConn{sqliteConn: sc, gate: c.gate}, nil
}

func (c *gatedConnector) Driver() driver.Driver { return c.drv }

// gatedConn takes the gate for a transaction (BEGIN to COMMIT or ROLLBACK) and for a
// write outside one. database/sql uses a connection from one goroutine at a time.
type gatedConn struct {
	sqliteConn
	gate    *writeGate
	release func() // the gate's, while a transaction is open
}

func (c *gatedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	release, err := c.gate.take(ctx)
	if err != nil {
		return nil, err
	}
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		release()
		return nil, err
	}
	c.release = release
	return &gatedTx{Tx: tx, c: c}, nil
}

// Close gives the gate back if a transaction was left open.
func (c *gatedConn) Close() error {
	defer c.endTx()
	return c.sqliteConn.Close()
}

// endTx gives back the gate a transaction took (once).
func (c *gatedConn) endTx() {
	if r := c.release; r != nil {
		c.release = nil
		r()
	}
}

// writeTurn takes the gate for query outside a transaction when it writes; done gives
// it back (nil: the gate was not needed).
func (c *gatedConn) writeTurn(ctx context.Context, query string) (done func(), err error) {
	if c.release != nil || !writes(query) {
		return nil, nil
	}
	return c.gate.take(ctx)
}

// exec runs exec, query's, in its turn when it needs one.
func (c *gatedConn) exec(ctx context.Context, query string, exec func() (driver.Result, error)) (driver.Result, error) {
	done, err := c.writeTurn(ctx, query)
	if err != nil {
		return nil, err
	}
	if done != nil {
		defer done()
	}
	return exec()
}

// query runs run, query's, in its turn when it needs one, held until its rows close: a
// write that returns rows (RETURNING) ends then.
func (c *gatedConn) query(ctx context.Context, query string, run func() (driver.Rows, error)) (driver.Rows, error) {
	done, err := c.writeTurn(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := run()
	return closing(rows, err, done)
}

func (c *gatedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	return c.exec(ctx, query, func() (driver.Result, error) { return c.sqliteConn.ExecContext(ctx, query, args) })
}

func (c *gatedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	return c.query(ctx, query, func() (driver.Rows, error) { return c.sqliteConn.QueryContext(ctx, query, args) })
}

func (c *gatedConn) PrepareContext(ctx context.Context, query string) (driver.Stmt, error) {
	st, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil || !writes(query) {
		return st, err
	}
	if sst, ok := st.(sqliteStmt); ok {
		return &gatedStmt{sqliteStmt: sst, c: c, query: query}, nil
	}
	return st, nil
}

// gatedTx gives the gate back when the transaction ends.
type gatedTx struct {
	driver.Tx
	c *gatedConn
}

func (t *gatedTx) Commit() error {
	defer t.c.endTx()
	return t.Tx.Commit()
}

func (t *gatedTx) Rollback() error {
	defer t.c.endTx()
	return t.Tx.Rollback()
}

// sqliteStmt is what the driver's prepared statement implements.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// gatedStmt is a prepared write: it takes its connection's turn when run outside a
// transaction.
type gatedStmt struct {
	sqliteStmt
	c     *gatedConn
	query string
}

func (s *gatedStmt) ExecContext(ctx context.Context, args []driver.NamedValue) (driver.Result, error) {
	return s.c.exec(ctx, s.query, func() (driver.Result, error) { return s.sqliteStmt.ExecContext(ctx, args) })
}

func (s *gatedStmt) QueryContext(ctx context.Context, args []driver.NamedValue) (driver.Rows, error) {
	return s.c.query(ctx, s.query, func() (driver.Rows, error) { return s.sqliteStmt.QueryContext(ctx, args) })
}

// sqliteRows is what the driver's rows implement.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

type gatedRows struct {
	sqliteRows
	done func()
}

func (r *gatedRows) Close() error {
	defer r.done()
	return r.sqliteRows.Close()
}

type gatedPlainRows struct {
	driver.Rows
	done func()
}

func (r *gatedPlainRows) Close() error {
	defer r.done()
	return r.Rows.Close()
}

// closing returns the rows of a query that took the gate (done not nil) so that they give
// it back when closed.
func closing(rows driver.Rows, err error, done func()) (driver.Rows, error) {
	switch {
	case done == nil:
		return rows, err
	case err != nil:
		done()
		return nil, err
	}
	if sr, ok := rows.(sqliteRows); ok {
		return &gatedRows{sqliteRows: sr, done: done}, nil
	}
	return &gatedPlainRows{Rows: rows, done: done}, nil
}

// SQLiteConns is the SQLite pool's size: readers run in parallel under WAL, and a writer
// waiting for its turn holds a connection. Measured under bench-load on two CPUs, 16 and
// 32 made reads faster and writes slower (the writer shares the CPUs with more readers
// while every other writer waits for it): the mix's p99 rose from 80 to 92 and 109 ms.
const SQLiteConns = 8

// SQLiteBusyTimeout is how long a write waits for its turn (the DSN's busy_timeout).
const SQLiteBusyTimeout = 5 * time.Second

// openGated opens a pool of SQLite connections to dsn behind one write gate, where a
// writer waits at most timeout for its turn.
func openGated(dsn string, timeout time.Duration) (*sql.DB, error) {
	d, err := sql.Open("sqlite", dsn) // connects to nothing: it names the driver
	if err != nil {
		return nil, err
	}
	drv := d.Driver()
	_ = d.Close()
	return sql.OpenDB(&gatedConnector{drv: drv, dsn: dsn, gate: newWriteGate(timeout)}), nil
}
