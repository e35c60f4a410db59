package quiz_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"meritmark/app/model"
	"meritmark/app/quiz"
)

// demoPool is 3 topics, 34 items, mixed labels, two families (a variant family of three in
// Hooks, an enemy pair across Hooks and State).
func demoPool() []quiz.Item {
	var pool []quiz.Item
	add := func(topic string, n int, family func(i int) string) {
		ps := []float64{0.8, 0.6, 0.4, 0.6, 0.8, 0.4, 0.6}
		for i := 0; i < n; i++ {
			id := fmt.Sprintf("%s-%d", topic, i)
			fam := id
			if family != nil {
				if f := family(i); f != "" {
					fam = f
				}
			}
			pool = append(pool, quiz.Item{ID: id, Topic: topic, Family: fam, P: ps[i%len(ps)]})
		}
	}
	add("Hooks", 12, func(i int) string {
		switch i {
		case 0, 1, 2:
			return "fam-variants"
		case 3:
			return "fam-enemies"
		}
		return ""
	})
	add("State", 12, func(i int) string {
		if i == 0 {
			return "fam-enemies"
		}
		return ""
	})
	add("SSR", 10, nil)
	return pool
}

var demoBlueprint = []model.BlueprintRow{{Topic: "Hooks", Count: 3}, {Topic: "State", Count: 3}, {Topic: "SSR", Count: 2}}

// history simulates a quiz's forms: each draw sees the exposure over the last
// ExposureWindow-1 forms, as the service loads it.
type history struct{ forms [][]string }

func (h *history) exposed(pool []quiz.Item) []quiz.Item {
	out := append([]quiz.Item(nil), pool...)
	count := map[string]int{}
	start := len(h.forms) - (quiz.ExposureWindow - 1)
	if start < 0 {
		start = 0
	}
	for _, f := range h.forms[start:] {
		for _, id := range f {
			count[id]++
		}
	}
	for i := range out {
		out[i].Exposure = count[out[i].ID]
	}
	return out
}

// maxWindow is the most forms any ExposureWindow consecutive forms hold one item in.
func (h *history) maxWindow() (string, int) {
	worst, id := 0, ""
	count := map[string]int{}
	for i, f := range h.forms {
		for _, q := range f {
			count[q]++
		}
		if i >= quiz.ExposureWindow {
			for _, q := range h.forms[i-quiz.ExposureWindow] {
				count[q]--
			}
		}
		for q, n := range count {
			if n > worst {
				worst, id = n, q
			}
		}
	}
	return id, worst
}

func ids(f quiz.Form) []string {
	out := make([]string, len(f.Items))
	for i, it := range f.Items {
		out[i] = it.ID
	}
	return out
}

func TestFiveHundredDrawsMeetBlueprintFamiliesAndBand(t *testing.T) {
	pool := demoPool()
	target := quiz.PoolMean(pool, demoBlueprint)
	r := rand.New(rand.NewPCG(1, 2))
	h := &history{}
	prev := map[string]bool{}
	for n := 0; n < 500; n++ {
		spec := quiz.Spec{Blueprint: demoBlueprint, Target: target, Cap: quiz.CapCount(40), Previous: prev}
		f, err := quiz.Draw(h.exposed(pool), spec, r)
		if err != nil {
			t.Fatalf("draw %d: %v", n, err)
		}
		topics, fams, seen := map[string]int{}, map[string]bool{}, map[string]bool{}
		sum := 0.0
		for _, it := range f.Items {
			if seen[it.ID] {
				t.Fatalf("draw %d holds %s twice", n, it.ID)
			}
			seen[it.ID] = true
			topics[it.Topic]++
			if fams[it.Family] {
				t.Fatalf("draw %d holds two of family %s: %v", n, it.Family, ids(f))
			}
			fams[it.Family] = true
			sum += it.P
		}
		for _, row := range demoBlueprint {
			if topics[row.Topic] != row.Count {
				t.Fatalf("draw %d has %d of %s, want %d", n, topics[row.Topic], row.Topic, row.Count)
			}
		}
		if len(f.Items) != quiz.BlueprintTotal(demoBlueprint) {
			t.Fatalf("draw %d has %d items", n, len(f.Items))
		}
		mean := sum / float64(len(f.Items))
		if mean < target-quiz.Band-1e-9 || mean > target+quiz.Band+1e-9 {
			t.Fatalf("draw %d: expected difficulty %.3f, target %.3f", n, mean, target)
		}
		// one member sits every other form: consecutive forms of theirs share nothing (the
		// pool has twice the items each topic needs)
		if n%2 == 0 {
			for _, id := range ids(f) {
				if prev[id] {
					t.Fatalf("draw %d repeats %s from the member's previous form", n, id)
				}
			}
			prev = map[string]bool{}
			for _, id := range ids(f) {
				prev[id] = true
			}
		}
		h.forms = append(h.forms, ids(f))
	}
}

func TestExposureStaysUnderTheCapOverAThousandDraws(t *testing.T) {
	// Hooks: 6 items, 2 per form (33 % on average), and the band favours the medium ones
	// (an easy item is best paired with a hard one): without the cap some items go over.
	var pool []quiz.Item
	for i, p := range []float64{0.6, 0.6, 0.8, 0.4, 0.9, 0.3} {
		pool = append(pool, quiz.Item{ID: fmt.Sprintf("h%d", i), Topic: "Hooks", P: p})
	}
	for i, p := range []float64{0.6, 0.6, 0.8, 0.4, 0.6, 0.8, 0.4, 0.6} {
		pool = append(pool, quiz.Item{ID: fmt.Sprintf("s%d", i), Topic: "State", P: p})
	}
	bp := []model.BlueprintRow{{Topic: "Hooks", Count: 2}, {Topic: "State", Count: 2}}
	target := 0.6
	run := func(capCount int) (*history, int) {
		r := rand.New(rand.NewPCG(7, 8))
		h := &history{}
		over := 0
		for n := 0; n < 1000; n++ {
			f, err := quiz.Draw(h.exposed(pool), quiz.Spec{Blueprint: bp, Target: target, Cap: capCount}, r)
			if err != nil {
				t.Fatalf("draw %d: %v", n, err)
			}
			if !quiz.InBand(f.Mean, target) {
				t.Fatalf("draw %d out of band: %.3f", n, f.Mean)
			}
			over += f.OverCap
			h.forms = append(h.forms, ids(f))
		}
		return h, over
	}
	capCount := quiz.CapCount(quiz.DefaultMaxExposure)
	h, over := run(capCount)
	if id, worst := h.maxWindow(); worst > capCount || over != 0 {
		t.Fatalf("%s appeared in %d of %d consecutive forms (cap %d); %d items over the cap", id, worst, quiz.ExposureWindow, capCount, over)
	} else {
		t.Logf("with the cap: at most %d of %d consecutive forms (%s)", worst, quiz.ExposureWindow, id)
	}
	// the same pool without exposure control goes over: the test above can fail
	h, _ = run(quiz.ExposureWindow + 1)
	if id, worst := h.maxWindow(); worst <= capCount {
		t.Fatalf("without the cap the worst item (%s) appeared in only %d forms: the pool does not test the cap", id, worst)
	} else {
		t.Logf("without the cap: %s in %d of %d consecutive forms", id, worst, quiz.ExposureWindow)
	}
}

func TestCapYieldsOnlyWhenThePoolNeedsIt(t *testing.T) {
	// 2 items, 2 per form: both on every form, over the cap, since nothing else can fill it
	pool := []quiz.Item{{ID: "a", Topic: "T", P: 0.6, Exposure: 150}, {ID: "b", Topic: "T", P: 0.6, Exposure: 199}}
	f, err := quiz.Draw(pool, quiz.Spec{Blueprint: []model.BlueprintRow{{Topic: "T", Count: 2}}, Target: 0.6, Cap: 80}, rand.New(rand.NewPCG(1, 1)))
	if err != nil || len(f.Items) != 2 || f.OverCap != 2 {
		t.Fatalf("%v %+v", err, f)
	}
	// with a third item under the cap it is always taken
	pool = append(pool, quiz.Item{ID: "c", Topic: "T", P: 0.6})
	for i := 0; i < 50; i++ {
		f, err := quiz.Draw(pool, quiz.Spec{Blueprint: []model.BlueprintRow{{Topic: "T", Count: 2}}, Target: 0.6, Cap: 80}, rand.New(rand.NewPCG(uint64(i), 3)))
		if err != nil || f.OverCap != 1 || !strings.Contains(strings.Join(ids(f), ","), "c") {
			t.Fatalf("%v %+v", err, f)
		}
	}
}

func TestDrawRefusesWhatThePoolCannotMeet(t *testing.T) {
	pool := []quiz.Item{
		{ID: "a", Topic: "T", P: 0.8, Family: "f"}, {ID: "b", Topic: "T", P: 0.8, Family: "f"}, {ID: "c", Topic: "T", P: 0.8},
		{ID: "d", Topic: "U", P: 0.4},
	}
	r := rand.New(rand.NewPCG(1, 1))
	cases := []struct {
		bp     []model.BlueprintRow
		target float64
		msg    string
	}{
		{[]model.BlueprintRow{{Topic: "T", Count: 4}}, 0.8, `The pool cannot fill the blueprint: topic "T" needs 4 questions but has only 3 active (1 short).`},
		{[]model.BlueprintRow{{Topic: "T", Count: 3}}, 0.8, `The pool cannot fill the blueprint: topic "T" needs 3 questions from different families but has only 2 families (1 short).`},
		{[]model.BlueprintRow{{Topic: "T", Count: 2}, {Topic: "U", Count: 1}}, 0.8, "The pool cannot draw a form that meets the blueprint and families with an expected difficulty within 0.05 of the target 0.80. Add questions, or change the blueprint or the target difficulty."},
	}
	for _, c := range cases {
		_, err := quiz.Draw(pool, quiz.Spec{Blueprint: c.bp, Target: c.target, Cap: 80}, r)
		var de *quiz.DrawError
		if !errors.As(err, &de) || de.Msg != c.msg {
			t.Errorf("%+v: %v, want %q", c.bp, err, c.msg)
		}
	}
	// the band is met when the target allows it
	f, err := quiz.Draw(pool, quiz.Spec{Blueprint: []model.BlueprintRow{{Topic: "T", Count: 2}, {Topic: "U", Count: 1}}, Target: 2.0 / 3, Cap: 80}, r)
	if err != nil || len(f.Items) != 3 {
		t.Fatalf("%v %+v", err, f)
	}
}

func TestFamilyRootsAndEstimates(t *testing.T) {
	links := map[string]string{"b": "a", "c": "b", "x": "y", "y": "x"}
	for id, want := range map[string]string{"a": "a", "b": "a", "c": "a", "d": "d"} {
		if got := quiz.FamilyRoot(links, id); got != want {
			t.Errorf("root of %s = %s, want %s", id, got, want)
		}
	}
	if got := quiz.FamilyRoot(links, "x"); got != "y" { // a loop stops the walk
		t.Errorf("loop root %s", got)
	}
	if quiz.EstimateP("easy", 29, 0) != 0.8 || quiz.EstimateP("hard", 0, 0) != 0.4 || quiz.EstimateP("", 3, 3) != 0.6 || quiz.EstimateP("easy", 30, 15) != 0.5 {
		t.Fatal("estimates")
	}
}

func TestEmptyBlueprintDrawKeepsOnePerFamily(t *testing.T) {
	qs := []model.Question{{ID: "a", Options: []string{"1", "2"}}, {ID: "b", Options: []string{"1", "2"}}, {ID: "c", Options: []string{"1", "2"}}}
	ident := func(n int) []int {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		return p
	}
	got := quiz.NewLayoutFamilies(qs, map[string]string{"a": "F", "b": "F", "c": "c"}, 2, ident)
	if len(got) != 2 || got[0].QuestionID != "a" || got[1].QuestionID != "c" {
		t.Fatalf("%+v", got)
	}
}
