package oid4vci

import (
	"context"
	"time"

	"github.com/uptrace/bun"
)

// OfferRow is one "Add to wallet" offer.
type OfferRow struct {
	bun.BaseModel `bun:"table:wallet_offers"`

	ID             string     `bun:"id,pk"` // also the VC API exchange id
	GrantID        string     `bun:"grant_id"`
	UserID         string     `bun:"user_id"`
	CodeHash       string     `bun:"code_hash"`
	TxCodeHash     string     `bun:"tx_code_hash"`
	TxCodeFailures int        `bun:"tx_code_failures"`
	Challenge      string     `bun:"challenge"`
	Origin         string     `bun:"origin"`
	CreatedAt      time.Time  `bun:"created_at"`
	ExpiresAt      time.Time  `bun:"expires_at"`
	CodeUsedAt     *time.Time `bun:"code_used_at"`
	ExchangeUsedAt *time.Time `bun:"exchange_used_at"`
}

// Copy is a credential handed to a wallet.
type Copy struct {
	bun.BaseModel `bun:"table:wallet_copies"`

	ID          string    `bun:"id,pk"`
	GrantID     string    `bun:"grant_id"`
	OfferID     string    `bun:"offer_id"`
	StatusIndex int       `bun:"status_index"`
	HolderDID   string    `bun:"holder_did"`
	Format      string    `bun:"format"`
	Rail        string    `bun:"rail"` // "oid4vci" or "vcapi"
	CreatedAt   time.Time `bun:"created_at"`
}

// Rails.
const (
	RailOID4VCI = "oid4vci"
	RailVCAPI   = "vcapi"
)

func offerByCode(ctx context.Context, d bun.IDB, code string) (*OfferRow, error) {
	var o OfferRow
	if err := d.NewSelect().Model(&o).Where("code_hash = ?", Hash(code)).Limit(1).Scan(ctx); err != nil {
		return nil, err
	}
	return &o, nil
}

func offerByID(ctx context.Context, d bun.IDB, id string) (*OfferRow, error) {
	var o OfferRow
	if err := d.NewSelect().Model(&o).Where("id = ?", id).Limit(1).Scan(ctx); err != nil {
		return nil, err
	}
	return &o, nil
}

// offerOfToken is the offer an unexpired access token was issued for.
func offerOfToken(ctx context.Context, d bun.IDB, token string, now time.Time) (*OfferRow, error) {
	var o OfferRow
	err := d.NewSelect().Model(&o).Where("id = (SELECT offer_id FROM wallet_tokens WHERE token_hash = ? AND expires_at > ?)", Hash(token), now).
		Limit(1).Scan(ctx)
	if err != nil {
		return nil, err
	}
	return &o, nil
}

// spend marks an offer's column (code_used_at or exchange_used_at) used, once: false when
// it was used already or has expired.
func spend(ctx context.Context, tx bun.IDB, id, column string, now time.Time) (bool, error) {
	res, err := tx.NewUpdate().Table("wallet_offers").Set("? = ?", bun.Ident(column), now).
		Where("id = ?", id).Where("? IS NULL", bun.Ident(column)).Where("expires_at > ?", now).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// takeNonce spends a c_nonce: false when it is unknown, expired or spent.
func takeNonce(ctx context.Context, tx bun.IDB, nonce string, now time.Time) (bool, error) {
	res, err := tx.NewDelete().Table("wallet_nonces").Where("nonce_hash = ?", Hash(nonce)).Where("expires_at > ?", now).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

// lockLiveGrant locks the grant row for the copy being issued (a revocation running at the
// same time waits, or is waited for, and then sees the copy): false when it is revoked.
func lockLiveGrant(ctx context.Context, tx bun.IDB, grantID string) (bool, error) {
	res, err := tx.NewRaw("UPDATE badge_grants SET id = id WHERE id = ? AND revoked_at IS NULL", grantID).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}
