package verify_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"meritmark/app/verify"
)

// FuzzParseBulkText: whatever is pasted or uploaded as a CSV for a bulk check, the parser
// answers one of its messages or a list of at most MaxBulkIDs entries, in row order, each
// either an id as issued (reading it again gives the same id) or an unreadable entry echoed
// back short, valid UTF-8 and free of control characters.
func FuzzParseBulkText(f *testing.F) {
	for _, s := range []string{
		"MM-7K2D-9QXA-4PZM", "name,email,link\nAnn,a@x.io,https://m.example/verify/abcdefghijklmnopqrstuvwxyz234567\n",
		"\uFEFFid\r\nmm 7k2d 9qxa 4pzm\r\n\r\nnope", `"MM-7K2D-9QXA-4PZM";"x"` + "\t=cmd()", "\x00\x01", "\xff", strings.Repeat("a,", 3000),
		strings.Repeat("MM-7K2D-9QXA-4PZM\n", 1001), "\r\r\r", `"""`, "id\n",
	} {
		f.Add(s)
	}
	known := map[string]bool{verify.MsgBulkEmpty: true, verify.MsgBulkTooMany: true, verify.MsgBulkTooLarge: true, verify.MsgBulkNotText: true}
	f.Fuzz(func(t *testing.T, text string) {
		entries, err := verify.ParseBulkText(text)
		if err != nil {
			if !known[err.Error()] || entries != nil {
				t.Fatalf("error %q with %d entries", err, len(entries))
			}
			return
		}
		if len(entries) == 0 || len(entries) > verify.MaxBulkIDs {
			t.Fatalf("%d entries", len(entries))
		}
		last := 0
		for _, e := range entries {
			if e.Row <= last {
				t.Fatalf("rows out of order: %d after %d", e.Row, last)
			}
			last = e.Row
			if !utf8.ValidString(e.Input) || utf8.RuneCountInString(e.Input) > 121 || e.Input == "" {
				t.Fatalf("input %q", e.Input)
			}
			for _, r := range e.Input {
				if r < 0x20 || r == 0x7f {
					t.Fatalf("control character in %q", e.Input)
				}
			}
			if e.OK() {
				kind, id, ok := verify.NormalizeID(e.ID)
				if !ok || kind != e.Kind || id != e.ID {
					t.Fatalf("id %q (%s) reads again as %q %q %v", e.ID, e.Kind, kind, id, ok)
				}
			} else if e.Kind != "" {
				t.Fatalf("unreadable entry with a kind: %+v", e)
			}
		}
	})
}
