package apptest

import (
	"fmt"
	"strings"
	"testing"
)

// Check is one named expectation for Expect.
type Check struct {
	name      string
	ok        bool
	got, want any
	cond      bool // a condition (True), not a comparison
}

// Eq expects got == want, reported under name.
func Eq[T comparable](name string, got, want T) Check {
	return Check{name: name, ok: got == want, got: got, want: want}
}

// True expects cond, reported as name when it does not hold.
func True(name string, cond bool) Check { return Check{name: name, ok: cond, cond: true} }

// Expect fails the test naming every check that failed ("DEV20: FinalAmount = 30, want
// 29; FreeGrant does not hold"), with v (the whole value, %+v) for context.
func Expect(t testing.TB, what string, v any, checks ...Check) {
	t.Helper()
	if msg := failed(what, v, checks); msg != "" {
		t.Fatal(msg)
	}
}

// Want is Expect for a test that goes on after a failure: it reports the failed checks
// with t.Error and answers whether every check held.
func Want(t testing.TB, what string, v any, checks ...Check) bool {
	t.Helper()
	if msg := failed(what, v, checks); msg != "" {
		t.Error(msg)
		return false
	}
	return true
}

// failed describes the checks that failed, or answers "" when all held.
func failed(what string, v any, checks []Check) string {
	var bad []string
	for _, c := range checks {
		switch {
		case c.ok:
		case c.cond:
			bad = append(bad, c.name+" does not hold")
		default:
			bad = append(bad, fmt.Sprintf("%s = %#v, want %#v", c.name, c.got, c.want))
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: %s\n(in %+v)", what, strings.Join(bad, "; "), v)
}
