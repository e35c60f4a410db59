// Package angoff runs modified-Angoff standard setting for a quiz (issue 35 item 2): an
// administrator opens a panel and gets one single-use link per expert (no account; only
// the token's SHA-256 is stored, as for direct awards). Each expert rates, for every item
// in the quiz's pool, the chance (0 to 100, or skip) that a minimally competent candidate
// answers it right, can save and come back, and submits once. The administrator sees the
// raters' progress and the recommended cut (app/measure AngoffCut: the mean over raters
// of their mean rating, its SD across raters and standard error) and adopts it as the
// pass mark, which then names its method (quizzes.pass_mark_method), or keeps the fixed
// percentage.
package angoff

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/mail"
	"meritmark/app/web"
)

// Limits.
const (
	MaxRaters  = 30
	MaxNameLen = 100
)

// Messages.
const (
	MsgQuizNotFound  = "Quiz not found"
	MsgRaterCount    = "A panel needs between 1 and 30 raters."
	MsgRaterName     = "Each rater needs a name of at most 100 characters."
	MsgRaterTwice    = "The panel names the rater %q twice."
	MsgRaterEmail    = "Please enter a valid e-mail address for %q, or leave it empty."
	MsgEmptyPool     = "This quiz has no active questions to rate yet."
	MsgOpened        = "Panel opened. Send each rater their link: the links are shown only now."
	MsgNoPanel       = "This quiz has no standard-setting panel yet."
	MsgDecided       = "This panel's decision has already been taken. Open a new panel to set the pass mark again."
	MsgNotEnough     = "Not enough ratings yet."
	MsgCutOutOfRange = "The recommended cut rounds to %d%%; a pass mark must be between 1 and 100."
	MsgAdopted       = "Pass mark set to %d%% (%s)."
	MsgKeptFixed     = "The pass mark stays at %d%%, a fixed percentage set by the administrator."
	MsgLinkInvalid   = "This rating link is not valid, or its panel has closed."
	MsgLinkSpent     = "These ratings have already been submitted. Thank you!"
	MsgRating        = "Each rating must be a number from 0 to 100, or null to skip the item."
	MsgUnknownItem   = "The ratings name an item that is not in this quiz's pool."
	MsgIncomplete    = "Rate or skip every item before you submit (%d left)."
	MsgSaved         = "Ratings saved. You can come back to this link to finish."
	MsgSubmitted     = "Thank you! Your ratings are submitted."
	MsgTooMany       = "Too many requests; try again in a minute."
)

// Panel is a standard-setting panel (angoff_panels).
type Panel struct {
	bun.BaseModel `bun:"table:angoff_panels"`

	ID        string     `bun:"id,pk"`
	QuizID    string     `bun:"quiz_id"`
	CreatedBy *string    `bun:"created_by"`
	CreatedAt time.Time  `bun:"created_at"`
	ClosedAt  *time.Time `bun:"closed_at"`
	AdoptedAt *time.Time `bun:"adopted_at"`
}

// Rater is one expert of a panel (angoff_raters).
type Rater struct {
	bun.BaseModel `bun:"table:angoff_raters"`

	ID          string     `bun:"id,pk"`
	PanelID     string     `bun:"panel_id"`
	Position    int        `bun:"position"`
	Name        string     `bun:"name"`
	Email       *string    `bun:"email"`
	TokenHash   string     `bun:"token_hash"`
	StartedAt   *time.Time `bun:"started_at"`
	SubmittedAt *time.Time `bun:"submitted_at"`
}

// Rating is a rater's estimate for one item (angoff_ratings); Value nil is a skip.
type Rating struct {
	bun.BaseModel `bun:"table:angoff_ratings"`

	RaterID    string    `bun:"rater_id,pk"`
	QuestionID string    `bun:"question_id,pk"`
	Value      *float64  `bun:"value"`
	UpdatedAt  time.Time `bun:"updated_at"`
}

// RaterInput is one rater of POST /admin/quizzes/{id}/angoff.
type RaterInput struct {
	Name  string `json:"name"`
	Email string `json:"email"`
}

// CleanRaters checks and normalizes a panel's raters (names trimmed and unique in any
// case, addresses lower-cased); msg says what is wrong.
func CleanRaters(in []RaterInput) ([]RaterInput, string) {
	if len(in) < 1 || len(in) > MaxRaters {
		return nil, MsgRaterCount
	}
	seen := map[string]bool{}
	out := make([]RaterInput, len(in))
	for i, r := range in {
		name := strings.Join(strings.Fields(r.Name), " ")
		if name == "" || len([]rune(name)) > MaxNameLen {
			return nil, MsgRaterName
		}
		if seen[strings.ToLower(name)] {
			return nil, fmt.Sprintf(MsgRaterTwice, name)
		}
		seen[strings.ToLower(name)] = true
		email := auth.NormalizeEmail(r.Email)
		if email != "" && !auth.ValidEmail(email) {
			return nil, fmt.Sprintf(MsgRaterEmail, name)
		}
		out[i] = RaterInput{Name: name, Email: email}
	}
	return out, ""
}

// ValidRating reports whether v is a rating (0 to 100).
func ValidRating(v float64) bool { return !math.IsNaN(v) && v >= 0 && v <= 100 }

// RateURL is a rater's link.
func RateURL(origin, tok string) string { return strings.TrimRight(origin, "/") + "/angoff/" + tok }

// Mail is the invitation a rater with an address gets.
func Mail(to, name, quizTitle, badgeName, link string, items int) mail.Letter {
	return mail.Letter{To: to, Subject: "Your ratings for the " + badgeName + " pass mark",
		Greeting: "Hello " + name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: fmt.Sprintf("%s is setting the pass mark of the %s quiz (%s badge) with a panel of experts, and you are on it.", web.SiteName, quizTitle, badgeName)},
			{Text: fmt.Sprintf("For each of the %d questions in the pool, estimate the chance (0 to 100) that a minimally competent candidate, someone who just deserves the badge, answers it right. You can skip a question, save and come back before you submit.", items)},
		},
		Action:  &mail.Link{Label: "Rate the questions", URL: link},
		Small:   []string{"The link is yours alone and works until you submit or the panel closes. Please do not share it or the questions."},
		SignOff: "The " + web.SiteName + " team"}
}

// round2 rounds to two decimals (nil stays nil).
func round2(x *float64) *float64 {
	if x == nil {
		return nil
	}
	v := math.Round(*x*100) / 100
	return &v
}
