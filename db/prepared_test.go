package db_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/db"
)

type nameRow struct {
	ID   string `bun:"id"`
	Name string `bun:"name"`
}

// byEmailSQL has a ? inside quotes, which is not an argument.
const byEmailSQL = `SELECT id, name FROM users WHERE email = ? AND name <> '?' ORDER BY id`

func addUser(t testing.TB, d bun.IDB, name, email string) *model.User {
	t.Helper()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: name, Email: email, PasswordHash: "x", Role: "user", Skills: []string{}, CreatedAt: now, UpdatedAt: now}
	if _, err := d.NewInsert().Model(u).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	return u
}

func names(t *testing.T, p *db.Prepared, d bun.IDB, email string) string {
	t.Helper()
	var rows []nameRow
	if err := p.Scan(context.Background(), d, &rows, byEmailSQL, email); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(rows)
}

func TestPreparedBindsItsArgumentsAndIsPreparedOnce(t *testing.T) {
	d := apptest.OpenDB(t)
	a := addUser(t, d, "Ada", "ada@example.com")
	addUser(t, d, "Bob", "bob@example.com")
	var p db.Prepared
	if got, want := names(t, &p, d, "ada@example.com"), fmt.Sprint([]nameRow{{a.ID, "Ada"}}); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	stmt := db.StmtOf(&p)
	if stmt == nil {
		t.Fatal("nothing was prepared")
	}
	if got := names(t, &p, d, "nobody@example.com"); got != "[]" {
		t.Fatalf("an unknown email found %s", got)
	}
	if db.StmtOf(&p) != stmt {
		t.Fatal("the statement was prepared again")
	}
}

func TestPreparedInATransactionSeesItsWrites(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	var p db.Prepared
	names(t, &p, d, "cy@example.com") // prepared on the database first
	errRollback := fmt.Errorf("roll back")
	err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		u := addUser(t, tx, "Cy", "cy@example.com")
		if got, want := names(t, &p, tx, "cy@example.com"), fmt.Sprint([]nameRow{{u.ID, "Cy"}}); got != want {
			t.Errorf("in the transaction: got %s, want %s", got, want)
		}
		return errRollback
	})
	if err != errRollback {
		t.Fatal(err)
	}
	if got := names(t, &p, d, "cy@example.com"); got != "[]" {
		t.Fatalf("after the rollback: %s", got)
	}
}

// A read first made in a transaction is prepared beside it (for the next call), and then
// runs prepared in later transactions too.
func TestPreparedInATransactionIsPrepared(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	var p db.Prepared
	for i := 0; i < 2; i++ {
		if err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			u := addUser(t, tx, "Cy", fmt.Sprintf("cy%d@example.com", i))
			if got, want := names(t, &p, tx, u.Email), fmt.Sprint([]nameRow{{u.ID, "Cy"}}); got != want {
				t.Errorf("in transaction %d: got %s, want %s", i, got, want)
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(5 * time.Second); db.StmtOf(&p) == nil; time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the read in the transaction was never prepared")
			}
		}
	}
	stmt := db.StmtOf(&p)
	names(t, &p, d, "cy0@example.com")
	if db.StmtOf(&p) != stmt {
		t.Fatal("the statement was prepared again outside the transaction")
	}
}

// A transaction holding the pool's last connection never waits for another to prepare a
// read (every connection could be a transaction doing the same).
func TestPreparedInATransactionNeedsNoOtherConnection(t *testing.T) {
	d := apptest.OpenDB(t)
	d.SetMaxOpenConns(1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	var p db.Prepared
	if err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		var rows []nameRow
		return p.Scan(ctx, tx, &rows, byEmailSQL, "nobody@example.com")
	}); err != nil {
		t.Fatalf("a read in the transaction: %v", err)
	}
}

// ScanBuilt writes its SQL with bun's builder once per database, and scans into the model
// as bun's own select does.
func TestScanBuiltBuildsOncePerDatabase(t *testing.T) {
	d1, d2 := apptest.OpenDB(t), apptest.OpenDB(t)
	a := addUser(t, d1, "Gus", "gus@example.com")
	b := addUser(t, d2, "Gus Two", "gus@example.com")
	var p db.Prepared
	builds := 0
	read := func(d bun.IDB) *model.User {
		u := new(model.User)
		if err := p.ScanBuilt(context.Background(), d, u, func(d bun.IDB) string {
			builds++
			return d.NewSelect().Model(u).Where("email = ?", bun.Safe("?")).String()
		}, "gus@example.com"); err != nil {
			t.Fatal(err)
		}
		return u
	}
	for i := 0; i < 3; i++ {
		if u := read(d1); u.ID != a.ID || u.Name != "Gus" || u.Role != "user" {
			t.Fatalf("first database: %+v", u)
		}
	}
	if builds != 1 {
		t.Fatalf("built %d times for one database", builds)
	}
	if u := read(d2); u.ID != b.ID {
		t.Fatalf("second database: %+v", u)
	}
	if builds != 2 {
		t.Fatalf("built %d times for two databases", builds)
	}
}

// TimeArg compares with a time column as the time bun writes into the SQL does, to the
// microsecond and on both sides of it.
func TestTimeArgComparesAsBunDoes(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	at := time.Date(2026, 11, 26, 10, 0, 0, 500_000, time.UTC) // a fraction: the texts' hardest case
	u := addUser(t, d, "Hal", "hal@example.com")
	if _, err := d.NewUpdate().Model((*model.User)(nil)).Set("updated_at = ?", at).Where("id = ?", u.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	const q = `SELECT count(*) FROM users WHERE id = ? AND updated_at > ?`
	for _, than := range []time.Time{at.Add(-time.Microsecond), at, at.Add(time.Microsecond), at.Truncate(time.Second), at.Add(time.Second).Truncate(time.Second)} {
		var bunSays, prepared int
		if err := d.NewRaw(q, u.ID, than).Scan(ctx, &bunSays); err != nil {
			t.Fatal(err)
		}
		var p db.Prepared
		if err := p.Scan(ctx, d, &prepared, q, u.ID, db.TimeArg(d, than)); err != nil {
			t.Fatal(err)
		}
		if want := b2i(at.After(than)); bunSays != want || prepared != want {
			t.Errorf("updated_at > %s: bun %d, prepared %d, want %d", than.Format(time.RFC3339Nano), bunSays, prepared, want)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A column added by another instance's migration leaves a prepared statement working.
func TestPreparedSurvivesAnAddedColumn(t *testing.T) {
	d := apptest.OpenDB(t)
	a := addUser(t, d, "Dee", "dee@example.com")
	var p db.Prepared
	want := fmt.Sprint([]nameRow{{a.ID, "Dee"}})
	if got := names(t, &p, d, "dee@example.com"); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if _, err := d.ExecContext(context.Background(), `ALTER TABLE users ADD COLUMN prepared_test_extra TEXT`); err != nil {
		t.Fatal(err)
	}
	if got := names(t, &p, d, "dee@example.com"); got != want {
		t.Fatalf("after ALTER TABLE: got %s, want %s", got, want)
	}
}

// One Prepared used with two databases (as tests do) reads each one's rows.
func TestPreparedFollowsTheDatabase(t *testing.T) {
	d1, d2 := apptest.OpenDB(t), apptest.OpenDB(t)
	a := addUser(t, d1, "Eve", "eve@example.com")
	b := addUser(t, d2, "Eve Two", "eve@example.com")
	var p db.Prepared
	for i := 0; i < 2; i++ {
		if got, want := names(t, &p, d1, "eve@example.com"), fmt.Sprint([]nameRow{{a.ID, "Eve"}}); got != want {
			t.Fatalf("first database: got %s, want %s", got, want)
		}
		if got, want := names(t, &p, d2, "eve@example.com"), fmt.Sprint([]nameRow{{b.ID, "Eve Two"}}); got != want {
			t.Fatalf("second database: got %s, want %s", got, want)
		}
	}
}

func TestDollarPlaceholders(t *testing.T) {
	for in, want := range map[string]string{
		`a = ? AND b = ?`:            `a = $1 AND b = $2`,
		`a = '?' AND b = ?`:          `a = '?' AND b = $1`,
		`a = 'it''s ?' AND "c?" = ?`: `a = 'it''s ?' AND "c?" = $1`,
		`no arguments`:               `no arguments`,
	} {
		if got := db.DollarPlaceholders(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// BenchmarkLookup: a session-style lookup by key, bun's raw query (arguments written into
// the SQL, so parsed each time) against the same read prepared.
func BenchmarkLookup(b *testing.B) {
	d := apptest.OpenDB(b)
	ctx := context.Background()
	emails := make([]string, 200)
	for i := range emails {
		emails[i] = fmt.Sprintf("u%03d@example.com", i)
		addUser(b, d, fmt.Sprintf("User %d", i), emails[i])
	}
	const q = `SELECT u.id, u.name FROM users AS u WHERE u.email = ?`
	b.Run("raw", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			var rows []nameRow
			if err := d.NewRaw(q, emails[i%len(emails)]).Scan(ctx, &rows); err != nil || len(rows) != 1 {
				b.Fatal(err, len(rows))
			}
		}
	})
	b.Run("prepared", func(b *testing.B) {
		var p db.Prepared
		for i := 0; i < b.N; i++ {
			var rows []nameRow
			if err := p.Scan(ctx, d, &rows, q, emails[i%len(emails)]); err != nil || len(rows) != 1 {
				b.Fatal(err, len(rows))
			}
		}
	})
}

type hookLog struct{ queries []string }

func (h *hookLog) BeforeQuery(ctx context.Context, e *bun.QueryEvent) context.Context {
	h.queries = append(h.queries, e.Query)
	return ctx
}
func (h *hookLog) AfterQuery(context.Context, *bun.QueryEvent) {}

// Query hooks (the tests that count a page's queries) see prepared reads as bun's own, and
// a struct with no row is sql.ErrNoRows as with bun's Scan.
func TestPreparedReadsAreBunReads(t *testing.T) {
	d := apptest.OpenDB(t)
	a := addUser(t, d, "Flo", "flo@example.com")
	h := &hookLog{}
	hooked := d.WithQueryHook(h)
	var p db.Prepared
	var one nameRow
	if err := p.Scan(context.Background(), hooked, &one, byEmailSQL, "flo@example.com"); err != nil || one.ID != a.ID {
		t.Fatalf("got %+v, %v", one, err)
	}
	err := p.Scan(context.Background(), hooked, &one, byEmailSQL, "nobody@example.com")
	if !db.IsNoRows(err) {
		t.Fatalf("no row: %v", err)
	}
	if len(h.queries) != 2 || !strings.Contains(h.queries[0], "'flo@example.com'") {
		t.Fatalf("the hook saw %q", h.queries)
	}
}
