package auth

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/model"
	"meritmark/app/web"
)

// TOTP secrets at rest (issue 16). users.totp_secret holds "enc1:" + base64url(nonce ‖
// AES-256-GCM ciphertext), the user's id bound in as additional data (a sealed secret
// copied onto another account does not open). The key is derived (SHA-256 with a label)
// from the secret key: MERITMARK_SECRET_KEY, or when it is not set a random one generated
// once in <data dir>/secrets/key (0600, in a 0700 folder; config.Secret). Instances that
// share a database must share that key (set MERITMARK_SECRET_KEY, or share the data dir).
//
// Rows written before (a bare base32 secret) keep working: they are sealed when the server
// starts (SealLegacySecrets) and, for any written since by older code or tests, the first
// time they are read.

// sealedPrefix marks a sealed secret (a base32 TOTP secret never contains ':').
const sealedPrefix = "enc1:"

// MsgMFAUnavailable answers a two-step set-up when no secret key could be loaded.
const MsgMFAUnavailable = "Two-step sign-in is unavailable right now. Please try again later."

// MsgMFAKeyMismatch answers a code when the account's sealed TOTP secret does not open with
// this server's secret key (a database restored without its MERITMARK_SECRET_KEY, or
// instances with different keys): recovery codes do not depend on the key.
const MsgMFAKeyMismatch = "Two-step codes cannot be checked on this server right now. Sign in with a recovery code, or contact support."

// errKeyMismatch logs what the operator must fix and answers MsgMFAKeyMismatch (503).
func errKeyMismatch(u *model.User, err error) error {
	slog.Error("two-step sign-in: a sealed TOTP secret does not open with this server's secret key; "+
		"set MERITMARK_SECRET_KEY (or <data dir>/secrets/key) to the key the database was used with, the same on every instance",
		"user", u.ID, "err", err)
	return web.Unavailable(MsgMFAKeyMismatch)
}

// SecretBox seals and opens TOTP secrets.
type SecretBox struct{ aead cipher.AEAD }

// NewSecretBox makes the box of a secret key (at least 16 characters).
func NewSecretBox(secretKey string) (*SecretBox, error) {
	if len(strings.TrimSpace(secretKey)) < 16 {
		return nil, errors.New("the secret key (MERITMARK_SECRET_KEY) must be at least 16 characters")
	}
	k := sha256.Sum256([]byte("meritmark totp-secret v1\x00" + strings.TrimSpace(secretKey)))
	block, err := aes.NewCipher(k[:])
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	return &SecretBox{aead: aead}, nil
}

func aad(userID string) []byte { return []byte("totp|" + userID) }

// Seal seals the TOTP secret of user userID.
func (b *SecretBox) Seal(userID, secret string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(secret)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	return sealedPrefix + base64.RawURLEncoding.EncodeToString(b.aead.Seal(nonce, nonce, []byte(secret), aad(userID))), nil
}

// Open answers the TOTP secret stored for userID (a legacy plaintext one as it is).
func (b *SecretBox) Open(userID, stored string) (string, error) {
	if !Sealed(stored) {
		return stored, nil
	}
	raw, err := base64.RawURLEncoding.DecodeString(stored[len(sealedPrefix):])
	if err != nil || len(raw) < b.aead.NonceSize() {
		return "", errors.New("sealed TOTP secret is malformed")
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, raw[:n], raw[n:], aad(userID))
	if err != nil {
		return "", errors.New("sealed TOTP secret does not open with this key (is MERITMARK_SECRET_KEY the same on every instance?)")
	}
	return string(plain), nil
}

// Sealed reports whether a stored TOTP secret is sealed.
func Sealed(stored string) bool { return strings.HasPrefix(stored, sealedPrefix) }

// KeyBox is the box of cfg's secret key (MERITMARK_SECRET_KEY, or generated in the data
// dir), which seals TOTP and webhook secrets.
func KeyBox(cfg *config.Config) (*SecretBox, error) {
	key, err := cfg.Secret(nil, "key")
	if err != nil {
		return nil, err
	}
	return NewSecretBox(key)
}

// WithSecretKey gives the handler the box sealing TOTP secrets, from cfg's secret key
// (MERITMARK_SECRET_KEY or the data dir), and seals the plaintext secrets left in the
// database. Without a usable key, setting up two-step sign-in answers 503 and sealed
// secrets cannot be checked (logged).
func (h *Handler) WithSecretKey(cfg *config.Config) *Handler {
	if cfg == nil {
		return h
	}
	box, err := KeyBox(cfg)
	h.svc.Box = box
	if err != nil {
		slog.Error("two-step sign-in: no secret key to seal TOTP secrets", "err", err)
		return h
	}
	if h.svc.DB == nil {
		return h
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n, err := h.svc.SealLegacySecrets(ctx); err != nil {
		slog.Error("two-step sign-in: sealing stored TOTP secrets", "err", err)
	} else if n > 0 {
		slog.Info("two-step sign-in: sealed stored TOTP secrets", "count", n)
	}
	return h
}

// SealLegacySecrets seals every TOTP secret still stored in plaintext and answers how many.
func (s *Service) SealLegacySecrets(ctx context.Context) (int, error) {
	var rows []struct {
		ID         string `bun:"id"`
		TOTPSecret string `bun:"totp_secret"`
	}
	if err := s.DB.NewSelect().Model((*model.User)(nil)).Column("id", "totp_secret").
		Where("totp_secret <> '' AND totp_secret NOT LIKE ?", sealedPrefix+"%").Scan(ctx, &rows); err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		ok, err := s.sealRow(ctx, s.DB, r.ID, r.TOTPSecret)
		if err != nil {
			return n, err
		}
		if ok {
			n++
		}
	}
	return n, nil
}

// sealRow replaces user id's plaintext secret by its sealed form, unless it changed
// meanwhile (another instance sealed it, or a new set-up).
func (s *Service) sealRow(ctx context.Context, d bun.IDB, id, plain string) (bool, error) {
	sealed, err := s.Box.Seal(id, plain)
	if err != nil {
		return false, err
	}
	res, err := d.NewUpdate().Model((*model.User)(nil)).Set("totp_secret = ?", sealed).Where("id = ? AND totp_secret = ?", id, plain).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, _ := res.RowsAffected()
	return n == 1, nil
}

// totpSecret answers u's TOTP secret in clear, sealing a plaintext row on the way (then
// u.TOTPSecret is the sealed form now stored).
func (s *Service) totpSecret(ctx context.Context, u *model.User) (string, error) {
	if s.Box == nil {
		if Sealed(u.TOTPSecret) {
			return "", errKeyMismatch(u, errors.New("no secret key loaded"))
		}
		return u.TOTPSecret, nil
	}
	plain, err := s.Box.Open(u.ID, u.TOTPSecret)
	if err != nil {
		return "", errKeyMismatch(u, err)
	}
	if Sealed(u.TOTPSecret) || plain == "" {
		return plain, nil
	}
	if _, err := s.sealRow(ctx, s.DB, u.ID, plain); err != nil {
		return "", err
	}
	var stored string
	if err := s.DB.NewSelect().Model((*model.User)(nil)).Column("totp_secret").Where("id = ?", u.ID).Scan(ctx, &stored); err != nil {
		return "", err
	}
	if stored != u.TOTPSecret { // sealed now (here or by another instance): open what is stored
		u.TOTPSecret = stored
		return s.Box.Open(u.ID, stored)
	}
	return plain, nil
}

// sealNew seals a new secret for u (set-up), or 503 without a key.
func (s *Service) sealNew(u *model.User, secret string) (string, error) {
	if s.Box == nil {
		return "", web.Unavailable(MsgMFAUnavailable)
	}
	return s.Box.Seal(u.ID, secret)
}
