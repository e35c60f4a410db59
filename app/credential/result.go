package credential

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// The result inside the credential (issue 35, item 4): the achievement describes the
// result it was awarded on (achievement.resultDescription, typed as 1EdTech's Assessment
// Extension AssessmentResultDescription: assessmentType, evaluationMethod,
// assessmentEvaluation) and the subject carries the holder's (credentialSubject.result).
// A skill badge: the quiz score in percent against the pass mark; a proof badge: a
// reviewed artifact, status only. The result is in the signed credential whether or not
// the holder shows the score on their public pages.

// ContextOBAssessment is the 1EdTech Open Badges Assessment Extension 2.0 context.
const ContextOBAssessment = "https://purl.imsglobal.org/spec/ob-assessment/v2p0/context/"

// Assessment types of the extension.
const (
	AssessmentExam     = "Exam"
	AssessmentArtifact = "Artifact"
)

// ResultStatus is the result's status: OB 3.0's ResultStatusType has no "Passed" (its
// values: Completed, Enrolled, Failed, InProgress, OnHold, Provisional, Withdrew) and the
// JSON schema refuses any other, so a passed assessment is "Completed" and the pass is
// value >= requiredValue.
const ResultStatus = "Completed"

// ResultDescription is an achievement's resultDescription entry.
type ResultDescription struct {
	ID                   string   `json:"id"`
	Type                 []string `json:"type"`
	Name                 string   `json:"name"`
	Description          string   `json:"description,omitempty"`
	ResultType           string   `json:"resultType"`
	RequiredValue        string   `json:"requiredValue,omitempty"`
	ValueMin             string   `json:"valueMin,omitempty"`
	ValueMax             string   `json:"valueMax,omitempty"`
	AssessmentType       string   `json:"assessmentType,omitempty"`
	EvaluationMethod     string   `json:"evaluationMethod,omitempty"`
	AssessmentEvaluation string   `json:"assessmentEvaluation,omitempty"`
}

// Result is a credentialSubject.result entry.
type Result struct {
	Type              []string `json:"type"`
	ResultDescription string   `json:"resultDescription"`
	Value             string   `json:"value,omitempty"`
	Status            string   `json:"status,omitempty"`
}

// ResultInput is the assessed result a credential is built with (nil: none).
type ResultInput struct {
	AssessmentType   string   // AssessmentExam or AssessmentArtifact
	Name             string   // the assessment's name
	Score            *float64 // percent (Exam); nil for an artifact (status only)
	PassMark         int      // percent (Exam)
	EvaluationMethod string
	ReportURL        string // assessmentEvaluation; "" = none
}

// ResultDescriptionID is the id of the result description of badgeID.
func ResultDescriptionID(origin, badgeID string) string {
	return AchievementURL(origin, badgeID) + "#result"
}

// Percent writes a score as the credential does: at most two decimals, no trailing zeros.
func Percent(x float64) string {
	return strconv.FormatFloat(float64(int64(x*100+0.5))/100, 'f', -1, 64)
}

// resultOf is r as the achievement's description and the subject's result.
func resultOf(origin, badgeID string, r *ResultInput) (ResultDescription, Result) {
	d := ResultDescription{ID: ResultDescriptionID(origin, badgeID), Type: []string{"ResultDescription", "AssessmentResultDescription"},
		Name: CleanText(r.Name), AssessmentType: r.AssessmentType, EvaluationMethod: CleanText(r.EvaluationMethod),
		AssessmentEvaluation: r.ReportURL}
	res := Result{Type: []string{"Result"}, ResultDescription: d.ID, Status: ResultStatus}
	if r.Score != nil {
		d.ResultType, d.RequiredValue, d.ValueMin, d.ValueMax = "Percent", strconv.Itoa(r.PassMark), "0", "100"
		d.Description = "The percentage of questions answered correctly; " + strconv.Itoa(r.PassMark) + " or more passes."
		res.Value = Percent(*r.Score)
	} else {
		d.ResultType = "Status"
		d.Description = "Whether the submitted work was reviewed and approved."
	}
	return d, res
}

// ExamMethod is a quiz's evaluationMethod: its blueprint, the items on the holder's form
// and how the pass mark was set (method: the quiz's pass_mark_method, "" for a fixed
// percentage; see model.PassMarkSentence).
func ExamMethod(items, pool int, blueprint []model.BlueprintRow, passMark int, method string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Multiple-choice exam scored automatically: each candidate answers a form of %d questions drawn at random from a pool of %d", items, pool)
	if len(blueprint) > 0 {
		parts := make([]string, len(blueprint))
		for i, r := range blueprint {
			parts[i] = fmt.Sprintf("%s %d", r.Topic, r.Count)
		}
		b.WriteString(" to a fixed blueprint (questions per topic: " + strings.Join(parts, ", ") + ")")
	}
	b.WriteString(". The score is the percentage answered correctly. " + model.PassMarkSentence(passMark, method))
	return b.String()
}

// ArtifactMethod is a proof badge's evaluationMethod.
const ArtifactMethod = "An administrator reviews the documents and links the candidate submits against the badge's criteria and approves or rejects the application."

// skillResult reads the holder's latest passed attempt at the badge's quiz (nil when none).
func skillResult(ctx context.Context, tx bun.IDB, origin string, g *model.BadgeGrant, b *model.Badge) (*ResultInput, error) {
	var a struct {
		Score        float64 `bun:"score"`
		Total        int     `bun:"total"`
		PassingScore int     `bun:"passing_score"`
		QuizID       string  `bun:"quiz_id"`
		Title        string  `bun:"title"`
		Blueprint    string  `bun:"blueprint"`
		QuizPass     int     `bun:"quiz_pass"`
		Method       string  `bun:"pass_mark_method"`
	}
	err := tx.NewRaw(`SELECT a.score, a.total, a.passing_score, a.quiz_id, q.title, COALESCE(q.blueprint, '') AS blueprint,
q.passing_score AS quiz_pass, q.pass_mark_method
FROM quiz_attempts AS a JOIN quizzes AS q ON q.id = a.quiz_id
WHERE a.user_id = ? AND a.badge_id = ? AND a.passed = ? AND a.submitted_at IS NOT NULL
ORDER BY a.submitted_at DESC LIMIT 1`, g.UserID, g.BadgeID, true).Scan(ctx, &a)
	if db.IsNoRows(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("credential result: %w", err)
	}
	var pool int
	if err := tx.NewRaw(`SELECT COUNT(*) FROM quiz_questions AS qq JOIN questions AS q ON q.id = qq.question_id
WHERE qq.quiz_id = ? AND q.retired_at IS NULL`, a.QuizID).Scan(ctx, &pool); err != nil {
		return nil, fmt.Errorf("credential result: %w", err)
	}
	var bp []model.BlueprintRow
	if a.Blueprint != "" && a.Blueprint != "null" {
		if err := json.Unmarshal([]byte(a.Blueprint), &bp); err != nil {
			return nil, fmt.Errorf("credential result: blueprint: %w", err)
		}
	}
	title := strings.TrimSpace(a.Title)
	if title == "" {
		title = "Skill assessment"
	}
	score := a.Score
	// the method holds for the pass mark it set: an attempt graded against an earlier pass
	// mark was graded against a fixed percentage
	method := a.Method
	if a.PassingScore != a.QuizPass {
		method = ""
	}
	return &ResultInput{AssessmentType: AssessmentExam, Name: "Score on the " + title + " quiz", Score: &score,
		PassMark: a.PassingScore, EvaluationMethod: ExamMethod(a.Total, max(pool, a.Total), bp, a.PassingScore, method),
		ReportURL: origin + "/badges/" + b.ID + "/assessment"}, nil
}

// proofResult is a reviewed proof badge's result.
func proofResult() *ResultInput {
	return &ResultInput{AssessmentType: AssessmentArtifact, Name: "Review of submitted proof", EvaluationMethod: ArtifactMethod}
}

// resultFor is the result g's credential carries: the passed quiz of a skill badge, the
// reviewed application of a proof badge; nil otherwise (a direct award).
func resultFor(ctx context.Context, tx bun.IDB, origin string, g *model.BadgeGrant, b *model.Badge) (*ResultInput, error) {
	switch b.Type {
	case model.TypeSkill:
		return skillResult(ctx, tx, origin, g, b)
	case model.TypeProof:
		if g.ApplicationID != nil {
			return proofResult(), nil
		}
	}
	return nil, nil
}
