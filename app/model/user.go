package model

import (
	"time"

	"github.com/uptrace/bun"
)

// User is a member or an administrator.
type User struct {
	bun.BaseModel `bun:"table:users"`

	ID            string    `bun:"id,pk"`
	Name          string    `bun:"name"`
	Email         string    `bun:"email"`
	PasswordHash  string    `bun:"password_hash"`
	Role          string    `bun:"role"`
	Position      string    `bun:"position"`
	LinkedIn      string    `bun:"linkedin"`
	Portfolio     string    `bun:"portfolio"`
	ProfilePicKey string    `bun:"profile_pic_key"`
	Phone         string    `bun:"phone"`
	Bio           string    `bun:"bio"`
	Location      string    `bun:"location"`
	Company       string    `bun:"company"`
	Experience    int       `bun:"experience"`
	Education     string    `bun:"education"`
	Skills        []string  `bun:"skills,type:text"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
	// NameInCredentials: the holder chose that credentials issued from now on name them
	// (an unhashed IdentityObject of type "name" beside the hashed e-mail address).
	NameInCredentials bool `bun:"name_in_credentials"`

	// Account security (app/auth): when the address was proven, a forced password change
	// (the seeded admin), and TOTP two-factor (secret, when it was switched on, the last
	// time step used so that a code is never accepted twice).
	EmailVerifiedAt *time.Time `bun:"email_verified_at"`
	// PendingEmail: a new address an administrator set, not yet confirmed by its owner
	// (EmailChangeHash: SHA-256 of the token mailed to it, until EmailChangeExpiresAt).
	PendingEmail         string     `bun:"pending_email"`
	EmailChangeHash      string     `bun:"email_change_hash"`
	EmailChangeExpiresAt *time.Time `bun:"email_change_expires_at"`
	MustChangePassword   bool       `bun:"must_change_password"`
	TOTPSecret           string     `bun:"totp_secret"`
	TOTPEnabledAt        *time.Time `bun:"totp_enabled_at"`
	TOTPLastStep         int64      `bun:"totp_last_step"`
	// DisabledAt: an operator disabled the account (meritmark disable-user); it cannot
	// sign in and no session of it is honoured.
	DisabledAt *time.Time `bun:"disabled_at"`
	// DeletedAt: the member deleted the account; the row is an anonymised tombstone kept
	// for the payments and revoked grants that reference it (app/account).
	DeletedAt *time.Time `bun:"deleted_at"`
}

// Disabled reports whether an operator disabled the account.
func (u *User) Disabled() bool { return u != nil && u.DisabledAt != nil }

// Deleted reports whether the account was deleted (the row is a tombstone).
func (u *User) Deleted() bool { return u != nil && u.DeletedAt != nil }

// EmailVerified reports whether the user proved their address.
func (u *User) EmailVerified() bool { return u != nil && u.EmailVerifiedAt != nil }

// TOTPEnabled reports whether two-factor sign-in is on.
func (u *User) TOTPEnabled() bool { return u != nil && u.TOTPEnabledAt != nil && u.TOTPSecret != "" }

// IsAdmin reports the admin role.
func (u *User) IsAdmin() bool { return u != nil && u.Role == RoleAdmin }

// ProfilePicURL is the public URL of the user's picture ("" when none).
func (u *User) ProfilePicURL() string {
	if u == nil || u.ProfilePicKey == "" {
		return ""
	}
	return "/media/" + u.ProfilePicKey
}

// Session is a signed-in browser. ID is the SHA-256 of the cookie token: the token itself
// is never stored.
type Session struct {
	bun.BaseModel `bun:"table:sessions"`

	ID         string    `bun:"id,pk"`
	UserID     string    `bun:"user_id"`
	CreatedAt  time.Time `bun:"created_at"`
	LastSeenAt time.Time `bun:"last_seen_at"`
	ExpiresAt  time.Time `bun:"expires_at"`
	IP         string    `bun:"ip"`
	UserAgent  string    `bun:"user_agent"`
}
