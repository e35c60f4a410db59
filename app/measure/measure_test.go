package measure

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// form builds an attempt from "ABCD" item names and a "1101" string of marks.
func form(items, marks string, cut int) Attempt {
	a := Attempt{Cut: cut}
	for i := range items {
		a.Responses = append(a.Responses, Response{Item: items[i : i+1], Correct: marks[i] == '1'})
	}
	a.Passed = a.Score() >= cut
	return a
}

func near(t *testing.T, what string, got *float64, want, tol float64) {
	t.Helper()
	if got == nil {
		t.Errorf("%s = nil, want %.10g", what, want)
		return
	}
	if math.Abs(*got-want) > tol {
		t.Errorf("%s = %.10g, want %.10g", what, *got, want)
	}
}

func isNil(t *testing.T, what string, got *float64) {
	t.Helper()
	if got != nil {
		t.Errorf("%s = %v, want nil", what, *got)
	}
}

// The complete 5 x 4 matrix used by several tests.
//
//	   A B C D   X
//	c1 1 1 1 1   4
//	c2 1 1 1 0   3
//	c3 1 1 0 0   2
//	c4 1 0 1 0   2
//	c5 0 0 0 0   0
//
// p = .8 .6 .6 .2, Σ p q = .16 + .24 + .24 + .16 = .80. Scores 4 3 2 2 0: mean 2.2,
// squared deviations 3.24 .64 .04 .04 4.84 = 8.8, σ²_X = 8.8 / 5 = 1.76.
// KR-20 = 4/3 · (1 - .80 / 1.76) = 4/3 · 12/22 = 8/11 = 0.727273.
// SEM = sqrt(1.76) · sqrt(1 - 8/11) = sqrt(1.76 · 3/11) = sqrt(.48) = 0.692820 items,
// 0.692820 / 4 = 17.3205 % of the form.
func handMatrix() []Attempt {
	return []Attempt{
		form("ABCD", "1111", 3), form("ABCD", "1110", 3), form("ABCD", "1100", 3),
		form("ABCD", "1010", 3), form("ABCD", "0000", 3),
	}
}

func TestKR20ByHandOnACompleteMatrix(t *testing.T) {
	rel := ReliabilityOf(handMatrix())
	near(t, "KR20", rel.KR20, 8.0/11, 1e-12)
	near(t, "SEM", rel.SEM, math.Sqrt(0.48), 1e-12)
	near(t, "SEMPercent", rel.SEMPercent, math.Sqrt(0.48)*25, 1e-10)
	if rel.FormLength != 4 || rel.ReliabN != 5 {
		t.Errorf("form length %d, n %d", rel.FormLength, rel.ReliabN)
	}
}

// textbookKR20 is k/(k-1) (1 - Σ p q / σ²), population variances, on a complete matrix.
func textbookKR20(x [][]int) float64 {
	n, k := float64(len(x)), len(x[0])
	var spq, s, ss float64
	for j := 0; j < k; j++ {
		var c float64
		for i := range x {
			c += float64(x[i][j])
		}
		p := c / n
		spq += p * (1 - p)
	}
	for i := range x {
		var t float64
		for _, v := range x[i] {
			t += float64(v)
		}
		s += t
		ss += t * t
	}
	v := ss/n - (s/n)*(s/n)
	return float64(k) / float64(k-1) * (1 - spq/v)
}

// cronbachAlpha is k/(k-1) (1 - Σ s²_j / s²_X) with sample (n-1) variances, computed
// the long way (two passes).
func cronbachAlpha(x [][]int) float64 {
	n, k := len(x), len(x[0])
	variance := func(v []float64) float64 {
		var m float64
		for _, e := range v {
			m += e
		}
		m /= float64(len(v))
		var ss float64
		for _, e := range v {
			ss += (e - m) * (e - m)
		}
		return ss / float64(len(v)-1)
	}
	var items float64
	for j := 0; j < k; j++ {
		col := make([]float64, n)
		for i := range x {
			col[i] = float64(x[i][j])
		}
		items += variance(col)
	}
	tot := make([]float64, n)
	for i := range x {
		for _, v := range x[i] {
			tot[i] += float64(v)
		}
	}
	return float64(k) / float64(k-1) * (1 - items/variance(tot))
}

// On complete matrices the pool method must equal the textbook KR-20 and Cronbach's
// alpha, computed independently above.
func TestKR20EqualsTextbookAndAlphaOnCompleteMatrices(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 20; trial++ {
		n, k := 30+rng.IntN(200), 2+rng.IntN(30)
		x := make([][]int, n)
		attempts := make([]Attempt, n)
		for i := range x {
			theta := rng.NormFloat64()
			x[i] = make([]int, k)
			for j := range x[i] {
				b := float64(j)/float64(k)*3 - 1.5
				if rng.Float64() < 1/(1+math.Exp(-(theta-b))) {
					x[i][j] = 1
				}
				attempts[i].Responses = append(attempts[i].Responses, Response{Item: fmt.Sprint("q", j), Correct: x[i][j] == 1})
			}
		}
		want := textbookKR20(x)
		if a := cronbachAlpha(x); math.Abs(a-want) > 1e-9 {
			t.Fatalf("trial %d: alpha %v != KR-20 %v", trial, a, want)
		}
		rel := ReliabilityOf(attempts)
		near(t, fmt.Sprintf("trial %d (n %d, k %d) KR20", trial, n, k), rel.KR20, want, 1e-9)
	}
}

// Forms drawn from a pool: four attempts, two items each from A, B, C.
//
//	a1 A=1 B=1   a2 A=0 B=0   a3 B=1 C=1   a4 A=1 C=0
//
// p_A = 2/3, p_B = 2/3, p_C = 1/2. Deviations d = x - p:
//
//	a1: +1/3 +1/3  Σd = 2/3   Σd² = 2/9    pairs (Σd)² - Σd² = 2/9
//	a2: -2/3 -2/3  Σd = -4/3  Σd² = 8/9    pairs 8/9
//	a3: +1/3 +1/2  Σd = 5/6   Σd² = 13/36  pairs 1/3
//	a4: +1/3 -1/2  Σd = -1/6  Σd² = 13/36  pairs -1/3
//
// v = (2/9 + 8/9 + 13/36 + 13/36) / 8 = 11/48; c = (2/9 + 8/9 + 1/3 - 1/3) / 8 = 5/36.
// KR-20 (k = 2) = 2c / (v + c) = (10/36) / (33/144 + 20/144) = 40/53 = 0.754717.
// Scores 2 0 2 1: mean 1.25, σ² = (.5625 + 1.5625 + .5625 + .0625) / 4 = .6875;
// SEM = sqrt(.6875 · 13/53) = 0.410648 items = 20.5324 %.
func TestKR20ByHandOnPoolForms(t *testing.T) {
	attempts := []Attempt{form("AB", "11", 1), form("AB", "00", 1), form("BC", "11", 1), form("AC", "10", 1)}
	rel := ReliabilityOf(attempts)
	near(t, "KR20", rel.KR20, 40.0/53, 1e-12)
	near(t, "SEM", rel.SEM, math.Sqrt(0.6875*13/53), 1e-12)
	near(t, "SEMPercent", rel.SEMPercent, math.Sqrt(0.6875*13/53)*50, 1e-10)
}

// The form length stated is the most common one; attempts with an empty form are left out.
func TestModalFormLength(t *testing.T) {
	attempts := []Attempt{form("AB", "10", 1), form("ABC", "110", 2), form("BCD", "011", 2), {}, form("AC", "01", 1), form("ABCD", "1111", 3)}
	rel := ReliabilityOf(attempts)
	if rel.FormLength != 3 || rel.ReliabN != 5 {
		t.Fatalf("form length %d, n %d; want 3 (tie 2/3 goes to the longer), 5", rel.FormLength, rel.ReliabN)
	}
}

// No variance, one-item forms, no attempts: nothing computable, nothing NaN.
func TestReliabilityNotComputable(t *testing.T) {
	cases := map[string][]Attempt{
		"all right":     {form("AB", "11", 1), form("AB", "11", 1), form("AB", "11", 1)},
		"all wrong":     {form("AB", "00", 1), form("AB", "00", 1)},
		"one-item form": {form("A", "1", 1), form("A", "0", 1)},
		"none":          nil,
	}
	for name, attempts := range cases {
		rel := ReliabilityOf(attempts)
		if rel.KR20 != nil || rel.SEM != nil || rel.SEMPercent != nil {
			t.Errorf("%s: %+v, want nothing computed", name, rel)
		}
	}
}

// Subkoviak by hand. Two items per form, cut 2 (both right), scores 2 2 1 1, so the
// mean proportion μ = .75.
//
// r = .5: τ = .5·1 + .5·.75 = 7/8 for X = 2, P = (7/8)² = 49/64; τ = .5·.5 + .375 = 5/8
// for X = 1, P = 25/64. Agreement: ((49² + 15²) + (25² + 39²)) / 4096 per pair of
// candidates = (2626 + 2146) / 8192 = P0 = 0.58251953125. p̄ = (49 + 25) / 128 = 37/64,
// Pc = (37² + 27²) / 4096 = 2098/4096; kappa = (4772 - 4196) / (8192 - 4196) = 576/3996
// = 16/111 = 0.144144.
//
// r = 1 (no regression): P = 1 for X = 2, .5² = .25 for X = 1. P0 = (1 + (1/16 + 9/16))
// / 2 = 13/16; p̄ = .625, Pc = .390625 + .140625 = .53125; kappa = .28125 / .46875 = 0.6.
func TestSubkoviakByHand(t *testing.T) {
	attempts := []Attempt{form("AB", "11", 2), form("AC", "11", 2), form("BC", "10", 2), form("AB", "01", 2)}
	d := DecisionConsistency(attempts, 0.5)
	near(t, "P0 (r .5)", d.P0, 4772.0/8192, 1e-12)
	near(t, "kappa (r .5)", d.Kappa, 16.0/111, 1e-12)
	d = DecisionConsistency(attempts, 1)
	near(t, "P0 (r 1)", d.P0, 13.0/16, 1e-12)
	near(t, "kappa (r 1)", d.Kappa, 0.6, 1e-12)
	// a negative reliability counts as 0: everyone gets τ = μ = .75, P = .5625 each,
	// P0 = .5625² + .4375² = .5078125 = Pc, kappa 0
	d = DecisionConsistency(attempts, -0.3)
	near(t, "P0 (r < 0)", d.P0, 0.5078125, 1e-12)
	near(t, "kappa (r < 0)", d.Kappa, 0, 1e-12)
	// a cut of 0 passes everyone: P0 = 1 and no kappa (Pc = 1)
	free := []Attempt{form("AB", "11", 0), form("AB", "00", 0)}
	d = DecisionConsistency(free, 0.8)
	near(t, "P0 (cut 0)", d.P0, 1, 0)
	isNil(t, "kappa (cut 0)", d.Kappa)
}

func TestBinomialTail(t *testing.T) {
	cases := []struct {
		n    int
		p    float64
		c    int
		want float64
	}{
		{3, 0.5, 2, 0.5},                  // (3 + 1) / 8
		{4, 0.3, 3, 4*0.027*0.7 + 0.0081}, // 4 p³ q + p⁴
		{10, 0.7, 0, 1}, {10, 0.7, 11, 0}, {10, 0, 1, 0}, {10, 1, 10, 1},
		{1, 0.42, 1, 0.42},
	}
	for _, c := range cases {
		if got := binomialAtLeast(c.n, c.p, c.c); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("P(Bin(%d, %v) >= %d) = %v, want %v", c.n, c.p, c.c, got, c.want)
		}
	}
	// against the direct sum on a long form
	n, p := 60, 0.63
	var s float64
	for x := 40; x <= n; x++ {
		s += choose(n, x) * math.Pow(p, float64(x)) * math.Pow(1-p, float64(n-x))
	}
	if got := binomialAtLeast(n, p, 40); math.Abs(got-s) > 1e-12 {
		t.Errorf("n 60: %v, want %v", got, s)
	}
}

func choose(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// pearson is the plain correlation of two series (population moments).
func pearson(x, y []float64) float64 {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		sxy += (x[i] - mx) * (y[i] - my)
		sxx += (x[i] - mx) * (x[i] - mx)
		syy += (y[i] - my) * (y[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}

// Corrected point-biserial on the hand matrix (rest score = share of the other three
// items right).
//
// A: right c1..c4 with rest 3/3 2/3 1/3 1/3, wrong c5 with rest 0. M1 = 7/12, M0 = 0,
// mean 7/15, Σ (rest - mean)² = (64 + 9 + 4 + 4 + 49) / 225 = 130/225, s = sqrt(26)/15,
// sqrt(pq) = .4: r = (7/12) / (sqrt(26)/15) · .4 = 3.5 / sqrt(26) = 0.686406.
// D: right c1 (rest 1), wrong c2..c5 with rest 1 2/3 2/3 0: M1 - M0 = 1 - 7/12 = 5/12,
// mean 2/3, Σ (rest - mean)² = 2/3, s = sqrt(2/15): r = (5/12) / sqrt(2/15) · .4 = 0.456435.
func TestPointBiserialByHand(t *testing.T) {
	rep := newMatrix(handMatrix(), []string{"A", "B", "C", "D"})
	pb := rep.pointBiserials()
	near(t, "A", pb[0], 3.5/math.Sqrt(26), 1e-12)
	near(t, "D", pb[3], (5.0/12)/math.Sqrt(2.0/15)*0.4, 1e-12)
	// and against a plain Pearson correlation of (mark, rest) for every item
	for j, id := range []string{"A", "B", "C", "D"} {
		var x, y []float64
		for _, a := range handMatrix() {
			for _, r := range a.Responses {
				if r.Item != id {
					continue
				}
				m := 0.0
				if r.Correct {
					m = 1
				}
				x = append(x, m)
				y = append(y, (float64(a.Score())-m)/3)
			}
		}
		near(t, "pearson "+id, pb[j], pearson(x, y), 1e-12)
	}
	// undefined when everyone is right or every score is equal
	isNil(t, "all right", PointBiserial([]float64{1, 2}, nil))
	isNil(t, "equal scores", PointBiserial([]float64{0.5, 0.5}, []float64{0.5}))
}

// Drift by hand. 60 answers: the latest window is the last 30.
// Earlier 15/30 (.5), latest 27/30 (.9): pooled .7, SE = sqrt(.21 · 2/30) = .118322,
// z = .4 / .118322 = 3.3806 >= 2.3263: flagged.
// Earlier 15/30, latest 21/30 (.7): pooled .6, SE = sqrt(.24 · 2/30) = .126491,
// z = .2 / .126491 = 1.5811: not flagged. A fall (latest 5/30) is never flagged.
func TestDriftByHand(t *testing.T) {
	seq := func(parts ...int) []bool { // pairs of (count, right)
		var s []bool
		for i := 0; i < len(parts); i += 2 {
			for k := 0; k < parts[i]; k++ {
				s = append(s, k < parts[i+1])
			}
		}
		return s
	}
	d := DriftOf(seq(30, 15, 30, 27))
	if !d.Tested || !d.Flagged || d.EarlierN != 30 || d.LatestN != 30 || d.EarlierP != 0.5 || d.LatestP != 0.9 || math.Abs(d.Z-3.3806170189) > 1e-9 {
		t.Errorf("rise: %+v", d)
	}
	d = DriftOf(seq(30, 15, 30, 21))
	if !d.Tested || d.Flagged || math.Abs(d.Z-1.5811388301) > 1e-9 {
		t.Errorf("small rise: %+v", d)
	}
	// latest 23/30: pooled 38/60, z = (23/30 - .5) / sqrt(38/60 · 22/60 · 2/30) = 2.1432:
	// significant at .05 but not at the .01 the flag uses
	d = DriftOf(seq(30, 15, 30, 23))
	if !d.Tested || d.Flagged || math.Abs(d.Z-2.1432) > 5e-5 {
		t.Errorf("rise below .01: %+v", d)
	}
	d = DriftOf(seq(30, 15, 30, 5))
	if !d.Tested || d.Flagged || d.Z >= 0 {
		t.Errorf("fall: %+v", d)
	}
	// the order matters: the same answers with the rise first are a fall
	d = DriftOf(seq(30, 27, 30, 15))
	if d.Flagged || d.Z >= 0 {
		t.Errorf("rise first: %+v", d)
	}
	// minimum per window: 39 answers give a latest window of 19, not tested; 40 do
	if d := DriftOf(seq(20, 0, 19, 19)); d.Tested || d.Flagged || d.LatestN != 19 {
		t.Errorf("39 answers: %+v", d)
	}
	if d := DriftOf(seq(20, 0, 20, 20)); !d.Tested || !d.Flagged || d.LatestN != 20 {
		t.Errorf("40 answers: %+v", d)
	}
	// the latest window is capped: 300 answers give 200 earlier and 100 latest
	if d := DriftOf(seq(300, 150)); d.EarlierN != 200 || d.LatestN != 100 {
		t.Errorf("300 answers: %+v", d)
	}
	// every answer alike: z 0, not flagged
	if d := DriftOf(seq(50, 50)); !d.Tested || d.Flagged || d.Z != 0 {
		t.Errorf("all right: %+v", d)
	}
	if z := TwoProportionZ(0, 0, 3, 4); z != 0 {
		t.Errorf("empty sample z %v", z)
	}
}

// Angoff worked example. Three raters, four items (R2 skips item 2; R4 skips all):
//
//	R1 60 70 80 90  mean 75
//	R2 50 -- 70 60  mean 60
//	R3 80 85 90 85  mean 85
//
// Cut = (75 + 60 + 85) / 3 = 73.3333. Deviations 1.6667 -13.3333 11.6667, squares
// 2.7778 + 177.7778 + 136.1111 = 316.6667; SD = sqrt(316.6667 / 2) = 12.5831;
// SE = 12.5831 / sqrt(3) = 7.2648.
func TestAngoffByHand(t *testing.T) {
	panel := []Rater{
		{ID: "R1", Ratings: map[string]float64{"q1": 60, "q2": 70, "q3": 80, "q4": 90}},
		{ID: "R2", Ratings: map[string]float64{"q1": 50, "q3": 70, "q4": 60}},
		{ID: "R3", Ratings: map[string]float64{"q1": 80, "q2": 85, "q3": 90, "q4": 85}},
		{ID: "R4", Ratings: map[string]float64{}},
	}
	a, err := AngoffCut(panel)
	if err != nil {
		t.Fatal(err)
	}
	if a.Raters != 3 || a.RaterCuts["R2"] != 60 || len(a.RaterCuts) != 3 {
		t.Errorf("raters %d, cuts %v", a.Raters, a.RaterCuts)
	}
	near(t, "cut", a.Cut, 220.0/3, 1e-12)
	near(t, "SD", a.SD, math.Sqrt(316.0/2+2.0/6), 1e-12)
	near(t, "SE", a.SE, math.Sqrt(316.0/2+2.0/6)/math.Sqrt(3), 1e-12)
	near(t, "SD (4 places)", a.SD, 12.5831, 5e-5)
	near(t, "SE (4 places)", a.SE, 7.2648, 5e-5)

	one, _ := AngoffCut(panel[:1])
	near(t, "one rater cut", one.Cut, 75, 0)
	isNil(t, "one rater SD", one.SD)
	isNil(t, "one rater SE", one.SE)
	none, _ := AngoffCut(nil)
	isNil(t, "no rater cut", none.Cut)
	for _, bad := range []float64{-1, 100.5, math.NaN()} {
		if _, err := AngoffCut([]Rater{{ID: "x", Ratings: map[string]float64{"q": bad}}}); err != ErrRating {
			t.Errorf("rating %v: err %v", bad, err)
		}
	}
}

// Analyze withholds every figure below MinAttempts attempts, and an item's figures
// below MinAttempts answers to it.
func TestAnalyzeMinimumN(t *testing.T) {
	var attempts []Attempt
	for i := 0; i < MinAttempts; i++ {
		marks := strings.Repeat("1", i%5) + strings.Repeat("0", 4-i%5)
		items := "ABCD"
		if i%2 == 1 {
			items = "ABCE" // E is asked 15 times only
		}
		a := form(items, marks, 3)
		for k := range a.Responses {
			a.Responses[k].Seconds, a.Responses[k].Timed = float64(10+i), true
		}
		attempts = append(attempts, a)
	}
	below := Analyze(attempts[:MinAttempts-1], []string{"A", "B", "C", "D", "E", "F"})
	if below.Enough || below.N != MinAttempts-1 || below.PassRate != nil || below.KR20 != nil || below.SEM != nil || below.P0 != nil || below.Kappa != nil {
		t.Errorf("below the minimum: %+v", below)
	}
	for _, it := range below.Items {
		if it.Enough || it.P != nil || it.PointBiserial != nil || it.MedianSeconds != nil {
			t.Errorf("below the minimum, item %+v", it)
		}
	}
	at := Analyze(attempts, []string{"A", "B", "C", "D", "E", "F"})
	if !at.Enough || at.N != MinAttempts || at.PassRate == nil || at.KR20 == nil || at.SEM == nil || at.P0 == nil || at.Kappa == nil {
		t.Errorf("at the minimum: %+v", at)
	}
	if len(at.Items) != 6 {
		t.Fatalf("items %d", len(at.Items))
	}
	a := at.Items[0]
	if !a.Enough || a.TimesAsked != 30 || a.P == nil || a.PointBiserial == nil || a.MedianSeconds == nil || *a.MedianSeconds != 24.5 {
		t.Errorf("item A: %+v", a)
	}
	for _, j := range []int{3, 4, 5} { // D and E asked 15 times, F never
		if it := at.Items[j]; it.Enough || it.P != nil || it.PointBiserial != nil {
			t.Errorf("item %s: %+v", it.Item, it)
		}
	}
	passed := 0
	for _, a := range attempts {
		if a.Passed {
			passed++
		}
	}
	near(t, "pass rate", at.PassRate, float64(passed)/30, 1e-12)
}

// A degenerate quiz (everyone right on everything) encodes as JSON: no NaN anywhere.
func TestDegenerateReportEncodes(t *testing.T) {
	var attempts []Attempt
	for i := 0; i < 40; i++ {
		attempts = append(attempts, form("ABC", "111", 2))
	}
	rep := Analyze(attempts, nil)
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Enough || rep.KR20 != nil || rep.SEM != nil || rep.Items[0].PointBiserial != nil || strings.Contains(string(b), "NaN") {
		t.Fatalf("%s", b)
	}
}
