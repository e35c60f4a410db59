package measure

import "testing"

// Ten items, easiest first: p = .95 .9 .85 .8 .7 .6 .5 .4 .3 .2 (a..j).
var fitP = map[string]float64{"a": .95, "b": .9, "c": .85, "d": .8, "e": .7, "f": .6, "g": .5, "h": .4, "i": .3, "j": .2}

func pattern(right string) map[string]bool {
	out := map[string]bool{}
	for id := range fitP {
		out[id] = false
	}
	for _, c := range right {
		out[string(c)] = true
	}
	return out
}

// Each count below is worked by hand in the comment beside it.
func TestGuttmanByHand(t *testing.T) {
	cases := []struct {
		name        string
		right       string
		errors, max int
		norm        float64
		aberrant    bool
	}{
		// the five easiest right: no easier item wrong below a harder one right
		{"Guttman pattern", "abcde", 0, 25, 0, false},
		// the five hardest right: each of the 5 wrong easy items pairs with 5 harder right
		{"reversed", "fghij", 25, 25, 1, true},
		// wrong e (.7) pairs with f (.6) and g (.5) right; h, i, j wrong pair with nothing
		{"one inversion", "abcdfg", 2, 24, 2.0 / 24, false},
		// wrong a: b d f h i j (6); wrong c: d f h i j (5); wrong e: f h i j (4);
		// wrong g: h i j (3) -> 18 of 6*4 = 24 = 0.75
		{"alternating", "bdfhij", 18, 24, 0.75, true},
		// 9 of 10 right: one slip on the easiest is G* = 1 but too few wrong to read
		{"near perfect", "bcdefghij", 9, 9, 1, false},
	}
	for _, c := range cases {
		f := Guttman(pattern(c.right), fitP)
		if f.K != 10 || f.R != len(c.right) || f.Errors != c.errors || f.Max != c.max || f.Normalized != c.norm || f.Aberrant() != c.aberrant {
			t.Errorf("%s: %+v aberrant=%v, want G=%d max=%d G*=%v aberrant=%v", c.name, f, f.Aberrant(), c.errors, c.max, c.norm, c.aberrant)
		}
	}
	// items with equal p form no pair; items without a p are left out
	f := Guttman(map[string]bool{"x": false, "y": true, "z": true}, map[string]float64{"x": .5, "y": .5})
	if f.K != 2 || f.R != 1 || f.Errors != 0 || f.Max != 1 {
		t.Errorf("ties: %+v", f)
	}
	// a reversed pattern on nine items is not read (too short)
	short := pattern("fghij")
	delete(short, "a")
	if f := Guttman(short, fitP); f.K != 9 || f.Errors != 20 || f.Aberrant() {
		t.Errorf("nine items: %+v", f)
	}
}

func TestTooFast(t *testing.T) {
	for _, c := range []struct {
		secs  []float64
		floor float64
		n     int
		flag  bool
	}{
		{[]float64{1, 1, 1, 5, 5}, 2, 3, true},  // 3 of 5 under 2 s: most
		{[]float64{1, 1, 5, 5}, 2, 2, false},    // half is not most
		{[]float64{1.99, 2, 2.5}, 2, 1, false},  // the floor itself is not under it
		{[]float64{0.5, 0.5, 0.5}, 0, 0, false}, // no floor: off
		{nil, 3, 0, false},
	} {
		if n, flag := TooFast(c.secs, c.floor); n != c.n || flag != c.flag {
			t.Errorf("TooFast(%v, %v) = %d %v, want %d %v", c.secs, c.floor, n, flag, c.n, c.flag)
		}
	}
}

func TestIdenticalWrong(t *testing.T) {
	w := func(c ...int) Answer { return Answer{Chosen: c} }
	r := func(c ...int) Answer { return Answer{Chosen: c, Right: true} }
	a := map[string]Answer{"q1": w(1), "q2": w(2), "q3": w(0), "q4": r(3), "q5": w(1), "q7": {}}
	b := map[string]Answer{"q1": w(1), "q2": w(2), "q3": w(0), "q4": w(2), "q5": w(2), "q6": w(1), "q7": w(3)}
	// shared: q1..q5, q7. Identical wrong: q1 q2 q3 = 3. Wrong answers of a: q1 q2 q3 q5 = 4
	// (q7 unanswered is not a wrong answer); of b: q1..q5 and q7 = 6. 3 >= 0.75 x 4: similar
	if same, wa, wb, sim := IdenticalWrong(a, b); same != 3 || wa != 4 || wb != 6 || !sim {
		t.Errorf("got %d %d %d %v", same, wa, wb, sim)
	}
	// one identical wrong answer fewer: 2 < 3
	b["q3"] = w(1)
	if same, _, _, sim := IdenticalWrong(a, b); same != 2 || sim {
		t.Errorf("two identical: %d %v", same, sim)
	}
	// three identical of five wrong answers each: 3 < 0.75 x 5
	b["q3"] = w(0)
	a["q8"], b["q8"] = w(0), w(1)
	if same, wa, wb, sim := IdenticalWrong(a, b); same != 3 || wa != 5 || wb != 7 || sim {
		t.Errorf("three of five: %d %d %d %v", same, wa, wb, sim)
	}
	// identical right answers never count
	all := map[string]Answer{"q1": r(1), "q2": r(2), "q3": r(0), "q4": r(3)}
	if same, _, _, sim := IdenticalWrong(all, all); same != 0 || sim {
		t.Errorf("right answers counted: %d", same)
	}
}
