// Package measure computes the classical test statistics of a quiz from its scored
// responses: reliability (KR-20), the standard error of measurement, the consistency of
// the pass/fail decision (Subkoviak), the pass rate, and per item the proportion correct,
// the corrected point-biserial, times asked, median time and drift. It also holds the
// arithmetic of a modified Angoff standard setting. It does no I/O.
//
// Every attempt answers the items of its own form, drawn from the quiz's pool, so the
// response matrix is sparse: an item a candidate was not shown is missing, not wrong.
// docs/measurement.md explains each figure and its formula for admins.
//
// A figure that cannot be computed (too few attempts, no variance, a division by zero)
// is nil, never NaN or ±Inf, so a report always encodes as JSON.
package measure

import (
	"math"
	"sort"
)

// MinAttempts is the number of attempts (and, for an item's figures, of answers to the
// item) below which a figure is withheld.
const MinAttempts = 30

// NotEnough is what the API and the admin page say instead of a withheld figure.
const NotEnough = "not enough attempts yet"

// Response is one item as one attempt answered it.
type Response struct {
	Item    string
	Correct bool
	Seconds float64 // time spent on the item, when Timed
	Timed   bool
}

// Attempt is one submitted attempt: the items of its form (each at most once) and the
// pass/fail rule it was graded with.
type Attempt struct {
	Responses []Response
	Cut       int  // number of correct answers needed to pass this form
	Passed    bool // the decision recorded for the attempt
}

// Score is the number of items answered correctly.
func (a *Attempt) Score() int {
	x := 0
	for _, r := range a.Responses {
		if r.Correct {
			x++
		}
	}
	return x
}

// Report is the measurement of a quiz. Below MinAttempts attempts Enough is false and
// every figure is nil.
type Report struct {
	N        int      // attempts with at least one scored item
	Enough   bool     // N >= MinAttempts
	PassRate *float64 // share of attempts passed, 0..1
	Reliability
	Decision
	Items []Item // in the order asked for, then items met in the attempts
}

// Item is one item's figures. Below MinAttempts answers to the item (or attempts to
// the quiz) Enough is false and P, PointBiserial and MedianSeconds are nil; the drift
// test has its own minimum per window.
type Item struct {
	Item          string
	TimesAsked    int
	Correct       int
	Enough        bool
	P             *float64 // proportion correct
	PointBiserial *float64 // corrected: item against the rest score
	MedianSeconds *float64 // over the responses that carry a time
	Drift         Drift
}

// Analyze computes the report of attempts, given in the order they were submitted
// (oldest first: the drift test compares the latest answers with the earlier ones).
// items fixes the order of the per-item figures; items met only in the attempts follow.
func Analyze(attempts []Attempt, items []string) Report {
	m := newMatrix(attempts, items)
	rep := Report{N: m.n(), Items: make([]Item, len(m.ids))}
	rep.Enough = rep.N >= MinAttempts
	if rep.Enough {
		passed := 0
		for _, a := range m.attempts {
			if a.Passed {
				passed++
			}
		}
		rep.PassRate = num(float64(passed) / float64(rep.N))
		rep.Reliability = m.reliability()
		if rep.KR20 != nil {
			rep.Decision = m.decision(*rep.KR20)
		}
	}
	pb := m.pointBiserials()
	drift := m.drifts()
	times := m.times()
	for j, id := range m.ids {
		it := Item{Item: id, TimesAsked: m.asked[j], Correct: m.right[j], Drift: drift[j]}
		it.Enough = rep.Enough && it.TimesAsked >= MinAttempts
		if it.Enough {
			it.P = num(m.p[j])
			it.PointBiserial = pb[j]
			it.MedianSeconds = median(times[j])
		}
		rep.Items[j] = it
	}
	return rep
}

// matrix is the sparse response matrix: attempts (rows) with at least one response,
// items (columns) indexed.
type matrix struct {
	attempts []*Attempt
	ids      []string
	rows     [][]int32 // item indexes per attempt
	marks    [][]bool  // correct per response, parallel to rows
	x        []int     // score per attempt
	asked    []int     // responses per item
	right    []int     // correct responses per item
	p        []float64 // proportion correct per item (0 when never asked)
}

func newMatrix(attempts []Attempt, items []string) *matrix {
	m := &matrix{}
	index := make(map[string]int32, len(items))
	add := func(id string) int32 {
		j, ok := index[id]
		if !ok {
			j = int32(len(m.ids))
			index[id] = j
			m.ids = append(m.ids, id)
		}
		return j
	}
	for _, id := range items {
		add(id)
	}
	for i := range attempts {
		a := &attempts[i]
		if len(a.Responses) == 0 {
			continue
		}
		row := make([]int32, len(a.Responses))
		mk := make([]bool, len(a.Responses))
		x := 0
		for k, r := range a.Responses {
			row[k] = add(r.Item)
			mk[k] = r.Correct
			if r.Correct {
				x++
			}
		}
		m.attempts = append(m.attempts, a)
		m.rows = append(m.rows, row)
		m.marks = append(m.marks, mk)
		m.x = append(m.x, x)
	}
	m.asked = make([]int, len(m.ids))
	m.right = make([]int, len(m.ids))
	m.p = make([]float64, len(m.ids))
	for i, row := range m.rows {
		for k, j := range row {
			m.asked[j]++
			if m.marks[i][k] {
				m.right[j]++
			}
		}
	}
	for j := range m.ids {
		if m.asked[j] > 0 {
			m.p[j] = float64(m.right[j]) / float64(m.asked[j])
		}
	}
	return m
}

func (m *matrix) n() int { return len(m.rows) }

// times lists each item's response times.
func (m *matrix) times() [][]float64 {
	out := make([][]float64, len(m.ids))
	for i, a := range m.attempts {
		for k, r := range a.Responses {
			if r.Timed && !math.IsNaN(r.Seconds) && !math.IsInf(r.Seconds, 0) {
				j := m.rows[i][k]
				out[j] = append(out[j], r.Seconds)
			}
		}
	}
	return out
}

// num returns a pointer to x, or nil when x is not a finite number.
func num(x float64) *float64 {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return &x
}

// median of xs (nil for none).
func median(xs []float64) *float64 {
	if len(xs) == 0 {
		return nil
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return num(s[len(s)/2])
	}
	return num((s[len(s)/2-1] + s[len(s)/2]) / 2)
}
