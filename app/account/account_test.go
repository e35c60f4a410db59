package account

import (
	"testing"
	"time"
)

func TestSafeName(t *testing.T) {
	for in, want := range map[string]string{
		"engine notes.pdf":    "engine_notes.pdf",
		"../../etc/passwd":    "_.._etc_passwd",
		".hidden":             "hidden",
		"":                    "file",
		"résumé (final).docx": "r_sum___final_.docx",
		"a/b\\c":              "a_b_c",
	} {
		if got := safeName(in); got != want {
			t.Errorf("safeName(%q) = %q, want %q", in, got, want)
		}
	}
	long := make([]byte, 200)
	for i := range long {
		long[i] = 'a'
	}
	if got := safeName(string(long) + ".pdf"); len(got) != 80 || got[len(got)-4:] != ".pdf" {
		t.Errorf("long name %q", got)
	}
}

func TestNames(t *testing.T) {
	if got := ExportName(time.Date(2026, 11, 25, 23, 59, 0, 0, time.FixedZone("x", -3600))); got != "meritmark-data-2026-11-26.zip" {
		t.Errorf("ExportName = %q", got)
	}
	if got := TombstoneEmail("abc"); got != "deleted-abc@deleted.invalid" {
		t.Errorf("TombstoneEmail = %q", got)
	}
}
