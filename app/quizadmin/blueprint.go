package quizadmin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"meritmark/app/input"
	"meritmark/app/model"
)

// Form settings: the blueprint, the target difficulty and the exposure cap.
const (
	MaxBlueprintRows = 50
	MinTarget        = 0.05
	MaxTarget        = 0.95
)

// Form setting messages.
const (
	MsgBlueprintShape   = `The blueprint must be a list of {"topic": "...", "count": n}.`
	MsgBlueprintTopic   = "Each blueprint row needs a topic."
	MsgBlueprintCount   = `The count for topic "%s" must be a whole number of at least 1.`
	MsgBlueprintDup     = `The blueprint names the topic "%s" twice.`
	MsgBlueprintUnknown = `The blueprint names the topic "%s", which no question in this quiz's pool has.`
	MsgBlueprintLong    = "A blueprint can have at most 50 topics."
	MsgTarget           = "Target difficulty must be a number from 0.05 to 0.95 (the proportion correct expected), or null to use the pool's mean."
	MsgMaxExposure      = "Maximum exposure must be a whole number of percent from 1 to 100."
	MsgFamilyNotFound   = "The question named as this one's family was not found."
	MsgFamilySelf       = "A question cannot be in a family with itself."
	MsgFamilyLoop       = "That family link would make a loop: the chosen question is already linked to this one."
	MsgRetiredRequired  = `Say whether the question is retired: {"retired": true} or {"retired": false}.`
	MsgPoolBreaks       = `This change would leave the quiz "%s" unable to draw its forms. %s`
)

// present reports a field given in the JSON body (null included).
func present(raw json.RawMessage) bool { return len(bytes.TrimSpace(raw)) > 0 }

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// ParseBlueprint validates a blueprint: a list of distinct topics, each with a whole count
// of at least 1 (null or [] is the empty blueprint). Topics are trimmed.
func ParseBlueprint(raw json.RawMessage) ([]model.BlueprintRow, string) {
	if isNull(raw) {
		return []model.BlueprintRow{}, ""
	}
	var rows []struct {
		Topic *string         `json:"topic"`
		Count json.RawMessage `json:"count"`
	}
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, MsgBlueprintShape
	}
	if len(rows) > MaxBlueprintRows {
		return nil, MsgBlueprintLong
	}
	out := make([]model.BlueprintRow, 0, len(rows))
	seen := map[string]bool{}
	for _, r := range rows {
		t := input.TrimPtr(r.Topic)
		if t == "" {
			return nil, MsgBlueprintTopic
		}
		if input.TooLong(t, MaxTopic) {
			return nil, MsgTopicLong
		}
		n, empty, ok := input.ParseInt(r.Count)
		if empty || !ok || n < 1 || n > MaxDraw {
			return nil, fmt.Sprintf(MsgBlueprintCount, t)
		}
		k := strings.ToLower(t)
		if seen[k] {
			return nil, fmt.Sprintf(MsgBlueprintDup, t)
		}
		seen[k] = true
		out = append(out, model.BlueprintRow{Topic: t, Count: int(n)})
	}
	return out, ""
}

// MatchTopics spells each blueprint topic as the pool does (topics match in any case) and
// refuses one no pool question has.
func MatchTopics(bp []model.BlueprintRow, poolTopics []string) ([]model.BlueprintRow, string) {
	canon := map[string]string{}
	for _, t := range poolTopics {
		canon[strings.ToLower(t)] = t
	}
	out := make([]model.BlueprintRow, len(bp))
	for i, r := range bp {
		t, ok := canon[strings.ToLower(r.Topic)]
		if !ok {
			return nil, fmt.Sprintf(MsgBlueprintUnknown, r.Topic)
		}
		out[i] = model.BlueprintRow{Topic: t, Count: r.Count}
	}
	return out, ""
}

// ParseTarget validates a target difficulty: null clears it (the pool's mean is used).
func ParseTarget(raw json.RawMessage) (*float64, string) {
	if isNull(raw) {
		return nil, ""
	}
	var v float64
	if err := json.Unmarshal(raw, &v); err != nil || math.IsNaN(v) || v < MinTarget || v > MaxTarget {
		return nil, MsgTarget
	}
	v = math.Round(v*1000) / 1000
	return &v, ""
}

// ParseMaxExposure validates a maximum exposure rate in percent.
func ParseMaxExposure(raw json.RawMessage) (int, string) {
	n, empty, ok := input.ParseInt(raw)
	if empty || !ok || n < 1 || n > 100 {
		return 0, MsgMaxExposure
	}
	return int(n), ""
}

// MsgMinItemSeconds refuses a speed floor out of range.
const MsgMinItemSeconds = "Minimum seconds per question must be a whole number from 0 to 600."

// ParseMinItemSeconds validates the integrity check's speed floor (0 = no speed check).
func ParseMinItemSeconds(raw json.RawMessage) (int, string) {
	n, empty, ok := input.ParseInt(raw)
	if empty || !ok || n < 0 || n > 600 {
		return 0, MsgMinItemSeconds
	}
	return int(n), ""
}

// FamilyLoop reports whether linking id to parent (id becomes a variant of parent) would
// close a loop through links (question id -> the question it is linked to).
func FamilyLoop(links map[string]string, id, parent string) bool {
	seen := map[string]bool{}
	for cur := parent; cur != "" && !seen[cur]; cur = links[cur] {
		if cur == id {
			return true
		}
		seen[cur] = true
	}
	return false
}
