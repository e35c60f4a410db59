package auth

import (
	"context"
	"time"

	"meritmark/app/model"
	"meritmark/db"
)

// forgotAllowed counts a password-reset request for email and answers the account it is
// for (nil when there is none), or the limit it is over.
//
// Each client address may ask 10 times an hour. Requests for one account are counted in
// two ways: those from a device (cookie) or network that signed in to the account before
// (see trust) count against that device or network only, 3 an hour; every other request
// counts against the email address, 3 an hour. So three requests from three strangers'
// addresses use up the email's count, but cannot stop the owner asking for a link from
// their own laptop or home network.
//
// Unknown addresses go through the same counts (an unknown account has no known device),
// so the answers do not tell which addresses have accounts.
func (s *Service) forgotAllowed(ctx context.Context, email string, cl Client, now time.Time) (*model.User, error) {
	if err := s.check(ctx, keyed{forgotPerIP, cl.IP}); err != nil {
		return nil, err
	}
	var u model.User
	found := true
	if err := s.DB.NewSelect().Model(&u).Where("email = ?", email).Scan(ctx); err != nil {
		if !db.IsNoRows(err) {
			return nil, err
		}
		found = false
	}
	trusted := ""
	if found {
		id, err := s.trust(ctx, &u, cl, now)
		if err != nil {
			return nil, err
		}
		trusted = id
	}
	count := keyed{forgotPerEmail, email}
	if trusted != "" {
		count = keyed{forgotTrusted, trusted}
	}
	if err := s.check(ctx, count); err != nil {
		return nil, err
	}
	if !found {
		return nil, nil
	}
	return &u, nil
}
