package badge

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
)

// The public technical report of a skill badge (/badges/{id}/assessment): how its quiz
// is built and how well it measures, from the submitted attempts (quiz.PublicReport),
// for a recruiter judging the credential. A proof badge has no quiz and so no report:
// the route answers 404 with a page saying how the badge is assessed instead (documents
// reviewed by an administrator); so does a skill badge without an active quiz.

// MsgNoReport is the title of the report route's 404 for a badge with no quiz.
const MsgNoReport = "No technical report for this badge"

// ReportProps are the technical report page's props.
type ReportProps struct {
	NotFound bool         `json:"notFound"`
	Badge    *Badge       `json:"badge"`
	Report   *quiz.Report `json:"report"`
	// NoQuiz: the badge exists but no quiz assesses it (a proof badge, or a skill badge
	// whose quiz is off); the page says how it is assessed and answers 404.
	NoQuiz bool `json:"noQuiz"`
}

// ReportPath is the technical report's path for badge id.
func ReportPath(id string) string { return "/badges/" + id + "/assessment" }

func (h *Handler) reportPage(c fiber.Ctx) error {
	viewer := web.Viewer(c)
	d, err := h.svc.Detail(c.Context(), c.Params("id"), viewer)
	if errors.Is(err, ErrNotFound) {
		return h.site.Render(c, "AssessmentReportPage", ReportProps{NotFound: true},
			web.Meta{Title: MsgNotFound, NoIndex: true, Status: http.StatusNotFound})
	}
	if err != nil {
		return err
	}
	b := &d.Badge
	var rep *quiz.Report
	if b.Type == model.TypeSkill {
		if rep, err = quiz.PublicReport(c.Context(), h.svc.DB, b.ID, model.Now()); err != nil {
			return err
		}
	}
	if rep == nil {
		return h.site.Render(c, "AssessmentReportPage", ReportProps{Badge: b, NoQuiz: true},
			web.Meta{Title: MsgNoReport, NoIndex: true, Status: http.StatusNotFound})
	}
	origin := strings.TrimRight(h.site.Origin(c), "/")
	title := b.Name + ": technical report"
	desc := ReportSummary(b, rep)
	meta := web.Meta{
		Title:       title,
		Description: desc,
		Path:        ReportPath(b.ID),
		Type:        "article",
		JSONLD:      ReportJSONLD(origin, b, rep, title, desc),
		NoIndex:     !b.IsActive,
	}
	withCard(&meta, b)
	return h.site.Render(c, "AssessmentReportPage", ReportProps{Badge: b, Report: rep}, meta)
}

// ReportSummary is the report's description for link previews and search results.
func ReportSummary(b *Badge, rep *quiz.Report) string {
	a, f := rep.Assessment, rep.Figures
	s := fmt.Sprintf("How the %s quiz is built and how well it measures: %d questions per attempt, %d minutes, pass mark %d%%",
		b.Name, a.QuestionsPerAttempt, a.TimeLimit, a.PassingScore)
	if f.Enough && f.Reliability != nil {
		s += fmt.Sprintf(", reliability %.2f over %d attempts.", *f.Reliability, f.N)
	} else {
		s += "."
	}
	return s
}

// ReportJSONLD is the report's structured data: a schema.org Report about the badge's
// credential (the badge page's JSON-LD, without its @context).
func ReportJSONLD(origin string, b *Badge, rep *quiz.Report, title, desc string) map[string]any {
	about := JSONLD(origin, b)
	delete(about, "@context")
	url := origin + ReportPath(b.ID)
	ld := map[string]any{
		"@context":    "https://schema.org",
		"@type":       "Report",
		"@id":         url,
		"url":         url,
		"name":        title,
		"headline":    title,
		"description": desc,
		"inLanguage":  "en",
		"publisher":   map[string]any{"@type": "Organization", "name": Organization, "url": origin + "/"},
		"about":       about,
	}
	if u := rep.Figures.Until; u != nil {
		ld["dateModified"] = u.UTC().Format(time.RFC3339)
	}
	return ld
}
