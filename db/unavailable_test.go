package db_test

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"

	"meritmark/db"
)

// The errors a database outage produces are "unavailable" (503 and a retry), the errors
// of a bad request or a bug are not.
func TestIsUnavailableClassifiesOutages(t *testing.T) {
	reset := &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.ECONNRESET)}
	for _, err := range []error{
		fmt.Errorf("write failed: %w", reset),
		&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)},
		fmt.Errorf("failed to receive message: %w", io.ErrUnexpectedEOF),
		driver.ErrBadConn,
		fmt.Errorf("commit: %w", sql.ErrConnDone),
		fmt.Errorf("query: %w", syscall.EPIPE),
		&pgconn.PgError{Code: "57P01", Message: "terminating connection due to administrator command"},
		&pgconn.PgError{Code: "08006"},
		&pgconn.PgError{Code: "53300", Message: "too many connections"},
	} {
		if !db.IsUnavailable(err) {
			t.Errorf("%v: not unavailable", err)
		}
	}
	for _, err := range []error{
		nil,
		sql.ErrNoRows,
		errors.New("something else"),
		&pgconn.PgError{Code: "23505"},
		&pgconn.PgError{Code: "42601", Message: "syntax error"},
		context.Canceled,
	} {
		if db.IsUnavailable(err) {
			t.Errorf("%v: unavailable", err)
		}
	}
}

// A SQLite write lock held by another process past the busy timeout is unavailable.
func TestSQLiteLockPastBusyTimeoutIsUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock.db")
	open := func() *sql.DB {
		d, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(50)&_pragma=journal_mode(WAL)&_txlock=immediate")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		return d
	}
	a, b := open(), open()
	if _, err := a.Exec("CREATE TABLE x (v INTEGER)"); err != nil {
		t.Fatal(err)
	}
	tx, err := a.Begin() // holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	_, err = b.Exec("INSERT INTO x VALUES (1)")
	if err == nil || !db.IsUnavailable(err) {
		t.Fatalf("write under another's lock: %v (unavailable: %v)", err, db.IsUnavailable(err))
	}
	if _, err := b.Exec("INSERT INTO x (nope) VALUES (1)"); err == nil || db.IsUnavailable(err) {
		t.Fatalf("a bad statement: %v", err)
	}
}
