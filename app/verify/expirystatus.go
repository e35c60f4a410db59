package verify

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Expiry in the status lists (issue 15).
//
// A credential carries its expiry (validUntil, exp) in what was signed, so an expiry set or
// brought forward after issue never reaches the copies already downloaded: they still say
// "valid until 2030", or nothing. The OB 3.0 JSON schema allows one credentialStatus
// object only, so a second entry (a "suspension" list next to the "revocation" one) cannot
// be added; and copies downloaded before this change point at the revocation list anyway.
// The libraries we checked read the revocation list as follows: @digitalbazaar/
// vc-bitstring-status-list and @digitalcredentials/vc-bitstring-status-list (behind the
// DCC's verifier-core, Learner Credential Wallet and VerifierPlus) require the entry's
// statusPurpose to equal the list's, report the bit as the status, and verifier-core logs
// it as "revocation_status" (it has no notion of an expiry coming from the status).
//
// So the one list a credential names carries the expiry: the status bit (in the signed
// BitstringStatusListCredential at /credentials/status/revocation, and the entry in the
// 1EdTech Revocation List at /credentials/status that the VC-JWT names) is on when
//
//	the grant is revoked, OR
//	its expiry was set or brought forward after the credential was first signed
//	(badge_grants.expiry_in_status, set by SetExpiry) AND that expiry has passed.
//
// An expiry the credential was issued with is left to validUntil/exp (the bit stays off,
// so an ordinary expiry is never reported as a revocation by outside verifiers). Clearing or
// extending the expiry turns the bit off again. Our own verify page and API read the grant,
// not the list, so they keep saying "Expired on …" (revoked wins only when it is revoked).
//
// The lists depend on the clock: each request computes the set at now, the signed list is
// cached under that set, and the BitstringStatusListCredential carries validUntil = the next
// moment a bit turns on, so a verifier holding a copy of the list past that moment fetches
// it again instead of trusting a stale one.

// statusOn restricts a select on badge_grants to the grants whose status bit is on at now.
func statusOn(q *bun.SelectQuery, now time.Time) *bun.SelectQuery {
	return q.Where("(revoked_at IS NOT NULL OR (expiry_in_status = ? AND expires_at <= ?))", true, now.UTC())
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
