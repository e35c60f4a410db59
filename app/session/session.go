// Package session keeps signed-in browsers: a random 256-bit token in an HttpOnly,
// SameSite=Lax cookie, stored on the server only as its SHA-256, with idle and absolute
// expiry. The middleware puts the signed-in user on the request (web.Viewer).
package session

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// CookieName is the session cookie on a plain-http origin (local development).
const CookieName = "mm_session"

// SecureCookieName is the session cookie on an https origin: with the __Host- prefix the
// browser keeps it only when it is Secure, for Path=/ and without a Domain, so no other
// subdomain (or plain-http page) can set or overwrite it.
const SecureCookieName = "__Host-" + CookieName

// tokenKey holds the request's session token, read from this store's cookie.
const tokenKey = "mm.session-token"

// Cookie is the name of this store's session cookie.
func (s *Store) Cookie() string {
	if s.Secure {
		return SecureCookieName
	}
	return CookieName
}

// touchEvery limits how often last_seen_at is written (not on every request).
const touchEvery = time.Minute

// Store creates, finds and ends sessions.
type Store struct {
	DB     *bun.DB
	Idle   time.Duration
	MaxAge time.Duration
	Secure bool
	Now    func() time.Time

	lookup db.Prepared // the lookup below, parsed once per connection
}

func (s *Store) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return model.Now()
}

// Hash is how a token is kept in the database.
func Hash(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// NewToken returns 256 random bits, base64url.
func NewToken() string {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// Create starts a session for userID and returns its token.
func (s *Store) Create(ctx context.Context, d bun.IDB, userID, ip, ua string) (string, error) {
	tok := NewToken()
	now := s.now()
	if len(ua) > 255 {
		ua = ua[:255]
	}
	_, err := d.NewInsert().Model(&model.Session{
		ID: Hash(tok), UserID: userID, CreatedAt: now, LastSeenAt: now,
		ExpiresAt: now.Add(s.MaxAge), IP: ip, UserAgent: ua,
	}).Exec(ctx)
	return tok, err
}

// Lookup finds the live session of token and its user.
func (s *Store) Lookup(ctx context.Context, token string) (*model.Session, *model.User, error) {
	if token == "" || len(token) > 100 {
		return nil, nil, db.ErrNotFound
	}
	// the session and its user in one query: this runs on every signed-in request
	var rows []sessionWithUser
	if err := s.lookup.Scan(ctx, s.DB, &rows, lookupSQL(s.DB), Hash(token)); err != nil {
		return nil, nil, err
	}
	if len(rows) == 0 {
		return nil, nil, db.ErrNotFound // no such session (its user's deletion cascades to it)
	}
	sess, u := rows[0].S, rows[0].U
	now := s.now()
	if now.After(sess.ExpiresAt) || now.Sub(sess.LastSeenAt) > s.Idle || u.Disabled() {
		_, _ = s.DB.NewDelete().Model((*model.Session)(nil)).Where("id = ?", sess.ID).Exec(ctx)
		return nil, nil, db.ErrNotFound
	}
	if now.Sub(sess.LastSeenAt) > touchEvery {
		_, _ = s.DB.NewUpdate().Model((*model.Session)(nil)).Set("last_seen_at = ?", now).Where("id = ?", sess.ID).Exec(ctx)
	}
	return &sess, &u, nil
}

// sessionWithUser is a session row joined with its user's row.
type sessionWithUser struct {
	S model.Session `bun:"embed:s_"`
	U model.User    `bun:"embed:u_"`
}

var (
	lookupOnce  sync.Once
	lookupQuery string
)

// lookupSQL selects a session by id with its user, every column of both models (aliased
// s_… and u_…), built once from the models so that it follows their fields.
func lookupSQL(d *bun.DB) string {
	lookupOnce.Do(func() {
		var cols []string
		add := func(alias, prefix string, typ reflect.Type) {
			for _, f := range d.Table(typ).Fields {
				cols = append(cols, alias+"."+string(f.SQLName)+" AS "+prefix+f.Name)
			}
		}
		add("s", "s_", reflect.TypeFor[model.Session]())
		add("u", "u_", reflect.TypeFor[model.User]())
		lookupQuery = "SELECT " + strings.Join(cols, ", ") + " FROM sessions AS s JOIN users AS u ON u.id = s.user_id WHERE s.id = ?"
	})
	return lookupQuery
}

// Delete ends the session of token.
func (s *Store) Delete(ctx context.Context, token string) error {
	_, err := s.DB.NewDelete().Model((*model.Session)(nil)).Where("id = ?", Hash(token)).Exec(ctx)
	return err
}

// DeleteAllFor ends every session of a user (after a password reset).
func (s *Store) DeleteAllFor(ctx context.Context, d bun.IDB, userID string) error {
	_, err := d.NewDelete().Model((*model.Session)(nil)).Where("user_id = ?", userID).Exec(ctx)
	return err
}

// SetCookie writes the session cookie.
func (s *Store) SetCookie(c fiber.Ctx, token string) {
	c.Cookie(&fiber.Cookie{
		Name: s.Cookie(), Value: token, Path: "/", HTTPOnly: true, Secure: s.Secure,
		SameSite: fiber.CookieSameSiteLaxMode, MaxAge: int(s.MaxAge.Seconds()),
	})
}

// ClearCookie removes the session cookie.
func (s *Store) ClearCookie(c fiber.Ctx) {
	c.Cookie(&fiber.Cookie{
		Name: s.Cookie(), Value: "", Path: "/", HTTPOnly: true, Secure: s.Secure,
		SameSite: fiber.CookieSameSiteLaxMode, MaxAge: -1, Expires: time.Unix(1, 0),
	})
}

// Token is the request's session token ("" when none), from the store's cookie (see
// Store.Cookie) once the middleware ran.
func Token(c fiber.Ctx) string {
	if t, ok := c.Locals(tokenKey).(string); ok {
		return t
	}
	return c.Cookies(CookieName)
}

// Middleware loads the signed-in user, if any. A database outage is not fatal here:
// the request goes on as a visitor and the handler reports what it must.
func (s *Store) Middleware() fiber.Handler {
	return func(c fiber.Ctx) error {
		tok := c.Cookies(s.Cookie())
		c.Locals(tokenKey, tok)
		if tok == "" || isAsset(c.Path()) {
			return c.Next()
		}
		_, u, err := s.Lookup(c.Context(), tok)
		switch {
		case err == nil:
			web.SetViewer(c, u) // the access guard keeps a user who must change the password to that
		case errors.Is(err, db.ErrNotFound):
			s.ClearCookie(c)
		default:
			if db.IsUnavailable(err) {
				return web.Unavailable(web.MsgUnavailable)
			}
			return err
		}
		return c.Next()
	}
}

func isAsset(p string) bool {
	return len(p) >= 8 && p[:8] == "/static/" || p == "/healthz" || p == "/readyz" || p == "/favicon.ico"
}

// MsgMustChangePassword answers the API while the signed-in user must choose a new
// password (the seeded admin at first sign-in).
const MsgMustChangePassword = "You must choose a new password before you continue. Open /account/password to set it."
