package measure

import "slices"

// Data forensics for one attempt (issue 35, item 3). Each index is a reason to review an
// attempt, never proof of misconduct; none of them needs, or reveals, which option is
// right beyond the right/wrong flag the grader already set.

// Person fit: Guttman errors. Order a form's items from easiest to hardest by their
// proportion correct p_j. A Guttman error is a pair (easier item wrong, harder item
// right); items with equal p form no pair. With r of k items right the count runs from 0
// (all the r easiest right: a perfect Guttman pattern) to r(k-r) (all the r hardest
// right); the normalized count G* = G / (r(k-r)) runs from 0 to 1 (Meijer, 1994). A
// pattern unrelated to difficulty scores 0.5 on average: G* above it means the hard items
// went right and the easy ones wrong more often than chance would.

// PersonFit is a Guttman-error count on one attempt.
type PersonFit struct {
	K, R       int     // items with a known p, and how many of them were right
	Errors     int     // Guttman errors G
	Max        int     // r(k-r)
	Normalized float64 // G / Max (0 when Max is 0)
}

// Guttman counts the Guttman errors of responses (item -> right) given each item's
// proportion correct p (items without a p are left out).
func Guttman(responses map[string]bool, p map[string]float64) PersonFit {
	type it struct {
		p     float64
		right bool
	}
	items := make([]it, 0, len(responses))
	for id, right := range responses {
		if pj, ok := p[id]; ok {
			items = append(items, it{pj, right})
		}
	}
	// easiest (highest p) first
	slices.SortFunc(items, func(a, b it) int {
		switch {
		case a.p > b.p:
			return -1
		case a.p < b.p:
			return 1
		}
		return 0
	})
	f := PersonFit{K: len(items)}
	for i, a := range items {
		if a.right {
			f.R++
		}
		if a.right {
			continue
		}
		// a wrong: every strictly harder item answered right is an error
		for _, b := range items[i+1:] {
			if b.right && b.p < a.p {
				f.Errors++
			}
		}
	}
	f.Max = f.R * (f.K - f.R)
	if f.Max > 0 {
		f.Normalized = float64(f.Errors) / float64(f.Max)
	}
	return f
}

// Person-fit thresholds: the index is read only on a form of at least MinFitItems items
// with a known p, with at least MinFitEach right and MinFitEach wrong (on a near-perfect
// or near-zero score one slip decides G*), and flags G* at or above FitFlag.
const (
	MinFitItems = 10
	MinFitEach  = 2
	FitFlag     = 0.6
)

// Aberrant reports whether f is read and flagged.
func (f PersonFit) Aberrant() bool {
	return f.K >= MinFitItems && f.R >= MinFitEach && f.K-f.R >= MinFitEach && f.Normalized >= FitFlag
}

// Speed: a floor in seconds per item; the attempt is flagged when more than half of its
// items took less (an item's time is the runner's report, else the attempt's elapsed
// time shared out evenly over its items).

// TooFast counts the items under floor seconds and reports whether they are most of them
// (more than half). secs holds each item's seconds; floor <= 0 turns the check off.
func TooFast(secs []float64, floor float64) (int, bool) {
	if floor <= 0 || len(secs) == 0 {
		return 0, false
	}
	n := 0
	for _, s := range secs {
		if s < floor {
			n++
		}
	}
	return n, 2*n > len(secs)
}

// Similarity: identical wrong answers. Two attempts that chose the same wrong option(s) on
// many of the questions both answered wrong share more than chance; an identical wrong
// answer is rarer than an identical right one, so only wrong ones count.

// Answer is one question's recorded answer: the chosen options (original indexes,
// ascending; empty = unanswered) and whether that was right.
type Answer struct {
	Chosen []int
	Right  bool
}

// Similarity thresholds: at least MinIdenticalWrong identical wrong answers making at
// least SimilarShare of the wrong answers of the attempt with fewer of them (on the
// questions both were asked).
const (
	MinIdenticalWrong = 3
	SimilarShare      = 0.75
)

// IdenticalWrong counts the questions both attempts answered wrong with the same options,
// and the wrong answers of each on the questions both were asked; similar reports the flag.
func IdenticalWrong(a, b map[string]Answer) (same, wrongA, wrongB int, similar bool) {
	for id, x := range a {
		y, ok := b[id]
		if !ok {
			continue
		}
		wa, wb := !x.Right && len(x.Chosen) > 0, !y.Right && len(y.Chosen) > 0
		if wa {
			wrongA++
		}
		if wb {
			wrongB++
		}
		if wa && wb && slices.Equal(x.Chosen, y.Chosen) {
			same++
		}
	}
	fewer := min(wrongA, wrongB)
	similar = same >= MinIdenticalWrong && fewer > 0 && float64(same) >= SimilarShare*float64(fewer)
	return same, wrongA, wrongB, similar
}
