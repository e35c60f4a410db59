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
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
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
