package badge_test

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"meritmark/app/badge"
	"meritmark/app/model"
)

// BenchmarkCatalogueService: the catalogue's queries and assembly for a signed-in user
// owning 20 of 200 badges (no rendering; BenchmarkCatalogue in app/pagetest adds the V8
// render and HTTP). Catalogue is the API's list (whole badges, with quiz and creator);
// Cards is what the catalogue page reads.
func BenchmarkCatalogueService(b *testing.B) {
	f := newFx(b)
	u := f.env.CreateUser("bench@example.com", "password123", model.RoleUser)
	for i := 0; i < 200; i++ {
		bd := f.badge(fmt.Sprintf("Badge %03d", i), model.Categories[i%6])
		if i%2 == 0 {
			f.quiz(bd, 5, true)
		}
		if i < 20 {
			f.app(u, bd, model.StatusApproved, model.Now(), "")
			f.grant(u, bd, model.Now(), false)
		} else if i < 30 {
			f.app(u, bd, model.StatusRejected, model.Now(), "no")
		}
	}
	qc := &queryCounter{}
	svc := &badge.Service{DB: f.env.DB.WithQueryHook(qc)}
	ctx := f.env.Ctx()
	run := func(b *testing.B, list func() (int, error)) {
		durs := make([]time.Duration, 0, b.N)
		var queries int64
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			t0 := time.Now()
			var n int
			queries += qc.count(func() {
				var err error
				if n, err = list(); err != nil {
					b.Fatal(err)
				}
			})
			durs = append(durs, time.Since(t0))
			if n != 200 {
				b.Fatalf("%d badges", n)
			}
		}
		b.StopTimer()
		sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
		b.ReportMetric(float64(durs[len(durs)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(queries)/float64(b.N), "queries/op")
	}
	b.Run("Catalogue", func(b *testing.B) {
		run(b, func() (int, error) { items, err := svc.Catalogue(ctx, u); return len(items), err })
	})
	b.Run("Cards", func(b *testing.B) {
		run(b, func() (int, error) { cards, err := svc.Cards(ctx, u); return len(cards), err })
	})
}
