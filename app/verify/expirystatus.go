package verify

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Expiry in the status lists (issue 15, issue 36).
//
// A credential carries its expiry (validUntil, exp) in what was signed, so an expiry set or
// brought forward after issue never reaches the copies already downloaded: they still say
// "valid until 2030", or nothing. Since issue 36 every credential names two Bitstring
// Status Lists: "revocation" (final: credential_revocations) and "suspension" (reversible).
// Such an expiry reaches the downloaded copies through the suspension list: the bit at the
// credential's index is on when
//
//	the grant is not revoked, AND
//	its expiry was set or brought forward after the credential was first signed
//	(badge_grants.expiry_in_status, set by SetExpiry) AND that expiry has passed.
//
// An expiry the credential was issued with is left to validUntil/exp, and the revocation
// bit never says "expired": clearing or extending the expiry turns the suspension bit off
// again, which a revocation bit never does. The credential re-signed by SetExpiry (its
// refreshService URL answers it) carries the new validUntil, so verifiers report it expired.
// Copies issued before issue 36 name only the revocation list (or, VC-JWTs, the 1EdTech
// list): a later expiry does not reach them; they are refreshed from the credential's URL.
// Our own verify page and API read the grant, not the lists ("Expired on …").
//
// The suspension list depends on the clock: each request computes the set at now, the
// signed list is cached under that set, and the BitstringStatusListCredential carries
// validUntil = the next moment a bit turns on, so a verifier holding a copy of the list past
// that moment fetches it again instead of trusting a stale one.

// suspendedAt restricts a select on badge_grants to the grants suspended at now.
func suspendedAt(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return q.Where("revoked_at IS NULL AND expiry_in_status = ? AND expires_at <= ?", true, now.UTC())
}

// nextStatusChange is the next moment after now when a bit turns on by expiry (nil when
// none is pending).
func nextStatusChange(ctx context.Context, d bun.IDB, now time.Time) (*time.Time, error) {
	var next []time.Time
	if err := d.NewSelect().Model((*model.BadgeGrant)(nil)).Column("expires_at").
		Where("expiry_in_status = ? AND revoked_at IS NULL AND expires_at > ?", true, now.UTC()).
		OrderExpr("expires_at").Limit(1).Scan(ctx, &next); err != nil {
		return nil, err
	}
	if len(next) == 0 {
		return nil, nil
	}
	// validUntil is written in whole seconds: round up, so the list is never refused
	// before it changes
	t := next[0].UTC()
	if r := t.Truncate(time.Second); !r.Equal(t) {
		t = r.Add(time.Second)
	}
	return &t, nil
}

func timestampOrEmpty(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}
