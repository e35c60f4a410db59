package payment

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

// Webhook outcomes.
var (
	ErrWebhookNotConfigured = web.Unavailable("PayPal webhooks are not configured.")
	ErrWebhookSignature     = web.BadRequest("The webhook signature could not be verified.")
	ErrWebhookBody          = web.BadRequest("The webhook body is not a valid PayPal event.")
)

// HandleWebhook processes a PayPal webhook event once: its signature is verified through
// PayPal's verify-webhook-signature API, and the event id is recorded in the same
// transaction as its effect, so a redelivery changes nothing.
func (s *Service) HandleWebhook(ctx context.Context, h WebhookHeaders, body []byte) (string, error) {
	var ev struct {
		ID        string          `json:"id"`
		EventType string          `json:"event_type"`
		Resource  json.RawMessage `json:"resource"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || len(ev.ID) > 128 || ev.EventType == "" {
		return "", ErrWebhookBody
	}
	if s.WebhookID == "" {
		return "", ErrWebhookNotConfigured
	}
	if h.TransmissionID == "" || h.TransmissionSig == "" {
		return "", ErrWebhookSignature
	}
	ok, err := s.PayPal.VerifyWebhookSignature(ctx, h, s.WebhookID, body)
	if err != nil {
		slog.Warn("paypal webhook signature check failed to run", "event", ev.ID, "err", err)
		return "", web.Unavailable(MsgPayPalUnavailable)
	}
	if !ok {
		slog.Warn("paypal webhook with a bad signature", "event", ev.ID, "type", ev.EventType)
		return "", ErrWebhookSignature
	}
	var cp CaptureObj
	if strings.HasPrefix(ev.EventType, "PAYMENT.CAPTURE.") {
		if err := json.Unmarshal(ev.Resource, &cp); err != nil {
			return "", ErrWebhookBody
		}
	}
	msg := "Event processed."
	err = s.Events.RunInTx(ctx, s.DB, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.NewInsert().Model(&webhookEvent{ID: ev.ID, Type: ev.EventType, ReceivedAt: s.now()}).On("CONFLICT DO NOTHING").Exec(ctx)
		if err != nil {
			return err
		}
		if affected(res) != 1 {
			msg = "Event already processed."
			return nil
		}
		m, err := s.applyEvent(ctx, tx, ev.EventType, &cp)
		if m != "" {
			msg = m
		}
		return err
	})
	if err != nil {
		return "", err
	}
	s.kick()
	return msg, nil
}

type webhookEvent struct {
	bun.BaseModel `bun:"table:webhook_events"`

	ID         string    `bun:"id,pk"`
	Type       string    `bun:"type"`
	ReceivedAt time.Time `bun:"received_at"`
}

func (s *Service) applyEvent(ctx context.Context, tx bun.Tx, typ string, cp *CaptureObj) (string, error) {
	switch typ {
	case "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.PENDING", "PAYMENT.CAPTURE.DENIED", "PAYMENT.CAPTURE.DECLINED":
	default:
		return "Event ignored.", nil
	}
	orderID := ""
	if cp.SupplementaryData != nil {
		orderID = cp.SupplementaryData.RelatedIDs.OrderID
	}
	var order *model.PaymentOrder
	var err error
	if orderID != "" {
		order, err = orderByID(ctx, tx, orderID)
	} else if cp.ID != "" { // find the order through the payment recorded for the capture
		p := new(model.Payment)
		if err = tx.NewSelect().Model(p).Where("capture_id = ?", cp.ID).Scan(ctx); err == nil && p.OrderID != nil {
			order, err = orderByID(ctx, tx, *p.OrderID)
		}
	}
	if notFound(err) || (err == nil && order == nil) {
		slog.Info("paypal webhook for an unknown order", "type", typ, "capture", cp.ID, "order", orderID)
		return "Event ignored.", nil
	}
	if err != nil {
		return "", err
	}
	c := &Capture{OrderID: order.OrderID, CaptureID: cp.ID, Status: cp.Status, CustomID: cp.CustomID, Currency: cp.Amount.CurrencyCode}
	c.AmountCents, c.AmountOK = ParseAmount(cp.Amount.Value)
	switch typ {
	case "PAYMENT.CAPTURE.COMPLETED", "PAYMENT.CAPTURE.PENDING":
		if reason := mismatch(order, c); reason != "" {
			slog.Error("paypal webhook capture does not match the order: not recorded", "order", order.OrderID, "reason", reason)
			return "Event ignored.", s.releaseTx(ctx, tx, order, OrderMismatch, s.now())
		}
		if typ == "PAYMENT.CAPTURE.COMPLETED" {
			_, err = s.complete(ctx, tx, order, cp.ID)
		} else {
			_, err = s.recordPending(ctx, tx, order, cp.ID)
		}
		return "", err
	default:
		return "", s.fail(ctx, tx, order)
	}
}
