package webhook

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/outbox"
)

// DefaultLease is how long a worker holds a claimed delivery (longer than an attempt).
const DefaultLease = time.Minute

// UserAgent names the sender to receivers.
const UserAgent = "Meritmark-Webhooks/1.0"

// claimable: due pending deliveries and lapsed claims, of endpoints not paused.
const claimable = "((status = 'pending' AND next_attempt_at <= ?) OR " + outbox.Lapsed + ") AND " +
	"endpoint_id IN (SELECT id FROM webhook_endpoints WHERE paused_at IS NULL)"

// Run delivers until ctx ends, polling every interval and whenever an event commits.
func (s *Service) Run(ctx context.Context, interval time.Duration) {
	outbox.Loop(ctx, "webhook worker", interval, s.kick, func(ctx context.Context) error {
		_, err := s.Flush(ctx)
		return err
	})
}

// Flush claims the due deliveries and makes one attempt at each; it answers how many
// succeeded.
func (s *Service) Flush(ctx context.Context) (int, error) {
	now := s.now()
	lease := s.Lease
	if lease <= 0 {
		lease = DefaultLease
	}
	until := now.Add(lease).Truncate(time.Millisecond)
	ds, err := outbox.Claim(ctx, s.DB, "webhook_deliveries", claimable, []any{now, now}, "next_attempt_at", 20, until,
		func(d *Delivery) string { return d.ID })
	ok := 0
	for i := range ds {
		ds[i].Attempts++
		ds[i].LeaseUntil = &until
		if s.attempt(ctx, &ds[i]) {
			ok++
		}
	}
	return ok, err
}

// attempt sends d once and records the outcome, if d's claim is still this worker's.
func (s *Service) attempt(ctx context.Context, d *Delivery) bool {
	var ep Endpoint
	if err := s.DB.NewSelect().Model(&ep).Where("id = ?", d.EndpointID).Scan(ctx); err != nil {
		return false // deleted meanwhile: its deliveries went with it
	}
	start := time.Now()
	code, err := s.send(ctx, &ep, d)
	took := time.Since(start).Milliseconds()
	now := s.now()
	mine := func(q *bun.UpdateQuery) *bun.UpdateQuery {
		return q.Where("id = ? AND status = 'sending' AND lease_until = ?", d.ID, *d.LeaseUntil)
	}
	if err == nil {
		_, uerr := mine(s.DB.NewUpdate().Model((*Delivery)(nil)).Set("status = 'succeeded'").Set("delivered_at = ?", now).
			Set("response_code = ?", code).Set("last_error = ''").Set("duration_ms = ?", took).Set("lease_until = NULL")).Exec(ctx)
		if uerr == nil && ep.FailingSince != nil {
			_, uerr = s.DB.NewUpdate().Model((*Endpoint)(nil)).Set("failing_since = NULL").Where("id = ?", ep.ID).Exec(ctx)
		}
		return uerr == nil
	}
	msg := err.Error()
	if len(msg) > 500 {
		msg = msg[:500]
	}
	next, again := nextAttempt(d.Attempts, now)
	status := "pending"
	if !again {
		status, next = "failed", now
	}
	err = s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := mine(tx.NewUpdate().Model((*Delivery)(nil)).Set("status = ?", status).Set("next_attempt_at = ?", next).
			Set("response_code = ?", code).Set("last_error = ?", msg).Set("duration_ms = ?", took).Set("lease_until = NULL")).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 || again {
			return nil
		}
		// the last attempt failed: the endpoint is failing; tell the admins once
		res, err = tx.NewUpdate().Model((*Endpoint)(nil)).Set("failing_since = ?", now).
			Where("id = ? AND failing_since IS NULL", ep.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return s.mailAdmins(ctx, tx, &ep, d, msg)
		}
		return nil
	})
	if err != nil {
		slog.Warn("webhook: recording a delivery", "delivery", d.ID, "err", err)
	}
	if s.Mailer != nil && !again {
		s.Mailer.Kick()
	}
	return false
}

func (s *Service) mailAdmins(ctx context.Context, tx bun.IDB, ep *Endpoint, d *Delivery, lastErr string) error {
	var admins []model.User
	if err := tx.NewSelect().Model(&admins).Column("email", "name").Where("role = ? AND disabled_at IS NULL", model.RoleAdmin).Scan(ctx); err != nil {
		return err
	}
	for _, a := range admins {
		text := fmt.Sprintf("Hello %s,\n\nThe webhook endpoint %s stopped accepting deliveries: a %s event could not be delivered after %d attempts over about three days (last error: %s).\n\nNew events are still queued for it. Check the receiver, then open Admin Dashboard > Webhooks to resend the failed deliveries, or pause the endpoint.\n",
			a.Name, ep.URL, d.EventType, d.Attempts, lastErr)
		if err := mail.Queue(ctx, tx, mail.Message{To: a.Email, Subject: "A Meritmark webhook endpoint is failing", Text: text}); err != nil {
			return err
		}
	}
	return nil
}

// send makes one HTTP request of d to ep; a 2xx answer is success (its code answered).
func (s *Service) send(ctx context.Context, ep *Endpoint, d *Delivery) (int, error) {
	if _, err := s.Policy.CheckURL(ep.URL); err != nil {
		return 0, err // the policy changed since it was added (an http endpoint on an https site)
	}
	if s.Box == nil {
		return 0, fmt.Errorf("%s", MsgSecretsUnavailable)
	}
	secret, err := s.Box.Open("webhook:"+ep.ID, ep.Secret)
	if err != nil {
		return 0, fmt.Errorf("the endpoint's secret does not open with this server's key (MERITMARK_SECRET_KEY)")
	}
	ts := s.now()
	body := []byte(d.Payload)
	sig, err := Sign(secret, d.EventID, ts, body)
	if err != nil {
		return 0, err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", UserAgent)
	req.Header.Set("webhook-id", d.EventID)
	req.Header.Set("webhook-timestamp", strconv.FormatInt(ts.Unix(), 10))
	req.Header.Set("webhook-signature", sig)
	res, err := s.client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "Post "))
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(io.LimitReader(res.Body, MaxResponse))
	if res.StatusCode < 200 || res.StatusCode > 299 {
		a := strings.TrimSpace(string(answer))
		if len(a) > 200 {
			a = a[:200]
		}
		return res.StatusCode, fmt.Errorf("answered %d %s", res.StatusCode, a)
	}
	return res.StatusCode, nil
}
