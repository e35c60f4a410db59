package quiz

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"meritmark/app/model"
)

// Balanced random forms (linear-on-the-fly): each attempt of a quiz with a blueprint gets
// its own form drawn from the pool so that
//   - it holds exactly the blueprint's count of questions of each topic,
//   - it never holds two questions of one family,
//   - its expected difficulty (the mean of its items' estimated proportion correct) is
//     within Band of the quiz's target,
//   - no item appears in more than the quiz's maximum exposure rate of the last
//     ExposureWindow forms while the pool can meet the rules above without it,
//   - it shares as few items with the member's previous form as the pool allows.
//
// Method: a randomized stratified greedy draw with a swap repair. Per topic (topics in a
// random order), the candidates are ranked by tier (0: fine; 1: in the member's previous
// form; 2: at the exposure cap; 3: both) and within a tier by a weighted random key
// (Efraimidis-Spirakis: u^(1/w), with w falling as the item's recent exposure rises), and
// the first count items of distinct families are taken. If the form's expected difficulty
// is outside the band, the repair swaps one item for another of the same topic (family
// rules kept) that brings the mean into the band, or failing that closest to the target,
// preferring swaps that do not raise the tier. Draw makes DrawTries such tries without any
// item at the cap, then as many allowing them (the cap yields only when the pool cannot
// meet the rules otherwise), and then gives up with a *DrawError. Draw is pure: it reads
// its inputs and the random source only.

// Form rules.
const (
	ExposureWindow     = 200  // forms the exposure rate is measured over
	DefaultMaxExposure = 40   // percent
	Band               = 0.05 // the largest distance of a form's expected difficulty from the target
	MinResponses       = 30   // answers an item needs before its own proportion correct replaces its label
	DrawTries          = 40   // randomized tries per phase
)

// LabelP maps a difficulty label to the proportion correct it stands for.
func LabelP(difficulty string) float64 {
	switch difficulty {
	case "easy":
		return 0.8
	case "hard":
		return 0.4
	}
	return 0.6
}

// EstimateP is an item's difficulty estimate: its proportion correct once it has been
// answered MinResponses times, else its label's value.
func EstimateP(difficulty string, answered, correct int) float64 {
	if answered >= MinResponses {
		return float64(correct) / float64(answered)
	}
	return LabelP(difficulty)
}

// TopicOf is a question's topic as blueprints and results name it ("General" when empty).
func TopicOf(q *model.Question) string {
	if t := strings.TrimSpace(q.Topic); t != "" {
		return t
	}
	return "General"
}

// ExposureRate is the quiz's maximum exposure rate in percent (the default when unset).
func ExposureRate(qz *model.Quiz) int {
	if qz.MaxExposure <= 0 || qz.MaxExposure > 100 {
		return DefaultMaxExposure
	}
	return qz.MaxExposure
}

// CapCount is the most forms of ExposureWindow one item may appear in at rate percent.
func CapCount(rate int) int { return rate * ExposureWindow / 100 }

// BlueprintTotal is the number of questions a blueprint draws.
func BlueprintTotal(bp []model.BlueprintRow) int {
	n := 0
	for _, r := range bp {
		n += r.Count
	}
	return n
}

// Item is a pool question as the draw sees it.
type Item struct {
	ID       string
	Topic    string
	Family   string  // family key (the root of its family links; "" = a family of its own)
	P        float64 // estimated proportion correct
	Exposure int     // forms among the last ExposureWindow-1 drawn that held it
}

func (it Item) family() string {
	if it.Family != "" {
		return it.Family
	}
	return "id:" + it.ID
}

// Spec is what a form must meet.
type Spec struct {
	Blueprint []model.BlueprintRow
	Target    float64
	Cap       int             // CapCount of the quiz's rate: an item with Exposure >= Cap is at the cap
	Previous  map[string]bool // the member's previous form
}

// Form is a drawn form: its items (in the order the attempt asks them) and expected
// difficulty. OverCap counts items taken although at the exposure cap.
type Form struct {
	Items   []Item
	Mean    float64
	OverCap int
}

// DrawError says why no form meets the rules.
type DrawError struct{ Msg string }

func (e *DrawError) Error() string { return e.Msg }

// Messages of a draw the pool cannot meet.
const (
	MsgTopicShort  = `The pool cannot fill the blueprint: topic "%s" needs %d questions but has only %d active (%d short).`
	MsgFamilyShort = `The pool cannot fill the blueprint: topic "%s" needs %d questions from different families but has only %d families (%d short).`
	MsgBand        = "The pool cannot draw a form that meets the blueprint and families with an expected difficulty within 0.05 of the target %.2f. Add questions, or change the blueprint or the target difficulty."
)

// Shortfall checks that each topic of the blueprint has enough items, and items of
// distinct families; "" when it does.
func Shortfall(pool []Item, bp []model.BlueprintRow) string {
	for _, r := range bp {
		n, fams := 0, map[string]bool{}
		for _, it := range pool {
			if it.Topic == r.Topic {
				n++
				fams[it.family()] = true
			}
		}
		if n < r.Count {
			return fmt.Sprintf(MsgTopicShort, r.Topic, r.Count, n, r.Count-n)
		}
		if len(fams) < r.Count {
			return fmt.Sprintf(MsgFamilyShort, r.Topic, r.Count, len(fams), r.Count-len(fams))
		}
	}
	return ""
}

// PoolMean is the mean estimate of the items the blueprint draws from (0.6 for none).
func PoolMean(pool []Item, bp []model.BlueprintRow) float64 {
	in := map[string]bool{}
	for _, r := range bp {
		in[r.Topic] = true
	}
	sum, n := 0.0, 0
	for _, it := range pool {
		if in[it.Topic] {
			sum += it.P
			n++
		}
	}
	if n == 0 {
		return LabelP("")
	}
	return sum / float64(n)
}

// InBand reports a mean within Band of target (with a little slack for rounding).
func InBand(mean, target float64) bool { return math.Abs(mean-target) <= Band+1e-9 }

// Draw draws one form from pool (active items only) meeting spec, using r for every
// random choice.
func Draw(pool []Item, spec Spec, r *rand.Rand) (Form, error) {
	if msg := Shortfall(pool, spec.Blueprint); msg != "" {
		return Form{}, &DrawError{Msg: msg}
	}
	byTopic := map[string][]Item{}
	for _, it := range pool {
		byTopic[it.Topic] = append(byTopic[it.Topic], it)
	}
	for _, allowCap := range []bool{false, true} {
		for try := 0; try < DrawTries; try++ {
			if f, ok := drawOnce(byTopic, spec, r, allowCap); ok {
				return f, nil
			}
		}
	}
	return Form{}, &DrawError{Msg: fmt.Sprintf(MsgBand, spec.Target)}
}

type drawer struct {
	spec     Spec
	allowCap bool
}

func (d drawer) capped(it Item) bool { return it.Exposure >= d.spec.Cap }

func (d drawer) tier(it Item) int {
	t := 0
	if d.spec.Previous[it.ID] {
		t++
	}
	if d.capped(it) {
		t += 2
	}
	return t
}

// weight falls with recent exposure: an item never drawn weighs Cap+1, one at the cap 1.
func (d drawer) weight(it Item) float64 {
	w := float64(d.spec.Cap-it.Exposure) + 1
	if w < 1 {
		w = 1
	}
	return w
}

func drawOnce(byTopic map[string][]Item, spec Spec, r *rand.Rand, allowCap bool) (Form, bool) {
	d := drawer{spec: spec, allowCap: allowCap}
	chosen := []Item{}
	fams := map[string]int{}
	for _, ri := range r.Perm(len(spec.Blueprint)) {
		row := spec.Blueprint[ri]
		type cand struct {
			it   Item
			tier int
			key  float64
		}
		var cs []cand
		for _, it := range byTopic[row.Topic] {
			if !allowCap && d.capped(it) {
				continue
			}
			u := r.Float64()
			for u == 0 {
				u = r.Float64()
			}
			cs = append(cs, cand{it: it, tier: d.tier(it), key: math.Log(u) / d.weight(it)})
		}
		sort.Slice(cs, func(i, j int) bool {
			if cs[i].tier != cs[j].tier {
				return cs[i].tier < cs[j].tier
			}
			return cs[i].key > cs[j].key
		})
		n := 0
		for _, c := range cs {
			if n == row.Count {
				break
			}
			if fams[c.it.family()] > 0 {
				continue
			}
			fams[c.it.family()]++
			chosen = append(chosen, c.it)
			n++
		}
		if n < row.Count {
			return Form{}, false
		}
	}
	if !d.repair(byTopic, chosen, fams, r) {
		return Form{}, false
	}
	order := r.Perm(len(chosen))
	f := Form{Items: make([]Item, len(chosen)), Mean: meanP(chosen)}
	for i, o := range order {
		f.Items[i] = chosen[o]
		if d.capped(chosen[o]) {
			f.OverCap++
		}
	}
	return f, true
}

func meanP(items []Item) float64 {
	if len(items) == 0 {
		return 0
	}
	s := 0.0
	for _, it := range items {
		s += it.P
	}
	return s / float64(len(items))
}

// repair swaps items within their topic until the form's mean is in the band; false when
// no swap gets closer.
func (d drawer) repair(byTopic map[string][]Item, chosen []Item, fams map[string]int, r *rand.Rand) bool {
	k := float64(len(chosen))
	in := map[string]bool{}
	for _, it := range chosen {
		in[it.ID] = true
	}
	type swap struct {
		out  int
		in   Item
		dist float64
		up   bool // raises the tier
	}
	for step := 0; step < 4*len(chosen)+20; step++ {
		diff := meanP(chosen) - d.spec.Target
		if InBand(diff+d.spec.Target, d.spec.Target) {
			return true
		}
		var inBand, closer []swap
		for oi, o := range chosen {
			for _, c := range byTopic[o.Topic] {
				if in[c.ID] || (!d.allowCap && d.capped(c)) {
					continue
				}
				if c.family() != o.family() && fams[c.family()] > 0 {
					continue
				}
				nd := diff + (c.P-o.P)/k
				if math.Abs(nd) >= math.Abs(diff)-1e-12 {
					continue
				}
				s := swap{out: oi, in: c, dist: math.Abs(nd), up: d.tier(c) > d.tier(o)}
				if math.Abs(nd) <= Band+1e-9 {
					inBand = append(inBand, s)
				} else {
					closer = append(closer, s)
				}
			}
		}
		var pick *swap
		if len(inBand) > 0 {
			pick = pickSwap(inBand, r, func(s swap) bool { return !s.up })
		} else if len(closer) > 0 {
			sort.SliceStable(closer, func(i, j int) bool {
				if closer[i].up != closer[j].up {
					return !closer[i].up
				}
				return closer[i].dist < closer[j].dist
			})
			pick = &closer[0]
		}
		if pick == nil {
			return false
		}
		o := chosen[pick.out]
		delete(in, o.ID)
		fams[o.family()]--
		chosen[pick.out] = pick.in
		in[pick.in.ID] = true
		fams[pick.in.family()]++
	}
	return InBand(meanP(chosen), d.spec.Target)
}

// pickSwap picks at random among the swaps that satisfy pref, or among all when none does.
func pickSwap[S any](ss []S, r *rand.Rand, pref func(S) bool) *S {
	var good []int
	for i, s := range ss {
		if pref(s) {
			good = append(good, i)
		}
	}
	if len(good) > 0 {
		return &ss[good[r.IntN(len(good))]]
	}
	return &ss[r.IntN(len(ss))]
}

// FormLayout is the attempt layout of a drawn form: its items in order, each with its
// options shuffled by perm (options[id] is how many options the question has).
func FormLayout(f Form, options map[string]int, perm func(n int) []int) []model.AttemptItem {
	if perm == nil {
		perm = rand.Perm
	}
	out := make([]model.AttemptItem, len(f.Items))
	for i, it := range f.Items {
		out[i] = model.AttemptItem{QuestionID: it.ID, OptionOrder: perm(options[it.ID])}
	}
	return out
}

// FamilyRoot follows id's family links (question id -> the question it is a variant or an
// enemy of) to the family's root; an unlinked question is its own root. A loop (refused
// when links are saved) stops the walk.
func FamilyRoot(links map[string]string, id string) string {
	seen := map[string]bool{id: true}
	for {
		next, ok := links[id]
		if !ok || next == "" || seen[next] {
			return id
		}
		seen[next] = true
		id = next
	}
}
