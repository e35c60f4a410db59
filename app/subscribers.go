package app

import (
	"log/slog"

	"meritmark/app/auth"
	"meritmark/app/events"
	"meritmark/app/webhook"
)

// subscribe registers, once, everything that follows a domain event (app/events): writers
// record events and know none of these.
func (a *App) subscribe() {
	d := a.Deps
	if d.Events == nil {
		d.Events = events.New()
	}
	var box *auth.SecretBox
	if d.Config != nil {
		var err error
		if box, err = auth.KeyBox(d.Config); err != nil {
			slog.Error("webhooks: no secret key to keep endpoint secrets", "err", err)
		}
	}
	policy := webhook.Policy{}
	if d.Config == nil || !d.Config.Secure() { // a development origin: local receivers work
		policy = webhook.Policy{AllowHTTP: true, AllowLoopback: true}
	}
	a.Webhooks = webhook.New(d.DB, box, policy, d.Mailer)
	a.Webhooks.Subscribe(d.Events)
}
