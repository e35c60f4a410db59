package account

import (
	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/storage"
	"meritmark/app/verify"
)

// Service is the use cases of the data rights: export and delete.
type Service struct {
	DB     *bun.DB
	Store  storage.Store
	Issuer *credential.Issuer
	// Credentials produces the credential documents exactly as their download links do
	// (app/verify: signed first if they never were).
	Credentials *verify.Service
	// Auth confirms the password and two-step code before a deletion (app/auth).
	Auth   *auth.Service
	Mailer *mail.Worker // optional: kicked after the confirmation is queued
	Events *events.Bus  // the revocations and the profile's removal are recorded as events
}
