package admin

import (
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/storage"
)

// Service is the back office's use cases; it owns their transactions.
type Service struct {
	DB      *bun.DB
	Storage storage.Store
	Mailer  *mail.Worker
	Events  *events.Bus
	Issuer  *credential.Issuer // signs the grants approvals make
	// Attempts grants extra quiz attempts (the bulk action; app/quizadmin's rules, given by
	// the wiring so that app/quizadmin may use this package's table helpers; nil refuses)
	Attempts AttemptGranter
	st       store
}

// NewService makes the service.
func NewService(d *bun.DB, s storage.Store, iss *credential.Issuer, m *mail.Worker, bus *events.Bus) *Service {
	return &Service{DB: d, Storage: s, Issuer: iss, Mailer: m, Events: bus}
}

func (s *Service) kick() {
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
}
