package badgeadmin_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// A refusal about one form field names it ({"msg", "field"}); a save that changes
// nothing writes no audit row.
func TestRefusalsNameTheirFieldAndNoOpSaves(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	createBadge(t, c, map[string]any{"name": "Taken Name", "category": "Design"})
	b := createBadge(t, c, map[string]any{"name": "Mine", "category": "Design", "type": "proof"})
	for _, tc := range []struct {
		body       map[string]any
		status     int
		msg, field string
	}{
		{map[string]any{"name": "taken name", "category": "Design"}, 409, "A badge with this name already exists.", "name"},
		{map[string]any{"name": "", "category": "Design"}, 400, "Badge name is required.", "name"},
		{map[string]any{"name": "X", "category": "Cooking"}, 400, "Category must be one of: Development, Design, Management, Data Science, Marketing, DevOps.", "category"},
		{map[string]any{"name": "X", "category": "Design", "price": -1}, 400, "Price cannot be negative.", "price"},
	} {
		m := c.Post("/badge-management/badges", tc.body).ExpectMsg(tc.status, tc.msg).Map()
		if m["field"] != tc.field {
			t.Errorf("%s: field %v, want %q", tc.msg, m["field"], tc.field)
		}
	}
	form := map[string]any{"name": b.Name, "description": b.Description, "category": b.Category, "type": b.Type, "level": b.Level,
		"price": b.Price, "icon": b.Icon, "color": b.Color, "criteria": b.Criteria, "requiresResume": b.RequiresResume, "validDays": nil, "validMonths": nil}
	audits := func() int {
		return count(t, e, (*model.AuditEntry)(nil), "target_id = ? AND action = 'badge.update'", b.ID)
	}
	c.Put("/badge-management/badges/"+b.ID, form).ExpectMsg(200, "Badge updated successfully")
	if n := audits(); n != 0 {
		t.Fatalf("%d audit rows after a save that changed nothing", n)
	}
	form["criteria"] = "New criteria"
	c.Put("/badge-management/badges/"+b.ID, form).ExpectMsg(200, "Badge updated successfully")
	if n := audits(); n != 1 {
		t.Fatalf("%d audit rows after a change, want 1", n)
	}
}
