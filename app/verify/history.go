package verify

import (
	"context"
	"time"

	"meritmark/db"
)

// HistoryItem is one credential in a renewal chain (a renewed grant links to the one it
// renews through previous_grant_id).
type HistoryItem struct {
	VerifyPath string     `json:"verifyPath"` // /verify/{publicVerificationId}
	IssuedAt   time.Time  `json:"issuedAt"`
	ExpiresAt  *time.Time `json:"expiresAt"`
	Status     string     `json:"status"`
	Current    bool       `json:"current"` // the credential being looked at
}

type historyRow struct {
	ID                   string     `bun:"id"`
	PreviousGrantID      *string    `bun:"previous_grant_id"`
	PublicVerificationID string     `bun:"public_verification_id"`
	GrantedAt            time.Time  `bun:"granted_at"`
	ExpiresAt            *time.Time `bun:"expires_at"`
	RevokedAt            *time.Time `bun:"revoked_at"`
}

const maxHistory = 20

// History is the renewal chain of the grant with public id pvid, newest first, or nil when
// the grant was never renewed and renews nothing.
func (s *Service) History(ctx context.Context, pvid string) ([]HistoryItem, error) {
	var cur historyRow
	q := `SELECT id, previous_grant_id, public_verification_id, granted_at, expires_at, revoked_at FROM badge_grants WHERE `
	if err := s.DB.NewRaw(q+"public_verification_id = ?", pvid).Scan(ctx, &cur); err != nil {
		if db.IsNoRows(err) {
			return nil, nil
		}
		return nil, err
	}
	chain := []historyRow{cur}
	// newer: the grants that renew this one, and so on
	for id := cur.ID; len(chain) < maxHistory; {
		var next historyRow
		err := s.DB.NewRaw(q+"previous_grant_id = ? ORDER BY granted_at DESC LIMIT 1", id).Scan(ctx, &next)
		if db.IsNoRows(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		chain = append([]historyRow{next}, chain...)
		id = next.ID
	}
	// older: the grants this one renews
	for prev := cur.PreviousGrantID; prev != nil && len(chain) < maxHistory; {
		var p historyRow
		err := s.DB.NewRaw(q+"id = ?", *prev).Scan(ctx, &p)
		if db.IsNoRows(err) {
			break
		}
		if err != nil {
			return nil, err
		}
		chain = append(chain, p)
		prev = p.PreviousGrantID
	}
	if len(chain) < 2 {
		return nil, nil
	}
	now := s.now()
	out := make([]HistoryItem, len(chain))
	for i, r := range chain {
		rec := record{ExpiresAt: r.ExpiresAt, RevokedAt: r.RevokedAt}
		out[i] = HistoryItem{VerifyPath: "/verify/" + r.PublicVerificationID, IssuedAt: r.GrantedAt.UTC(), ExpiresAt: utc(r.ExpiresAt),
			Status: rec.statusAt(now), Current: r.ID == cur.ID}
	}
	return out, nil
}
