// Package input holds the input rules shared by the admin forms (badges, quizzes,
// coupons): admin forms send numbers either as JSON numbers or as the strings typed into
// inputs, and an empty input means "not given".
package input

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// MaxMoneyCents is the largest amount of money an admin can type anywhere ($10,000.00):
// anything above is a typo, not a price.
const MaxMoneyCents = 1_000_000

var numberRe = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$`)

// scalar returns the text of a JSON number or string, and whether the value is empty
// (absent, null or a blank string). ok is false for other JSON types.
func scalar(raw json.RawMessage) (s string, empty, ok bool) {
	t := strings.TrimSpace(string(raw))
	if t == "" || t == "null" {
		return "", true, true
	}
	if t[0] == '"' {
		var str string
		if json.Unmarshal(raw, &str) != nil {
			return "", false, false
		}
		str = strings.TrimSpace(str)
		return str, str == "", true
	}
	if t[0] == '-' || (t[0] >= '0' && t[0] <= '9') {
		return t, false, true
	}
	return "", false, false
}

// MoneyError says what is wrong with an amount.
type MoneyError int

const (
	MoneyOK MoneyError = iota
	MoneyNotANumber
	MoneyNegative
	MoneyDecimals
	MoneyTooLarge
)

// ParseHundredths parses a decimal amount (dollars, or a percentage) into hundredths
// (cents), exactly: it rejects anything that is not a plain decimal number (NaN, Infinity,
// "1/2", hex), negatives, more than two decimal places and amounts above max hundredths.
// empty reports an absent, null or blank value.
func ParseHundredths(raw json.RawMessage, max int64) (v int64, empty bool, e MoneyError) {
	s, empty, ok := scalar(raw)
	if empty {
		return 0, true, MoneyOK
	}
	if !ok || len(s) > 40 || !numberRe.MatchString(s) {
		return 0, false, MoneyNotANumber
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		// out of range: huge magnitudes are too large (or negative), tiny ones have too
		// many decimals
		switch {
		case math.IsInf(f, 1):
			return 0, false, MoneyTooLarge
		case math.IsInf(f, -1):
			return 0, false, MoneyNegative
		default:
			return 0, false, MoneyDecimals
		}
	}
	if f < 0 {
		return 0, false, MoneyNegative
	}
	if f > float64(max)/100+1 {
		return 0, false, MoneyTooLarge
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false, MoneyNotANumber
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() {
		return 0, false, MoneyDecimals
	}
	if !r.Num().IsInt64() || r.Num().Int64() > max {
		return 0, false, MoneyTooLarge
	}
	return r.Num().Int64(), false, MoneyOK
}

// MoneyMessage is the message for an amount labelled label ("Price").
func MoneyMessage(label string, e MoneyError, max int64) string {
	switch e {
	case MoneyNegative:
		return label + " cannot be negative."
	case MoneyDecimals:
		return label + " can have at most 2 decimal places."
	case MoneyTooLarge:
		return fmt.Sprintf("%s cannot be more than %s.", label, Dollars(max))
	}
	return label + " must be a number."
}

// Dollars formats cents as $1,234.56.
func Dollars(cents int64) string {
	whole := strconv.FormatInt(cents/100, 10)
	var b strings.Builder
	for i, r := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return fmt.Sprintf("$%s.%02d", b.String(), cents%100)
}

// ParseInt parses a whole number given as a JSON number ("70", "70.0" is refused) or a
// string. empty reports an absent, null or blank value; ok is false for anything that is
// not a whole number.
func ParseInt(raw json.RawMessage) (n int64, empty, ok bool) {
	s, empty, ok := scalar(raw)
	if empty {
		return 0, true, true
	}
	if !ok {
		return 0, false, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false, false
	}
	return n, false, true
}

// TrimPtr trims a string pointer's value ("" for nil).
func TrimPtr(s *string) string {
	if s == nil {
		return ""
	}
	return strings.TrimSpace(*s)
}

// TooLong reports whether s has more than n characters.
func TooLong(s string, n int) bool { return len([]rune(s)) > n }
