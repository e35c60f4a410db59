// Package renewal handles badges that expire: the reminders mailed to holders 30 and 7
// days before a grant expires (each with the way to renew: a new quiz attempt under the
// quiz's retake rules for a skill badge, a short re-application for a proof badge), and
// the expiry itself (the holder's Hall of Fame entry stops counting the badge).
//
// A background sweep does the work on every instance. Each (grant, kind) is claimed by
// inserting its row in expiry_notices in the same transaction that queues the mail, so a
// reminder is sent exactly once however many instances sweep at the same time.
package renewal

import (
	"fmt"
	"strings"
	"time"

	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/web"
)

// Kinds of notice.
const (
	Remind30 = "remind30" // mailed when a grant has 30 days or less left (and more than 7)
	Remind7  = "remind7"  // mailed when a grant has 7 days or less left
	Expired  = "expired"  // the grant expired: the holder's Hall of Fame entry is refreshed
)

const day = 24 * time.Hour

// Window is the part of a grant's life in which a notice is due: expires_at in (From, To]
// relative to now (Expired: any time up to now).
type Window struct {
	Kind     string
	From, To time.Duration
}

// Windows lists the notices in the order the sweep handles them.
var Windows = []Window{
	{Kind: Remind7, From: 0, To: 7 * day},
	{Kind: Remind30, From: 7 * day, To: 30 * day},
}

// KindFor is the notice due for a grant expiring at exp, seen at now ("" = none): the
// reminder of the window exp falls in, or Expired once it passed.
func KindFor(now, exp time.Time) string {
	left := exp.Sub(now)
	if left <= 0 {
		return Expired
	}
	for _, w := range Windows {
		if left > w.From && left <= w.To {
			return w.Kind
		}
	}
	return ""
}

// DaysLeft rounds the time left up to whole days (a reminder never says "0 days").
func DaysLeft(now, exp time.Time) int {
	d := int((exp.Sub(now) + day - 1) / day)
	if d < 1 {
		d = 1
	}
	return d
}

// Notice is what a reminder is built from.
type Notice struct {
	Name, Email          string
	BadgeID, BadgeName   string
	BadgeType            string
	ExpiresAt            time.Time
	PublicVerificationID string
	Origin               string
	Now                  time.Time
}

// RenewPath is where the holder renews: a new quiz attempt or a re-application
// (grant.RenewPath, which the badge page and the profile use too).
func RenewPath(badgeType, badgeID string) string { return grant.RenewPath(badgeType, badgeID) }

// Mail is the reminder.
func Mail(n Notice) mail.Letter {
	days := DaysLeft(n.Now, n.ExpiresAt)
	when := "in " + plural(days, "day")
	origin := strings.TrimRight(n.Origin, "/")
	how := grant.RenewalNeeds(n.BadgeType) // the renewal pages and the README say the same
	date := n.ExpiresAt.UTC().Format("Jan 2, 2006")
	return mail.Letter{To: n.Email, Subject: fmt.Sprintf("Your %s badge expires %s", n.BadgeName, when), Greeting: "Hi " + n.Name + ",",
		Paragraphs: []mail.Paragraph{
			{Text: fmt.Sprintf("Your %s badge expires %s, on %s. After that, verifiers will see it as expired.", n.BadgeName, when, date)},
			{Text: how + ".", Links: []mail.Link{{Label: "Renew your badge", URL: origin + RenewPath(n.BadgeType, n.BadgeID)}}},
			{Text: "Once renewed, you get a new credential that links to this one, so your history stays verifiable.",
				Links: []mail.Link{{Label: "Your current credential", URL: origin + "/verify/" + n.PublicVerificationID}}}},
		SignOff: "The " + web.SiteName + " team"}
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}
