package quiz

import (
	"context"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/db"
)

// Quiz page states that replace the start screen: the member has nothing to take.
const (
	PageOwned   = "owned"   // holds the badge, not yet renewable: 'Badge Already Owned'
	PagePayment = "payment" // the application awaits payment: pay, not retake
	PagePending = "pending" // the application is being reviewed
)

// PageState is what the quiz screen knows before it loads the quiz: whether the member
// may take it at all (Blocked, with the spec's words and the next step), a passed attempt
// waiting for its application (then 'Continue application' and a retake that asks
// first), and whether taking it renews a badge the member holds.
type PageState struct {
	Blocked      string `json:"blocked"` // "" or a Page* state
	Title        string `json:"title"`
	Message      string `json:"message"`
	NextHref     string `json:"nextHref"`
	NextLabel    string `json:"nextLabel"`
	ContinueHref string `json:"continueHref"` // a passed attempt no application used yet
	// Renewal: the member's badge is expiring or expired: this attempt renews it.
	Renewal      bool   `json:"renewal"`
	RenewalLabel string `json:"renewalLabel"` // the badge's state, e.g. "Expired on Nov 1, 2026"
	RenewalNeeds string `json:"renewalNeeds"`
}

// MsgPaymentDue is the quiz page's word while the application awaits payment.
const MsgPaymentDue = "You passed the quiz and your application is saved. Complete the payment to send it for review; there is nothing to retake."

// StateForPage computes the quiz page's state for userID and badge b at now.
func StateForPage(ctx context.Context, d bun.IDB, userID string, b *model.Badge, now time.Time) (PageState, error) {
	var p PageState
	var gs []grant.Entry
	if err := d.NewSelect().Model((*model.BadgeGrant)(nil)).
		Column("id", "badge_id", "granted_at", "expires_at", "revoked_at", "previous_grant_id").
		Where("user_id = ? AND badge_id = ?", userID, b.ID).Scan(ctx, &gs); err != nil {
		return p, err
	}
	_, st := grant.Current(gs, now)
	var app model.Application
	err := d.NewSelect().Model(&app).Where("user_id = ? AND badge_id = ?", userID, b.ID).
		Where("status IN (?)", bun.List([]string{model.StatusPending, model.StatusAwaitingPayment})).
		OrderExpr("created_at DESC").Limit(1).Scan(ctx)
	open := err == nil
	if err != nil && !db.IsNoRows(err) {
		return p, err
	}
	switch {
	case open && app.Status == model.StatusAwaitingPayment:
		p.Blocked, p.Title, p.Message = PagePayment, "Payment due", MsgPaymentDue
		p.NextHref, p.NextLabel = "/payment/"+b.ID, "Continue Payment"
		return p, nil
	case open:
		p.Blocked, p.Title, p.Message = PagePending, "Application in review", MsgApplicationOpen
		p.NextHref, p.NextLabel = "/badges/"+b.ID, "View badge"
		return p, nil
	case st.Held && !st.CanRenew:
		p.Blocked, p.Title, p.Message = PageOwned, "Badge Already Owned", MsgAlreadyOwned
		p.NextHref, p.NextLabel = "/badges/"+b.ID, "View your badge"
		return p, nil
	}
	if st.CanRenew {
		p.Renewal, p.RenewalLabel, p.RenewalNeeds = true, st.Label, grant.RenewalNeeds(b.Type)
	}
	if _, err := PassingAttempt(ctx, d, userID, b.ID); err == nil {
		p.ContinueHref = "/resume-upload/" + b.ID
	} else if !errors.Is(err, ErrNoPassingAttempt) {
		return p, err
	}
	return p, nil
}
