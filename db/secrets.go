package db

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/uptrace/bun"
)

// SharedSecret is a secret every instance of one database must share: its name (as
// config.Secret reads it), the setting that gives it and what breaks when two instances
// differ.
type SharedSecret struct {
	Name    string
	Setting string
	Breaks  string
}

// SharedSecrets are the secrets whose fingerprints are recorded in secret_fingerprints.
var SharedSecrets = []SharedSecret{
	{Name: "oauth-hmac", Setting: "MERITMARK_SECRET_OAUTH_HMAC",
		Breaks: "wallet (OAuth) access and refresh tokens issued by one instance are refused by the others, at random behind a load balancer"},
	{Name: "key", Setting: "MERITMARK_SECRET_KEY",
		Breaks: "two-step sign-in codes fail on the instances whose key did not seal the member's TOTP secret"},
}

// fingerprintLabel is what a secret's fingerprint is the HMAC of.
const fingerprintLabel = "meritmark shared-secret fingerprint v1"

// SecretFingerprint is the fingerprint of a secret value: HMAC-SHA256 of a fixed label
// keyed with the secret, its first 16 hex digits. It tells whether two instances hold the
// same secret without revealing it.
func SecretFingerprint(value string) string {
	m := hmac.New(sha256.New, []byte(value))
	m.Write([]byte(fingerprintLabel))
	return hex.EncodeToString(m.Sum(nil))[:16]
}

type secretFingerprint struct {
	bun.BaseModel `bun:"table:secret_fingerprints"`

	Name        string    `bun:"name,pk"`
	Fingerprint string    `bun:"fingerprint"`
	CreatedAt   time.Time `bun:"created_at"`
}

// RecordSecretFingerprints records the fingerprint of each of values (secret name →
// value) that has none yet (the first instance to start), and answers the shared secrets
// whose recorded fingerprint differs from this instance's value.
func RecordSecretFingerprints(ctx context.Context, d bun.IDB, values map[string]string, now time.Time) ([]SharedSecret, error) {
	for _, s := range SharedSecrets {
		v, ok := values[s.Name]
		if !ok {
			continue
		}
		if _, err := d.NewInsert().Model(&secretFingerprint{Name: s.Name, Fingerprint: SecretFingerprint(v), CreatedAt: now}).
			On("CONFLICT (name) DO NOTHING").Exec(ctx); err != nil {
			return nil, err
		}
	}
	return CompareSecretFingerprints(ctx, d, values)
}

// CompareSecretFingerprints answers the shared secrets of values whose recorded
// fingerprint differs from the value's (it writes nothing).
func CompareSecretFingerprints(ctx context.Context, d bun.IDB, values map[string]string) ([]SharedSecret, error) {
	var rows []secretFingerprint
	if err := d.NewSelect().Model(&rows).Scan(ctx); err != nil {
		return nil, err
	}
	recorded := map[string]string{}
	for _, r := range rows {
		recorded[r.Name] = r.Fingerprint
	}
	var out []SharedSecret
	for _, s := range SharedSecrets {
		v, ok := values[s.Name]
		fp, has := recorded[s.Name]
		if ok && has && !hmac.Equal([]byte(fp), []byte(SecretFingerprint(v))) {
			out = append(out, s)
		}
	}
	return out, nil
}
