package coupon_test

import (
	"encoding/csv"
	"fmt"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/coupon"
	"meritmark/app/model"
)

type couponPage struct {
	Coupons    []couponJSON `json:"coupons"`
	Total      int          `json:"total"`
	Page       int          `json:"page"`
	PageSize   int          `json:"pageSize"`
	Limit      int          `json:"limit"`
	TotalPages int          `json:"totalPages"`
	Sort       string       `json:"sort"`
}

// tableFixture makes 23 "Batch" coupons (some expired, some switched off, used counts with
// ties, mixed-case names) and two others, with distinct creation times.
func tableFixture(t *testing.T) (*apptest.Env, *apptest.Client) {
	t.Helper()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 25; i++ {
		name := fmt.Sprintf("Batch %02d", i)
		if i%2 == 0 {
			name = strings.ToLower(name)
		}
		body := map[string]any{"code": fmt.Sprintf("TBL-%02d", (i*7)%25), "name": name, "description": "table coupon"}
		switch {
		case i >= 23:
			body["name"], body["description"] = fmt.Sprintf("Other %d", i), "outside the set"
		case i%3 == 0:
			body["discountType"], body["discountValue"] = "fixed", 5+float64(i)/4
		default:
			body["discountValue"] = 5 + i%4*10
		}
		if i%5 == 4 {
			body["validFrom"], body["validUntil"] = "2020-01-01T00:00:00Z", "2020-02-01T00:00:00Z" // expired
		} else {
			body["validUntil"] = time.Now().UTC().AddDate(0, 1, i).Format(time.RFC3339)
		}
		switch i {
		case 1:
			body["code"], body["description"] = "-MINUS", "=HYPERLINK(\"http://evil\")"
		case 2:
			body["description"] = "@SUM(1+1)"
		case 3:
			body["description"] = "50%_off deal" // LIKE's wildcards are searched as typed
		}
		cp := create(t, c, body)
		if i%6 == 5 {
			c.Patch("/coupons/"+cp.ID+"/toggle", nil).Expect(200) // inactive
		}
		if _, err := e.DB.NewUpdate().Model((*model.Coupon)(nil)).Set("used_count = ?", i%4).Set("created_at = ?", base.Add(time.Duration(i)*time.Hour)).
			Where("id = ?", cp.ID).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	return e, c
}

// all answers the plain array (the spec's client) for the filter.
func all(t *testing.T, c *apptest.Client, q string) []couponJSON {
	t.Helper()
	var list []couponJSON
	c.Get("/coupons?" + q).Expect(200).JSON(&list)
	return list
}

// pages reads every page of the paged list and answers the ids in order.
func pages(t *testing.T, c *apptest.Client, q string, size int) ([]string, int) {
	t.Helper()
	var ids []string
	total := -1
	for p := 1; ; p++ {
		var pg couponPage
		c.Get(fmt.Sprintf("/coupons?%s&page=%d&pageSize=%d", q, p, size)).Expect(200).JSON(&pg)
		if pg.Page != p || pg.PageSize != size || pg.Limit != size {
			t.Fatalf("%s page %d: page %d, pageSize %d, limit %d", q, p, pg.Page, pg.PageSize, pg.Limit)
		}
		if total >= 0 && pg.Total != total {
			t.Fatalf("%s: total changed from %d to %d", q, total, pg.Total)
		}
		total = pg.Total
		if want := (total + size - 1) / size; pg.TotalPages != want {
			t.Fatalf("%s: totalPages %d, want %d", q, pg.TotalPages, want)
		}
		if len(pg.Coupons) > size {
			t.Fatalf("%s page %d: %d rows", q, p, len(pg.Coupons))
		}
		for _, cp := range pg.Coupons {
			ids = append(ids, cp.ID)
		}
		if p >= pg.TotalPages {
			return ids, total
		}
	}
}

func ids(list []couponJSON) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.ID
	}
	return out
}

func TestCouponTableSortsAndPages(t *testing.T) {
	t.Parallel()
	e, c := tableFixture(t)
	rows := all(t, c, "")
	if len(rows) != 25 {
		t.Fatalf("%d coupons", len(rows))
	}
	created := map[string]time.Time{}
	discount := map[string]int64{}
	for _, r := range rows {
		m := row(t, e, r.ID)
		created[r.ID], discount[r.ID] = m.CreatedAt, m.DiscountValue
	}
	less := map[string]func(a, b couponJSON) int{
		"code": func(a, b couponJSON) int { return strings.Compare(a.Code, b.Code) },
		"name": func(a, b couponJSON) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) },
		"discountValue": func(a, b couponJSON) int {
			return int(discount[a.ID] - discount[b.ID])
		},
		"usedCount":  func(a, b couponJSON) int { return a.UsedCount - b.UsedCount },
		"validUntil": func(a, b couponJSON) int { return strings.Compare(a.ValidUntil, b.ValidUntil) },
		"createdAt":  func(a, b couponJSON) int { return created[a.ID].Compare(created[b.ID]) },
	}
	if len(less) != len(coupon.Sorts) {
		t.Fatalf("%d sorts tested, %d offered", len(less), len(coupon.Sorts))
	}
	for _, col := range coupon.Sorts {
		cmp := less[col.Key]
		for _, desc := range []bool{false, true} {
			want := append([]couponJSON(nil), rows...)
			sort.SliceStable(want, func(i, j int) bool {
				if col.Key == "discountValue" && want[i].DiscountType != want[j].DiscountType {
					return want[i].DiscountType == "percentage" // percentages first, whichever the direction
				}
				d := cmp(want[i], want[j])
				if d == 0 {
					d = strings.Compare(want[i].ID, want[j].ID)
				}
				if desc {
					return d > 0
				}
				return d < 0
			})
			key := col.Key
			if desc {
				key = "-" + key
			}
			got, total := pages(t, c, "sort="+url.QueryEscape(key), 10)
			if total != 25 || strings.Join(got, ",") != strings.Join(ids(want), ",") {
				t.Errorf("sort %s: total %d\n got %v\nwant %v", key, total, got, ids(want))
			}
			var pg couponPage
			c.Get("/coupons?pageSize=10&sort=" + url.QueryEscape(key)).Expect(200).JSON(&pg)
			if pg.Sort != key || pg.Page != 1 || len(pg.Coupons) != 10 {
				t.Errorf("sort %s: answer says sort %q, page %d, %d rows", key, pg.Sort, pg.Page, len(pg.Coupons))
			}
		}
	}
	// no sort: newest first, as the plain list; the default page size is the API's
	var pg couponPage
	c.Get("/coupons?page=1").Expect(200).JSON(&pg)
	if pg.Total != 25 || pg.PageSize != 20 || len(pg.Coupons) != 20 || pg.Sort != "" {
		t.Fatalf("default page: total %d, pageSize %d, %d rows, sort %q", pg.Total, pg.PageSize, len(pg.Coupons), pg.Sort)
	}
	got, _ := pages(t, c, "status=all", 25)
	if strings.Join(got, ",") != strings.Join(ids(rows), ",") {
		t.Fatalf("default order\n got %v\nwant %v", got, ids(rows))
	}
	// a page past the end is empty, not an error
	c.Get("/coupons?page=9&pageSize=10").Expect(200).JSON(&pg)
	if len(pg.Coupons) != 0 || pg.Total != 25 {
		t.Fatalf("page 9: %d rows of %d", len(pg.Coupons), pg.Total)
	}
}

func TestCouponTableFiltersWithPaging(t *testing.T) {
	t.Parallel()
	_, c := tableFixture(t)
	seen := map[string]int{}
	for _, status := range []string{"all", "active", "inactive", "expired"} {
		for _, search := range []string{"", "batch", "BATCH 1", "tbl-0", "outside", "evil", "%_o", "_", "nothing"} {
			q := "status=" + status + "&search=" + url.QueryEscape(search)
			want := all(t, c, q)
			for _, sortKey := range []string{"", "code", "-usedCount"} {
				got, total := pages(t, c, q+"&sort="+sortKey, 10)
				if total != len(want) || len(got) != len(want) {
					t.Fatalf("%s sort %q: total %d, %d rows; the array has %d", q, sortKey, total, len(got), len(want))
				}
				if sortKey == "" && strings.Join(got, ",") != strings.Join(ids(want), ",") {
					t.Fatalf("%s: not in the array's order", q)
				}
				set := map[string]bool{}
				for _, id := range ids(want) {
					set[id] = true
				}
				for _, id := range got {
					if !set[id] {
						t.Fatalf("%s sort %q: %s is not in the filter", q, sortKey, id)
					}
				}
			}
			for _, cp := range want {
				if status != "all" && cp.Status != status {
					t.Fatalf("%s: %s is %s", q, cp.Code, cp.Status)
				}
			}
			seen[status] += len(want)
		}
	}
	// the fixture has every status, and each filter found something
	for _, s := range []string{"active", "inactive", "expired"} {
		if seen[s] == 0 {
			t.Errorf("no %s coupon found", s)
		}
	}
	var pg couponPage
	c.Get("/coupons?search=" + url.QueryEscape("%_o") + "&pageSize=10").Expect(200).JSON(&pg)
	if pg.Total != 1 || pg.Coupons[0].Description != "50%_off deal" {
		t.Fatalf("search %%_o: %d found", pg.Total)
	}
	c.Get("/coupons?status=expired&search=batch&pageSize=10&page=1").Expect(200).JSON(&pg)
	if pg.Total != 4 { // i = 4, 9, 14, 19
		t.Fatalf("expired batch coupons: %d", pg.Total)
	}
}

func TestCouponTableCSV(t *testing.T) {
	t.Parallel()
	_, c := tableFixture(t)
	r := c.Get("/coupons?format=csv&pageSize=10&sort=code&status=all&search=batch").Expect(200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") || !strings.Contains(r.Header.Get("Content-Disposition"), `attachment; filename="meritmark-coupons-`) {
		t.Fatalf("csv headers: %q %q", ct, r.Header.Get("Content-Disposition"))
	}
	recs, err := csv.NewReader(strings.NewReader(r.Text())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := all(t, c, "search=batch")
	sort.Slice(want, func(i, j int) bool { return want[i].Code < want[j].Code })
	if len(recs) != len(want)+1 || strings.Join(recs[0], ",") != strings.Join(coupon.CSVHeader, ",") {
		t.Fatalf("csv: %d lines for %d coupons, header %v", len(recs), len(want), recs[0])
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, rec := range recs[1:] {
		if rec[0] != want[i].ID {
			t.Fatalf("csv row %d: %s, want %s (%s)", i+1, rec[0], want[i].ID, want[i].Code)
		}
		if rec[col["status"]] != want[i].Status || rec[col["used"]] != fmt.Sprint(want[i].UsedCount) {
			t.Errorf("csv row %d: status %s used %s, want %s %d", i+1, rec[col["status"]], rec[col["used"]], want[i].Status, want[i].UsedCount)
		}
	}
	// formulas defused: the code "-MINUS" and the descriptions starting with = and @
	byCode := map[string][]string{}
	for _, rec := range recs[1:] {
		byCode[rec[col["code"]]] = rec
	}
	minus := byCode["'-MINUS"]
	if minus == nil || minus[col["description"]] != `'=HYPERLINK("http://evil")` {
		t.Fatalf("the formula coupon: %q", minus)
	}
	if cell := byCode["TBL-14"]; cell == nil || cell[col["description"]] != "'@SUM(1+1)" {
		t.Fatalf("the @ coupon: %q", cell)
	}
	// the filter holds: expired only; nothing found leaves the header
	recs, _ = csv.NewReader(strings.NewReader(c.Get("/coupons?format=csv&status=expired").Expect(200).Text())).ReadAll()
	if len(recs) != 6 { // i = 4, 9, 14, 19, 24
		t.Fatalf("expired csv: %d lines", len(recs))
	}
	for _, rec := range recs[1:] {
		if rec[col["status"]] != "expired" {
			t.Fatalf("expired csv row %v", rec)
		}
	}
	if got := c.Get("/coupons?format=csv&search=nothing").Expect(200).Text(); strings.TrimSpace(got) != strings.Join(coupon.CSVHeader, ",") {
		t.Fatalf("empty csv %q", got)
	}
}

func TestCouponTableBadParameters(t *testing.T) {
	t.Parallel()
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	create(t, c, map[string]any{"code": "ONLY"})
	sorts := "sort must be one of code, name, discountValue, usedCount, validUntil, createdAt (a leading - sorts descending)."
	for q, msg := range map[string]string{
		"page=0":                  "page must be a whole number from 1.",
		"page=abc":                "page must be a whole number from 1.",
		"page=-2":                 "page must be a whole number from 1.",
		"pageSize=7":              "pageSize must be 10, 25, 50 or 100.",
		"pageSize=ten":            "pageSize must be 10, 25, 50 or 100.",
		"page=1&limit=500":        "limit must be a whole number from 1 to 100.",
		"sort=bogus":              sorts,
		"sort=-status":            sorts,
		"sort=created_at":         sorts,
		"format=xml":              "format must be json or csv.",
		"page=1&status=weird":     "Status must be all, active, inactive or expired.",
		"format=csv&status=weird": "Status must be all, active, inactive or expired.",
		"page=1&search=" + strings.Repeat("x", 201): "The search text is too long.",
	} {
		c.Get("/coupons?"+q).ExpectMsg(400, msg)
	}
	// without page, pageSize, sort or format: the spec's array, as before
	for _, q := range []string{"", "?status=all", "?status=active&search=on", "?search=ONLY"} {
		body := strings.TrimSpace(c.Get("/coupons" + q).Expect(200).Text())
		if !strings.HasPrefix(body, "[") {
			t.Fatalf("%q answers %s", q, body)
		}
	}
	var list []couponJSON
	c.Get("/coupons?search=only").Expect(200).JSON(&list)
	if len(list) != 1 || list[0].Code != "ONLY" {
		t.Fatalf("array %v", list)
	}
	// a member is refused the table as the list
	_, m := e.Member("m@x.io")
	m.Get("/coupons?page=1&format=csv").Expect(403)
}
