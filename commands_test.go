package main

import (
	"context"
	"flag"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"meritmark/app/model"
	"meritmark/db"
)

// A command's own flags are taken out of the arguments; the settings' flags stay.
func TestCommandFlags(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	email := fs.String("email", "", "")
	keep := fs.Bool("keep", false, "")
	rest, err := commandFlags(fs, []string{"--email", "a@b.test", "--data-dir", "/d", "--keep", "-addr=:1"})
	if err != nil || *email != "a@b.test" || !*keep || !reflect.DeepEqual(rest, []string{"--data-dir", "/d", "-addr=:1"}) {
		t.Fatalf("email %q keep %v rest %q err %v", *email, *keep, rest, err)
	}
}

// create-admin on a member's address asks for --promote instead of promoting silently.
func TestCreateAdminAsksToPromote(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data")
	t.Setenv("MERITMARK_DATA_DIR", dir)
	t.Setenv("DATABASE_URL", "")
	if err := run([]string{"create-admin", "--email", "ops@example.com", "--password", "quartz-window-harbour", "--name", "Ops"}); err != nil {
		t.Fatal(err)
	}
	// an existing admin: the password is reset, as before
	if err := run([]string{"create-admin", "--email", "ops@example.com", "--password", "quartz-window-harbour2", "--name", "Ops"}); err != nil {
		t.Fatal(err)
	}
	if err := run([]string{"disable-user", "--email", "ops@example.com"}); err == nil || !strings.Contains(err.Error(), "last enabled administrator") {
		t.Fatalf("disabling the only admin: %v", err)
	}
	if err := run([]string{"reset-2fa", "--email", "nobody@example.com"}); err == nil {
		t.Fatal("an unknown account was accepted")
	}
	if err := run([]string{"version"}); err != nil {
		t.Fatal(err)
	}

	// a member's account
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	now := model.Now()
	if _, err := d.NewInsert().Model(&model.User{ID: model.NewID(), Name: "Mia", Email: "mia@example.com", PasswordHash: "x",
		Role: model.RoleUser, Skills: []string{}, CreatedAt: now, UpdatedAt: now}).Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	args := []string{"create-admin", "--email", "mia@example.com", "--password", "quartz-window-harbour", "--name", "Mia"}
	if err := run(args); err == nil || !strings.Contains(err.Error(), "--promote") {
		t.Fatalf("a member was made an admin without --promote: %v", err)
	}
	role := func() string {
		var r string
		if err := d.NewSelect().Table("users").Column("role").Where("email = ?", "mia@example.com").Scan(context.Background(), &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if role() != model.RoleUser {
		t.Fatal("refused, yet promoted")
	}
	if err := run(append(args, "--promote")); err != nil || role() != model.RoleAdmin {
		t.Fatalf("--promote: %v, role %s", err, role())
	}
}
