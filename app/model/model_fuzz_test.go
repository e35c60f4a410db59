package model

import (
	"strings"
	"testing"
)

// FuzzValidID: ValidID accepts exactly NewID's shape (24 lower-case hex digits), so an
// accepted id can be put in a path, a storage key or a query without escaping.
func FuzzValidID(f *testing.F) {
	f.Add(NewID())
	f.Add("")
	f.Add("0123456789abcdef01234567")
	f.Add("0123456789ABCDEF01234567")
	f.Add("../../../../etc/passwd00")
	f.Add("0123456789abcdef0123456\x00")
	f.Add("0123456789abcdef012345ü")
	f.Fuzz(func(t *testing.T, s string) {
		ok := ValidID(s)
		want := len(s) == 24 && strings.Trim(s, "0123456789abcdef") == ""
		if ok != want {
			t.Fatalf("ValidID(%q) = %v, want %v", s, ok, want)
		}
		if ok && strings.ContainsAny(s, "/\\.%?#&=\"'<> \x00") {
			t.Fatalf("accepted id %q holds a character that needs escaping", s)
		}
	})
}
