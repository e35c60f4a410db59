package coupon

import (
	"encoding/json"
	"testing"
	"time"

	"meritmark/app/model"
)

func TestStatusBoundaries(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	until := from.Add(30 * 24 * time.Hour)
	limit := 3
	c := model.Coupon{IsActive: true, ValidFrom: from, ValidUntil: until, UsageLimit: &limit, UsedCount: 2}
	for _, tc := range []struct {
		at   time.Time
		want string
	}{
		{from.Add(-time.Microsecond), model.CouponInactive}, // not yet valid
		{from, model.CouponActive},                          // validFrom is inclusive
		{until, model.CouponActive},                         // validUntil is inclusive
		{until.Add(time.Microsecond), model.CouponExpired},  // past validUntil
	} {
		if got := c.Status(tc.at); got != tc.want {
			t.Errorf("at %v: %s, want %s", tc.at, got, tc.want)
		}
	}
	c.UsedCount = 3 // usage limit reached
	if got := c.Status(from); got != model.CouponInactive {
		t.Errorf("limit reached: %s", got)
	}
	c.UsageLimit = nil // unlimited
	if got := c.Status(from); got != model.CouponActive {
		t.Errorf("unlimited: %s", got)
	}
	c.IsActive = false
	if got := c.Status(from); got != model.CouponInactive {
		t.Errorf("switched off: %s", got)
	}
	if got := c.Status(until.Add(time.Second)); got != model.CouponExpired {
		t.Errorf("switched off and past: %s", got)
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		`"2026-05-01T12:00:00Z"`:           "2026-05-01T12:00:00Z",
		`"2026-05-01T12:00:00.123456789Z"`: "2026-05-01T12:00:00.123456Z",
		`"2026-05-01T14:00:00+02:00"`:      "2026-05-01T12:00:00Z",
		`"2026-05-01T12:00"`:               "2026-05-01T12:00:00Z",
		`"2026-05-01"`:                     "2026-05-01T00:00:00Z",
	} {
		got, ok := ParseTime(json.RawMessage(raw), false)
		if !ok || got.Format(time.RFC3339Nano) != want {
			t.Errorf("%s: %v %v", raw, got, ok)
		}
	}
	if got, ok := ParseTime(json.RawMessage(`"2026-05-01"`), true); !ok || got.Format(time.RFC3339Nano) != "2026-05-01T23:59:59.999999Z" {
		t.Errorf("end of day: %v", got)
	}
	for _, raw := range []string{`""`, `null`, `"tomorrow"`, `12345`, `"1999-12-31"`, `"3000-01-01"`, `"2026-13-01"`} {
		if _, ok := ParseTime(json.RawMessage(raw), false); ok {
			t.Errorf("%s accepted", raw)
		}
	}
}

func TestCodes(t *testing.T) {
	t.Parallel()
	if NormalizeCode("  summer-sale_1 ") != "SUMMER-SALE_1" {
		t.Fatal("normalise")
	}
	for code, ok := range map[string]bool{"ABC": true, "AB": false, "A-B_9": true, "HAS SPACE": false, "ÄBC": false, "A!B": false,
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345": true, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456": false} {
		if ValidCode(code) != ok {
			t.Errorf("%q: %v", code, !ok)
		}
	}
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		c := FreeGrantCode()
		if len(c) != 18 || c[:5] != "FREE-" || !ValidCode(c) {
			t.Fatalf("code %q", c)
		}
		seen[c] = true
	}
	if len(seen) < 195 {
		t.Fatalf("codes repeat: %d distinct of 200", len(seen))
	}
}
