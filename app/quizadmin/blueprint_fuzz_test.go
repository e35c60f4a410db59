package quizadmin

import (
	"encoding/json"
	"strings"
	"testing"

	"meritmark/app/input"
)

// FuzzBlueprint: an accepted blueprint has at most MaxBlueprintRows rows, each with a
// non-empty, trimmed, bounded topic named once (in any case) and a count from 1 to MaxDraw;
// a refused one says why.
func FuzzBlueprint(f *testing.F) {
	for _, s := range []string{`[{"topic":"Hooks","count":2}]`, `null`, `[]`, `[{"topic":" a ","count":"3"},{"topic":"A","count":1}]`,
		`[{"topic":"x","count":0}]`, `[{"topic":"x","count":1.5}]`, `[{"topic":"x","count":1e9}]`, `{"topic":"x"}`, `"x"`, `[null]`, `[{}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		bp, msg := ParseBlueprint(json.RawMessage(raw))
		if msg != "" {
			if bp != nil {
				t.Fatalf("refused (%s) but returned %v", msg, bp)
			}
			return
		}
		if len(bp) > MaxBlueprintRows {
			t.Fatalf("%d rows", len(bp))
		}
		seen := map[string]bool{}
		for _, r := range bp {
			k := strings.ToLower(r.Topic)
			if r.Topic == "" || r.Topic != strings.TrimSpace(r.Topic) || input.TooLong(r.Topic, MaxTopic) || seen[k] || r.Count < 1 || r.Count > MaxDraw {
				t.Fatalf("accepted %+v from %q", r, raw)
			}
			seen[k] = true
		}
	})
}
