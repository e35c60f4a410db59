package admin

import (
	"net/url"
	"testing"
)

// The dashboard's deep link keeps what is valid for its tab and drops the rest, so the page
// the server renders is the one the island starts from.
func TestParseView(t *testing.T) {
	id := "0123456789abcdef01234567"
	for _, c := range []struct {
		query string
		want  View
	}{
		{"", View{}},
		{"tab=applications&status=review", View{}},
		{"status=pending&q=+ada+&page=2&app=" + id, View{Status: "pending", Q: "ada", Page: 2, App: id}},
		{"status=approved&app=nope", View{Status: "approved"}},
		{"status=bogus&page=-3", View{}},
		{"tab=users&q=grace&user=" + id + "&app=" + id + "&status=approved", View{Tab: "users", Q: "grace", User: id}},
		{"tab=coupons&q=x&page=4&user=" + id, View{Tab: "coupons"}},
		{"tab=../../etc", View{}},
		{"tab=audit&action=coupon.create&q=spring&page=2", View{Tab: "audit", Action: "coupon.create", Q: "spring", Page: 2}},
		{"tab=audit&action=coupon.*", View{Tab: "audit", Action: "coupon.*"}},
		{"tab=audit&action=%3Cscript%3E", View{Tab: "audit"}},
		{"action=coupon.create", View{}},
	} {
		v, _ := url.ParseQuery(c.query)
		if got := ParseView(v.Get); got != c.want {
			t.Errorf("ParseView(%q) = %+v, want %+v", c.query, got, c.want)
		}
	}
}
