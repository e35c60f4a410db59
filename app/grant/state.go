package grant

import (
	"context"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// A grant's state as its holder and everyone else sees it (the badge page, /profile, the
// public profile): computed here once, never in a view.
const (
	StateValid    = "valid"    // in force: no expiry, or more than RenewalWindow left
	StateExpiring = "expiring" // in force, expires within RenewalWindow: renewable
	StateExpired  = "expired"  // its expiry passed: renewable
	StateRevoked  = "revoked"  // withdrawn by the issuer
	StateRenewed  = "renewed"  // replaced by a newer grant of the same badge
)

// Facts are what a grant's state is computed from.
type Facts struct {
	ExpiresAt *time.Time
	RevokedAt *time.Time
	// RenewedAt: when a newer, unrevoked grant renewing this one was made (nil: never).
	RenewedAt *time.Time
	// Renews: this grant renews an earlier one (previous_grant_id is set).
	Renews    bool
	GrantedAt time.Time
}

// Standing is a grant's state with its wording.
type Standing struct {
	State     string     `json:"state"`
	Label     string     `json:"label"` // e.g. "Valid until Mar 3, 2027", "Expired on Nov 1, 2026"
	ExpiresAt *time.Time `json:"expiresAt"`
	DaysLeft  int        `json:"daysLeft"` // whole days to the expiry, rounded up (0: none or passed)
	// Held: the badge counts as the holder's (valid or expiring): the one rule behind every
	// count (the profile, the public profile, the Hall of Fame's SQL says the same).
	Held bool `json:"held"`
	// CanRenew: expiring or expired (never revoked, never already renewed).
	CanRenew bool `json:"canRenew"`
	// RenewedOn: this grant is itself a renewal, made on this date (nil: first issue).
	RenewedOn *time.Time `json:"renewedOn"`
}

// DateText is how a state names a date (UTC, as views/lib/format.ts date does).
func DateText(t time.Time) string { return t.UTC().Format("Jan 2, 2006") }

// StandingOf is the state of a grant with facts f at now.
func StandingOf(f Facts, now time.Time) Standing {
	s := Standing{ExpiresAt: utc(f.ExpiresAt)}
	if f.Renews {
		on := f.GrantedAt.UTC()
		s.RenewedOn = &on
	}
	switch {
	case f.RevokedAt != nil:
		s.State, s.Label = StateRevoked, "Revoked on "+DateText(*f.RevokedAt)
	case f.RenewedAt != nil:
		s.State, s.Label = StateRenewed, "Renewed on "+DateText(*f.RenewedAt)
	case f.ExpiresAt == nil:
		s.State, s.Label, s.Held = StateValid, "Valid, no expiry date", true
	case !f.ExpiresAt.After(now):
		s.State, s.Label, s.CanRenew = StateExpired, "Expired on "+DateText(*f.ExpiresAt), true
	default:
		s.DaysLeft = daysLeft(now, *f.ExpiresAt)
		s.Held = true
		if f.ExpiresAt.Sub(now) <= RenewalWindow {
			s.State, s.CanRenew = StateExpiring, true
			s.Label = fmt.Sprintf("Expiring soon: valid until %s (%s left)", DateText(*f.ExpiresAt), days(s.DaysLeft))
		} else {
			s.State, s.Label = StateValid, "Valid until "+DateText(*f.ExpiresAt)
		}
	}
	return s
}

func daysLeft(now, exp time.Time) int {
	const day = 24 * time.Hour
	d := int((exp.Sub(now) + day - 1) / day)
	return max(d, 1)
}

func days(n int) string {
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}

// RenewPath is where a holder renews a badge of badgeType: a skill badge retakes the
// assessment; a proof badge re-uploads current proof documents.
func RenewPath(badgeType, badgeID string) string {
	if badgeType == model.TypeSkill {
		return "/quiz/" + badgeID
	}
	return "/proof-upload/" + badgeID
}

// RenewalNeeds says, in one sentence used by the mail, the renewal pages and the README,
// what renewing a badge of badgeType takes.
func RenewalNeeds(badgeType string) string {
	if badgeType == model.TypeSkill {
		return "Renewing takes the assessment again (the quiz's retake rules apply) and the badge's current fee; the resume and profile picture already on file are used again, so you are not asked for them"
	}
	return "Renewing takes current proof of your work (documents or a portfolio link) and the badge's current fee; the resume already on file is used again, so you are not asked for it"
}

// Entry is one of a holder's grants with what its state needs.
type Entry struct {
	ID              string
	BadgeID         string
	GrantedAt       time.Time
	ExpiresAt       *time.Time
	RevokedAt       *time.Time
	PreviousGrantID *string
}

// Current picks, from one holder's grants of one badge, the grant that stands for the
// badge (the latest unrevoked one, else the latest revoked one; -1 for none) and its
// state: a renewed badge is one badge.
func Current(gs []Entry, now time.Time) (int, Standing) {
	best := -1
	for i := range gs {
		if best < 0 || better(&gs[i], &gs[best]) {
			best = i
		}
	}
	if best < 0 {
		return -1, Standing{}
	}
	g := &gs[best]
	return best, StandingOf(Facts{ExpiresAt: g.ExpiresAt, RevokedAt: g.RevokedAt, GrantedAt: g.GrantedAt, Renews: g.PreviousGrantID != nil}, now)
}

func better(a, b *Entry) bool {
	if (a.RevokedAt == nil) != (b.RevokedAt == nil) {
		return a.RevokedAt == nil
	}
	if !a.GrantedAt.Equal(b.GrantedAt) {
		return a.GrantedAt.After(b.GrantedAt)
	}
	return a.ID > b.ID
}

// Renewal is what a page of an application's steps (payment, its result) says when the
// application renews the member's badge.
type Renewal struct {
	Label string `json:"label"` // the badge's state now, e.g. "Expired on Nov 1, 2026"
	Needs string `json:"needs"` // RenewalNeeds
}

// RenewalFor is the renewal an application by userID for badge badgeID (of badgeType)
// makes now: the member's badge is expiring or expired (nil when it is not a renewal).
func RenewalFor(ctx context.Context, d bun.IDB, userID, badgeID, badgeType string, now time.Time) (*Renewal, error) {
	var gs []Entry
	if err := d.NewSelect().Model((*model.BadgeGrant)(nil)).
		Column("id", "badge_id", "granted_at", "expires_at", "revoked_at", "previous_grant_id").
		Where("user_id = ? AND badge_id = ?", userID, badgeID).Scan(ctx, &gs); err != nil {
		return nil, err
	}
	if _, st := Current(gs, now); st.CanRenew {
		return &Renewal{Label: st.Label, Needs: RenewalNeeds(badgeType)}, nil
	}
	return nil, nil
}
