package coupon_test

import (
	"net/url"
	"regexp"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/coupon"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

type couponJSON struct {
	ID               string   `json:"_id"`
	Code             string   `json:"code"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	DiscountType     string   `json:"discountType"`
	DiscountValue    float64  `json:"discountValue"`
	MinimumAmount    float64  `json:"minimumAmount"`
	MaximumDiscount  *float64 `json:"maximumDiscount"`
	UsageLimit       *int     `json:"usageLimit"`
	UsedCount        int      `json:"usedCount"`
	ValidFrom        string   `json:"validFrom"`
	ValidUntil       string   `json:"validUntil"`
	IsActive         bool     `json:"isActive"`
	ApplicableBadges []struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"applicableBadges"`
	ApplicableCategories []string `json:"applicableCategories"`
	Status               string   `json:"status"`
}

func create(t *testing.T, c *apptest.Client, body map[string]any) couponJSON {
	t.Helper()
	var out struct {
		Msg    string     `json:"msg"`
		Coupon couponJSON `json:"coupon"`
	}
	c.Post("/coupons", body).Expect(201).JSON(&out)
	if out.Msg != "Coupon created successfully" {
		t.Fatalf("msg %q", out.Msg)
	}
	return out.Coupon
}

func row(t *testing.T, e *apptest.Env, id string) *model.Coupon {
	return apptest.Row[model.Coupon](e, id)
}

func newBadge(t *testing.T, e *apptest.Env, name string) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Category: "Design", Type: model.TypeProof, Level: "beginner", Icon: "Award", Color: "blue",
		IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

func count(t *testing.T, e *apptest.Env, m any, where string, args ...any) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model(m).Where(where, args...).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestCreateCouponDefaults(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	admin, c := e.Admin("admin@x.io")
	before := model.Now()
	got := create(t, c, map[string]any{"code": "  welcome-5 "})
	after := model.Now()
	apptest.Expect(t, "defaults", got,
		apptest.Eq("got.Code", got.Code, "WELCOME-5"),
		apptest.Eq("got.DiscountType", got.DiscountType, "percentage"),
		apptest.Eq("got.DiscountValue", got.DiscountValue, 10),
		apptest.Eq("got.MinimumAmount", got.MinimumAmount, 0),
		apptest.True("got.MaximumDiscount == nil", got.MaximumDiscount == nil),
		apptest.True("got.UsageLimit == nil", got.UsageLimit == nil),
		apptest.Eq("got.UsedCount", got.UsedCount, 0),
		apptest.True("got.IsActive", got.IsActive),
		apptest.Eq("got.Status", got.Status, "active"),
		apptest.Eq("len(got.ApplicableBadges)", len(got.ApplicableBadges), 0),
		apptest.Eq("len(got.ApplicableCategories)", len(got.ApplicableCategories), 0))
	r := row(t, e, got.ID)
	apptest.Expect(t, "row", r,
		apptest.True("!r.ValidFrom.Before(before)", !r.ValidFrom.Before(before)),
		apptest.True("!r.ValidFrom.After(after)", !r.ValidFrom.After(after)),
		apptest.True("r.ValidUntil.Equal(r.ValidFrom.Add(30*24*time.Hour))", r.ValidUntil.Equal(r.ValidFrom.Add(30*24*time.Hour))),
		apptest.Eq("r.DiscountValue", r.DiscountValue, 1000),
		apptest.Eq("*r.CreatedBy", *r.CreatedBy, admin.ID))
	var a model.AuditEntry
	if err := e.DB.NewSelect().Model(&a).Where("target_id = ?", got.ID).Scan(e.Ctx()); err != nil || a.Action != "coupon.create" || a.TargetType != "coupon" {
		t.Fatalf("audit %+v %v", a, err)
	}
}

func TestCreateCouponAmounts(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b1, b2 := newBadge(t, e, "One"), newBadge(t, e, "Two")
	got := create(t, c, map[string]any{"code": "FIX", "name": "Fixed", "description": "d", "discountType": "fixed", "discountValue": "19.99",
		"minimumAmount": 40, "maximumDiscount": "", "usageLimit": "", "validFrom": "2026-01-01T00:00:00.000Z", "validUntil": "2099-01-01T00:00:00Z",
		"applicableBadges": []any{b1.ID, map[string]string{"_id": b2.ID}, b1.ID}, "applicableCategories": []string{"Design", "DevOps", "Design"}})
	apptest.Expect(t, "fixed", got,
		apptest.Eq("got.DiscountType", got.DiscountType, "fixed"),
		apptest.Eq("got.DiscountValue", got.DiscountValue, 19.99),
		apptest.Eq("got.MinimumAmount", got.MinimumAmount, 40),
		apptest.True("got.MaximumDiscount == nil", got.MaximumDiscount == nil),
		apptest.True("got.UsageLimit == nil", got.UsageLimit == nil),
		apptest.Eq("len(got.ApplicableBadges)", len(got.ApplicableBadges), 2))
	apptest.Expect(t, "fixed", got,
		apptest.Eq("got.ApplicableBadges[0].Name", got.ApplicableBadges[0].Name, "One"),
		apptest.Eq("got.ApplicableBadges[1].Name", got.ApplicableBadges[1].Name, "Two"),
		apptest.Eq("len(got.ApplicableCategories)", len(got.ApplicableCategories), 2))
	r := row(t, e, got.ID)
	apptest.Expect(t, "row", r,
		apptest.Eq("r.DiscountValue", r.DiscountValue, 1999),
		apptest.Eq("r.MinimumCents", r.MinimumCents, 4000),
		apptest.True("r.MaximumDiscountCents == nil", r.MaximumDiscountCents == nil),
		apptest.Eq("r.ValidFrom.Format(time.RFC3339)", r.ValidFrom.Format(time.RFC3339), "2026-01-01T00:00:00Z"))
	p := create(t, c, map[string]any{"code": "PCT", "discountType": "percentage", "discountValue": 12.5, "maximumDiscount": 30, "usageLimit": "100"})
	r = row(t, e, p.ID)
	if p.DiscountValue != 12.5 || *p.MaximumDiscount != 30 || *p.UsageLimit != 100 || r.DiscountValue != 1250 || *r.MaximumDiscountCents != 3000 {
		t.Fatalf("percentage %+v %+v", p, r)
	}
	create(t, c, map[string]any{"code": "MAXPCT", "discountValue": 100})
	create(t, c, map[string]any{"code": "MINPCT", "discountValue": 1})
}

func TestCouponValidation(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	create(t, c, map[string]any{"code": "TAKEN"})
	base := func(kv ...any) map[string]any {
		m := map[string]any{"code": "NEW1"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		body   map[string]any
		status int
		msg    string
	}{
		{base("code", ""), 400, "Coupon code is required."},
		{base("code", "   "), 400, "Coupon code is required."},
		{map[string]any{"name": "x"}, 400, "Coupon code is required."},
		{base("code", "AB"), 400, "Coupon code must be 3 to 32 characters: letters, digits, - or _."},
		{base("code", "HAS SPACE"), 400, "Coupon code must be 3 to 32 characters: letters, digits, - or _."},
		{base("code", "WOW!"), 400, "Coupon code must be 3 to 32 characters: letters, digits, - or _."},
		{base("code", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456"), 400, "Coupon code must be 3 to 32 characters: letters, digits, - or _."},
		{base("code", " taken "), 409, "A coupon with this code already exists."},
		{base("discountType", "bogo"), 400, "Discount type must be percentage or fixed."},
		{base("discountValue", 0), 400, "A percentage discount must be between 1 and 100."},
		{base("discountValue", 0.5), 400, "A percentage discount must be between 1 and 100."},
		{base("discountValue", 101), 400, "A percentage discount must be between 1 and 100."},
		{base("discountValue", -10), 400, "A percentage discount must be between 1 and 100."},
		{base("discountValue", 10.555), 400, "Discount value can have at most 2 decimal places."},
		{base("discountValue", "ten"), 400, "Discount value must be a number."},
		{base("discountType", "fixed", "discountValue", 0), 400, "A fixed discount must be more than $0."},
		{base("discountType", "fixed", "discountValue", -5), 400, "A fixed discount must be more than $0."},
		{base("discountType", "fixed", "discountValue", ""), 400, "A fixed discount must be more than $0."},
		{base("discountType", "fixed", "discountValue", 20000), 400, "Discount value cannot be more than $10,000.00."},
		{base("minimumAmount", -1), 400, "Minimum amount cannot be negative."},
		{base("minimumAmount", 1.001), 400, "Minimum amount can have at most 2 decimal places."},
		{base("maximumDiscount", 0), 400, "Maximum discount must be more than $0, or empty for no maximum."},
		{base("maximumDiscount", -3), 400, "Maximum discount must be more than $0, or empty for no maximum."},
		{base("usageLimit", 0), 400, "Usage limit must be a whole number of at least 1, or empty for unlimited."},
		{base("usageLimit", 2.5), 400, "Usage limit must be a whole number of at least 1, or empty for unlimited."},
		{base("usageLimit", "lots"), 400, "Usage limit must be a whole number of at least 1, or empty for unlimited."},
		{base("validFrom", "soon"), 400, "Valid from must be a date and time."},
		{base("validFrom", nil), 400, "Valid from must be a date and time."},
		{base("validUntil", "2026-02-30"), 400, "Valid until must be a date and time."},
		{base("validFrom", "2026-06-01T00:00:00Z", "validUntil", "2026-05-01T00:00:00Z"), 400, "Valid until must be after valid from."},
		{base("validFrom", "2026-06-01T00:00:00Z", "validUntil", "2026-06-01T00:00:00Z"), 400, "Valid until must be after valid from."},
		{base("applicableBadges", []string{model.NewID()}), 400, "Applicable badges must be existing badges."},
		{base("applicableBadges", []string{"nope"}), 400, "Applicable badges must be existing badges."},
		{base("applicableBadges", "x"), 400, "Applicable badges must be existing badges."},
		{base("applicableCategories", []string{"Cooking"}), 400, coupon.MsgCategories},
	} {
		c.Post("/coupons", tc.body).ExpectMsg(tc.status, tc.msg)
	}
	if n := count(t, e, (*model.Coupon)(nil), "1 = 1"); n != 1 {
		t.Fatalf("%d coupons after refused creates", n)
	}
}

func TestUpdateToggleDelete(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b := newBadge(t, e, "Badge")
	cp := create(t, c, map[string]any{"code": "EDITME", "usageLimit": 10})
	create(t, c, map[string]any{"code": "OTHER"})

	var out struct {
		Msg    string     `json:"msg"`
		Coupon couponJSON `json:"coupon"`
	}
	// the edit form sends every field; empty maximum and limit become null
	c.Put("/coupons/"+cp.ID, map[string]any{"code": "edited", "name": "Edited", "description": "New", "discountType": "fixed", "discountValue": 5,
		"minimumAmount": "10.50", "maximumDiscount": "", "usageLimit": "", "validFrom": "2026-01-01T00:00:00Z", "validUntil": "2030-01-01T00:00:00Z",
		"applicableBadges": []string{b.ID}, "applicableCategories": []string{"Marketing"}}).Expect(200).JSON(&out)
	apptest.Expect(t, "update", out,
		apptest.Eq("out.Msg", out.Msg, "Coupon updated successfully"),
		apptest.Eq("out.Coupon.Code", out.Coupon.Code, "EDITED"),
		apptest.Eq("out.Coupon.DiscountType", out.Coupon.DiscountType, "fixed"),
		apptest.Eq("out.Coupon.DiscountValue", out.Coupon.DiscountValue, 5),
		apptest.Eq("out.Coupon.MinimumAmount", out.Coupon.MinimumAmount, 10.5),
		apptest.True("out.Coupon.UsageLimit == nil", out.Coupon.UsageLimit == nil),
		apptest.Eq("len(out.Coupon.ApplicableBadges)", len(out.Coupon.ApplicableBadges), 1))
	apptest.Expect(t, "update", out,
		apptest.Eq("out.Coupon.ApplicableBadges[0].ID", out.Coupon.ApplicableBadges[0].ID, b.ID))
	r := row(t, e, cp.ID)
	apptest.Expect(t, "row", r,
		apptest.Eq("r.DiscountValue", r.DiscountValue, 500),
		apptest.Eq("r.MinimumCents", r.MinimumCents, 1050),
		apptest.True("r.UsageLimit == nil", r.UsageLimit == nil),
		apptest.Eq("r.ApplicableCategories[0]", r.ApplicableCategories[0], "Marketing"))
	// a partial edit keeps the rest
	c.Put("/coupons/"+cp.ID, map[string]any{"name": "Renamed"}).Expect(200)
	if r := row(t, e, cp.ID); r.Name != "Renamed" || r.Code != "EDITED" || r.DiscountValue != 500 {
		t.Fatalf("partial %+v", r)
	}
	c.Put("/coupons/"+cp.ID, map[string]any{"code": "other"}).ExpectMsg(409, "A coupon with this code already exists.")
	c.Put("/coupons/"+cp.ID, map[string]any{"discountType": "percentage", "discountValue": 150}).ExpectMsg(400, "A percentage discount must be between 1 and 100.")
	c.Put("/coupons/"+model.NewID(), map[string]any{"name": "x"}).ExpectMsg(404, "Coupon not found")
	c.Put("/coupons/xyz", map[string]any{"name": "x"}).ExpectMsg(404, "Coupon not found")

	// used coupons: the limit cannot go below the uses, and they cannot be deleted
	e.DB.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = 3").Where("id = ?", cp.ID).Exec(e.Ctx())
	c.Put("/coupons/"+cp.ID, map[string]any{"usageLimit": 2}).ExpectMsg(400, "Usage limit cannot be lower than the number of times the coupon has been used.")
	c.Put("/coupons/"+cp.ID, map[string]any{"usageLimit": 3}).Expect(200)
	c.Delete("/coupons/"+cp.ID).ExpectMsg(409, "This coupon has already been used, so it cannot be deleted without losing payment history. Deactivate it instead.")
	if count(t, e, (*model.Coupon)(nil), "id = ?", cp.ID) != 1 {
		t.Fatal("a used coupon was deleted")
	}

	// toggle
	c.Patch("/coupons/"+cp.ID+"/toggle", nil).Expect(200).JSON(&out)
	apptest.Expect(t, "toggle", out,
		apptest.Eq("out.Msg", out.Msg, "Coupon status updated successfully"),
		apptest.True("!out.Coupon.IsActive", !out.Coupon.IsActive),
		apptest.Eq("out.Coupon.Status", out.Coupon.Status, "inactive"))
	c.Patch("/coupons/"+cp.ID+"/toggle", nil).Expect(200).JSON(&out)
	if !out.Coupon.IsActive || row(t, e, cp.ID).IsActive != true {
		t.Fatal("toggle back")
	}
	c.Patch("/coupons/"+model.NewID()+"/toggle", nil).ExpectMsg(404, "Coupon not found")

	// an unused coupon is deleted
	other := create(t, c, map[string]any{"code": "GONE"})
	c.Delete("/coupons/"+other.ID).ExpectMsg(200, "Coupon deleted successfully")
	if count(t, e, (*model.Coupon)(nil), "id = ?", other.ID) != 0 {
		t.Fatal("not deleted")
	}
	c.Delete("/coupons/"+other.ID).ExpectMsg(404, "Coupon not found")

	var actions []string
	e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Column("action").Where("target_id = ?", cp.ID).OrderExpr("created_at, id").Scan(e.Ctx(), &actions)
	want := []string{"coupon.create", "coupon.update", "coupon.update", "coupon.update", "coupon.toggle", "coupon.toggle"}
	if len(actions) != len(want) {
		t.Fatalf("audit %v", actions)
	}
	for i := range want {
		if actions[i] != want[i] {
			t.Fatalf("audit %v", actions)
		}
	}
}

func TestStatusFilterAtBoundaries(t *testing.T) {
	t.Parallel()
	clock := &apptest.Clock{}
	e := apptest.New(t, apptest.WithClock(clock))
	_, c := e.Admin("admin@x.io")
	from := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	until := time.Date(2026, 5, 31, 12, 0, 0, 0, time.UTC)
	window := map[string]any{"validFrom": from.Format(time.RFC3339), "validUntil": until.Format(time.RFC3339)}
	with := func(code string, kv ...any) map[string]any {
		m := map[string]any{"code": code}
		for k, v := range window {
			m[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	create(t, c, with("WINDOW"))
	limited := create(t, c, with("LIMITED", "usageLimit", 2))
	off := create(t, c, with("OFF"))
	c.Patch("/coupons/"+off.ID+"/toggle", nil).Expect(200)
	e.DB.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = 2").Where("id = ?", limited.ID).Exec(e.Ctx())

	statuses := func(at time.Time) map[string]string {
		clock.Set(at)
		defer clock.Set(time.Time{})
		var list []couponJSON
		c.Get("/coupons").Expect(200).JSON(&list)
		m := map[string]string{}
		for _, cp := range list {
			m[cp.Code] = cp.Status
		}
		return m
	}
	for _, tc := range []struct {
		at     time.Time
		window string
	}{
		{from.Add(-time.Microsecond), "inactive"},
		{from, "active"},
		{until, "active"},
		{until.Add(time.Microsecond), "expired"},
	} {
		got := statuses(tc.at)
		if got["WINDOW"] != tc.window {
			t.Errorf("at %v: WINDOW %s, want %s", tc.at, got["WINDOW"], tc.window)
		}
		wantOther := "inactive" // limit reached / switched off
		if tc.window == "expired" {
			wantOther = "expired"
		}
		if got["LIMITED"] != wantOther || got["OFF"] != wantOther {
			t.Errorf("at %v: LIMITED %s, OFF %s, want %s", tc.at, got["LIMITED"], got["OFF"], wantOther)
		}
	}

	// the filter and the stats use the same computation
	clock.Set(from)
	for status, want := range map[string][]string{"all": {"WINDOW", "LIMITED", "OFF"}, "": {"WINDOW", "LIMITED", "OFF"}, "active": {"WINDOW"},
		"inactive": {"LIMITED", "OFF"}, "expired": {}} {
		var list []couponJSON
		c.Get("/coupons?status=" + status).Expect(200).JSON(&list)
		if len(list) != len(want) {
			t.Errorf("status %q: %d coupons, want %v", status, len(list), want)
		}
	}
	var st coupon.Stats
	c.Get("/coupons/stats").Expect(200).JSON(&st)
	apptest.Expect(t, "stats", st,
		apptest.Eq("st.TotalCoupons", st.TotalCoupons, 3),
		apptest.Eq("st.ActiveCoupons", st.ActiveCoupons, 1),
		apptest.Eq("st.ExpiredCoupons", st.ExpiredCoupons, 0),
		apptest.Eq("len(st.TopUsedCoupons)", len(st.TopUsedCoupons), 1))
	apptest.Expect(t, "stats", st,
		apptest.Eq("st.TopUsedCoupons[0]", st.TopUsedCoupons[0], (coupon.TopUsage{Code: "LIMITED", UsedCount: 2})))
	clock.Set(until.Add(time.Second))
	c.Get("/coupons/stats").Expect(200).JSON(&st)
	apptest.Expect(t, "stats after expiry", st,
		apptest.Eq("st.ActiveCoupons", st.ActiveCoupons, 0),
		apptest.Eq("st.ExpiredCoupons", st.ExpiredCoupons, 3))
	var expired []couponJSON
	c.Get("/coupons?status=expired").Expect(200).JSON(&expired)
	if len(expired) != 3 {
		t.Fatalf("expired filter %d", len(expired))
	}
	clock.Set(time.Time{})
	c.Get("/coupons?status=weird").ExpectMsg(400, "Status must be all, active, inactive or expired.")
}

func TestSearchAndTopUsed(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	for i, code := range []string{"SPRING", "SUMMER", "AUTUMN", "WINTER", "EXTRA", "SIXTH", "UNUSED"} {
		cp := create(t, c, map[string]any{"code": code, "name": code + " sale", "description": "Season " + code})
		e.DB.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = ?", 6-i).Where("id = ?", cp.ID).Exec(e.Ctx())
	}
	for q, want := range map[string]int{"": 7, "summer": 1, "SALE": 7, "season w": 1, "nothing": 0} {
		var list []couponJSON
		c.Get("/coupons?search=" + url.QueryEscape(q)).Expect(200).JSON(&list)
		if len(list) != want {
			t.Errorf("search %q: %d", q, len(list))
		}
	}
	var st coupon.Stats
	c.Get("/coupons/stats").Expect(200).JSON(&st)
	apptest.Expect(t, "top used", st.TopUsedCoupons,
		apptest.Eq("len(st.TopUsedCoupons)", len(st.TopUsedCoupons), 5))
	apptest.Expect(t, "top used", st.TopUsedCoupons,
		apptest.Eq("st.TopUsedCoupons[0].Code", st.TopUsedCoupons[0].Code, "SPRING"),
		apptest.Eq("st.TopUsedCoupons[0].UsedCount", st.TopUsedCoupons[0].UsedCount, 6),
		apptest.Eq("st.TopUsedCoupons[4].Code", st.TopUsedCoupons[4].Code, "EXTRA"))
}

func TestFreeGrantCoupon(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	admin, c := e.Admin("admin@x.io")
	var out struct {
		Msg    string     `json:"msg"`
		Coupon couponJSON `json:"coupon"`
	}
	c.Post("/coupons/free-grant", nil).Expect(201).JSON(&out)
	if !regexp.MustCompile(`^FREE-[A-HJ-NP-Z2-9]{13}$`).MatchString(out.Coupon.Code) {
		t.Fatalf("code %q", out.Coupon.Code)
	}
	if out.Msg != "Free grant coupon "+out.Coupon.Code+" created: 100% off one badge, valid for 30 days." {
		t.Fatalf("msg %q", out.Msg)
	}
	cp := out.Coupon
	apptest.Expect(t, "coupon", cp,
		apptest.Eq("cp.DiscountType", cp.DiscountType, "percentage"),
		apptest.Eq("cp.DiscountValue", cp.DiscountValue, 100),
		apptest.True("cp.UsageLimit != nil", cp.UsageLimit != nil))
	apptest.Expect(t, "coupon", cp,
		apptest.Eq("*cp.UsageLimit", *cp.UsageLimit, 1),
		apptest.True("cp.IsActive", cp.IsActive),
		apptest.Eq("cp.Status", cp.Status, "active"))
	r := row(t, e, cp.ID)
	apptest.Expect(t, "row", r,
		apptest.Eq("r.DiscountValue", r.DiscountValue, 10000),
		apptest.True("r.ValidUntil.Equal(r.ValidFrom.Add(30*24*time.Hour))", r.ValidUntil.Equal(r.ValidFrom.Add(30*24*time.Hour))),
		apptest.Eq("*r.CreatedBy", *r.CreatedBy, admin.ID))
	c.Post("/coupons/free-grant", map[string]any{}).Expect(201).JSON(&out)
	if out.Coupon.Code == cp.Code {
		t.Fatal("same code twice")
	}
	if n := count(t, e, (*model.AuditEntry)(nil), "action = ?", "coupon.free_grant"); n != 2 {
		t.Fatalf("%d audit entries", n)
	}
}

func TestCouponAdminAccess(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, member := e.Member("m@x.io")
	visitor := e.Client()
	id := model.NewID()
	for _, r := range []struct{ method, path string }{
		{"GET", "/coupons"}, {"GET", "/coupons/stats"}, {"POST", "/coupons"}, {"PUT", "/coupons/" + id}, {"DELETE", "/coupons/" + id},
		{"PATCH", "/coupons/" + id + "/toggle"}, {"POST", "/coupons/free-grant"},
	} {
		visitor.Do(r.method, r.path, map[string]any{"code": "HACKED"}).ExpectMsg(401, "Please log in to continue.")
		member.Do(r.method, r.path, map[string]any{"code": "HACKED"}).ExpectMsg(403, "Access Denied: You need admin privileges to access this page.")
	}
	if count(t, e, (*model.Coupon)(nil), "1 = 1") != 0 {
		t.Fatal("a refused request created a coupon")
	}
}
