package coupon_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// A refusal about one form field names it ({"msg", "field"}), so the dialog shows the
// message beside that field instead of in a toast over its buttons.
func TestRefusalsNameTheirField(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	cp := create(t, c, map[string]any{"code": "TAKEN"})
	for _, tc := range []struct {
		body       map[string]any
		status     int
		msg, field string
	}{
		{map[string]any{"code": "taken"}, 409, "A coupon with this code already exists.", "code"},
		{map[string]any{"code": "AB"}, 400, "Coupon code must be 3 to 32 characters: letters, digits, - or _.", "code"},
		{map[string]any{"code": "NEW1", "discountValue": 150}, 400, "A percentage discount must be between 1 and 100.", "discountValue"},
		{map[string]any{"code": "NEW1", "minimumAmount": -1}, 400, "Minimum amount cannot be negative.", "minimumAmount"},
		{map[string]any{"code": "NEW1", "usageLimit": 0}, 400, "Usage limit must be a whole number of at least 1, or empty for unlimited.", "usageLimit"},
		{map[string]any{"code": "NEW1", "validFrom": "2026-06-01T00:00:00Z", "validUntil": "2026-05-01T00:00:00Z"}, 400, "Valid until must be after valid from.", "validUntil"},
		{map[string]any{"code": "NEW1", "applicableBadges": []string{model.NewID()}}, 400, "Applicable badges must be existing badges.", "applicableBadges"},
	} {
		m := c.Post("/coupons", tc.body).ExpectMsg(tc.status, tc.msg).Map()
		if m["field"] != tc.field {
			t.Errorf("%s: field %v, want %q", tc.msg, m["field"], tc.field)
		}
	}
	// an edit's refusal too; a refusal about no field has no "field"
	m := c.Put("/coupons/"+cp.ID, map[string]any{"code": "NEW2", "discountType": "fixed", "discountValue": 0}).ExpectMsg(400, "A fixed discount must be more than $0.").Map()
	if m["field"] != "discountValue" {
		t.Errorf("edit: field %v", m["field"])
	}
	if m := c.Put("/coupons/"+model.NewID(), map[string]any{"name": "x"}).ExpectMsg(404, "Coupon not found").Map(); m["field"] != nil {
		t.Errorf("not found names a field: %v", m)
	}
}

// A save that changes nothing writes no audit row; a real change writes one.
func TestUnchangedSaveWritesNoAuditRow(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	cp := create(t, c, map[string]any{"code": "SAME", "name": "Same"})
	audits := func() int {
		return count(t, e, (*model.AuditEntry)(nil), "target_id = ? AND action = 'coupon.update'", cp.ID)
	}
	form := map[string]any{"code": cp.Code, "name": cp.Name, "description": cp.Description, "discountType": cp.DiscountType,
		"discountValue": cp.DiscountValue, "minimumAmount": cp.MinimumAmount, "maximumDiscount": nil, "usageLimit": nil,
		"validFrom": cp.ValidFrom, "validUntil": cp.ValidUntil, "applicableBadges": []string{}, "applicableCategories": []string{}}
	c.Put("/coupons/"+cp.ID, form).ExpectMsg(200, "Coupon updated successfully")
	if n := audits(); n != 0 {
		t.Fatalf("%d audit rows after a save that changed nothing", n)
	}
	form["name"] = "Changed"
	c.Put("/coupons/"+cp.ID, form).ExpectMsg(200, "Coupon updated successfully")
	if n := audits(); n != 1 {
		t.Fatalf("%d audit rows after a change, want 1", n)
	}
}
