package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Wallet issuance (app/oid4vci; docs/wallet-api.md, issue 36 items 8 and 9):
//   - wallet_offers: one "Add to wallet" offer of a grant to its holder, ten minutes, for
//     OpenID4VCI (the pre-authorized code, its optional tx_code, both stored as SHA-256
//     hashes) and for the DCC VC API exchange (the exchange id is the offer id, the
//     challenge is the DIDAuthentication challenge). code_used_at / exchange_used_at make
//     each single use; tx_code_failures counts the tx_code tries (at most five);
//   - wallet_tokens: the OpenID4VCI access tokens (hashes) a redeemed code gave;
//   - wallet_nonces: the c_nonce values the nonce endpoint handed out (hashes), single use;
//   - wallet_copies: every credential handed to a wallet: a new credential bound to the
//     holder's DID with its own status list index (credential_status_slots). Revoking the
//     grant revokes every copy (credential.RecordRevocation). No foreign key on the grant:
//     like credential_revocations, a copy's record outlives it.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d,
			`CREATE TABLE wallet_offers (
	id TEXT PRIMARY KEY,
	grant_id TEXT NOT NULL REFERENCES badge_grants(id) ON DELETE CASCADE,
	user_id TEXT NOT NULL,
	code_hash TEXT NOT NULL UNIQUE,
	tx_code_hash TEXT NOT NULL DEFAULT '',
	tx_code_failures INTEGER NOT NULL DEFAULT 0,
	challenge TEXT NOT NULL,
	origin TEXT NOT NULL,
	created_at {ts} NOT NULL,
	expires_at {ts} NOT NULL,
	code_used_at {ts},
	exchange_used_at {ts}
)`,
			`CREATE INDEX wallet_offers_grant_idx ON wallet_offers (grant_id)`,
			`CREATE TABLE wallet_tokens (
	token_hash TEXT PRIMARY KEY,
	offer_id TEXT NOT NULL REFERENCES wallet_offers(id) ON DELETE CASCADE,
	expires_at {ts} NOT NULL
)`,
			`CREATE TABLE wallet_nonces (
	nonce_hash TEXT PRIMARY KEY,
	expires_at {ts} NOT NULL
)`,
			`CREATE INDEX wallet_nonces_expiry_idx ON wallet_nonces (expires_at)`,
			`CREATE TABLE wallet_copies (
	id TEXT PRIMARY KEY,
	grant_id TEXT NOT NULL,
	offer_id TEXT NOT NULL,
	status_index INTEGER NOT NULL UNIQUE,
	holder_did TEXT NOT NULL,
	format TEXT NOT NULL,
	rail TEXT NOT NULL,
	created_at {ts} NOT NULL
)`,
			`CREATE INDEX wallet_copies_grant_idx ON wallet_copies (grant_id)`,
			`CREATE UNIQUE INDEX wallet_copies_offer_format_idx ON wallet_copies (offer_id, format, rail)`,
		)
	}, noDown)
}
