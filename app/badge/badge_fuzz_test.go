package badge

import (
	"strings"
	"testing"
	"unicode/utf8"

	"meritmark/app/model"
)

// FuzzCatalogueQuery: the catalogue's ?q and &category parameters become a bounded,
// single-spaced search text (stable when normalized again) and a known category or All.
func FuzzCatalogueQuery(f *testing.F) {
	for _, s := range [][2]string{{"", ""}, {"  go   lang ", "development"}, {"<script>alert(1)</script>", "<b>"}, {strings.Repeat("é ", 200), "DATA SCIENCE"},
		{"\xff\xfe", "DevOps\x00"}, {"%_\\", " Design "}, {"{{7*7}}", "All"}} {
		f.Add(s[0], s[1])
	}
	b := &Card{}
	b.Name, b.Description, b.Category = "Go Developer", "Writes Go", "Development"
	f.Fuzz(func(t *testing.T, q, category string) {
		nq := NormalizeQuery(q)
		if utf8.RuneCountInString(nq) > MaxQueryLen || strings.TrimSpace(nq) != nq || strings.Contains(nq, "  ") || strings.ContainsAny(nq, "\t\r\n") {
			t.Fatalf("NormalizeQuery(%q) = %q", q, nq)
		}
		if again := NormalizeQuery(nq); again != nq {
			t.Fatalf("not stable: %q -> %q -> %q", q, nq, again)
		}
		cat := NormalizeCategory(category)
		if cat != "" && !model.ValidCategory(cat) {
			t.Fatalf("NormalizeCategory(%q) = %q", category, cat)
		}
		_ = Matches(b, nq, cat)
	})
}
