package session_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/db"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// Lookup reads the session and its user in one query; every field of both comes back.
func TestLookupReturnsSessionAndUser(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := context.Background()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: "Ada Lovelace", Email: "ada@x.io", PasswordHash: "x", Role: model.RoleAdmin,
		Position: "Analyst", LinkedIn: "https://linkedin.com/in/ada", Company: "Engines", Experience: 7,
		Skills: []string{"math", "poetry"}, CreatedAt: now.Add(-time.Hour), UpdatedAt: now}
	if _, err := d.NewInsert().Model(u).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	clock := now
	s := &session.Store{DB: d, Idle: time.Hour, MaxAge: 24 * time.Hour, Now: func() time.Time { return clock }}
	tok, err := s.Create(ctx, d, u.ID, "10.0.0.1", "test-agent")
	if err != nil {
		t.Fatal(err)
	}

	sess, got, err := s.Lookup(ctx, tok)
	if err != nil {
		t.Fatal(err)
	}
	apptest.Expect(t, "session =", sess,
		apptest.Eq("sess.ID", sess.ID, session.Hash(tok)),
		apptest.Eq("sess.UserID", sess.UserID, u.ID),
		apptest.Eq("sess.IP", sess.IP, "10.0.0.1"),
		apptest.Eq("sess.UserAgent", sess.UserAgent, "test-agent"),
		apptest.True("sess.ExpiresAt.Equal(now.Add(24*time.Hour))", sess.ExpiresAt.Equal(now.Add(24*time.Hour))),
		apptest.True("sess.LastSeenAt.Equal(now)", sess.LastSeenAt.Equal(now)))
	apptest.Expect(t, "user =", got,
		apptest.Eq("got.ID", got.ID, u.ID),
		apptest.Eq("got.Name", got.Name, u.Name),
		apptest.Eq("got.Email", got.Email, u.Email),
		apptest.Eq("got.Role", got.Role, model.RoleAdmin),
		apptest.Eq("got.Position", got.Position, "Analyst"),
		apptest.Eq("got.LinkedIn", got.LinkedIn, u.LinkedIn),
		apptest.Eq("got.Company", got.Company, "Engines"),
		apptest.Eq("got.Experience", got.Experience, 7),
		apptest.Eq("len(got.Skills)", len(got.Skills), 2))
	apptest.Expect(t, "user =", got,
		apptest.Eq("got.Skills[1]", got.Skills[1], "poetry"),
		apptest.True("got.CreatedAt.Equal(u.CreatedAt)", got.CreatedAt.Equal(u.CreatedAt)))

	// last_seen_at is written at most once a minute
	clock = now.Add(2 * time.Minute)
	if _, _, err := s.Lookup(ctx, tok); err != nil {
		t.Fatal(err)
	}
	var seen model.Session
	if err := d.NewSelect().Model(&seen).Where("id = ?", session.Hash(tok)).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if !seen.LastSeenAt.Equal(clock) {
		t.Fatalf("last_seen_at = %s, want %s", seen.LastSeenAt, clock)
	}

	// unknown, malformed and idle-expired tokens are not found; the expired row is deleted
	for _, bad := range []string{"", "nope", session.NewToken()} {
		if _, _, err := s.Lookup(ctx, bad); !errors.Is(err, db.ErrNotFound) {
			t.Fatalf("Lookup(%q) = %v, want ErrNotFound", bad, err)
		}
	}
	clock = clock.Add(2 * time.Hour)
	if _, _, err := s.Lookup(ctx, tok); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("idle session: %v, want ErrNotFound", err)
	}
	if n, _ := d.NewSelect().Model((*model.Session)(nil)).Where("id = ?", session.Hash(tok)).Count(ctx); n != 0 {
		t.Fatal("the idle session was not deleted")
	}

	// a deleted user's session is gone with it
	tok2, err := s.Create(ctx, d, u.ID, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.NewDelete().Model((*model.User)(nil)).Where("id = ?", u.ID).Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.Lookup(ctx, tok2); !errors.Is(err, db.ErrNotFound) {
		t.Fatalf("session of a deleted user: %v, want ErrNotFound", err)
	}
}
