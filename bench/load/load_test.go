package main

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestPercentileNearestRank(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, 50 * time.Millisecond}, {99, 99 * time.Millisecond}, {100, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := percentile(d, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 99) != 0 {
		t.Error("percentile of nothing is not 0")
	}
}

// The mix draws 70 % public, 20 % signed-in reads and 10 % writes, also when optional
// routes are missing (their weight goes to the other public ops).
func TestMixShares(t *testing.T) {
	for _, full := range []bool{true, false} {
		w := &world{
			badges:        []badgeInfo{{ID: "b1", Type: "skill"}, {ID: "b2", Type: "proof"}},
			skill:         []badgeInfo{{ID: "b1", Type: "skill"}},
			proof:         []badgeInfo{{ID: "b2", Type: "proof"}},
			members:       []*member{{id: "u1", token: "t"}},
			verify:        []string{"MM-1"},
			hasVerifyPage: full, hasVerifyAPI: full, hasHoFPage: full, hasHoFAPI: full,
		}
		r := newRunner(w, newBrowser("http://127.0.0.1:1", 1, nil), 0.2, 4)
		if got := len(r.skipped); (full && got != 0) || (!full && got != 4) {
			t.Fatalf("full=%v: %d ops skipped", full, got)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		counts := map[string]int{}
		const n = 200000
		for i := 0; i < n; i++ {
			counts[r.pick(rng, "").class]++
		}
		// the members' own pages are in the mix (their latency has a line of its own)
		for _, name := range []string{"page /profile (member)", "page /quiz/:id (member)"} {
			found := false
			for _, o := range r.byClass[ClassRead] {
				found = found || o.name == name
			}
			if !found {
				t.Errorf("full=%v: %s is not among the signed-in reads", full, name)
			}
		}
		for class, want := range map[string]float64{ClassPublic: 70, ClassRead: 20, ClassWrite: 10} {
			got := 100 * float64(counts[class]) / n
			if math.Abs(got-want) > 0.5 {
				t.Errorf("full=%v: %s share %.2f %%, want %v %%", full, class, got, want)
			}
		}
	}
}

func TestApplicationFormIsARealPDFUpload(t *testing.T) {
	body, ctype := applicationForm("0123456789abcdef01234567", "Ada", "m1")
	if len(body) < len(proofPDF) || ctype == "" || string(proofPDF[:5]) != "%PDF-" {
		t.Fatalf("form of %d bytes, type %q", len(body), ctype)
	}
}
