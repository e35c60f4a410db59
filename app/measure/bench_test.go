package measure

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// simulate draws n candidates (abilities N(0, 1)) who each answer a random form of k
// items from a pool of the given Rasch difficulties.
func simulate(rng *rand.Rand, n, k int, pool []float64, fixed []int) []Attempt {
	out := make([]Attempt, n)
	for i := range out {
		theta := rng.NormFloat64()
		items := fixed
		if items == nil {
			items = rng.Perm(len(pool))[:k]
		}
		a := Attempt{Responses: make([]Response, len(items)), Cut: int(math.Ceil(0.7 * float64(len(items))))}
		for pos, j := range items {
			ok := rng.Float64() < 1/(1+math.Exp(-(theta-pool[j])))
			a.Responses[pos] = Response{Item: fmt.Sprint("q", j), Correct: ok, Seconds: 20 + 40*rng.Float64(), Timed: true}
		}
		a.Passed = a.Score() >= a.Cut
		out[i] = a
	}
	return out
}

func rasch(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n)
	for j := range b {
		b[j] = rng.NormFloat64()
	}
	return b
}

// On forms drawn at random from a pool, the pool KR-20 estimates what KR-20 is on a
// typical form of that length: here the mean textbook KR-20 of 20 fixed random forms
// taken by the same population.
func TestPoolKR20MatchesFixedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pool := rasch(rng, 60)
	const k = 15
	got := ReliabilityOf(simulate(rng, 20000, k, pool, nil))
	var mean float64
	for f := 0; f < 20; f++ {
		items := rng.Perm(len(pool))[:k]
		mean += *ReliabilityOf(simulate(rng, 4000, k, pool, items)).KR20 / 20
	}
	if got.KR20 == nil || math.Abs(*got.KR20-mean) > 0.02 {
		t.Fatalf("pool KR-20 %v, fixed forms %v", ptr(got.KR20), mean)
	}
	t.Logf("pool KR-20 %.4f, mean over fixed forms %.4f", *got.KR20, mean)
}

func ptr(x *float64) string {
	if x == nil {
		return "nil"
	}
	return fmt.Sprint(*x)
}

// 100,000 responses: 5,000 attempts of 20 items drawn from a pool of 200.
func benchData() []Attempt {
	rng := rand.New(rand.NewPCG(5, 6))
	return simulate(rng, 5000, 20, rasch(rng, 200), nil)
}

func BenchmarkKR20(b *testing.B) {
	attempts := benchData()
	b.ResetTimer()
	for b.Loop() {
		if ReliabilityOf(attempts).KR20 == nil {
			b.Fatal("no KR-20")
		}
	}
}

func BenchmarkAnalyze(b *testing.B) {
	attempts := benchData()
	b.ResetTimer()
	for b.Loop() {
		if rep := Analyze(attempts, nil); rep.P0 == nil {
			b.Fatal("no P0")
		}
	}
}
