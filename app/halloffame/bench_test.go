package halloffame_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/halloffame"
	"meritmark/db"
)

// BenchmarkHallOfFame bulk-loads 100,000 users and 1,000,000 grants (MERITMARK_BENCH_USERS
// and MERITMARK_BENCH_GRANTS change it) straight in SQL, builds the summary, then times
// GET /hall-of-fame over HTTP for each kind of query, reporting p50 and p95 in ms. The
// "svc-" rows call the service with the stat cards' cache off (every query hits the
// database). Run on both engines:
//
//	go test -run '^$' -bench HallOfFame -benchtime 50x ./app/halloffame/
//	MERITMARK_TEST_DB=postgres go test -run '^$' -bench HallOfFame -benchtime 50x ./app/halloffame/
func BenchmarkHallOfFame(b *testing.B) {
	users, grants := envInt("MERITMARK_BENCH_USERS", 100_000), envInt("MERITMARK_BENCH_GRANTS", 1_000_000)
	e := apptest.New(b)
	ctx := context.Background()
	start := time.Now()
	if err := bulkLoad(ctx, e.DB, users, grants); err != nil {
		b.Fatal(err)
	}
	loaded := time.Since(start)
	start = time.Now()
	if err := halloffame.Rebuild(ctx, e.DB); err != nil {
		b.Fatal(err)
	}
	if _, err := e.DB.ExecContext(ctx, "ANALYZE"); err != nil { // what autovacuum would do
		b.Fatal(err)
	}
	b.Logf("%s: loaded %d users and %d grants in %s, summary built in %s", db.EngineOf(e.DB), users, grants, loaded.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))

	paths := []struct{ name, query string }{
		{"default", ""},
		{"recent", "?sort=recent"},
		{"name", "?sort=name"},
		{"category", "?category=Design"},
		{"page-100", "?page=100"},
		{"search", "?search=engineer"},
		{"search-rare", "?search=member+4242"},
		{"search-category", "?search=acme&category=DevOps&sort=recent"},
	}
	client := &http.Client{Timeout: 30 * time.Second}
	for _, p := range paths {
		url := e.URL + "/backend/api/v1/hall-of-fame" + p.query
		b.Run("api-"+p.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				res, err := client.Get(url)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("%s: %d", url, res.StatusCode)
				}
				lat = append(lat, time.Since(t0))
			}
			report(b, lat)
		})
	}
	svc := &halloffame.Service{DB: e.DB, StatsTTL: time.Nanosecond}
	for _, p := range paths {
		vals, _ := url.ParseQuery(strings.TrimPrefix(p.query, "?"))
		q, msg := halloffame.ParseQuery(vals.Get)
		if msg != "" {
			b.Fatal(msg)
		}
		b.Run("svc-"+p.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, b.N)
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := svc.List(ctx, q); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			report(b, lat)
		})
	}
}

func report(b *testing.B, lat []time.Duration) {
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	p := func(q float64) float64 { return float64(lat[int(q*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(p(0.5), "p50-ms")
	b.ReportMetric(p(0.95), "p95-ms")
}

func envInt(k string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil && v > 0 {
		return v
	}
	return def
}

// bulkLoad generates users, 20 badges in the six categories and grants inside the
// database (a recursive CTE on SQLite, generate_series on PostgreSQL): the first tenth of
// the grants go to 1,000 prolific earners, the rest round-robin over everyone; every 50th
// grant is revoked.
func bulkLoad(ctx context.Context, d *bun.DB, users, grants int) error {
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
	ts := func(secs string) string { // 2025-01-01 plus secs seconds
		if pg {
			return "(TIMESTAMPTZ '2025-01-01 00:00:00+00' + (" + secs + ") * INTERVAL '1 second')"
		}
		return "(strftime('%Y-%m-%d %H:%M:%S', '2025-01-01 00:00:00', '+' || (" + secs + ") || ' seconds') || '+00:00')"
	}
	cats := []string{"Development", "Design", "Management", "Data Science", "Marketing", "DevOps"}
	catCase := "CASE i % 6"
	for i, c := range cats {
		catCase += fmt.Sprintf(" WHEN %d THEN '%s'", i, c)
	}
	catCase += " END"
	bool1 := "1"
	if pg {
		bool1 = "TRUE"
	}
	stmts := []string{
		`INSERT INTO users (id, name, email, password_hash, role, position, company, linkedin, created_at, updated_at)
SELECT ` + id("i") + `, 'Member ' || i, 'member' || i || '@bench.example', 'x', 'user',
	CASE i % 4 WHEN 0 THEN 'Software Engineer' WHEN 1 THEN 'Designer' WHEN 2 THEN 'Engineering Manager' ELSE 'Data Analyst' END,
	CASE i % 5 WHEN 0 THEN 'Acme' WHEN 1 THEN 'Globex' WHEN 2 THEN 'Initech' WHEN 3 THEN '' ELSE 'Umbrella' END,
	'https://linkedin.com/in/member' || i, ` + ts("i") + `, ` + ts("i") + `
FROM ` + series(users),
		`INSERT INTO badges (id, name, description, category, type, level, price_cents, icon, color, criteria, requires_resume, is_active, created_at, updated_at)
SELECT ` + id("1000000000 + i") + `, 'Bench Badge ' || i, 'A badge', ` + catCase + `, 'proof', 'beginner', 0, 'Award', 'blue', 'Do it', ` + map[bool]string{true: "FALSE", false: "0"}[pg] + `, ` + bool1 + `, ` + ts("0") + `, ` + ts("0") + `
FROM ` + series(20),
		`INSERT INTO badge_grants (id, user_id, badge_id, verification_id, public_verification_id, status_index, granted_at, revoked_at, revocation_reason)
SELECT ` + id("2000000000 + i") + `,
	` + id(fmt.Sprintf("CASE WHEN i <= %d THEN (i %% 1000) + 1 ELSE (i %% %d) + 1 END", grants/10, users)) + `,
	` + id("1000000000 + (i % 20) + 1") + `,
	'B-' || i, 'p' || i, i, ` + ts(fmt.Sprintf("%d + i * 20", users)) + `,
	CASE WHEN i % 50 = 0 THEN ` + ts(fmt.Sprintf("%d + i * 20 + 10", users)) + ` END, CASE WHEN i % 50 = 0 THEN 'bench' ELSE '' END
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
