package db_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/db"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func TestUniqueViolationIsMappedOnThisEngine(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "A", Email: "a@example.com", PasswordHash: "x", Role: "user", Skills: []string{}, CreatedAt: now, UpdatedAt: now}
	if _, err := d.NewInsert().Model(u).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	u2 := *u
	u2.ID = model.NewID()
	_, err := d.NewInsert().Model(&u2).Exec(ctx)
	if !db.IsUniqueViolation(err) {
		t.Fatalf("duplicate email: %v is not a unique violation", err)
	}
	if db.IsUniqueViolation(errors.New("other")) || db.IsUniqueViolation(nil) {
		t.Fatal("false positive")
	}
	var got model.User
	if err := d.NewSelect().Model(&got).Where("id = ?", u.ID).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if !got.CreatedAt.Equal(now) || got.CreatedAt.Location().String() != "UTC" && got.CreatedAt.UTC() != now {
		t.Fatalf("time round trip: %v vs %v", got.CreatedAt, now)
	}
}

func TestMigrateIsIdempotentAndConcurrent(t *testing.T) {
	d := apptest.OpenDB(t) // already migrated once
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- db.Migrate(ctx, d) }()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	n, err := d.NewSelect().Table("bun_migrations").Count(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n < 2 {
		t.Fatalf("migrations recorded: %d", n)
	}
}

func TestOpenRejectsUnknownURL(t *testing.T) {
	if _, err := db.Open(context.Background(), "mysql://x", ""); err == nil {
		t.Fatal("mysql URL accepted")
	}
}

// The SQLite file (and the data dir holding it) is this user's alone; an older, wider
// file is narrowed when it is opened.
func TestSQLiteFilesArePrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Exec("CREATE TABLE t (x INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{dir: 0o700, filepath.Join(dir, "meritmark.db"): 0o600, filepath.Join(dir, "meritmark.db-wal"): 0o600} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s is %04o, want %04o", p, st.Mode().Perm(), want)
		}
	}
	d.Close()
	if err := os.Chmod(filepath.Join(dir, "meritmark.db"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err = db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	if st, _ := os.Stat(filepath.Join(dir, "meritmark.db")); st.Mode().Perm() != 0o600 {
		t.Fatalf("an older 0644 file stays %04o", st.Mode().Perm())
	}
}
