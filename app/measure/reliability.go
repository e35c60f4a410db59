package measure

import "math"

// Reliability is KR-20 for a form of FormLength items and the standard error of
// measurement of a score on such a form.
//
// Forms drawn from a pool: every item is centred on its own pool-level proportion
// correct p_j, and two averages are taken over every (attempt, item) and every
// (attempt, pair of items on its form):
//
//	v = mean of (x_ij - p_j)^2                        (the average item variance)
//	c = mean of (x_ij - p_j)(x_il - p_l), j != l       (the average inter-item covariance)
//
// and KR-20 for a k-item form is k·c / (v + (k-1)·c), k the most common form length.
// On a complete matrix (everyone answers the same k items) v = Σ p_j q_j / k and
// c = (σ²_X - Σ p_j q_j) / (k(k-1)), which makes this exactly the textbook
// k/(k-1) · (1 - Σ p_j q_j / σ²_X), i.e. Cronbach's alpha of the 0/1 items. Centring each
// item on its own p_j keeps the spread between easier and harder forms out of the
// true-score part (it does not inflate the coefficient).
//
// SEM = SD · sqrt(1 - KR-20), SD the (population) standard deviation of the scores of
// the attempts whose form had FormLength items; in items (points) and in percent of the
// form.
type Reliability struct {
	KR20       *float64
	SEM        *float64 // in items (score points)
	SEMPercent *float64 // in percent of the form
	FormLength int      // k the coefficient is stated for
	ReliabN    int      // attempts it was computed from
}

// ReliabilityOf computes the reliability of attempts whatever their number (Analyze
// withholds it below MinAttempts).
func ReliabilityOf(attempts []Attempt) Reliability {
	return newMatrix(attempts, nil).reliability()
}

func (m *matrix) reliability() Reliability {
	rel := Reliability{ReliabN: m.n()}
	k := m.modalLength()
	rel.FormLength = k
	if k < 2 {
		return rel
	}
	var sumV, sumC float64
	var nV, nC float64
	for i, row := range m.rows {
		var dev, sq float64 // Σ (x - p) and Σ (x - p)^2 over the form
		for pos, j := range row {
			d := -m.p[j]
			if m.marks[i][pos] {
				d += 1
			}
			dev += d
			sq += d * d
		}
		ki := float64(len(row))
		sumV += sq
		nV += ki
		if len(row) >= 2 {
			// Σ over ordered pairs j != l of d_j d_l = (Σ d)^2 - Σ d^2
			sumC += dev*dev - sq
			nC += ki * (ki - 1)
		}
	}
	if nV == 0 || nC == 0 {
		return rel
	}
	v, c := sumV/nV, sumC/nC
	kf := float64(k)
	den := v + (kf-1)*c
	if v <= 1e-12 || den <= 1e-12 {
		return rel // no variance: every item all right or all wrong
	}
	r := kf * c / den
	rel.KR20 = num(r)
	// SD of the scores of the attempts with a k-item form
	var n, s, ss float64
	for i, row := range m.rows {
		if len(row) == k {
			x := float64(m.x[i])
			n++
			s += x
			ss += x * x
		}
	}
	mean := s / n
	variance := ss/n - mean*mean
	if variance < 0 {
		variance = 0
	}
	sem := math.Sqrt(variance) * math.Sqrt(math.Max(0, 1-r))
	rel.SEM = num(sem)
	rel.SEMPercent = num(sem * 100 / kf)
	return rel
}

// modalLength is the most common form length (the longer one on a tie; 0 for none).
func (m *matrix) modalLength() int {
	counts := map[int]int{}
	best, bestN := 0, 0
	for _, row := range m.rows {
		k := len(row)
		counts[k]++
		if c := counts[k]; c > bestN || (c == bestN && k > best) {
			best, bestN = k, c
		}
	}
	return best
}
