package quizadmin

import (
	"encoding/json"
	"fmt"
	"testing"
)

func TestParseBlueprintTargetAndExposure(t *testing.T) {
	for raw, want := range map[string]string{
		`null`: "[] ",
		`[]`:   "[] ",
		`[{"topic":" Hooks ","count":2},{"topic":"State","count":"1"}]`: "[{Hooks 2} {State 1}] ",
		`[{"topic":"Hooks","count":0}]`:                                 "[] " + fmt.Sprintf(MsgBlueprintCount, "Hooks"),
		`[{"topic":"Hooks"}]`:                                           "[] " + fmt.Sprintf(MsgBlueprintCount, "Hooks"),
		`[{"topic":"Hooks","count":201}]`:                               "[] " + fmt.Sprintf(MsgBlueprintCount, "Hooks"),
		`[{"count":1}]`:                                                 "[] " + MsgBlueprintTopic,
		`{"topic":"Hooks"}`:                                             "[] " + MsgBlueprintShape,
	} {
		bp, msg := ParseBlueprint(json.RawMessage(raw))
		if got := fmt.Sprint(bp) + " " + msg; got != want {
			t.Errorf("%s: %q, want %q", raw, got, want)
		}
	}
	if bp, msg := MatchTopics(nil, nil); len(bp) != 0 || msg != "" {
		t.Fatal("empty blueprint")
	}
	for raw, ok := range map[string]bool{`0.5`: true, `0.05`: true, `0.95`: true, `0.96`: false, `0`: false, `"0.5"`: false, `null`: true} {
		_, msg := ParseTarget(json.RawMessage(raw))
		if (msg == "") != ok {
			t.Errorf("target %s: %q", raw, msg)
		}
	}
	for raw, ok := range map[string]bool{`1`: true, `100`: true, `0`: false, `101`: false, `40.5`: false, `null`: false} {
		_, msg := ParseMaxExposure(json.RawMessage(raw))
		if (msg == "") != ok {
			t.Errorf("exposure %s: %q", raw, msg)
		}
	}
}

func TestFamilyLoop(t *testing.T) {
	links := map[string]string{"b": "a", "c": "b"}
	cases := []struct {
		id, parent string
		loop       bool
	}{{"a", "c", true}, {"a", "b", true}, {"d", "c", false}, {"c", "a", false}}
	for _, c := range cases {
		if FamilyLoop(links, c.id, c.parent) != c.loop {
			t.Errorf("%s -> %s: loop %v", c.id, c.parent, !c.loop)
		}
	}
}
