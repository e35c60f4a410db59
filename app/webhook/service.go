package webhook

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/auth"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/outbox"
	"meritmark/app/web"
	"meritmark/db"
)

// Service manages endpoints and delivers webhooks.
type Service struct {
	DB     *bun.DB
	Box    *auth.SecretBox // seals endpoint secrets; nil: endpoints cannot be added (503)
	Policy Policy
	Mailer *mail.Worker // the admins are told when an endpoint starts failing
	Lease  time.Duration
	Now    func() time.Time
	client *http.Client
	kick   outbox.Kicker
}

// New makes the service.
func New(d *bun.DB, box *auth.SecretBox, p Policy, mailer *mail.Worker) *Service {
	return &Service{DB: d, Box: box, Policy: p, Mailer: mailer, client: p.Client(), kick: outbox.NewKicker()}
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now().UTC()
	}
	return model.Now()
}

// Subscribe makes the service a subscriber of b: every event is queued for the endpoints
// that want it in the causing transaction, and the worker is woken once it commits.
func (s *Service) Subscribe(b *events.Bus) {
	b.InTx(s.enqueue, events.All)
	b.AfterCommit(func(*events.Event) { s.kick.Kick() }, events.All)
}

// payload is a delivery's body (Standard Webhooks' recommended shape).
type payload struct {
	Type      string          `json:"type"`
	Timestamp time.Time       `json:"timestamp"`
	Data      json.RawMessage `json:"data"`
}

func (s *Service) enqueue(ctx context.Context, tx bun.IDB, e *events.Event) error {
	var eps []Endpoint
	if err := tx.NewSelect().Model(&eps).Column("id", "events").Scan(ctx); err != nil {
		return err
	}
	var body []byte
	for _, ep := range eps {
		if !wants(ep.Events, e.Type) {
			continue
		}
		if body == nil {
			var err error
			if body, err = json.Marshal(payload{Type: e.Type, Timestamp: e.CreatedAt, Data: e.Data}); err != nil {
				return err
			}
		}
		d := &Delivery{ID: model.NewID(), EndpointID: ep.ID, EventID: e.ID, EventType: e.Type, Payload: string(body),
			Status: "pending", NextAttemptAt: e.CreatedAt, CreatedAt: e.CreatedAt}
		if _, err := tx.NewInsert().Model(d).Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}

func wants(list []string, t string) bool {
	for _, w := range list {
		if w == t || w == events.All {
			return true
		}
	}
	return false
}

// View is an endpoint as admins see it (never its secret, but when it is made).
type View struct {
	ID           string     `json:"_id"`
	URL          string     `json:"url"`
	Description  string     `json:"description"`
	Events       []string   `json:"events"`
	Paused       bool       `json:"paused"`
	Failing      bool       `json:"failing"`
	FailingSince *time.Time `json:"failingSince"`
	CreatedAt    time.Time  `json:"createdAt"`
	UpdatedAt    time.Time  `json:"updatedAt"`
}

func viewOf(ep *Endpoint) View {
	return View{ID: ep.ID, URL: ep.URL, Description: ep.Description, Events: ep.Events, Paused: ep.PausedAt != nil,
		Failing: ep.FailingSince != nil, FailingSince: ep.FailingSince, CreatedAt: ep.CreatedAt, UpdatedAt: ep.UpdatedAt}
}

// Input is an endpoint as an admin enters it (nil fields are left as they are on update).
type Input struct {
	URL         *string   `json:"url"`
	Events      *[]string `json:"events"`
	Description *string   `json:"description"`
	Paused      *bool     `json:"paused"`
}

func (s *Service) check(in Input, ep *Endpoint) error {
	if in.URL != nil {
		u, err := s.Policy.CheckURL(*in.URL)
		if err != nil {
			return err
		}
		ep.URL = u
	}
	if in.Events != nil {
		seen := map[string]bool{}
		ep.Events = ep.Events[:0:0]
		for _, t := range *in.Events {
			t = strings.TrimSpace(t)
			if t != events.All && !events.Known(t) {
				return web.BadRequest(fmt.Sprintf(MsgEventUnknown, t))
			}
			if !seen[t] {
				seen[t] = true
				ep.Events = append(ep.Events, t)
			}
		}
	}
	if len(ep.Events) == 0 {
		return web.BadRequest(MsgEventsNeeded)
	}
	if ep.URL == "" {
		return web.BadRequest(MsgURLInvalid)
	}
	if in.Description != nil {
		ep.Description = strings.TrimSpace(*in.Description)
		if len([]rune(ep.Description)) > 200 {
			return web.BadRequest(MsgDescTooLong)
		}
	}
	return nil
}

// MsgSecretsUnavailable answers when no secret key seals endpoint secrets.
const MsgSecretsUnavailable = "Webhooks are unavailable: the server has no secret key to keep their secrets (MERITMARK_SECRET_KEY)."

func (s *Service) seal(id, secret string) (string, error) {
	if s.Box == nil {
		return "", web.Unavailable(MsgSecretsUnavailable)
	}
	return s.Box.Seal("webhook:"+id, secret)
}

// Create adds an endpoint and answers it with its secret (shown this once).
func (s *Service) Create(ctx context.Context, actor *model.User, in Input) (*View, string, error) {
	now := s.now()
	ep := &Endpoint{ID: model.NewID(), CreatedBy: &actor.ID, CreatedAt: now, UpdatedAt: now}
	if in.URL == nil {
		return nil, "", web.BadRequest(MsgURLInvalid)
	}
	if err := s.check(in, ep); err != nil {
		return nil, "", err
	}
	if in.Paused != nil && *in.Paused {
		ep.PausedAt = &now
	}
	secret := NewSecret()
	sealed, err := s.seal(ep.ID, secret)
	if err != nil {
		return nil, "", err
	}
	ep.Secret = sealed
	v := viewOf(ep)
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.NewInsert().Model(ep).Exec(ctx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "webhook.create", "webhook", ep.ID, nil, v)
	})
	if err != nil {
		return nil, "", err
	}
	return &v, secret, nil
}

func (s *Service) load(ctx context.Context, d bun.IDB, id string) (*Endpoint, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgNotFound)
	}
	var ep Endpoint
	err := d.NewSelect().Model(&ep).Where("id = ?", id).Scan(ctx)
	if db.IsNoRows(err) {
		return nil, web.NotFound(MsgNotFound)
	}
	return &ep, err
}

// List answers every endpoint, newest first.
func (s *Service) List(ctx context.Context) ([]View, error) {
	var eps []Endpoint
	if err := s.DB.NewSelect().Model(&eps).Order("created_at DESC").Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]View, 0, len(eps))
	for i := range eps {
		out = append(out, viewOf(&eps[i]))
	}
	return out, nil
}

// Get answers one endpoint.
func (s *Service) Get(ctx context.Context, id string) (*View, error) {
	ep, err := s.load(ctx, s.DB, id)
	if err != nil {
		return nil, err
	}
	v := viewOf(ep)
	return &v, nil
}

// Update changes an endpoint (URL, events, description, paused); an unchanged save writes
// nothing. Resuming a failing endpoint clears the mark.
func (s *Service) Update(ctx context.Context, actor *model.User, id string, in Input) (*View, error) {
	var out View
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ep, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		before := viewOf(ep)
		if err := s.check(in, ep); err != nil {
			return err
		}
		now := s.now()
		if in.Paused != nil {
			switch {
			case *in.Paused && ep.PausedAt == nil:
				ep.PausedAt = &now
			case !*in.Paused:
				ep.PausedAt, ep.FailingSince = nil, nil
			}
		}
		out = viewOf(ep)
		after := out
		after.UpdatedAt = before.UpdatedAt
		if fmt.Sprint(before) == fmt.Sprint(after) {
			return nil
		}
		ep.UpdatedAt = now
		out.UpdatedAt = now
		if _, err := tx.NewUpdate().Model(ep).
			Column("url", "events", "description", "paused_at", "failing_since", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "webhook.update", "webhook", ep.ID, before, out)
	})
	if err != nil {
		return nil, err
	}
	if in.Paused != nil && !*in.Paused {
		s.kick.Kick()
	}
	return &out, nil
}

// Delete removes an endpoint and its deliveries.
func (s *Service) Delete(ctx context.Context, actor *model.User, id string) error {
	return s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ep, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.NewDelete().TableExpr("webhook_deliveries").Where("endpoint_id = ?", ep.ID).Exec(ctx); err != nil {
			return err
		}
		if _, err := tx.NewDelete().TableExpr("webhook_endpoints").Where("id = ?", ep.ID).Exec(ctx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "webhook.delete", "webhook", ep.ID, viewOf(ep), nil)
	})
}

// RotateSecret gives an endpoint a new secret, answered this once; deliveries from now on
// are signed with it.
func (s *Service) RotateSecret(ctx context.Context, actor *model.User, id string) (string, error) {
	secret := NewSecret()
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		ep, err := s.load(ctx, tx, id)
		if err != nil {
			return err
		}
		sealed, err := s.seal(ep.ID, secret)
		if err != nil {
			return err
		}
		if _, err := tx.NewUpdate().TableExpr("webhook_endpoints").Set("secret = ?", sealed).Set("updated_at = ?", s.now()).
			Where("id = ?", ep.ID).Exec(ctx); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "webhook.rotate_secret", "webhook", ep.ID, nil, nil)
	})
	return secret, err
}

// DeliveryView is a delivery as admins see it.
type DeliveryView struct {
	ID            string     `json:"_id"`
	EventID       string     `json:"eventId"`
	EventType     string     `json:"eventType"`
	Status        string     `json:"status"`
	Attempts      int        `json:"attempts"`
	ResponseCode  int        `json:"responseCode"`
	LastError     string     `json:"lastError"`
	DurationMS    int64      `json:"durationMs"`
	CreatedAt     time.Time  `json:"createdAt"`
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
	DeliveredAt   *time.Time `json:"deliveredAt"`
}

// Deliveries answers an endpoint's latest deliveries (status "" = all).
func (s *Service) Deliveries(ctx context.Context, id, status string, limit int) ([]DeliveryView, error) {
	if _, err := s.load(ctx, s.DB, id); err != nil {
		return nil, err
	}
	switch status {
	case "", "pending", "sending", "succeeded", "failed":
	default:
		return nil, web.BadRequest("Unknown delivery status: choose pending, sending, succeeded or failed.")
	}
	var ds []Delivery
	q := s.DB.NewSelect().Model(&ds).Where("endpoint_id = ?", id).
		Order("created_at DESC", "id").Limit(int64(limit))
	if status != "" {
		q = q.Where("status = ?", status)
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	out := make([]DeliveryView, 0, len(ds))
	for _, d := range ds {
		v := DeliveryView{ID: d.ID, EventID: d.EventID, EventType: d.EventType, Status: d.Status, Attempts: d.Attempts,
			ResponseCode: d.ResponseCode, LastError: d.LastError, DurationMS: d.DurationMS, CreatedAt: d.CreatedAt, DeliveredAt: d.DeliveredAt}
		if d.Status == "pending" {
			next := d.NextAttemptAt
			v.NextAttemptAt = &next
		}
		out = append(out, v)
	}
	return out, nil
}

// Resend queues a delivery again now (the same webhook-id, so a receiver that already has
// it can tell).
func (s *Service) Resend(ctx context.Context, actor *model.User, id, deliveryID string) error {
	if !model.ValidID(deliveryID) {
		return web.NotFound(MsgDeliveryGone)
	}
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := s.load(ctx, tx, id); err != nil {
			return err
		}
		res, err := tx.NewUpdate().TableExpr("webhook_deliveries").Set("status = 'pending'").Set("attempts = 0").
			Set("next_attempt_at = ?", s.now()).Set("lease_until = NULL").
			Where("id = ? AND endpoint_id = ? AND status <> 'sending'", deliveryID, id).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return web.NotFound(MsgDeliveryGone)
		}
		return audit.Write(ctx, tx, actor, "webhook.resend", "webhook", id, nil, map[string]string{"delivery": deliveryID})
	})
	if err == nil {
		s.kick.Kick()
	}
	return err
}
