package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/events"
	"meritmark/app/halloffame"
	"meritmark/app/pagecache"
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

	// the public pages a change shows on: their cached copies are stale from its commit on
	// (a holder's change also moves the holder's own scope, which a verify page follows)
	for typ, scopes := range pageScopes {
		d.Events.InTx(func(ctx context.Context, tx bun.IDB, e *events.Event) error {
			if !holderEvents[typ] {
				return pagecache.Bump(ctx, tx, scopes...)
			}
			user, err := holderOf(e)
			if err != nil {
				return err
			}
			return pagecache.Bump(ctx, tx, append(scopes[:len(scopes):len(scopes)], pagecache.Holder(user))...)
		}, typ)
	}
	// the Hall of Fame's standings of a holder whose grants changed
	d.Events.InTx(func(ctx context.Context, tx bun.IDB, e *events.Event) error {
		user, err := holderOf(e)
		if err != nil {
			return err
		}
		return halloffame.Refresh(ctx, tx, user)
	}, events.GrantIssued, events.GrantRevoked, events.GrantExpiryChanged, events.GrantExpired)
	// the issuer's cached credential documents (and the Hall of Fame's cached stat cards,
	// which follow the issuer), once the change is visible; an expiry is a change too
	d.Events.AfterCommit(func(e *events.Event) {
		d.Issuer.Changed(e.SubjectID)
	}, events.GrantIssued, events.GrantRevoked, events.GrantExpiryChanged, events.GrantExpired, events.GrantDisplayChanged)
}

// holderOf is the user a grant or profile event is about (its data's userId).
func holderOf(e *events.Event) (string, error) {
	var g struct {
		UserID string `json:"userId"`
	}
	if err := json.Unmarshal(e.Data, &g); err != nil || g.UserID == "" {
		return "", fmt.Errorf("%s carries no userId", e.Type)
	}
	return g.UserID, nil
}

// holderEvents are the events about one holder's grants or profile: besides their
// pageScopes they bump that holder's scope (pagecache.Holder).
var holderEvents = map[string]bool{
	events.GrantIssued: true, events.GrantRevoked: true, events.GrantExpiryChanged: true, events.GrantExpired: true,
	events.GrantDisplayChanged: true, events.ProfileChanged: true,
}

// pageScopes are the page-cache scopes each event changes.
var pageScopes = map[string][]pagecache.Scope{
	events.GrantIssued:         {pagecache.Grants},
	events.GrantRevoked:        {pagecache.Grants},
	events.GrantExpiryChanged:  {pagecache.Grants},
	events.GrantExpired:        {pagecache.Grants},
	events.GrantDisplayChanged: {pagecache.Grants},
	events.BadgeChanged:        {pagecache.Badges},
	events.QuizChanged:         {pagecache.Badges},
	events.ProfileChanged:      {pagecache.Profiles},
}
