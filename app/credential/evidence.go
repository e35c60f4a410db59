package credential

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// evidenceOf is what a credential says it was awarded on: for a skill badge, the holder's
// passed assessment (the quiz, its date and score); for a proof badge, that the documents
// the holder submitted were reviewed (never the documents themselves).
func evidenceOf(ctx context.Context, tx bun.IDB, origin string, g *model.BadgeGrant, b *model.Badge) ([]Evidence, error) {
	switch b.Type {
	case model.TypeSkill:
		var a struct {
			SubmittedAt  *time.Time `bun:"submitted_at"`
			Score        float64    `bun:"score"`
			CorrectCount int        `bun:"correct_count"`
			Total        int        `bun:"total"`
			PassingScore int        `bun:"passing_score"`
			Title        string     `bun:"title"`
		}
		err := tx.NewRaw(`SELECT a.submitted_at, a.score, a.correct_count, a.total, a.passing_score, q.title
FROM quiz_attempts AS a JOIN quizzes AS q ON q.id = a.quiz_id
WHERE a.user_id = ? AND a.badge_id = ? AND a.passed = ? AND a.submitted_at IS NOT NULL
ORDER BY a.submitted_at DESC LIMIT 1`, g.UserID, g.BadgeID, true).Scan(ctx, &a)
		if db.IsNoRows(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("credential evidence: %w", err)
		}
		return []Evidence{AssessmentEvidence(a.Title, *a.SubmittedAt, a.Score, a.CorrectCount, a.Total, a.PassingScore)}, nil
	case model.TypeProof:
		if g.ApplicationID == nil {
			return nil, nil
		}
		var reviewed *time.Time
		err := tx.NewRaw("SELECT reviewed_at FROM applications WHERE id = ?", *g.ApplicationID).Scan(ctx, &reviewed)
		if db.IsNoRows(err) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("credential evidence: %w", err)
		}
		at := g.GrantedAt
		if reviewed != nil {
			at = *reviewed
		}
		return []Evidence{ReviewEvidence(at)}, nil
	}
	return nil, nil
}

// AssessmentEvidence describes a passed quiz.
func AssessmentEvidence(title string, at time.Time, score float64, correct, total, passing int) Evidence {
	title = strings.TrimSpace(title)
	if title == "" {
		title = "Skill assessment"
	}
	pct := strconv.FormatFloat(score, 'f', -1, 64)
	if i := strings.IndexByte(pct, '.'); i >= 0 && len(pct) > i+2 {
		pct = strconv.FormatFloat(score, 'f', 1, 64)
	}
	return Evidence{Type: []string{"Evidence"}, Name: "Assessment: " + title, Genre: "Assessment",
		Description: fmt.Sprintf("Passed the %q quiz on %s with a score of %s%% (%d of %d answers correct; passing score %d%%).",
			title, at.UTC().Format("2006-01-02"), pct, correct, total, passing),
		Narrative: fmt.Sprintf("Assessment completed %s. Score: %s%%.", Timestamp(at), pct)}
}

// ReviewEvidence says that the submitted documents were reviewed.
func ReviewEvidence(at time.Time) Evidence {
	return Evidence{Type: []string{"Evidence"}, Name: "Review of submitted proof", Genre: "Document review",
		Description: fmt.Sprintf("%s reviewed the documents the holder submitted and approved them on %s. The documents are not part of this credential.",
			IssuerName, at.UTC().Format("2006-01-02")),
		Narrative: "Reviewed " + Timestamp(at) + "."}
}
