package admin

import (
	"context"
)

// PaymentList is the answer of GET /admin/payments.
type PaymentList struct {
	Payments []PaymentJSON `json:"payments"`
	PageInfo
}

// ListPayments pages the payments (status "" = all) matching search.
func (s *Service) ListPayments(ctx context.Context, status, search string, pg Page) (*PaymentList, error) {
	ps, total, err := s.st.payments(ctx, s.DB, status, search, pg)
	if err != nil {
		return nil, err
	}
	var userIDs, badgeIDs []string
	for _, p := range ps {
		userIDs = append(userIDs, p.UserID)
		badgeIDs = append(badgeIDs, p.BadgeID)
	}
	users, err := s.st.usersByID(ctx, s.DB, userIDs)
	if err != nil {
		return nil, err
	}
	badges, err := s.st.badgesByID(ctx, s.DB, badgeIDs)
	if err != nil {
		return nil, err
	}
	out := &PaymentList{Payments: make([]PaymentJSON, 0, len(ps)), PageInfo: pg.Info(total)}
	for i := range ps {
		p := &ps[i]
		j := PaymentJSON{PaymentRef: *paymentRef(p), ApplicationID: p.ApplicationID}
		if u := users[p.UserID]; u != nil {
			j.User = &Ref{ID: u.ID, Name: u.Name, Email: u.Email}
		}
		if b := badges[p.BadgeID]; b != nil {
			j.Badge = &BadgeRef{ID: b.ID, Name: b.Name, Type: b.Type, Price: dollars(b.PriceCents), Category: b.Category, Level: b.Level}
		}
		out.Payments = append(out.Payments, j)
	}
	return out, nil
}
