// Package quizadmin is the administrators' quiz and question bank management: one quiz per
// skill badge, questions in a shared bank, and the links between them.
package quizadmin

import (
	"encoding/json"
	"strings"

	"meritmark/app/input"
	"meritmark/app/model"
	"meritmark/app/quiz"
)

// Quiz defaults and limits (spec sections 5 and 9).
const (
	DefaultPassingScore = 70
	DefaultTimeLimit    = 15 // minutes
	MaxTimeLimit        = 300
	MaxTitle            = 200
	MaxDescription      = 2000

	// Pools and retake rules: questions per attempt (0 = the whole pool), the wait after a
	// failed attempt, and at most MaxAttempts per AttemptPeriodDays (0 = no cap).
	MaxDraw                  = 200
	DefaultRetakeWaitHours   = 24
	MaxRetakeWaitHours       = 8760
	DefaultMaxAttempts       = 3
	MaxMaxAttempts           = 100
	DefaultAttemptPeriodDays = 30
	MaxAttemptPeriodDays     = 365
)

// Question defaults and limits.
const (
	DefaultDifficulty = "medium"
	DefaultCategory   = "General"
	MinOptions        = 2
	MaxOptions        = 4
	MaxMultiOptions   = 6 // a multiple-response question
	MaxText           = 1000
	MaxOption         = 300
	MaxExplanation    = 2000
	MaxTopic          = 100
	MaxCategory       = 60
)

// Messages (the spec's where it has them).
const (
	MsgBadgeNotFound    = "Badge not found"
	MsgQuizNotFound     = "Quiz not found"
	MsgQuestionNotFound = "Question not found"
	MsgNotSkillBadge    = "Quizzes can only be created for skill badges."
	MsgQuizExists       = "This badge already has a quiz."
	MsgPassingScore     = "Passing score must be a whole number from 1 to 100."
	MsgTimeLimit        = "Time limit must be a whole number of minutes, at least 1."
	MsgTimeLimitMax     = "Time limit can be at most 300 minutes."
	MsgTitleLong        = "Quiz title must be at most 200 characters."
	MsgTitleRequired    = "Quiz title is required."
	MsgQuizDescLong     = "Quiz description must be at most 2000 characters."

	MsgTextRequired   = "Question text is required."
	MsgTextLong       = "Question text must be at most 1000 characters."
	MsgMinOptions     = "Please provide at least 2 answer options"
	MsgMaxOptions     = "A question can have at most 4 answer options."
	MsgOptionLong     = "Each answer option must be at most 300 characters."
	MsgDuplicateOpts  = "Answer options must all be different."
	MsgCorrectIndex   = "Please select a valid correct answer"
	MsgQuestionType   = "Question type must be single or multiple."
	MsgMaxMultiOpts   = "A multiple-response question can have at most 6 answer options."
	MsgCorrectIndexes = "Please select the correct answers: a list of the options' positions, each once."
	MsgCorrectCount   = "A multiple-response question needs from 1 to %d correct answers (one fewer than its %d options)."
	MsgShowCount      = "Show count must be true or false."
	MsgDifficulty     = "Difficulty must be easy, medium or hard."
	MsgExplanationLen = "Explanation must be at most 2000 characters."
	MsgTopicLong      = "Topic must be at most 100 characters."
	MsgCategoryLong   = "Category must be at most 60 characters."
	MsgAlreadyInQuiz  = "This question is already in the quiz."
	MsgNotInQuiz      = "This question is not in the quiz."

	MsgDraw           = "Questions per attempt must be a whole number from 0 (the whole pool) to 200."
	MsgDrawOverPool   = "Questions per attempt (%d) cannot be more than the %d questions in the quiz's pool."
	MsgRetakeWait     = "The wait after a failed attempt must be a whole number of hours from 0 to 8760."
	MsgMaxAttempts    = "Maximum attempts must be a whole number from 0 (no limit) to 100."
	MsgAttemptPeriod  = "The attempt period must be a whole number of days from 1 to 365."
	MsgBelowDraw      = "This quiz draws %d questions per attempt, so its pool cannot have fewer. Lower the questions per attempt first."
	MsgLastQuestion   = "%s is active in the catalogue, so its quiz must keep at least one question. Deactivate the badge first."
	MsgQuizOffActive  = "%s is active in the catalogue, so its quiz cannot be switched off. Deactivate the badge first."
	MsgUserNotFound   = "User not found"
	MsgUserIDRequired = "User ID is required."
	MsgGrantWaiting   = quiz.MsgGrantWaiting
	MsgGrantNotNeeded = "This member can already start the quiz; an extra attempt is only needed while a retake waits."
)

// QuizInput is the Create Quiz form.
type QuizInput struct {
	Title               *string         `json:"title"`
	Description         *string         `json:"description"`
	PassingScore        json.RawMessage `json:"passingScore"`
	TimeLimit           json.RawMessage `json:"timeLimit"`
	QuestionsPerAttempt json.RawMessage `json:"questionsPerAttempt"`
	RetakeWaitHours     json.RawMessage `json:"retakeWaitHours"`
	MaxAttempts         json.RawMessage `json:"maxAttempts"`
	AttemptPeriodDays   json.RawMessage `json:"attemptPeriodDays"`
	// Forms (blueprint.go): absent keeps the current value.
	Blueprint        json.RawMessage `json:"blueprint"`
	TargetDifficulty json.RawMessage `json:"targetDifficulty"`
	MaxExposure      json.RawMessage `json:"maxExposure"`
	// MinItemSeconds is the integrity check's speed floor (app/quiz integrity.go; 0 = off).
	MinItemSeconds json.RawMessage `json:"minItemSeconds"`
}

// QuizFields is a validated quiz form.
type QuizFields struct {
	Title               string
	Description         string
	PassingScore        int
	TimeLimit           int
	QuestionsPerAttempt int
	RetakeWaitHours     int
	MaxAttempts         int
	AttemptPeriodDays   int
}

// intField parses an optional whole number in [lo, hi]: def when empty, msg when invalid.
func intField(raw json.RawMessage, def, lo, hi int, msg string) (int, string) {
	n, empty, ok := input.ParseInt(raw)
	switch {
	case empty:
		return def, ""
	case !ok || n < int64(lo) || n > int64(hi):
		return def, msg
	}
	return int(n), ""
}

// NormalizeRules validates the pool and retake fields, keeping cur's value for an absent
// field (a new quiz passes the defaults).
func NormalizeRules(in QuizInput, cur QuizFields) (QuizFields, string) {
	f := cur
	var msg string
	if f.QuestionsPerAttempt, msg = intField(in.QuestionsPerAttempt, cur.QuestionsPerAttempt, 0, MaxDraw, MsgDraw); msg != "" {
		return f, msg
	}
	if f.RetakeWaitHours, msg = intField(in.RetakeWaitHours, cur.RetakeWaitHours, 0, MaxRetakeWaitHours, MsgRetakeWait); msg != "" {
		return f, msg
	}
	if f.MaxAttempts, msg = intField(in.MaxAttempts, cur.MaxAttempts, 0, MaxMaxAttempts, MsgMaxAttempts); msg != "" {
		return f, msg
	}
	if f.AttemptPeriodDays, msg = intField(in.AttemptPeriodDays, cur.AttemptPeriodDays, 1, MaxAttemptPeriodDays, MsgAttemptPeriod); msg != "" {
		return f, msg
	}
	return f, ""
}

// DefaultQuizDescription is the assessment text a quiz gets when none is given.
func DefaultQuizDescription(badgeName string) string {
	return "Answer each question to show your " + badgeName + " skills."
}

// NormalizeQuiz validates the form for a quiz of badgeName and fills the defaults:
// title '{badge} Assessment', an assessment description, passing score 70 and time
// limit 15 minutes when empty.
func NormalizeQuiz(in QuizInput, badgeName string) (QuizFields, string) {
	f := QuizFields{Title: input.TrimPtr(in.Title), Description: input.TrimPtr(in.Description)}
	if f.Title == "" {
		f.Title = badgeName + " Assessment"
	}
	if f.Description == "" {
		f.Description = DefaultQuizDescription(badgeName)
	}
	if input.TooLong(f.Title, MaxTitle) {
		return f, MsgTitleLong
	}
	if input.TooLong(f.Description, MaxDescription) {
		return f, MsgQuizDescLong
	}
	n, empty, ok := input.ParseInt(in.PassingScore)
	switch {
	case empty:
		f.PassingScore = DefaultPassingScore
	case !ok || n < 1 || n > 100:
		return f, MsgPassingScore
	default:
		f.PassingScore = int(n)
	}
	n, empty, ok = input.ParseInt(in.TimeLimit)
	switch {
	case empty:
		f.TimeLimit = DefaultTimeLimit
	case !ok || n < 1:
		return f, MsgTimeLimit
	case n > MaxTimeLimit:
		return f, MsgTimeLimitMax
	default:
		f.TimeLimit = int(n)
	}
	return NormalizeRules(in, QuizFields{Title: f.Title, Description: f.Description, PassingScore: f.PassingScore, TimeLimit: f.TimeLimit,
		RetakeWaitHours: DefaultRetakeWaitHours, MaxAttempts: DefaultMaxAttempts, AttemptPeriodDays: DefaultAttemptPeriodDays})
}

// NormalizeQuizUpdate validates an edit of quiz cur: absent fields keep their values; a
// present empty title or description is refused like an over-long one is.
func NormalizeQuizUpdate(in QuizInput, cur QuizFields) (QuizFields, string) {
	f := cur
	if in.Title != nil {
		if f.Title = input.TrimPtr(in.Title); f.Title == "" {
			return f, MsgTitleRequired
		}
	}
	if in.Description != nil {
		f.Description = input.TrimPtr(in.Description)
	}
	if input.TooLong(f.Title, MaxTitle) {
		return f, MsgTitleLong
	}
	if input.TooLong(f.Description, MaxDescription) {
		return f, MsgQuizDescLong
	}
	var msg string
	if f.PassingScore, msg = intField(in.PassingScore, cur.PassingScore, 1, 100, MsgPassingScore); msg != "" {
		return f, msg
	}
	if f.TimeLimit, msg = intField(in.TimeLimit, cur.TimeLimit, 1, MaxTimeLimit, MsgTimeLimit); msg != "" {
		if n, _, ok := input.ParseInt(in.TimeLimit); ok && n > MaxTimeLimit {
			return f, MsgTimeLimitMax
		}
		return f, msg
	}
	return NormalizeRules(in, f)
}

// QuestionInput is the question form (create, create for a quiz, edit).
type QuestionInput struct {
	Text         *string         `json:"text"`
	Options      []string        `json:"options"`
	CorrectIndex json.RawMessage `json:"correctIndex"`
	// Type "multiple" (select all that apply) takes CorrectIndexes; "single" or absent
	// takes CorrectIndex. ShowCount: the question tells how many to pick.
	Type           *string         `json:"type"`
	CorrectIndexes json.RawMessage `json:"correctIndexes"`
	ShowCount      json.RawMessage `json:"showCount"`
	Difficulty     *string         `json:"difficulty"`
	Explanation    *string         `json:"explanation"`
	Topic          *string         `json:"topic"`
	Category       *string         `json:"category"`
	QuizID         *string         `json:"quizId"` // create only: also add it to this quiz
	// FamilyOf links the question to another as its variant or enemy (null or "" clears;
	// absent keeps the current link).
	FamilyOf json.RawMessage `json:"familyOf"`
}

// QuestionFields is a validated question.
type QuestionFields struct {
	Text           string
	Options        []string
	CorrectIndex   int
	Type           string
	CorrectIndexes []int // multiple response: ascending; nil for single choice
	ShowCount      bool
	Difficulty     string
	Explanation    string
	Topic          string
	Category       string
}

// Options drops empty options (after trimming) and maps the correct index onto the kept
// ones: with options ["", "A", "", "B"] and correct 3, the result is ["A", "B"] and 1. The
// index is -1 when it pointed at nothing or at an empty option.
func Options(options []string, correct int) ([]string, int) {
	kept := make([]string, 0, len(options))
	idx := -1
	for i, o := range options {
		o = strings.TrimSpace(o)
		if o == "" {
			continue
		}
		if i == correct {
			idx = len(kept)
		}
		kept = append(kept, o)
	}
	return kept, idx
}

// NormalizeQuestion validates a question form. defTopic and defCategory are the defaults
// (from a quiz: the badge's name and category; from the bank: no topic and 'General').
func NormalizeQuestion(in QuestionInput, defTopic, defCategory string) (QuestionFields, string) {
	f := QuestionFields{
		Text:        strings.TrimSpace(input.TrimPtr(in.Text)),
		Difficulty:  strings.ToLower(input.TrimPtr(in.Difficulty)),
		Explanation: input.TrimPtr(in.Explanation),
		Topic:       input.TrimPtr(in.Topic),
		Category:    input.TrimPtr(in.Category),
	}
	if f.Text == "" {
		return f, MsgTextRequired
	}
	if input.TooLong(f.Text, MaxText) {
		return f, MsgTextLong
	}
	switch strings.ToLower(input.TrimPtr(in.Type)) {
	case "", model.QuestionSingle:
		f.Type = model.QuestionSingle
	case model.QuestionMultiple:
		return normalizeMultiple(in, f, defTopic, defCategory)
	default:
		return f, MsgQuestionType
	}
	correct := -1
	if n, empty, ok := input.ParseInt(in.CorrectIndex); !empty && ok && n >= 0 && n < int64(len(in.Options)) {
		correct = int(n)
	}
	f.Options, f.CorrectIndex = Options(in.Options, correct)
	if len(f.Options) < MinOptions {
		return f, MsgMinOptions
	}
	if len(f.Options) > MaxOptions {
		return f, MsgMaxOptions
	}
	if msg := optionsProblem(f.Options); msg != "" {
		return f, msg
	}
	if f.CorrectIndex < 0 {
		return f, MsgCorrectIndex
	}
	return normalizeRest(f, defTopic, defCategory)
}

// normalizeRest validates and defaults the fields every question type has.
func normalizeRest(f QuestionFields, defTopic, defCategory string) (QuestionFields, string) {
	switch f.Difficulty {
	case "":
		f.Difficulty = DefaultDifficulty
	case "easy", "medium", "hard":
	default:
		return f, MsgDifficulty
	}
	if f.Topic == "" {
		f.Topic = defTopic
	}
	if f.Category == "" {
		f.Category = defCategory
	}
	switch {
	case input.TooLong(f.Explanation, MaxExplanation):
		return f, MsgExplanationLen
	case input.TooLong(f.Topic, MaxTopic):
		return f, MsgTopicLong
	case input.TooLong(f.Category, MaxCategory):
		return f, MsgCategoryLong
	}
	return f, ""
}

// optionsProblem is the message for kept options that are too long or repeat one another
// (case-insensitive), or "" when they are fine; both item types share the rule.
func optionsProblem(options []string) string {
	seen := map[string]bool{}
	for _, o := range options {
		if input.TooLong(o, MaxOption) {
			return MsgOptionLong
		}
		k := strings.ToLower(o)
		if seen[k] {
			return MsgDuplicateOpts
		}
		seen[k] = true
	}
	return ""
}
