package halloffame

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"meritmark/app/model"
)

// FuzzHallOfFameQuery: the Hall of Fame filters (?search, q, category, sort, page, limit)
// are refused with a message or give a bounded, known query whose own URL reads back to
// the same query; the search becomes a LIKE pattern with its wildcards escaped; a profile
// link is kept only when it is http(s).
func FuzzHallOfFameQuery(f *testing.F) {
	for _, s := range [][6]string{{"", "", "", "", "", ""}, {"  ann   lee ", "", "design", "RECENT", "2", "50"}, {"", "x%_\\", "All", "name", "1", "100"},
		{"<script>alert(1)</script>", "", "<b>", "badges;drop", "0", "101"}, {strings.Repeat("é", 101), "", "DevOps", "", "1e3", "-1"},
		{"a&b=c#d", "", "Data Science", "recent", "999999", "1"}, {"", "{{7*7}}", "", "", " 3 ", ""}} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], "javascript:alert(1)")
	}
	f.Fuzz(func(t *testing.T, search, q, category, sort, page, limit, link string) {
		vals := map[string]string{"search": search, "q": q, "category": category, "sort": sort, "page": page, "limit": limit}
		qq, msg := ParseQuery(func(k string) string { return vals[k] })
		if msg == "" {
			switch {
			case utf8.RuneCountInString(qq.Search) > MaxSearch || strings.Join(strings.Fields(qq.Search), " ") != qq.Search:
				t.Fatalf("search %q", qq.Search)
			case qq.Category != "" && !model.ValidCategory(qq.Category):
				t.Fatalf("category %q", qq.Category)
			case qq.Sort != SortBadges && qq.Sort != SortRecent && qq.Sort != SortName:
				t.Fatalf("sort %q", qq.Sort)
			case qq.Page < 1 || qq.Page > 1_000_000 || qq.Limit < 1 || qq.Limit > MaxLimit:
				t.Fatalf("page %d limit %d", qq.Page, qq.Limit)
			}
			u, err := url.Parse(qq.URL(qq.Page))
			if err != nil || u.Path != "/hall-of-fame" {
				t.Fatalf("URL %q", qq.URL(qq.Page))
			}
			back, msg := ParseQuery(u.Query().Get)
			if msg != "" || back != qq {
				t.Fatalf("URL %q reads back as %+v (%s), want %+v", qq.URL(qq.Page), back, msg, qq)
			}
			pat := likePattern(qq.Search)
			inner := strings.NewReplacer(`\\`, "", `\%`, "", `\_`, "").Replace(pat[1 : len(pat)-1])
			if strings.ContainsAny(inner, "%_") {
				t.Fatalf("pattern %q has an unescaped wildcard", pat)
			}
		}
		if s := safeURL(link); s != "" {
			low := strings.ToLower(s)
			if !strings.HasPrefix(low, "http://") && !strings.HasPrefix(low, "https://") {
				t.Fatalf("safeURL(%q) = %q", link, s)
			}
		}
	})
}
