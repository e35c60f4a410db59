package db_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"meritmark/db"
)

func TestWritesTellsAWriteFromARead(t *testing.T) {
	for q, want := range map[string]bool{
		"SELECT 1":                                           false,
		"  select * from users":                              false,
		"(SELECT 1) UNION (SELECT 2)":                        false,
		"WITH x AS (SELECT 1) SELECT * FROM x":               false,
		"PRAGMA data_version":                                false,
		"EXPLAIN QUERY PLAN SELECT 1":                        false,
		"VALUES (1)":                                         false,
		"-- a note\nSELECT 1":                                false,
		"/* a note */ SELECT 1":                              false,
		"INSERT INTO t VALUES (1)":                           true,
		"insert into t values (1) returning id":              true,
		"UPDATE t SET a = 1":                                 true,
		"DELETE FROM t":                                      true,
		"REPLACE INTO t VALUES (1)":                          true,
		"CREATE TABLE t (a INT)":                             true,
		"-- a note\nDELETE FROM t":                           true,
		"WITH x AS (SELECT 1) DELETE FROM t WHERE a IN x":    true,
		"WITH x AS (SELECT 1) INSERT INTO t SELECT * FROM x": true,
	} {
		if got := db.Writes(q); got != want {
			t.Errorf("writes(%q) = %v, want %v", q, got, want)
		}
	}
}

// openGated is a fresh SQLite file with a table t, whose writers wait at most timeout for
// their turn.
func openGated(t *testing.T, timeout time.Duration) *sql.DB {
	t.Helper()
	d, err := db.OpenGated(filepath.Join(t.TempDir(), "gate.db"), timeout)
	if err != nil {
		t.Fatal(err)
	}
	d.SetMaxOpenConns(8)
	t.Cleanup(func() { d.Close() })
	if _, err := d.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INT)"); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestAWriterWaitsForTheOpenTransactionAndThenGivesUp(t *testing.T) {
	d := openGated(t, 150*time.Millisecond)
	ctx := context.Background()
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	// a write outside the transaction, and another transaction, wait for its end
	_, err = d.ExecContext(ctx, "INSERT INTO t (a) VALUES (1)")
	if !errors.Is(err, db.ErrWriterBusy) || !db.IsUnavailable(err) {
		t.Fatalf("a write during another's transaction: %v", err)
	}
	if _, err := d.BeginTx(ctx, nil); !errors.Is(err, db.ErrWriterBusy) {
		t.Fatalf("a transaction during another's: %v", err)
	}
	// one whose context ends while it waits says so
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := d.ExecContext(cctx, "INSERT INTO t (a) VALUES (1)"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a write whose context ended: %v", err)
	}
	// reads do not wait
	var n int
	if err := d.QueryRowContext(ctx, "SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != 0 {
		t.Fatalf("a read during a transaction: %d, %v", n, err)
	}
	// a write that was waiting when the transaction ended goes through at once
	done := make(chan error, 1)
	go func() {
		_, err := d.ExecContext(ctx, "INSERT INTO t (a) VALUES (2)")
		done <- err
	}()
	time.Sleep(20 * time.Millisecond)
	if _, err := tx.ExecContext(ctx, "INSERT INTO t (a) VALUES (1)"); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the waiting write: %v", err)
	}
	// a transaction rolled back gives the turn back too
	tx, err = d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO t (a) VALUES (3)"); err != nil {
		t.Fatalf("a write after a rollback: %v", err)
	}
}

func TestAWriteReturningRowsHoldsItsTurnUntilTheyClose(t *testing.T) {
	d := openGated(t, 100*time.Millisecond)
	ctx := context.Background()
	rows, err := d.QueryContext(ctx, "INSERT INTO t (a) VALUES (1) RETURNING id")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO t (a) VALUES (2)"); !errors.Is(err, db.ErrWriterBusy) {
		t.Fatalf("a write while RETURNING rows are open: %v", err)
	}
	var id int
	for rows.Next() {
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
	}
	if err := rows.Close(); err != nil || id != 1 {
		t.Fatalf("returned id %d, %v", id, err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO t (a) VALUES (2)"); err != nil {
		t.Fatalf("a write after the rows closed: %v", err)
	}
	// a prepared write takes its turn too
	st, err := d.PrepareContext(ctx, "UPDATE t SET a = a + 1")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tx, err := d.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.ExecContext(ctx); !errors.Is(err, db.ErrWriterBusy) {
		t.Fatalf("a prepared write during a transaction: %v", err)
	}
	if _, err := tx.StmtContext(ctx, st).ExecContext(ctx); err != nil {
		t.Fatalf("the prepared write in the transaction: %v", err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func TestConcurrentWritersAllLand(t *testing.T) {
	d := openGated(t, 5*time.Second)
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				var err error
				if i%2 == 0 {
					_, err = d.ExecContext(ctx, "INSERT INTO t (a) VALUES (?)", i)
				} else {
					var tx *sql.Tx
					if tx, err = d.BeginTx(ctx, nil); err == nil {
						if _, err = tx.ExecContext(ctx, "INSERT INTO t (a) VALUES (?)", i); err == nil {
							err = tx.Commit()
						} else {
							_ = tx.Rollback()
						}
					}
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var n int
	if err := d.QueryRow("SELECT COUNT(*) FROM t").Scan(&n); err != nil || n != 16*25 {
		t.Fatalf("%d rows, %v", n, err)
	}
}

// BenchmarkSQLiteWriters runs small write transactions from 16 goroutines a CPU, with
// the write gate and with SQLite's busy handler alone.
func BenchmarkSQLiteWriters(b *testing.B) {
	for _, gated := range []bool{true, false} {
		name := "busy-handler"
		if gated {
			name = "gate"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "w.db")
			var d *sql.DB
			var err error
			if gated {
				d, err = db.OpenGated(path, 5*time.Second)
			} else {
				d, err = sql.Open("sqlite", db.SQLiteDSN(path))
			}
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			d.SetMaxOpenConns(8)
			if _, err := d.Exec("CREATE TABLE t (id INTEGER PRIMARY KEY, a INT)"); err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			b.SetParallelism(16)
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					tx, err := d.BeginTx(ctx, nil)
					if err != nil {
						b.Error(err)
						return
					}
					var n int
					if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM t WHERE a = 1").Scan(&n); err != nil {
						b.Error(err)
					}
					if _, err := tx.ExecContext(ctx, "INSERT INTO t (a) VALUES (1)"); err != nil {
						b.Error(err)
					}
					if err := tx.Commit(); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}
