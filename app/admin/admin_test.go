package admin

import (
	"testing"
	"time"

	"meritmark/app/model"
)

func TestRoleChangeRule(t *testing.T) {
	admin := &model.User{ID: "a", Role: model.RoleAdmin}
	member := &model.User{ID: "m", Role: model.RoleUser}
	for _, c := range []struct {
		actor  string
		target *model.User
		role   string
		admins int
		want   string
	}{
		{"a", admin, model.RoleUser, 3, MsgSelfDemotion},
		{"a", admin, model.RoleUser, 1, MsgSelfDemotion},
		{"a", admin, model.RoleAdmin, 1, ""},
		{"x", admin, model.RoleUser, 1, MsgLastAdmin},
		{"x", admin, model.RoleUser, 0, MsgLastAdmin},
		{"x", admin, model.RoleUser, 2, ""},
		{"a", member, model.RoleAdmin, 0, ""},
		{"a", member, model.RoleUser, 0, ""},
	} {
		if got := RoleChangeRule(c.actor, c.target, c.role, c.admins); got != c.want {
			t.Errorf("%+v: %q, want %q", c, got, c.want)
		}
	}
}

func TestParsers(t *testing.T) {
	if p, msg := ParsePage("", ""); msg != "" || p.Page != 1 || p.Limit != DefaultLimit || p.Offset() != 0 {
		t.Fatalf("defaults: %+v %q", p, msg)
	}
	if p, msg := ParsePage("3", "10"); msg != "" || p.Offset() != 20 {
		t.Fatalf("3/10: %+v %q", p, msg)
	}
	for _, c := range [][3]string{{"0", "", MsgBadPage}, {"x", "", MsgBadPage}, {"", "0", MsgBadLimit}, {"", "101", MsgBadLimit}, {"", "1.5", MsgBadLimit}} {
		if _, msg := ParsePage(c[0], c[1]); msg != c[2] {
			t.Errorf("%v: %q", c, msg)
		}
	}
	if i := (Page{Page: 1, Limit: 20}).Info(41); i.TotalPages != 3 || i.Total != 41 {
		t.Fatalf("info %+v", i)
	}
	if i := (Page{Page: 1, Limit: 20}).Info(0); i.TotalPages != 0 {
		t.Fatalf("empty info %+v", i)
	}
	if r, msg := CleanReason("   "); r != DefaultRejectionReason || msg != "" {
		t.Fatalf("blank reason: %q %q", r, msg)
	}
	if r, _ := CleanReason(" Blurry "); r != "Blurry" {
		t.Fatalf("reason %q", r)
	}
	if got := LikePattern(`A%b_c\`); got != `%a\%b\_c\\%` {
		t.Fatalf("like %q", got)
	}
	if s, msg := ParseStatuses("review"); msg != "" || len(s) != 2 {
		t.Fatalf("review: %v %q", s, msg)
	}
	if _, msg := ParseStatuses("paid"); msg != MsgBadStatus {
		t.Fatalf("bad status: %q", msg)
	}
	for e, ok := range map[string]bool{"a@b.co": true, "a.b+c@d.example.org": true, "a@b": false, "a b@c.io": false, "<a@b.io>": false, "a@.io": false, "@b.io": false} {
		if ValidEmail(e) != ok {
			t.Errorf("ValidEmail(%q) = %v", e, !ok)
		}
	}
}

func TestSeries(t *testing.T) {
	since := time.Date(2026, 2, 27, 0, 0, 0, 0, time.UTC)
	days := Series(since, 4, []dayCount{{"2026-02-28", 2}, {"2026-03-02", 5}}, []dayCount{{"2026-03-01", 1999}})
	want := []Day{{"2026-02-27", 0, 0}, {"2026-02-28", 2, 0}, {"2026-03-01", 0, 19.99}, {"2026-03-02", 5, 0}}
	for i := range want {
		if days[i] != want[i] {
			t.Fatalf("day %d: %+v, want %+v", i, days[i], want[i])
		}
	}
}
