package migrations

import (
	"context"

	"github.com/uptrace/bun"
)

// Open Badges 3.0 API for wallets (app/obapi): OAuth 2.0 clients registered dynamically
// (RFC 7591; only the SHA-256 of each client secret is kept), the holders' consents
// (connected apps), and the OAuth requests behind authorization codes, PKCE sessions,
// access and refresh tokens. A token row is keyed by the token's HMAC signature (the raw
// token is never stored); kind is one of code, pkce, access, refresh.
func init() {
	Migrations.MustRegister(func(ctx context.Context, d *bun.DB) error {
		return Exec(ctx, d, `
CREATE TABLE oauth_clients (
	id TEXT PRIMARY KEY,
	secret_hash TEXT NOT NULL,
	name TEXT NOT NULL,
	client_uri TEXT NOT NULL DEFAULT '',
	logo_uri TEXT NOT NULL DEFAULT '',
	tos_uri TEXT NOT NULL DEFAULT '',
	policy_uri TEXT NOT NULL DEFAULT '',
	redirect_uris TEXT NOT NULL,
	scope TEXT NOT NULL,
	software_id TEXT NOT NULL DEFAULT '',
	software_version TEXT NOT NULL DEFAULT '',
	created_at {ts} NOT NULL
)`, `
CREATE TABLE oauth_consents (
	user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
	client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
	scope TEXT NOT NULL,
	granted_at {ts} NOT NULL,
	last_used_at {ts},
	PRIMARY KEY (user_id, client_id)
)`, `
CREATE TABLE oauth_tokens (
	kind TEXT NOT NULL,
	signature TEXT NOT NULL,
	request_id TEXT NOT NULL,
	client_id TEXT NOT NULL REFERENCES oauth_clients(id) ON DELETE CASCADE,
	user_id TEXT REFERENCES users(id) ON DELETE CASCADE,
	requested_at {ts} NOT NULL,
	expires_at {ts} NOT NULL,
	requested_scope TEXT NOT NULL DEFAULT '',
	granted_scope TEXT NOT NULL DEFAULT '',
	form TEXT NOT NULL DEFAULT '',
	session TEXT NOT NULL DEFAULT '',
	active {bool} NOT NULL,
	PRIMARY KEY (kind, signature)
)`,
			`CREATE INDEX oauth_tokens_request_idx ON oauth_tokens (request_id)`,
			`CREATE INDEX oauth_tokens_holder_idx ON oauth_tokens (user_id, client_id)`,
			`CREATE INDEX oauth_tokens_expires_idx ON oauth_tokens (expires_at)`)
	}, noDown)
}
