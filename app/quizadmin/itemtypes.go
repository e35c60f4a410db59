package quizadmin

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"meritmark/app/model"
)

// normalizeMultiple validates a multiple-response question ("select all that apply"):
// 2 to MaxMultiOptions different options, correctIndexes a list of positions in the
// options as sent (each once, none pointing at an empty option) naming from 1 to
// options-1 of them, and showCount true or false.
func normalizeMultiple(in QuestionInput, f QuestionFields, defTopic, defCategory string) (QuestionFields, string) {
	f.Type = model.QuestionMultiple
	var sent []int
	listOK := len(in.CorrectIndexes) > 0 && json.Unmarshal(in.CorrectIndexes, &sent) == nil && sent != nil
	keptAt := map[int]int{} // position sent -> position kept
	for i, o := range in.Options {
		if strings.TrimSpace(o) != "" {
			keptAt[i] = len(f.Options)
			f.Options = append(f.Options, strings.TrimSpace(o))
		}
	}
	if len(f.Options) < MinOptions {
		return f, MsgMinOptions
	}
	if len(f.Options) > MaxMultiOptions {
		return f, MsgMaxMultiOpts
	}
	if msg := optionsProblem(f.Options); msg != "" {
		return f, msg
	}
	if !listOK {
		return f, MsgCorrectIndexes
	}
	for _, i := range sent {
		k, ok := keptAt[i]
		if !ok || slices.Contains(f.CorrectIndexes, k) {
			return f, MsgCorrectIndexes
		}
		f.CorrectIndexes = append(f.CorrectIndexes, k)
	}
	slices.Sort(f.CorrectIndexes)
	if n := len(f.CorrectIndexes); n < 1 || n > len(f.Options)-1 {
		return f, fmt.Sprintf(MsgCorrectCount, len(f.Options)-1, len(f.Options))
	}
	f.CorrectIndex = f.CorrectIndexes[0]
	if len(in.ShowCount) > 0 && string(in.ShowCount) != "null" {
		if json.Unmarshal(in.ShowCount, &f.ShowCount) != nil {
			return f, MsgShowCount
		}
	}
	return normalizeRest(f, defTopic, defCategory)
}
