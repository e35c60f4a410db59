package measure

import "math"

// Decision is the consistency of the pass/fail decision from one administration,
// by Subkoviak's method (1976):
//
//  1. each candidate's true proportion correct is estimated by regressing the observed
//     one toward the group mean by the reliability r (Kelley):
//     τ_i = r · X_i/k_i + (1 - r) · μ, μ the mean of X_i/k_i;
//  2. the chance that the candidate passes a parallel form of the same length under the
//     binomial error model: P_i = P(Binomial(k_i, τ_i) >= cut_i);
//  3. the chance that two parallel forms agree for the candidate is P_i² + (1 - P_i)²;
//     P0 is its mean over candidates;
//  4. chance agreement Pc = p̄² + (1 - p̄)², p̄ the mean of P_i (the pass rate the model
//     expects), and Cohen's kappa = (P0 - Pc) / (1 - Pc).
//
// r is taken in [0, 1] (a negative coefficient counts as 0). Kappa is nil when Pc is 1
// (the model expects everyone, or no one, to pass).
type Decision struct {
	P0    *float64
	Kappa *float64
}

// DecisionConsistency computes P0 and kappa of attempts for reliability r, whatever
// their number (Analyze withholds it below MinAttempts).
func DecisionConsistency(attempts []Attempt, r float64) Decision {
	return newMatrix(attempts, nil).decision(r)
}

func (m *matrix) decision(r float64) Decision {
	if m.n() == 0 || math.IsNaN(r) {
		return Decision{}
	}
	r = math.Min(1, math.Max(0, r))
	var mu float64
	for i, row := range m.rows {
		mu += float64(m.x[i]) / float64(len(row))
	}
	mu /= float64(m.n())
	type key struct{ x, k, cut int }
	memo := map[key]float64{}
	var agree, pass float64
	for i, row := range m.rows {
		kk := key{m.x[i], len(row), m.attempts[i].Cut}
		pi, ok := memo[kk]
		if !ok {
			tau := r*float64(kk.x)/float64(kk.k) + (1-r)*mu
			pi = binomialAtLeast(kk.k, tau, kk.cut)
			memo[kk] = pi
		}
		agree += pi*pi + (1-pi)*(1-pi)
		pass += pi
	}
	n := float64(m.n())
	p0 := agree / n
	pbar := pass / n
	pc := pbar*pbar + (1-pbar)*(1-pbar)
	d := Decision{P0: num(p0)}
	if 1-pc > 1e-12 {
		d.Kappa = num((p0 - pc) / (1 - pc))
	}
	return d
}

// binomialAtLeast is P(Binomial(n, p) >= c).
func binomialAtLeast(n int, p float64, c int) float64 {
	switch {
	case c <= 0:
		return 1
	case c > n:
		return 0
	case p <= 0:
		return 0
	case p >= 1:
		return 1
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	lgn, _ := math.Lgamma(float64(n + 1))
	var s float64
	for x := c; x <= n; x++ {
		a, _ := math.Lgamma(float64(x + 1))
		b, _ := math.Lgamma(float64(n - x + 1))
		s += math.Exp(lgn - a - b + float64(x)*lp + float64(n-x)*lq)
	}
	return math.Min(1, s)
}
