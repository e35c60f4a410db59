package pagetest

import (
	"context"
	"fmt"
	stdhtml "html"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/seed"
)

// text is a page's HTML unescaped, without the markers React puts between text nodes.
func text(raw string) string { return strings.ReplaceAll(stdhtml.UnescapeString(raw), "<!-- -->", "") }

// seededBadge is the seeded badge named name.
func seededBadge(t *testing.T, e *apptest.Env, name string) *model.Badge {
	t.Helper()
	b := new(model.Badge)
	if err := e.DB.NewSelect().Model(b).Where("name = ?", name).Scan(e.Ctx()); err != nil {
		t.Fatalf("badge %s: %v", name, err)
	}
	return b
}

// TestTechnicalReportRendered renders /badges/{id}/assessment with V8 on the seeded demo:
// every figure of the SQL quiz's simulated attempts in plain words, the chart as inline
// SVG, the demo note, Open Graph tags and JSON-LD, no question and no script of its own;
// "not enough attempts yet" for a quiz nobody took; a 404 for a proof badge and for an
// unknown one; and the links from the badge page.
func TestTechnicalReportRendered(t *testing.T) {
	e := New(t)
	if _, err := seed.Run(e.Ctx(), e.DB, "demo-password"); err != nil {
		t.Fatal(err)
	}
	sql := seededBadge(t, e, seed.DemoAttemptsBadge)
	react := seededBadge(t, e, "React Developer")
	proof := seededBadge(t, e, "Open Source Contributor")
	rep, err := quiz.PublicReport(e.Ctx(), e.DB, sql.ID, model.Now())
	if err != nil || rep == nil || !rep.Figures.Enough {
		t.Fatalf("the seeded report: %+v %v", rep, err)
	}
	f := rep.Figures
	c := e.Client()

	path := "/badges/" + sql.ID + "/assessment"
	raw := html(c, path).Expect(http.StatusOK).Text()
	page := text(raw)
	verifyPageHas(t, "report", page,
		"Technical report", "SQL Data Analyst", "Demo data: all 120 attempts counted here were simulated",
		"Questions per attempt", "Question pool", "Time limit", "15 min", "Pass mark",
		"Aggregation", "Joins & filtering", "Query design", "drawn from a pool of 24",
		"Fixed by the administrator at 70%",
		"Computed from 120 submitted attempts, <time", fmt.Sprintf(">%s UTC</time>", f.From.UTC().Format("Jan 2, 2006")),
		"on sets of 7 questions",
		fmt.Sprintf(`data-testid="report-reliability">%.2f<`, *f.Reliability),
		fmt.Sprintf(`data-testid="report-sem">± %v points<`, *f.SEM),
		fmt.Sprintf(`data-testid="report-consistency">%v%%<`, *f.DecisionConsistency),
		fmt.Sprintf("the agreement (kappa) is %.2f", *f.Kappa),
		fmt.Sprintf(`data-testid="report-pass-rate">%v%%<`, *f.PassRate),
		`data-testid="score-chart"`, "<svg", `role="img"`, "pass 70%",
		"Retake rule: Retake 1 day after a failed attempt; at most 3 attempts in 30 days.",
		"more than 40% of the last 200 sets drawn",
		"graded on our server", "The answer key is never sent", "The clock is kept by the server",
		`href="mailto:support@meritmark.example"`,
		`href="/badges/`+sql.ID+`"`,
		// link previews and structured data, like the badge page's
		`<meta property="og:type" content="article">`,
		`<meta property="og:url" content="`+e.URL+path+`">`,
		`<link rel="canonical" href="`+e.URL+path+`">`,
		fmt.Sprintf("reliability %.2f over 120 attempts.", *f.Reliability),
		`"@type":"Report"`, `"@id":"`+e.URL+path+`"`, `"about":{"@id":"`+e.URL+`/badges/`+sql.ID+`"`,
		`"@type":"EducationalOccupationalCredential"`, `"dateModified":"`)
	for _, tag := range []string{`<meta property="og:title" content="SQL Data Analyst: technical report`, `<meta property="og:description" content="How the SQL Data Analyst quiz is built`, `<meta property="og:image" content="`} {
		if !strings.Contains(raw, tag) {
			t.Errorf("report: no %s", tag)
		}
	}
	// no question text, no option, no key; complete without script: the header is its only island
	for _, q := range []string{"Which clause filters groups", "HAVING", "LEFT JOIN return", "correctIndex"} {
		if strings.Contains(page, q) {
			t.Errorf("the report shows %q", q)
		}
	}
	if islands := regexp.MustCompile(`data-island="([A-Za-z]+)"`).FindAllStringSubmatch(raw, -1); len(islands) != 1 {
		t.Errorf("report islands %v, want the header's only", islands)
	}
	chart := raw[strings.Index(raw, `data-testid="score-chart"`):]
	if bars := strings.Count(chart[:strings.Index(chart, "</figure>")], "<rect "); bars != 10 {
		t.Errorf("%d bars in the chart, want 10", bars)
	}
	if where := beyondLatin1(raw); where != "" {
		t.Errorf("report renders %s", where)
	}

	// a quiz nobody took: every figure says so, no chart, no demo note
	page = text(html(c, "/badges/"+react.ID+"/assessment").Expect(http.StatusOK).Text())
	verifyPageHas(t, "no attempts", page, "React Developer", "These figures appear once 30 attempts have been submitted (0 so far)",
		`data-testid="report-reliability">not enough attempts yet<`, `data-testid="report-sem">not enough attempts yet<`,
		`data-testid="report-consistency">not enough attempts yet<`, `data-testid="report-pass-rate">not enough attempts yet<`)
	if n := strings.Count(page, "not enough attempts yet"); n != 6 {
		t.Errorf("'not enough attempts yet' %d times, want 6 (pass rate at a glance, four figures, the chart)", n)
	}
	if strings.Contains(page, `data-testid="score-chart"`) || strings.Contains(page, "Demo data") || strings.Contains(page, "kappa") {
		t.Error("a quiz without attempts shows a chart, a demo note or kappa")
	}

	// a proof badge has no quiz: 404, saying how it is assessed; an unknown badge: 404
	page = text(html(c, "/badges/"+proof.ID+"/assessment").Expect(http.StatusNotFound).Text())
	verifyPageHas(t, "proof", page, "No technical report for this badge", "an administrator reviews the documents or links each candidate submits",
		`<meta name="robots" content="noindex">`, `href="/badges/`+proof.ID+`"`)
	page = html(c, "/badges/"+model.NewID()+"/assessment").Expect(http.StatusNotFound).Text()
	verifyPageHas(t, "unknown", page, "Badge not found")

	// the badge page of a skill badge links to its report; a proof badge's does not
	if !strings.Contains(html(c, "/badges/"+sql.ID).Expect(http.StatusOK).Text(), `href="`+path+`"`) {
		t.Error("the skill badge's page does not link to its report")
	}
	if strings.Contains(html(c, "/badges/"+proof.ID).Expect(http.StatusOK).Text(), "/assessment") {
		t.Error("the proof badge's page links to a report")
	}
}

// TestVerifyPageLinksToTheReport: the verify page of a skill badge's credential links to
// the badge's technical report; a proof badge's does not.
func TestVerifyPageLinksToTheReport(t *testing.T) {
	e := New(t)
	if _, err := seed.Run(e.Ctx(), e.DB, "demo-password"); err != nil {
		t.Fatal(err)
	}
	adm := e.CreateUser("boss@example.com", "password123", model.RoleAdmin)
	holder := e.CreateUser("holder@example.com", "password123", model.RoleUser)
	issue := func(b *model.Badge) *model.BadgeGrant {
		now := model.Now()
		a := &model.Application{ID: model.NewID(), UserID: holder.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusApproved,
			PaymentStatus: model.PaymentCompleted, CreatedAt: now, UpdatedAt: now}
		var g *model.BadgeGrant
		err := e.Deps.Events.RunInTx(context.Background(), e.DB, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
				return err
			}
			r, err := grant.Issue(ctx, tx, grant.Input{Issuer: e.Deps.Issuer, Application: a, Badge: b, GrantedBy: adm.ID, Now: now, Origin: e.URL})
			if err == nil {
				g = r.Grant
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	sql := seededBadge(t, e, seed.DemoAttemptsBadge)
	skill := issue(sql)
	proof := issue(seededBadge(t, e, "Open Source Contributor"))
	c := e.Client()
	page := html(c, "/verify/"+skill.PublicVerificationID).Expect(http.StatusOK).Text()
	verifyPageHas(t, "skill credential", page, "Verified Badge", `href="/badges/`+sql.ID+`/assessment"`, "the technical report")
	if strings.Contains(html(c, "/verify/"+proof.PublicVerificationID).Expect(http.StatusOK).Text(), "/assessment") {
		t.Error("a proof badge's credential links to a technical report")
	}
}
