package measure

import "math"

// Drift thresholds: the latest window is the most recent half of an item's answers (at
// most DriftLatestMax of them), the earlier window everything before it; each needs
// DriftMinPerWindow answers. An item is flagged "possibly exposed" when its proportion
// correct rises from the earlier to the latest window with a one-sided two-proportion z
// at or above DriftZ (significance 0.01).
const (
	DriftMinPerWindow = 20
	DriftLatestMax    = 100
	DriftZ            = 2.3263478740408408 // the 0.99 quantile of the standard normal
)

// Drift is the drift test of one item.
type Drift struct {
	Tested   bool // both windows had DriftMinPerWindow answers
	EarlierN int
	LatestN  int
	EarlierP float64
	LatestP  float64
	Z        float64 // 0 when not tested or when every answer was alike
	Flagged  bool    // possibly exposed: retire it or replace it with a family sibling
}

// TwoProportionZ is the pooled two-proportion z statistic for a rise from x1/n1 to x2/n2:
// (p2 - p1) / sqrt(p(1-p)(1/n1 + 1/n2)), p = (x1 + x2)/(n1 + n2). It is 0 when the pooled
// proportion is 0 or 1 (no variation) or a sample is empty.
func TwoProportionZ(x1, n1, x2, n2 int) float64 {
	if n1 == 0 || n2 == 0 {
		return 0
	}
	p := float64(x1+x2) / float64(n1+n2)
	v := p * (1 - p) * (1/float64(n1) + 1/float64(n2))
	if v <= 0 {
		return 0
	}
	return (float64(x2)/float64(n2) - float64(x1)/float64(n1)) / math.Sqrt(v)
}

// DriftOf tests one item's answers, oldest first.
func DriftOf(correct []bool) Drift {
	n := len(correct)
	latest := min(n/2, DriftLatestMax)
	d := Drift{EarlierN: n - latest, LatestN: latest}
	if d.EarlierN < DriftMinPerWindow || d.LatestN < DriftMinPerWindow {
		return d
	}
	var x1, x2 int
	for i, ok := range correct {
		if !ok {
			continue
		}
		if i < d.EarlierN {
			x1++
		} else {
			x2++
		}
	}
	d.Tested = true
	d.EarlierP = float64(x1) / float64(d.EarlierN)
	d.LatestP = float64(x2) / float64(d.LatestN)
	d.Z = TwoProportionZ(x1, d.EarlierN, x2, d.LatestN)
	d.Flagged = d.Z >= DriftZ
	return d
}

func (m *matrix) drifts() []Drift {
	seq := make([][]bool, len(m.ids))
	for i, row := range m.rows {
		for k, j := range row {
			seq[j] = append(seq[j], m.marks[i][k])
		}
	}
	out := make([]Drift, len(m.ids))
	for j := range seq {
		out[j] = DriftOf(seq[j])
	}
	return out
}

// PointBiserial is the correlation between answering an item right (1) or wrong (0)
// and a score: (M1 - M0) / s · sqrt(p q), M1 and M0 the mean scores of those right and
// wrong, s the population standard deviation of all the scores, p the share right. It
// is nil when everyone was right, or wrong, or every score is the same.
func PointBiserial(right, wrong []float64) *float64 {
	n1, n0 := float64(len(right)), float64(len(wrong))
	if n1 == 0 || n0 == 0 {
		return nil
	}
	var s1, s0 float64
	for _, x := range right {
		s1 += x
	}
	for _, x := range wrong {
		s0 += x
	}
	n := n1 + n0
	m1, m0, all := s1/n1, s0/n0, (s1+s0)/n
	var ss float64
	for _, x := range right {
		ss += (x - all) * (x - all)
	}
	for _, x := range wrong {
		ss += (x - all) * (x - all)
	}
	sd := math.Sqrt(ss / n)
	if sd <= 1e-12 {
		return nil
	}
	p := n1 / n
	return num((m1 - m0) / sd * math.Sqrt(p*(1-p)))
}

// pointBiserials computes each item's corrected point-biserial: the score is the rest
// score, the share of the other items on the attempt's form answered right (the item
// itself left out, so it does not correlate with itself; a share rather than a count so
// forms of different lengths compare). Attempts with a one-item form have no rest score
// and are left out.
func (m *matrix) pointBiserials() []*float64 {
	right := make([][]float64, len(m.ids))
	wrong := make([][]float64, len(m.ids))
	for i, row := range m.rows {
		if len(row) < 2 {
			continue
		}
		for k, j := range row {
			rest := float64(m.x[i])
			if m.marks[i][k] {
				rest--
			}
			rest /= float64(len(row) - 1)
			if m.marks[i][k] {
				right[j] = append(right[j], rest)
			} else {
				wrong[j] = append(wrong[j], rest)
			}
		}
	}
	out := make([]*float64, len(m.ids))
	for j := range m.ids {
		out[j] = PointBiserial(right[j], wrong[j])
	}
	return out
}
