package payment

import (
	"context"
	"time"

	"meritmark/app/model"
)

// Page states of /payment/:badgeId.
const (
	PageReady         = "ready"          // an application awaits payment
	PageProcessing    = "processing"     // PayPal is still processing a capture
	PageNoApplication = "no-application" // nothing to pay: apply first
	PageInReview      = "in-review"      // paid (or free): waiting for review
	PageApproved      = "approved"       // the badge was granted
	PageRejected      = "rejected"       // the last application was rejected
	PageNotFound      = "not-found"      // no such badge
)

// PageData is what the payment page needs.
type PageData struct {
	State             string     `json:"state"`
	Badge             *BadgeView `json:"badge"`
	ApplicationID     string     `json:"applicationId"`
	ApplicationStatus string     `json:"applicationStatus"`
	AppliedAt         *time.Time `json:"appliedAt"`
	Quote             *QuoteView `json:"quote"`
	LastPayment       *Result    `json:"lastPayment"`
}

// Page works out the payment page's state for the user and badge.
func (s *Service) Page(ctx context.Context, u *model.User, badgeID string) (*PageData, error) {
	d := &PageData{State: PageNotFound}
	if !model.ValidID(badgeID) {
		return d, nil
	}
	b, err := badgeByID(ctx, s.DB, badgeID)
	if notFound(err) {
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	d.Badge = badgeView(b)
	app, err := latestApplication(ctx, s.DB, u.ID, b.ID)
	if err != nil {
		return nil, err
	}
	if app == nil {
		d.State = PageNoApplication
		return d, nil
	}
	d.ApplicationID, d.ApplicationStatus, d.AppliedAt = app.ID, app.Status, &app.CreatedAt
	if p, err := latestPayment(ctx, s.DB, app.ID); err != nil {
		return nil, err
	} else if p != nil {
		if d.LastPayment, err = s.result(ctx, p, ""); err != nil {
			return nil, err
		}
	}
	switch app.Status {
	case model.StatusAwaitingPayment:
		d.State = PageReady
		if d.LastPayment != nil && d.LastPayment.Status == model.PaymentPending {
			d.State = PageProcessing
		}
		charged := *b
		charged.PriceCents = app.PriceCents
		q, err := Price(&charged, nil, s.now())
		if err != nil {
			return nil, err
		}
		v := q.View()
		d.Quote = &v
	case model.StatusPending:
		d.State = PageInReview
	case model.StatusApproved:
		d.State = PageApproved
	case model.StatusRejected:
		d.State = PageRejected
	}
	return d, nil
}
