package input

import (
	"encoding/json"
	"math/big"
	"testing"
	"time"
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
