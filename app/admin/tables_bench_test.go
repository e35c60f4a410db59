package admin_test

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/db"
)

// BenchmarkAdminTables bulk-loads 10,000 users, 100,000 applications and 1,000,000 grants
// (MERITMARK_BENCH_APPS and MERITMARK_BENCH_GRANTS change it) straight in SQL, outside
// the timing, then times one page of the dashboard's tables as the list endpoints read it
// (rows, total, the review tabs' counts, the related rows). Only -bench runs it:
//
//	go test -run '^$' -bench AdminTables -benchtime 20x ./app/admin/
//	MERITMARK_TEST_DB=postgres go test -run '^$' -bench AdminTables -benchtime 20x ./app/admin/
func BenchmarkAdminTables(b *testing.B) {
	apps, grants := benchInt("MERITMARK_BENCH_APPS", 100_000), benchInt("MERITMARK_BENCH_GRANTS", 1_000_000)
	e := apptest.New(b)
	ctx := context.Background()
	start := time.Now()
	if err := tableLoad(ctx, e.DB, 10_000, apps, grants); err != nil {
		b.Fatal(err)
	}
	// statistics for the planners, and on PostgreSQL the visibility map that lets a count
	// read an index alone (autovacuum keeps both in a running instance)
	analyze := "ANALYZE"
	if db.EngineOf(e.DB) == db.Postgres {
		analyze = "VACUUM ANALYZE"
	}
	if _, err := e.DB.ExecContext(ctx, analyze); err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: loaded %d applications and %d grants in %s", db.EngineOf(e.DB), apps, grants, time.Since(start).Round(time.Millisecond))
	svc := admin.NewService(e.DB, nil, nil, nil, nil)
	srt := func(s string, cols []admin.SortCol) admin.Sort {
		v, msg := admin.ParseSort(s, cols, admin.Sort{})
		if msg != "" {
			b.Fatal(msg)
		}
		return v
	}
	review, _ := admin.ParseStatuses(admin.ReviewGroup)
	approved, _ := admin.ParseStatuses("approved")
	var queueOnce sync.Once // the small queue's case turns the rest of the queue into approvals
	cases := []struct {
		name string
		run  func() (int, error)
	}{
		{"applications-first", func() (int, error) {
			l, err := svc.ListApplications(ctx, review, "", admin.Page{Page: 1, Limit: 25})
			return len(l.Applications), err
		}},
		{"applications-deep", func() (int, error) { // offset 75,000 of every application
			l, err := svc.ListApplications(ctx, nil, "", admin.Page{Page: apps * 3 / 4 / 25, Limit: 25})
			return len(l.Applications), err
		}},
		{"applications-filtered-sorted", func() (int, error) {
			l, err := svc.ListApplications(ctx, approved, "", admin.Page{Page: 40, Limit: 50, Sort: srt("-name", admin.ApplicationSorts)})
			return len(l.Applications), err
		}},
		{"applications-search", func() (int, error) {
			l, err := svc.ListApplications(ctx, review, "member 42", admin.Page{Page: 1, Limit: 25, Sort: srt("price", admin.ApplicationSorts)})
			return len(l.Applications), err
		}},
		{"applications-small-queue", func() (int, error) { // 50 waiting among 100,000
			queueOnce.Do(func() {
				_, err := e.DB.ExecContext(ctx, "UPDATE applications SET status = 'approved', payment_status = 'completed' WHERE status IN ('pending', 'awaiting_payment') AND id NOT IN (SELECT id FROM applications WHERE status = 'pending' ORDER BY created_at DESC LIMIT 50)")
				if err != nil {
					b.Fatal(err)
				}
			})
			l, err := svc.ListApplications(ctx, review, "", admin.Page{Page: 1, Limit: 25})
			if err == nil && l.Total != 50 {
				b.Fatalf("a queue of %d, want 50", l.Total)
			}
			return len(l.Applications), err
		}},
		{"grants-first", func() (int, error) {
			l, err := svc.ListGrants(ctx, "", "", admin.Page{Page: 1, Limit: 25})
			return len(l.Grants), err
		}},
		{"grants-deep", func() (int, error) { // offset 500,000
			l, err := svc.ListGrants(ctx, "", "", admin.Page{Page: grants / 2 / 25, Limit: 25})
			return len(l.Grants), err
		}},
		{"grants-filtered-sorted", func() (int, error) {
			l, err := svc.ListGrants(ctx, admin.GrantRevoked, "", admin.Page{Page: 20, Limit: 100, Sort: srt("verificationId", admin.GrantSorts)})
			return len(l.Grants), err
		}},
		{"grants-search", func() (int, error) {
			l, err := svc.ListGrants(ctx, admin.GrantActive, "member4242@", admin.Page{Page: 1, Limit: 25})
			return len(l.Grants), err
		}},
	}
	if db.EngineOf(e.DB) == db.SQLite && os.Getenv("MERITMARK_BENCH_PLANS") != "" {
		for _, q := range []string{
			admin.ExplainList(e.DB, "applications", "review", "", admin.Page{Page: 1, Limit: 25}),
			admin.ExplainList(e.DB, "applications", "review", "member 42", admin.Page{Page: 1, Limit: 25}),
			admin.ExplainList(e.DB, "grants", admin.GrantActive, "member4242@", admin.Page{Page: 1, Limit: 25}),
			admin.ExplainList(e.DB, "grants", "", "", admin.Page{Page: 2000, Limit: 25}),
		} {
			rows, err := e.DB.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q)
			if err != nil {
				b.Fatal(err)
			}
			plan := ""
			for rows.Next() {
				var id, parent, notused int
				var detail string
				_ = rows.Scan(&id, &parent, &notused, &detail)
				plan += "\n  " + detail
			}
			rows.Close()
			b.Logf("%.120s%s", q, plan)
		}
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				n, err := c.run()
				if err != nil {
					b.Fatal(err)
				}
				if n == 0 {
					b.Fatalf("%s: an empty page", c.name)
				}
				lat = append(lat, time.Since(t0))
			}
			sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
			p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
			b.ReportMetric(p(0.5), "p50-ms")
			b.ReportMetric(p(0.95), "p95-ms")
		})
	}
}

func benchInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

// tableLoad generates users, 20 badges, applications (40% waiting for review, 40%
// approved, 20% rejected; application i is user i%users's for badge i/users%20, so no
// two open ones collide) and grants (every 50th revoked) inside the database.
func tableLoad(ctx context.Context, d *bun.DB, users, apps, grants int) error {
	pg := db.EngineOf(d) == db.Postgres
	series := func(n int) string {
		if pg {
			return fmt.Sprintf("generate_series(1, %d) AS s(i)", n)
		}
		return fmt.Sprintf("(WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < %d) SELECT i FROM r) AS s", n)
	}
	id := func(expr string) string {
		if pg {
			return "lpad(to_hex(" + expr + "), 24, '0')"
		}
		return "printf('%024x', " + expr + ")"
	}
	ts := func(secs string) string {
		if pg {
			return "(TIMESTAMPTZ '2025-01-01 00:00:00+00' + (" + secs + ") * INTERVAL '1 second')"
		}
		return "(strftime('%Y-%m-%d %H:%M:%S', '2025-01-01 00:00:00', '+' || (" + secs + ") || ' seconds') || '+00:00')"
	}
	f, t := "0", "1"
	if pg {
		f, t = "FALSE", "TRUE"
	}
	user := id(fmt.Sprintf("(i %% %d) + 1", users))
	badge := id(fmt.Sprintf("1000000000 + ((i / %d) %% 20) + 1", users))
	stmts := []string{
		`INSERT INTO users (id, name, email, password_hash, role, position, created_at, updated_at)
SELECT ` + id("i") + `, 'Member ' || i, 'member' || i || '@bench.example', 'x', 'user', 'Engineer', ` + ts("i") + `, ` + ts("i") + `
FROM ` + series(users),
		`INSERT INTO badges (id, name, description, category, type, level, price_cents, icon, color, criteria, requires_resume, is_active, created_at, updated_at)
SELECT ` + id("1000000000 + i") + `, 'Bench Badge ' || i, 'A badge', 'Development', 'proof', 'beginner', 100 * i, 'Award', 'blue', 'Do it', ` + f + `, ` + t + `, ` + ts("0") + `, ` + ts("0") + `
FROM ` + series(20),
		`INSERT INTO applications (id, user_id, badge_id, type, status, payment_status, full_name, email, position, price_cents, created_at, updated_at)
SELECT ` + id("3000000000 + i") + `, ` + user + `, ` + badge + `, 'proof',
	CASE WHEN i % 10 < 3 THEN 'pending' WHEN i % 10 = 3 THEN 'awaiting_payment' WHEN i % 10 < 8 THEN 'approved' ELSE 'rejected' END,
	CASE WHEN i % 10 = 3 THEN 'pending' ELSE 'completed' END,
	'Member ' || ((i % ` + strconv.Itoa(users) + `) + 1), 'member' || ((i % ` + strconv.Itoa(users) + `) + 1) || '@bench.example', 'Engineer',
	100 * (i % 97), ` + ts("100000 + i * 30") + `, ` + ts("100000 + i * 30") + `
FROM ` + series(apps),
		`INSERT INTO badge_grants (id, user_id, badge_id, verification_id, public_verification_id, status_index, granted_at, revoked_at, revocation_reason)
SELECT ` + id("2000000000 + i") + `, ` + user + `, ` + id("1000000000 + (i % 20) + 1") + `,
	'B-' || i, 'p' || i, i, ` + ts("100000 + i * 20") + `,
	CASE WHEN i % 50 = 0 THEN ` + ts("100000 + i * 20 + 10") + ` END, CASE WHEN i % 50 = 0 THEN 'bench' ELSE '' END
FROM ` + series(grants),
		`UPDATE credential_status_seq SET last_index = (SELECT MAX(status_index) FROM badge_grants)`,
	}
	for _, s := range stmts {
		if _, err := d.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w in %.80s", err, s)
		}
	}
	return nil
}
