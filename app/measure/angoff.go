package measure

import (
	"errors"
	"math"
)

// Rater is one panellist's modified-Angoff ratings: for each item rated, the chance (0 to
// 100) that a minimally competent candidate answers it right. A skipped item is absent.
type Rater struct {
	ID      string
	Ratings map[string]float64
}

// Angoff is the result of a modified-Angoff panel.
//
//	rater cut  = mean of the rater's ratings over the items they rated (skips excluded)
//	Cut        = mean of the rater cuts (percent)
//	SD         = sample standard deviation of the rater cuts (n - 1); nil for one rater
//	SE         = SD / sqrt(raters)
//
// A rater who rated nothing is left out (Raters counts the others).
type Angoff struct {
	Raters    int
	RaterCuts map[string]float64
	Cut       *float64
	SD        *float64
	SE        *float64
}

// ErrRating is returned for a rating outside 0..100 (or not a number).
var ErrRating = errors.New("a rating must be between 0 and 100")

// AngoffCut computes the recommended cut of a panel.
func AngoffCut(panel []Rater) (Angoff, error) {
	res := Angoff{RaterCuts: map[string]float64{}}
	var cuts []float64
	for _, r := range panel {
		if len(r.Ratings) == 0 {
			continue
		}
		var s float64
		for _, v := range r.Ratings {
			if math.IsNaN(v) || v < 0 || v > 100 {
				return Angoff{}, ErrRating
			}
			s += v
		}
		c := s / float64(len(r.Ratings))
		res.RaterCuts[r.ID] = c
		cuts = append(cuts, c)
	}
	res.Raters = len(cuts)
	if res.Raters == 0 {
		return res, nil
	}
	var s float64
	for _, c := range cuts {
		s += c
	}
	mean := s / float64(len(cuts))
	res.Cut = num(mean)
	if len(cuts) < 2 {
		return res, nil
	}
	var ss float64
	for _, c := range cuts {
		ss += (c - mean) * (c - mean)
	}
	sd := math.Sqrt(ss / float64(len(cuts)-1))
	res.SD = num(sd)
	res.SE = num(sd / math.Sqrt(float64(len(cuts))))
	return res, nil
}
