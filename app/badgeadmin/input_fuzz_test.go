package badgeadmin

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"meritmark/app/model"
)

// FuzzParseHundredths: an amount is parsed exactly or refused, quickly, whatever it looks
// like (huge exponents such as 1e-99999999999 must not make big.Rat compute 10^N).
func FuzzParseHundredths(f *testing.F) {
	for _, s := range []string{`49.99`, `"49.99"`, `"  12 "`, `0`, `-1`, `"-0"`, `1e2`, `"1E-2"`, `1.001`, `null`, `""`, `"abc"`, `true`, `[]`, `{}`,
		`"NaN"`, `"Infinity"`, `"0x10"`, `"1/2"`, `1e400`, `-1e400`, `"1e-99999999999999999999999999999999"`, `"1e+99999999999999999999999999999999"`,
		`"9999999999999999999999999999999999999999"`, `10000.00`, `10000.01`, `"٣"`, `"1_000"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		start := time.Now()
		v, empty, e := ParseHundredths(json.RawMessage(raw), MaxMoneyCents)
		if d := time.Since(start); d > 100*time.Millisecond {
			t.Fatalf("%q took %s", raw, d)
		}
		if e != MoneyOK || empty {
			if e != MoneyOK && MoneyMessage("Price", e, MaxMoneyCents) == "" {
				t.Fatal("no message")
			}
			return
		}
		if v < 0 || v > MaxMoneyCents {
			t.Fatalf("%q -> %d: outside 0..%d", raw, v, MaxMoneyCents)
		}
		s, _, _ := scalar(json.RawMessage(raw))
		r, ok := new(big.Rat).SetString(s)
		if !ok || r.Mul(r, big.NewRat(100, 1)).Cmp(big.NewRat(v, 1)) != 0 {
			t.Fatalf("%q -> %d cents: not exact", raw, v)
		}
	})
}

// FuzzParseInt: whole numbers only.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{`70`, `"70"`, `70.0`, `"7e1"`, `-3`, `null`, `""`, `"x"`, `99999999999999999999`, `[1]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		n, empty, ok := ParseInt(json.RawMessage(raw))
		if !ok || empty {
			return
		}
		s, _, _ := scalar(json.RawMessage(raw))
		if b, ok := new(big.Int).SetString(s, 10); !ok || !b.IsInt64() || b.Int64() != n {
			t.Fatalf("%q -> %d", raw, n)
		}
	})
}

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
		case b.Name == "" || TooLong(b.Name, MaxName) || strings.Join(strings.Fields(b.Name), " ") != b.Name:
			t.Fatalf("name %q", b.Name)
		case !model.ValidCategory(b.Category) || !model.ValidLevel(b.Level):
			t.Fatalf("category %q level %q", b.Category, b.Level)
		case b.Type != model.TypeSkill && b.Type != model.TypeProof:
			t.Fatalf("type %q", b.Type)
		case b.PriceCents < 0 || b.PriceCents > MaxMoneyCents:
			t.Fatalf("price %d", b.PriceCents)
		case !contains(Icons, b.Icon) || !contains(Colors, b.Color):
			t.Fatalf("icon %q color %q", b.Icon, b.Color)
		case TooLong(b.Description, MaxDescription) || TooLong(b.Criteria, MaxCriteria):
			t.Fatal("description or criteria too long")
		case b.ValidDays != nil && (*b.ValidDays < 1 || *b.ValidDays > MaxValidDays):
			t.Fatalf("valid days %d", *b.ValidDays)
		}
	})
}
