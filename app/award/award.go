// Package award lets an admin award a badge directly to an e-mail address, whether or not
// it has an account (issue 15 item 6; 1EdTech's issuer certification asks for issuing to an
// arbitrary address). The person gets a single-use claim link by mail (only the token's
// SHA-256 is stored); the credential is issued to them when they open the link signed in
// with that address and claim it.
package award

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/web"
)

// TTL is how long a claim link works.
const TTL = 30 * 24 * time.Hour

// MaxNote is the longest personal note.
const MaxNote = 500

// Messages.
const (
	MsgEmailInvalid   = "Please enter a valid e-mail address."
	MsgBadgeRequired  = "Please choose a badge to award."
	MsgBadgeNotFound  = "Badge not found."
	MsgNoteTooLong    = "The note must be at most 500 characters."
	MsgAlreadyHolds   = "This address already holds this badge."
	MsgSent           = "Award sent. The recipient can claim the badge with the link in the e-mail."
	MsgLinkInvalid    = "This claim link is not valid."
	MsgLinkUsed       = "This award has already been claimed."
	MsgLinkExpired    = "This claim link has expired. Ask the issuer to send the award again."
	MsgWrongAccount   = "This award was sent to a different e-mail address. Sign in with that address to claim it."
	MsgYouAlreadyHold = "You already hold this badge."
	MsgClaimed        = "Badge claimed! It is now on your profile."
	MsgConfirmFirst   = "Please confirm your e-mail address first (use the link we sent you, or send a new one from your profile), then claim the badge."
	MsgWithdrawn      = "This award has been withdrawn by the issuer."
	MsgBadgeInactive  = "This badge is a draft (inactive). Activate it before awarding it."
	MsgBadgeNoQuiz    = "This skill badge has no usable quiz yet (an active quiz with questions). Finish it before awarding it."
)

// Award is a badge awarded to an address (badge_awards).
type Award struct {
	bun.BaseModel `bun:"table:badge_awards"`

	ID        string     `bun:"id,pk"`
	BadgeID   string     `bun:"badge_id"`
	Email     string     `bun:"email"`
	TokenHash string     `bun:"token_hash"`
	Note      string     `bun:"note"`
	CreatedBy *string    `bun:"created_by"`
	CreatedAt time.Time  `bun:"created_at"`
	ExpiresAt time.Time  `bun:"expires_at"`
	ClaimedAt *time.Time `bun:"claimed_at"`
	ClaimedBy *string    `bun:"claimed_by"`
	GrantID   *string    `bun:"grant_id"`

	Name           string     `bun:"name"`             // the recipient's name ("" = unknown)
	GrantExpiresAt *time.Time `bun:"grant_expires_at"` // the credential's expiry (nil: the badge's validity)
	BatchID        *string    `bun:"batch_id"`         // the CSV upload it came from
	SentCount      int        `bun:"sent_count"`
	LastSentAt     *time.Time `bun:"last_sent_at"`
	WithdrawnAt    *time.Time `bun:"withdrawn_at"` // the claim link stopped working then
	WithdrawnBy    *string    `bun:"withdrawn_by"`
}

// NewToken is a claim token: 256 random bits, base64url.
func NewToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// HashToken is what is stored for a token.
func HashToken(tok string) string {
	h := sha256.Sum256([]byte(tok))
	return hex.EncodeToString(h[:])
}

// ValidToken reports a token's shape (43 base64url characters).
func ValidToken(tok string) bool {
	if len(tok) != 43 {
		return false
	}
	_, err := base64.RawURLEncoding.DecodeString(tok)
	return err == nil
}

// ClaimURL is the link mailed to the recipient.
func ClaimURL(origin, tok string) string { return strings.TrimRight(origin, "/") + "/claim/" + tok }

// CleanNote collapses a note's white space; ok is false when it is too long.
func CleanNote(s string) (string, bool) {
	s = strings.Join(strings.Fields(s), " ")
	return s, len([]rune(s)) <= MaxNote
}

// Mail is the award mail with the claim link.
func Mail(to, name, badgeName, note, link string, expires time.Time) mail.Letter {
	ps := []mail.Paragraph{{Text: fmt.Sprintf("%s has awarded you the %s badge.", web.SiteName, badgeName)}}
	if note != "" {
		ps = append(ps, mail.Paragraph{Text: "A note from the issuer: " + note})
	}
	ps = append(ps, mail.Paragraph{Text: "Sign in or create an account with " + to + " to claim it."})
	return mail.Letter{To: to, Subject: fmt.Sprintf("You have been awarded the %s badge", badgeName), Greeting: greeting(name), Paragraphs: ps,
		Action:  &mail.Link{Label: "Claim your badge", URL: link},
		Small:   []string{"The link works once and until " + expires.UTC().Format("Jan 2, 2006") + ". If you did not expect this, you can ignore this message."},
		SignOff: "The " + web.SiteName + " team"}
}

func greeting(name string) string {
	if name == "" {
		return "Hello,"
	}
	return "Hello " + name + ","
}
