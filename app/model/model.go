// Package model holds the database rows shared by several features (bun models).
// Features own the rules and queries around them; the rows live here so that features can
// read each other's tables without import cycles.
package model

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"time"
)

// NewID returns an opaque 24-hex-character id: 4 bytes of time (so ids sort roughly by
// creation) then 8 random bytes.
func NewID() string {
	var b [12]byte
	binary.BigEndian.PutUint32(b[:4], uint32(time.Now().Unix()))
	if _, err := rand.Read(b[4:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// ValidID reports whether s has the shape of an id from NewID (used to answer a
// malformed id with 404 before touching the database).
func ValidID(s string) bool {
	if len(s) != 24 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// Now is the current time in UTC, truncated to microseconds (what both engines keep).
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// Roles.
const (
	RoleUser  = "user"
	RoleAdmin = "admin"
)

// DemoEmailDomain is the e-mail domain of the simulated candidates the demo seed makes
// (app/seed): their attempts are demo data, and the public technical report says so.
// The .invalid top-level domain is reserved: no mail ever reaches it.
const DemoEmailDomain = "demo.meritmark.invalid"
