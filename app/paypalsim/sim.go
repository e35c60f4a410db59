// Package paypalsim is a PayPal-compatible sandbox simulator: the subset of the PayPal
// REST API Meritmark uses (OAuth2 client credentials, Orders v2 create / get / capture
// with PayPal-Request-Id idempotency, webhook signature verification), kept in memory
// (New) or in the database shared by every server instance (NewShared). It lets the
// whole payment flow run on a machine without internet or PayPal credentials.
//
// PayPal's buyer approval happens on paypal.com; here the buyer's decision is one call,
// POST /sim/orders/{id}/approve {"outcome": "approve" | "decline" | "pending"}:
//   - approve: the capture completes;
//   - decline: the capture is refused with 422 INSTRUMENT_DECLINED;
//   - pending: the capture is PENDING (PENDING_REVIEW) until
//     POST /sim/captures/{id}/complete or /deny, which also sends the
//     PAYMENT.CAPTURE.COMPLETED / PAYMENT.CAPTURE.DENIED webhook through Deliver.
//
// Webhooks are signed with an HMAC of the transmission id, time, webhook id and the
// body's CRC32 under the simulator's secret; /v1/notifications/verify-webhook-signature
// checks them the way PayPal's endpoint does for real events.
package paypalsim

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Outcomes the buyer can choose.
const (
	OutcomeApprove = "approve"
	OutcomeDecline = "decline"
	OutcomePending = "pending"
)

// AuthAlgo is the simulator's webhook signature algorithm name.
const AuthAlgo = "HMACSHA256-SIM"

// Sim is one simulated PayPal account. Safe for concurrent use.
type Sim struct {
	ClientID  string
	Secret    string
	WebhookID string
	// PublicBase is where the simulator is reachable for links (e.g. "/paypal-sim").
	PublicBase string
	// Deliver, when set, receives each webhook event the simulator sends: the raw body
	// and PayPal's transmission headers. It is called synchronously.
	Deliver func(body []byte, header http.Header) error
	// TokenLifetime is how long an access token lives (default 9 hours, as PayPal).
	TokenLifetime time.Duration

	state state

	mu    sync.Mutex // guards stats
	stats Stats
}

// Stats counts what the simulator did through this Sim value (tests read it; with
// NewShared, other instances' work is not counted here).
type Stats struct {
	OrdersCreated int
	Captures      int // captures performed (not replays)
	Replays       int // answers repeated for a known PayPal-Request-Id
}

type stored struct {
	status int
	body   []byte
	at     time.Time
}

type order struct {
	ID          string
	Status      string // CREATED, APPROVED, COMPLETED
	Outcome     string
	ReferenceID string
	CustomID    string
	Description string
	Currency    string
	Value       string
	CreatedAt   time.Time
	Capture     *capture
}

type capture struct {
	ID     string
	Status string // COMPLETED, PENDING, DECLINED
	Reason string
	Time   time.Time
}

// New makes a simulator that keeps its state in this process.
func New(clientID, secret, webhookID string) *Sim {
	return &Sim{ClientID: clientID, Secret: secret, WebhookID: webhookID, TokenLifetime: 9 * time.Hour, state: newMemState()}
}

// RevokeTokens forgets every access token issued (as when PayPal revokes them early).
func (s *Sim) RevokeTokens() {
	_ = s.state.revokeTokens(context.Background())
}

func (s *Sim) count(f func(*Stats)) {
	s.mu.Lock()
	f(&s.stats)
	s.mu.Unlock()
}

// internalError answers a failure of the simulator's own storage the way PayPal answers
// its own failures: a 500 (the client treats the outcome as unknown and retries).
func internalError(w http.ResponseWriter) {
	writeErr(w, http.StatusInternalServerError, "INTERNAL_SERVER_ERROR", "", "An internal server error has occurred.")
}

// Stats returns the counters.
func (s *Sim) Stats() Stats {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stats
}

func randID(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

// ServeHTTP implements the API.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := strings.TrimSuffix(r.URL.Path, "/")
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	switch {
	case r.Method == http.MethodPost && p == "/v1/oauth2/token":
		s.token(w, r)
	case r.Method == http.MethodPost && p == "/v2/checkout/orders":
		s.authed(w, r, s.createOrder)
	case r.Method == http.MethodGet && len(parts) == 4 && parts[0] == "v2" && parts[1] == "checkout" && parts[2] == "orders":
		s.authed(w, r, func(w http.ResponseWriter, r *http.Request) { s.getOrder(w, r, parts[3]) })
	case r.Method == http.MethodPost && len(parts) == 5 && parts[0] == "v2" && parts[2] == "orders" && parts[4] == "capture":
		s.authed(w, r, func(w http.ResponseWriter, r *http.Request) { s.captureOrder(w, r, parts[3]) })
	case r.Method == http.MethodPost && p == "/v1/notifications/verify-webhook-signature":
		s.authed(w, r, s.verifySignature)
	case r.Method == http.MethodPost && len(parts) == 4 && parts[0] == "sim" && parts[1] == "orders" && parts[3] == "approve":
		s.approve(w, r, parts[2])
	case r.Method == http.MethodPost && len(parts) == 4 && parts[0] == "sim" && parts[1] == "captures" && (parts[3] == "complete" || parts[3] == "deny"):
		s.authed(w, r, func(w http.ResponseWriter, r *http.Request) { s.settle(w, r, parts[2], parts[3] == "complete") })
	default:
		writeErr(w, http.StatusNotFound, "RESOURCE_NOT_FOUND", "", "The specified resource does not exist.")
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) []byte {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
	return b
}

func errBody(name, issue, msg string) map[string]any {
	m := map[string]any{"name": name, "message": msg, "debug_id": strings.ToLower(randID(6))}
	if issue != "" {
		m["details"] = []map[string]string{{"issue": issue, "description": msg}}
	}
	return m
}

func writeErr(w http.ResponseWriter, status int, name, issue, msg string) {
	writeJSON(w, status, errBody(name, issue, msg))
}

func (s *Sim) token(w http.ResponseWriter, r *http.Request) {
	id, secret, ok := r.BasicAuth()
	if !ok || !hmac.Equal([]byte(id), []byte(s.ClientID)) || !hmac.Equal([]byte(secret), []byte(s.Secret)) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_client", "error_description": "Client Authentication failed"})
		return
	}
	_ = r.ParseForm()
	if r.PostForm.Get("grant_type") != "client_credentials" {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "unsupported_grant_type", "error_description": "Grant Type is NULL"})
		return
	}
	tok := "A21AA" + randID(24)
	if err := s.state.putToken(r.Context(), tok, time.Now().Add(s.TokenLifetime)); err != nil {
		internalError(w)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"scope": "https://uri.paypal.com/services/payments/payment", "access_token": tok, "token_type": "Bearer",
		"app_id": "APP-SIMULATOR", "expires_in": int(s.TokenLifetime.Seconds()), "nonce": randID(8),
	})
}

func (s *Sim) authed(w http.ResponseWriter, r *http.Request, next http.HandlerFunc) {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	var exp time.Time
	known := false
	if ok && tok != "" {
		var err error
		if exp, known, err = s.state.tokenExpiry(r.Context(), tok); err != nil {
			internalError(w)
			return
		}
	}
	if !ok || !known || time.Now().After(exp) {
		writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "invalid_token", "error_description": "Token signature verification failed"})
		return
	}
	next(w, r)
}

// effect is what an operation did, counted in Stats once it is committed.
type effect int

const (
	noEffect effect = iota
	orderCreated
	orderCaptured
)

// idempotent runs op in one state transaction. A POST carrying PayPal-Request-Id is
// answered with the first answer kept for that id (a replay), or runs op and keeps what
// it answered: concurrent requests with one id, even through other instances sharing
// the state, get the same answer.
func (s *Sim) idempotent(w http.ResponseWriter, r *http.Request, op func(tx stateTx) (int, any, effect, error)) {
	key := r.Header.Get("PayPal-Request-Id")
	if key != "" {
		key += " " + r.URL.Path
	}
	var status int
	var body []byte
	replay, done := false, noEffect
	run := func(tx stateTx) error {
		replay, done = false, noEffect
		if key != "" {
			st, err := tx.answer(key)
			if err != nil {
				return err
			}
			if st != nil {
				status, body, replay = st.status, st.body, true
				return nil
			}
		}
		code, v, eff, err := op(tx)
		if err != nil {
			return err
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		status, body, done = code, b, eff
		if key != "" && code < 500 {
			ok, err := tx.putAnswer(key, stored{code, b, time.Now()})
			if err != nil {
				return err
			}
			if !ok {
				return errAnswered
			}
		}
		return nil
	}
	err := s.state.atomic(r.Context(), run)
	if errors.Is(err, errAnswered) { // answered meanwhile: this run was undone, replay that answer
		err = s.state.atomic(r.Context(), run)
	}
	if err != nil {
		internalError(w)
		return
	}
	s.count(func(st *Stats) {
		switch {
		case replay:
			st.Replays++
		case done == orderCreated:
			st.OrdersCreated++
		case done == orderCaptured:
			st.Captures++
		}
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

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

// SendWebhook signs an event of type eventType carrying resource and hands it to Deliver.
func (s *Sim) SendWebhook(eventType string, resource any) error {
	body, header := s.SignedEvent("WH-"+randID(12), eventType, resource)
	if s.Deliver == nil {
		return fmt.Errorf("paypalsim: no webhook receiver")
	}
	return s.Deliver(body, header)
}

// SignedEvent builds a webhook event with id and its signed transmission headers.
func (s *Sim) SignedEvent(id, eventType string, resource any) ([]byte, http.Header) {
	body, _ := json.Marshal(map[string]any{
		"id": id, "event_version": "1.0", "create_time": time.Now().UTC().Format(time.RFC3339),
		"resource_type": "capture", "resource_version": "2.0", "event_type": eventType,
		"summary": "Payment " + strings.ToLower(strings.TrimPrefix(eventType, "PAYMENT.CAPTURE.")), "resource": resource,
	})
	h := http.Header{}
	tid := strings.ToLower(randID(16))
	ts := time.Now().UTC().Format(time.RFC3339)
	h.Set("Paypal-Transmission-Id", tid)
	h.Set("Paypal-Transmission-Time", ts)
	h.Set("Paypal-Auth-Algo", AuthAlgo)
	h.Set("Paypal-Cert-Url", s.PublicBase+"/v1/notifications/certs/CERT-SIMULATOR")
	h.Set("Paypal-Transmission-Sig", s.sign(tid, ts, s.WebhookID, body))
	h.Set("Content-Type", "application/json")
	return body, h
}

func (s *Sim) sign(tid, ts, webhookID string, body []byte) string {
	var compact bytes.Buffer
	if json.Compact(&compact, body) == nil {
		body = compact.Bytes()
	}
	msg := fmt.Sprintf("%s|%s|%s|%d", tid, ts, webhookID, crc32.ChecksumIEEE(body))
	m := hmac.New(sha256.New, []byte(s.Secret))
	m.Write([]byte(msg))
	return base64.StdEncoding.EncodeToString(m.Sum(nil))
}

func (s *Sim) verifySignature(w http.ResponseWriter, r *http.Request) {
	var in struct {
		AuthAlgo         string          `json:"auth_algo"`
		CertURL          string          `json:"cert_url"`
		TransmissionID   string          `json:"transmission_id"`
		TransmissionSig  string          `json:"transmission_sig"`
		TransmissionTime string          `json:"transmission_time"`
		WebhookID        string          `json:"webhook_id"`
		WebhookEvent     json.RawMessage `json:"webhook_event"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4<<20)).Decode(&in); err != nil || in.TransmissionID == "" || len(in.WebhookEvent) == 0 {
		writeErr(w, http.StatusBadRequest, "VALIDATION_ERROR", "MISSING_REQUIRED_PARAMETER", "Invalid data provided")
		return
	}
	status := "FAILURE"
	if in.AuthAlgo == AuthAlgo && in.WebhookID == s.WebhookID &&
		hmac.Equal([]byte(in.TransmissionSig), []byte(s.sign(in.TransmissionID, in.TransmissionTime, in.WebhookID, in.WebhookEvent))) {
		status = "SUCCESS"
	}
	writeJSON(w, http.StatusOK, map[string]string{"verification_status": status})
}
