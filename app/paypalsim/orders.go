package paypalsim

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"
)

func (s *Sim) createOrder(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Intent        string `json:"intent"`
		PurchaseUnits []struct {
			ReferenceID string `json:"reference_id"`
			CustomID    string `json:"custom_id"`
			Description string `json:"description"`
			Amount      struct {
				CurrencyCode string `json:"currency_code"`
				Value        string `json:"value"`
			} `json:"amount"`
		} `json:"purchase_units"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&in); err != nil {
		writeErr(w, http.StatusBadRequest, "INVALID_REQUEST", "MALFORMED_REQUEST_JSON", "Request is not well-formed, syntactically incorrect, or violates schema.")
		return
	}
	s.idempotent(w, r, func(tx stateTx) (int, any, effect, error) {
		if in.Intent != "CAPTURE" && in.Intent != "AUTHORIZE" {
			return http.StatusBadRequest, errBody("INVALID_REQUEST", "INVALID_PARAMETER_VALUE", "intent must be CAPTURE or AUTHORIZE"), noEffect, nil
		}
		if len(in.PurchaseUnits) != 1 {
			return http.StatusBadRequest, errBody("INVALID_REQUEST", "MISSING_REQUIRED_PARAMETER", "exactly one purchase unit is supported"), noEffect, nil
		}
		pu := in.PurchaseUnits[0]
		if len(pu.Amount.CurrencyCode) != 3 {
			return http.StatusUnprocessableEntity, errBody("UNPROCESSABLE_ENTITY", "CURRENCY_NOT_SUPPORTED", "currency_code is not supported"), noEffect, nil
		}
		if !validValue(pu.Amount.Value) {
			return http.StatusBadRequest, errBody("INVALID_REQUEST", "INVALID_PARAMETER_VALUE", "amount value must be a positive decimal with at most 2 fraction digits"), noEffect, nil
		}
		o := &order{ID: randID(9)[:17], Status: "CREATED", ReferenceID: pu.ReferenceID, CustomID: pu.CustomID,
			Description: pu.Description, Currency: pu.Amount.CurrencyCode, Value: pu.Amount.Value, CreatedAt: time.Now().UTC()}
		if err := tx.putOrder(o); err != nil {
			return 0, nil, noEffect, err
		}
		return http.StatusCreated, s.orderJSON(o), orderCreated, nil
	})
}

func validValue(v string) bool {
	whole, frac, has := strings.Cut(v, ".")
	if whole == "" || len(whole) > 10 || (has && (len(frac) == 0 || len(frac) > 2)) {
		return false
	}
	nonzero := false
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return false
		}
		if r != '0' {
			nonzero = true
		}
	}
	return nonzero
}

// orderJSON renders an order.
func (s *Sim) orderJSON(o *order) map[string]any {
	pu := map[string]any{
		"reference_id": o.ReferenceID, "custom_id": o.CustomID, "description": o.Description,
		"amount": map[string]string{"currency_code": o.Currency, "value": o.Value},
	}
	if o.Capture != nil {
		pu["payments"] = map[string]any{"captures": []any{s.captureJSON(o, o.Capture)}}
	}
	self := s.PublicBase + "/v2/checkout/orders/" + o.ID
	return map[string]any{
		"id": o.ID, "intent": "CAPTURE", "status": o.Status, "create_time": o.CreatedAt.Format(time.RFC3339),
		"purchase_units": []any{pu},
		"links": []map[string]string{
			{"href": self, "rel": "self", "method": "GET"},
			{"href": s.PublicBase + "/sim/orders/" + o.ID + "/approve", "rel": "approve", "method": "POST"},
			{"href": self + "/capture", "rel": "capture", "method": "POST"},
		},
	}
}

func (s *Sim) captureJSON(o *order, c *capture) map[string]any {
	m := map[string]any{
		"id": c.ID, "status": c.Status, "amount": map[string]string{"currency_code": o.Currency, "value": o.Value},
		"custom_id": o.CustomID, "final_capture": true, "create_time": c.Time.Format(time.RFC3339),
		"supplementary_data": map[string]any{"related_ids": map[string]string{"order_id": o.ID}},
	}
	if c.Reason != "" {
		m["status_details"] = map[string]string{"reason": c.Reason}
	}
	return m
}

func (s *Sim) getOrder(w http.ResponseWriter, r *http.Request, id string) {
	var v map[string]any
	err := s.state.atomic(r.Context(), func(tx stateTx) error {
		o, err := tx.order(id)
		if o != nil {
			v = s.orderJSON(o)
		}
		return err
	})
	switch {
	case err != nil:
		internalError(w)
	case v == nil:
		writeErr(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

func (s *Sim) captureOrder(w http.ResponseWriter, r *http.Request, id string) {
	s.idempotent(w, r, func(tx stateTx) (int, any, effect, error) {
		o, err := tx.order(id)
		switch {
		case err != nil:
			return 0, nil, noEffect, err
		case o == nil:
			return http.StatusNotFound, errBody("RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "Specified resource ID does not exist."), noEffect, nil
		case o.Capture != nil && o.Capture.Status != "DECLINED":
			return http.StatusUnprocessableEntity, errBody("UNPROCESSABLE_ENTITY", "ORDER_ALREADY_CAPTURED", "Order already captured."), noEffect, nil
		case o.Status != "APPROVED":
			return http.StatusUnprocessableEntity, errBody("UNPROCESSABLE_ENTITY", "ORDER_NOT_APPROVED", "Payer has not yet approved the Order for payment."), noEffect, nil
		case o.Outcome == OutcomeDecline:
			return http.StatusUnprocessableEntity, errBody("UNPROCESSABLE_ENTITY", "INSTRUMENT_DECLINED", "The instrument presented was either declined by the processor or bank, or it can't be used for this payment."), noEffect, nil
		}
		c := &capture{ID: randID(9)[:17], Status: "COMPLETED", Time: time.Now().UTC()}
		if o.Outcome == OutcomePending {
			c.Status, c.Reason = "PENDING", "PENDING_REVIEW"
		}
		o.Capture, o.Status = c, "COMPLETED"
		if err := tx.putOrder(o); err != nil {
			return 0, nil, noEffect, err
		}
		return http.StatusCreated, s.orderJSON(o), orderCaptured, nil
	})
}

// approve is the buyer's decision on paypal.com.
func (s *Sim) approve(w http.ResponseWriter, r *http.Request, id string) {
	var in struct {
		Outcome string `json:"outcome"`
	}
	_ = json.NewDecoder(io.LimitReader(r.Body, 1<<16)).Decode(&in)
	if in.Outcome == "" {
		in.Outcome = OutcomeApprove
	}
	if in.Outcome != OutcomeApprove && in.Outcome != OutcomeDecline && in.Outcome != OutcomePending {
		writeErr(w, http.StatusBadRequest, "INVALID_REQUEST", "INVALID_PARAMETER_VALUE", "outcome must be approve, decline or pending")
		return
	}
	var v map[string]any
	err := s.state.atomic(r.Context(), func(tx stateTx) error {
		o, err := tx.order(id)
		if err != nil || o == nil {
			return err
		}
		if o.Status == "CREATED" || o.Status == "APPROVED" {
			o.Status, o.Outcome = "APPROVED", in.Outcome
			if err := tx.putOrder(o); err != nil {
				return err
			}
		}
		v = s.orderJSON(o)
		return nil
	})
	switch {
	case err != nil:
		internalError(w)
	case v == nil:
		writeErr(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "INVALID_RESOURCE_ID", "Specified resource ID does not exist.")
	case v["status"] != "APPROVED":
		writeErr(w, http.StatusUnprocessableEntity, "UNPROCESSABLE_ENTITY", "ORDER_ALREADY_COMPLETED", "The order cannot be approved again.")
	default:
		writeJSON(w, http.StatusOK, v)
	}
}

// errNotPending refuses to settle a capture that is not PENDING.
var errNotPending = errors.New("paypalsim: capture not pending")

// settle completes or denies a PENDING capture and sends the webhook.
func (s *Sim) settle(w http.ResponseWriter, r *http.Request, captureID string, complete bool) {
	event := "PAYMENT.CAPTURE.COMPLETED"
	if !complete {
		event = "PAYMENT.CAPTURE.DENIED"
	}
	var resource map[string]any
	err := s.state.atomic(r.Context(), func(tx stateTx) error {
		o, err := tx.orderByCapture(captureID)
		if err != nil {
			return err
		}
		if o == nil || o.Capture == nil || o.Capture.Status != "PENDING" {
			return errNotPending
		}
		if complete {
			o.Capture.Status, o.Capture.Reason = "COMPLETED", ""
		} else {
			o.Capture.Status, o.Capture.Reason = "DECLINED", ""
		}
		if err := tx.putOrder(o); err != nil {
			return err
		}
		resource = s.captureJSON(o, o.Capture)
		return nil
	})
	if errors.Is(err, errNotPending) {
		writeErr(w, http.StatusUnprocessableEntity, "UNPROCESSABLE_ENTITY", "CAPTURE_NOT_PENDING", "Only a PENDING capture can be settled.")
		return
	}
	if err != nil {
		internalError(w)
		return
	}
	err = s.SendWebhook(event, resource)
	res := map[string]any{"capture": resource, "event_type": event, "delivered": err == nil}
	if err != nil {
		res["delivery_error"] = err.Error()
	}
	writeJSON(w, http.StatusOK, res)
}
