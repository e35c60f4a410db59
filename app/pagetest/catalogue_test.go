package pagetest

import (
	"context"
	"fmt"
	"net/http"
	"regexp"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/model"
)

// catalogueFixture fills the database with n active badges (every other one a skill badge
// with a 5-question quiz) and gives u a grant and an approved application for the first
// owned of them, plus a rejected and a pending application on a few others.
func catalogueFixture(tb testing.TB, e *apptest.Env, n, owned int, u *model.User) []*model.Badge {
	tb.Helper()
	ctx := context.Background()
	now := model.Now()
	var badges []*model.Badge
	err := e.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for i := 0; i < n; i++ {
			at := now.Add(time.Duration(i-n) * time.Minute)
			b := &model.Badge{ID: model.NewID(), Name: fmt.Sprintf("Badge %03d", i), Description: "A professional badge for practitioners who can show real work in this field.",
				Category: model.Categories[i%len(model.Categories)], Type: model.TypeProof, Level: model.Levels[i%3], PriceCents: int64(1900 + 100*i),
				Icon: "Code", Color: "blue", Criteria: strings.Repeat("Show evidence of sustained, reviewed work in the field ", 4), IsActive: true, CreatedAt: at, UpdatedAt: at}
			if i%2 == 0 {
				b.Type = model.TypeSkill
			}
			if _, err := tx.NewInsert().Model(b).Exec(ctx); err != nil {
				return err
			}
			badges = append(badges, b)
			if b.Type == model.TypeSkill {
				q := &model.Quiz{ID: model.NewID(), BadgeID: b.ID, Title: b.Name + " Assessment", PassingScore: 70, TimeLimit: 15, IsActive: true, CreatedAt: at}
				if _, err := tx.NewInsert().Model(q).Exec(ctx); err != nil {
					return err
				}
				for j := 0; j < 5; j++ {
					qu := &model.Question{ID: model.NewID(), Text: "Q", Options: []string{"a", "b"}, Difficulty: "easy", Category: b.Category, CreatedAt: at}
					if _, err := tx.NewInsert().Model(qu).Exec(ctx); err != nil {
						return err
					}
					if _, err := tx.NewInsert().Model(&model.QuizQuestion{QuizID: q.ID, QuestionID: qu.ID, Position: j}).Exec(ctx); err != nil {
						return err
					}
				}
			}
		}
		for i := 0; i < owned+10 && i < n; i++ {
			status := model.StatusApproved
			switch {
			case i >= owned+5:
				status = model.StatusPending
			case i >= owned:
				status = model.StatusRejected
			}
			a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: badges[i].ID, Type: badges[i].Type, Status: status,
				PaymentStatus: model.PaymentCompleted, CreatedAt: now, UpdatedAt: now}
			if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
				return err
			}
			if status == model.StatusApproved {
				g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: badges[i].ID, ApplicationID: &a.ID,
					VerificationID: "MM-" + model.NewID(), PublicVerificationID: model.NewID() + model.NewID(), GrantedAt: now}
				if _, err := tx.NewInsert().Model(g).Exec(ctx); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return badges
}

type countQueries struct{ n atomic.Int64 }

func (c *countQueries) BeforeQuery(ctx context.Context, _ *bun.QueryEvent) context.Context {
	c.n.Add(1)
	return ctx
}
func (c *countQueries) AfterQuery(context.Context, *bun.QueryEvent) {}

func html(c *apptest.Client, path string) *apptest.Resp {
	return c.Raw("GET", path, nil, map[string]string{"Accept": "text/html"})
}

// The catalogue as a browser receives it: real cards in the raw HTML, each state's text,
// and the filters applied by the server.
func TestCataloguePagesRenderOnTheServer(t *testing.T) {
	e := New(t)
	u, c := e.Member("reader@example.com")
	badges := catalogueFixture(t, e, 30, 2, u)

	body := html(c, "/badges").Expect(200).Text()
	for _, w := range []string{"Discover Professional Badges", `data-island="BadgeCatalogue"`, "Badge 000", "Badge 023", "Show all 30 badges", `href="/badges?show=all"`,
		"You already own this badge!", "Already Owned", "View Details", "Your application is in process.", "In Process", "Check Eligibility", "$19.00"} {
		if !strings.Contains(body, w) {
			t.Errorf("catalogue HTML lacks %q", w)
		}
	}
	if n := strings.Count(body, `data-testid="badge-card"`); n != 24 {
		t.Errorf("%d cards rendered, want the first 24", n)
	}
	if strings.Contains(body, ">Badge 024<") {
		t.Error("card 25 rendered before 'Show all'")
	}
	all := html(c, "/badges?show=all").Expect(200).Text()
	if n := strings.Count(all, `data-testid="badge-card"`); n != 30 || strings.Contains(all, "Show all 30 badges") {
		t.Errorf("show=all rendered %d cards", n)
	}
	guest := html(e.Client(), "/badges?q=badge+003&category=Data+Science").Expect(200).Text()
	if n := strings.Count(guest, `data-testid="badge-card"`); n != 1 || !strings.Contains(guest, "Badge 003") || !strings.Contains(guest, "Login to Apply") {
		t.Errorf("filtered guest catalogue: %d cards", n)
	}
	if !regexp.MustCompile(`<input type="search"[^>]*name="q" value="badge 003"`).MatchString(guest) {
		t.Error("the search field does not keep the query")
	}
	empty := html(e.Client(), "/badges?q=nothing-like-this").Expect(200).Text()
	if !strings.Contains(empty, "No badges found") {
		t.Error("empty state missing")
	}

	detail := html(c, "/badges/"+badges[0].ID).Expect(200).Text()
	for _, w := range []string{"Badge 000", "Quiz Based", "You own this badge", "Share Badge", "Verification ID", `"@type":"EducationalOccupationalCredential"`, `data-island="BadgeActions"`, "Read more"} {
		if !strings.Contains(detail, w) {
			t.Errorf("detail HTML lacks %q", w)
		}
	}
	// criteria collapsed past 20 words; ?criteria=full expands it without JavaScript
	crit := regexp.MustCompile(`data-testid="criteria-text">([^<]*)<`)
	if m := crit.FindStringSubmatch(detail); m == nil || len(strings.Fields(m[1])) != 20 || !strings.Contains(detail, m[1]+"<span>&hellip;</span></p>") || !strings.Contains(detail, "?criteria=full#criteria") {
		t.Errorf("criteria not collapsed to 20 words and an ellipsis: %v", m)
	}
	// the ellipsis is an entity: the rendered pages stay within Latin-1, which V8 keeps
	// as one-byte strings (cheaper to build, flatten and encode than two-byte ones)
	if !strings.Contains(body, "<span>&hellip;</span> <a href=\"/badges/") {
		t.Error("the catalogue's cards do not cut their criteria with an ellipsis and Read more")
	}
	for name, page := range map[string]string{"catalogue": body, "detail": detail} {
		if where := beyondLatin1(page); where != "" {
			t.Errorf("%s page renders %s", name, where)
		}
	}
	full := html(c, "/badges/"+badges[0].ID+"?criteria=full").Expect(200).Text()
	if m := crit.FindStringSubmatch(full); m == nil || len(strings.Fields(m[1])) != 36 || !strings.Contains(full, "Show less") {
		t.Errorf("criteria=full does not expand the criteria: %v", m)
	}
	rejected := html(c, "/badges/"+badges[3].ID).Expect(200).Text()
	for _, w := range []string{"Proof Based", "Rejected", "Application did not meet requirements", "Upload Proof", "/proof-upload/" + badges[3].ID} {
		if !strings.Contains(rejected, w) {
			t.Errorf("rejected detail HTML lacks %q", w)
		}
	}
	nf := html(c, "/badges/nope")
	if nf.Status != http.StatusNotFound || !strings.Contains(nf.Text(), "Badge not found") || !strings.Contains(nf.Text(), "Back to Badges") {
		t.Errorf("not found: %d", nf.Status)
	}
}

// BenchmarkCatalogue: GET /badges (server render with the real V8 renderer plus the
// queries) with 200 badges for a signed-in user owning 20. Reports p50 and queries per
// request (the session lookup included; the catalogue itself is 2 queries).
//
//	go test -run '^$' -bench Catalogue -benchtime 300x ./app/pagetest/
func BenchmarkCatalogue(b *testing.B) {
	e := New(b)
	u, c := e.Member("bench@example.com")
	catalogueFixture(b, e, 200, 20, u)
	qc := &countQueries{}
	//lint:ignore SA1019 the hook must count the queries of the running app, which holds this *bun.DB (WithQueryHook would make a clone)
	e.DB.AddQueryHook(qc)
	for i := 0; i < 10; i++ { // warm the isolates and the connection pool
		html(c, "/badges").Expect(200)
	}
	qc.n.Store(0)
	durs := make([]time.Duration, 0, b.N)
	size := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		r := html(c, "/badges")
		durs = append(durs, time.Since(t0))
		if r.Status != 200 {
			b.Fatalf("status %d", r.Status)
		}
		size = len(r.Body)
	}
	b.StopTimer()
	sort.Slice(durs, func(i, j int) bool { return durs[i] < durs[j] })
	p50 := durs[len(durs)/2]
	p95 := durs[len(durs)*95/100]
	queries := float64(qc.n.Load()) / float64(b.N)
	b.ReportMetric(float64(p50.Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(p95.Microseconds())/1000, "p95-ms")
	b.ReportMetric(queries, "queries/op")
	b.ReportMetric(float64(size)/1024, "KiB/page")
	b.Logf("%s: 200 badges, user owns 20: p50 %v, p95 %v, %.1f queries/request, %d KiB", apptest.Engine(), p50, p95, queries, size/1024)
}
