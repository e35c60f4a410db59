package badgeadmin

import (
	"encoding/json"
	"strings"
	"testing"

	"meritmark/app/input"
	"meritmark/app/model"
)

// FuzzBadgeForm: an accepted badge form gives a badge within every rule.
func FuzzBadgeForm(f *testing.F) {
	for _, s := range []string{`{"name":"Go","category":"Development","type":"skill","level":"beginner","price":"49.99","icon":"Award","color":"blue","criteria":"x","validDays":365}`,
		`{"name":"  <script>alert(1)</script>  ","category":"Design","type":"PROOF","level":"Advanced","price":0,"icon":"Award","color":"BLUE"}`,
		`{"name":"x","category":"Hacking"}`, `{"name":"x","category":"Design","icon":"javascript:alert(1)"}`, `{"name":"x","category":"Design","color":"red;background:url(x)"}`,
		`{"name":"x","category":"Design","price":-1}`, `{"name":"x","category":"Design","validDays":"0"}`, `{"name":"x","category":"Design","price":"1e-9999999999"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var in Input
		if json.Unmarshal(body, &in) != nil {
			return
		}
		b := NewBadge()
		if msg := Apply(&b, in); msg != "" {
			return
		}
		switch {
		case b.Name == "" || input.TooLong(b.Name, MaxName) || strings.Join(strings.Fields(b.Name), " ") != b.Name:
			t.Fatalf("name %q", b.Name)
		case !model.ValidCategory(b.Category) || !model.ValidLevel(b.Level):
			t.Fatalf("category %q level %q", b.Category, b.Level)
		case b.Type != model.TypeSkill && b.Type != model.TypeProof:
			t.Fatalf("type %q", b.Type)
		case b.PriceCents < 0 || b.PriceCents > input.MaxMoneyCents:
			t.Fatalf("price %d", b.PriceCents)
		case !contains(Icons, b.Icon) || !contains(Colors, b.Color):
			t.Fatalf("icon %q color %q", b.Icon, b.Color)
		case input.TooLong(b.Description, MaxDescription) || input.TooLong(b.Criteria, MaxCriteria):
			t.Fatal("description or criteria too long")
		case b.ValidDays != nil && (*b.ValidDays < 1 || *b.ValidDays > MaxValidDays):
			t.Fatalf("valid days %d", *b.ValidDays)
		}
	})
}
