package model

import (
	"time"

	"github.com/uptrace/bun"
)

// Badge types, levels and categories (spec section 3 and 9).
const (
	TypeSkill = "skill"
	TypeProof = "proof"
)

var (
	Categories = []string{"Development", "Design", "Management", "Data Science", "Marketing", "DevOps"}
	Levels     = []string{"beginner", "intermediate", "advanced"}
)

// ValidCategory reports whether c is one of the six categories.
func ValidCategory(c string) bool { return contains(Categories, c) }

// ValidLevel reports whether l is a known level.
func ValidLevel(l string) bool { return contains(Levels, l) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Badge is a credential people can earn.
type Badge struct {
	bun.BaseModel `bun:"table:badges"`

	ID             string    `bun:"id,pk"`
	Name           string    `bun:"name"`
	Description    string    `bun:"description"`
	Category       string    `bun:"category"`
	Type           string    `bun:"type"`
	Level          string    `bun:"level"`
	PriceCents     int64     `bun:"price_cents"`
	Icon           string    `bun:"icon"`
	Color          string    `bun:"color"`
	Criteria       string    `bun:"criteria"`
	RequiresResume bool      `bun:"requires_resume"`
	IsActive       bool      `bun:"is_active"`
	ValidDays      *int      `bun:"valid_days"`
	ValidMonths    *int      `bun:"valid_months"` // validity period in months (wins over ValidDays)
	CreatedBy      *string   `bun:"created_by"`
	CreatedAt      time.Time `bun:"created_at"`
	UpdatedAt      time.Time `bun:"updated_at"`
}

// Quiz belongs to one skill badge.
type Quiz struct {
	bun.BaseModel `bun:"table:quizzes"`

	ID           string    `bun:"id,pk"`
	BadgeID      string    `bun:"badge_id"`
	Title        string    `bun:"title"`
	Description  string    `bun:"description"`
	PassingScore int       `bun:"passing_score"`
	TimeLimit    int       `bun:"time_limit"` // minutes
	IsActive     bool      `bun:"is_active"`
	CreatedAt    time.Time `bun:"created_at"`
	// Pool and retake rules (app/quiz): questions drawn per attempt (0 = the whole pool),
	// hours to wait after a failed attempt, at most MaxAttempts per AttemptPeriodDays
	// (0 = no cap).
	QuestionsPerAttempt int `bun:"questions_per_attempt"`
	RetakeWaitHours     int `bun:"retake_wait_hours"`
	MaxAttempts         int `bun:"max_attempts"`
	AttemptPeriodDays   int `bun:"attempt_period_days"`
	// Forms (app/quiz, form.go): the blueprint (items per topic; empty = draw
	// QuestionsPerAttempt from the whole pool), the target expected difficulty (nil = the
	// pool's mean) and the maximum exposure rate in percent over the last forms drawn.
	Blueprint        []BlueprintRow `bun:"blueprint,type:text"`
	TargetDifficulty *float64       `bun:"target_difficulty"`
	MaxExposure      int            `bun:"max_exposure"`
	// MinItemSeconds is the speed floor of the integrity check (app/quiz integrity.go):
	// an attempt with most items answered faster is flagged; 0 = no speed check.
	MinItemSeconds int `bun:"min_item_seconds"`
	// PassMarkMethod says how the pass mark was set: AngoffMethod's text when a
	// modified-Angoff panel's cut was adopted (app/angoff); "" = a fixed percentage set by
	// the administrator.
	PassMarkMethod string `bun:"pass_mark_method"`
}

// BlueprintRow is one topic of a quiz's blueprint: how many of its questions each form holds.
type BlueprintRow struct {
	Topic string `json:"topic"`
	Count int    `json:"count"`
}

// QuizAttemptGrant is an extra attempt an administrator gave a member (app/quiz).
type QuizAttemptGrant struct {
	bun.BaseModel `bun:"table:quiz_attempt_grants"`

	ID        string     `bun:"id,pk"`
	QuizID    string     `bun:"quiz_id"`
	UserID    string     `bun:"user_id"`
	GrantedBy *string    `bun:"granted_by"`
	CreatedAt time.Time  `bun:"created_at"`
	UsedAt    *time.Time `bun:"used_at"`
	AttemptID *string    `bun:"attempt_id"`
}

// Question lives in the question bank and may be linked to several quizzes.
type Question struct {
	bun.BaseModel `bun:"table:questions"`

	ID           string    `bun:"id,pk"`
	Text         string    `bun:"text"`
	Options      []string  `bun:"options,type:text"`
	CorrectIndex int       `bun:"correct_index"`
	Difficulty   string    `bun:"difficulty"`
	Explanation  string    `bun:"explanation"`
	Topic        string    `bun:"topic"`
	Category     string    `bun:"category"`
	CreatedAt    time.Time `bun:"created_at"`
	// FamilyOf links a variant (or an enemy item) to another question; questions linked
	// through these links form one family and never share a form. A retired question is
	// never drawn again but stays for history and statistics.
	FamilyOf  *string    `bun:"family_of"`
	RetiredAt *time.Time `bun:"retired_at"`
	// Type is QuestionSingle (CorrectIndex is the key) or QuestionMultiple ("select all
	// that apply": CorrectIndexes, ascending, is the key; right only for exactly that set).
	// ShowCount: the multiple-response question tells how many options to pick.
	Type           string `bun:"type"`
	CorrectIndexes []int  `bun:"correct_indexes,type:text"`
	ShowCount      bool   `bun:"show_count"`
}

// Question types.
const (
	QuestionSingle   = "single"
	QuestionMultiple = "multiple"
)

// Multiple reports a multiple-response question.
func (q *Question) Multiple() bool { return q.Type == QuestionMultiple }

// Key is the question's correct original option indexes, ascending.
func (q *Question) Key() []int {
	if q.Multiple() {
		return q.CorrectIndexes
	}
	return []int{q.CorrectIndex}
}

// QuizResponse is one question of one attempt as the member met it (app/quiz): its
// position, the options in the order shown (OptionOrder[i] is the original index shown at
// i, Options their texts then), the chosen original indexes (ascending; nil: unanswered),
// whether that was right (set when graded), the first and last answer times, how often a
// saved answer was changed and the time on the item the runner reported (milliseconds,
// bounded by the server's timestamps).
type QuizResponse struct {
	bun.BaseModel `bun:"table:quiz_responses"`

	AttemptID       string     `bun:"attempt_id,pk"`
	QuestionID      string     `bun:"question_id,pk"`
	QuizID          string     `bun:"quiz_id"`
	Position        int        `bun:"position"`
	OptionOrder     []int      `bun:"option_order,type:text"`
	Options         []string   `bun:"options,type:text"`
	Chosen          []int      `bun:"chosen,type:text"`
	Correct         bool       `bun:"correct"`
	FirstAnsweredAt *time.Time `bun:"first_answered_at"`
	LastAnsweredAt  *time.Time `bun:"last_answered_at"`
	Changes         int        `bun:"changes"`
	TimeMs          int64      `bun:"time_ms"`
}

// QuizQuestion links a question into a quiz at a position.
type QuizQuestion struct {
	bun.BaseModel `bun:"table:quiz_questions"`

	QuizID     string `bun:"quiz_id,pk"`
	QuestionID string `bun:"question_id,pk"`
	Position   int    `bun:"position"`
}
