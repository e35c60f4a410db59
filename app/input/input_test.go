package input

import (
	"encoding/json"
	"testing"
)

func TestParseHundredths(t *testing.T) {
	cases := []struct {
		raw   string
		want  int64
		empty bool
		err   MoneyError
	}{
		{`0`, 0, false, MoneyOK},
		{`49.99`, 4999, false, MoneyOK},
		{`"49.99"`, 4999, false, MoneyOK},
		{`" 12.5 "`, 1250, false, MoneyOK},
		{`1e2`, 10000, false, MoneyOK},
		{`10000`, 1_000_000, false, MoneyOK},
		{`null`, 0, true, MoneyOK},
		{`""`, 0, true, MoneyOK},
		{`-1`, 0, false, MoneyNegative},
		{`"-0.01"`, 0, false, MoneyNegative},
		{`1.234`, 0, false, MoneyDecimals},
		{`0.001`, 0, false, MoneyDecimals},
		{`1e-999`, 0, false, MoneyDecimals},
		{`10000.01`, 0, false, MoneyTooLarge},
		{`1e400`, 0, false, MoneyTooLarge},
		{`99999999999999999999999`, 0, false, MoneyTooLarge},
		{`"NaN"`, 0, false, MoneyNotANumber},
		{`"Infinity"`, 0, false, MoneyNotANumber},
		{`"abc"`, 0, false, MoneyNotANumber},
		{`"1/2"`, 0, false, MoneyNotANumber},
		{`"0x10"`, 0, false, MoneyNotANumber},
		{`true`, 0, false, MoneyNotANumber},
		{`[1]`, 0, false, MoneyNotANumber},
	}
	for _, c := range cases {
		got, empty, e := ParseHundredths(json.RawMessage(c.raw), MaxMoneyCents)
		if got != c.want || empty != c.empty || e != c.err {
			t.Errorf("%s: got %d %v %v, want %d %v %v", c.raw, got, empty, e, c.want, c.empty, c.err)
		}
	}
}

func TestMoneyMessages(t *testing.T) {
	for e, want := range map[MoneyError]string{
		MoneyNotANumber: "Price must be a number.",
		MoneyNegative:   "Price cannot be negative.",
		MoneyDecimals:   "Price can have at most 2 decimal places.",
		MoneyTooLarge:   "Price cannot be more than $10,000.00.",
	} {
		if got := MoneyMessage("Price", e, MaxMoneyCents); got != want {
			t.Errorf("%v: %q, want %q", e, got, want)
		}
	}
	if Dollars(123456789) != "$1,234,567.89" || Dollars(5) != "$0.05" {
		t.Error("Dollars formatting")
	}
}

func TestParseInt(t *testing.T) {
	for raw, want := range map[string]struct {
		n         int64
		empty, ok bool
	}{
		`70`: {70, false, true}, `"70"`: {70, false, true}, `""`: {0, true, true}, `null`: {0, true, true},
		`70.5`: {0, false, false}, `"abc"`: {0, false, false}, `true`: {0, false, false}, `-3`: {-3, false, true},
	} {
		n, empty, ok := ParseInt(json.RawMessage(raw))
		if n != want.n || empty != want.empty || ok != want.ok {
			t.Errorf("%s: %d %v %v", raw, n, empty, ok)
		}
	}
}
