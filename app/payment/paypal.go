package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// Client talks to the PayPal REST API (Orders v2, OAuth2 client credentials, webhook
// signature verification) at a configurable base URL: https://api-m.paypal.com,
// https://api-m.sandbox.paypal.com, or the built-in simulator.
type Client struct {
	BaseURL  string
	ClientID string
	Secret   string
	HTTP     *http.Client

	// Time budgets. The browser waits 30 s for order creation and 45 s for verification
	// (spec section 9), so the server's work must fit inside those.
	CreateTimeout         time.Duration // whole create-order call, token included
	CaptureBudget         time.Duration // all capture attempts plus the final order lookup
	CaptureAttemptTimeout time.Duration // one capture attempt
	CaptureAttempts       int
	LookupTimeout         time.Duration // GET order, token, signature verification
	VerifyTimeout         time.Duration // webhook signature verification

	mu       sync.Mutex
	token    string
	tokenExp time.Time
}

// NewClient makes a client with the default time budgets.
func NewClient(baseURL, clientID, secret string, hc *http.Client) *Client {
	if hc == nil {
		hc = &http.Client{}
	}
	return &Client{
		BaseURL: strings.TrimRight(baseURL, "/"), ClientID: clientID, Secret: secret, HTTP: hc,
		CreateTimeout:         25 * time.Second,
		CaptureBudget:         40 * time.Second,
		CaptureAttemptTimeout: 12 * time.Second,
		CaptureAttempts:       3,
		LookupTimeout:         8 * time.Second,
		VerifyTimeout:         15 * time.Second,
	}
}

// APIError is a definite answer from PayPal refusing a request (4xx), with the first
// issue of its details (INSTRUMENT_DECLINED, ORDER_NOT_APPROVED, ...).
type APIError struct {
	Status  int
	Name    string
	Message string
	Issue   string
	DebugID string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("paypal: %d %s %s: %s (debug id %s)", e.Status, e.Name, e.Issue, e.Message, e.DebugID)
}

// ErrIndeterminate means PayPal could not be reached or answered with a server error, so
// the outcome of the request is unknown.
var ErrIndeterminate = errors.New("paypal: outcome unknown")

// Order is the part of a PayPal order the server uses.
type Order struct {
	ID            string         `json:"id"`
	Status        string         `json:"status"` // CREATED, APPROVED, COMPLETED, VOIDED, ...
	Intent        string         `json:"intent,omitempty"`
	PurchaseUnits []PurchaseUnit `json:"purchase_units"`
	Links         []Link         `json:"links,omitempty"`
}

// PurchaseUnit is one unit of an order.
type PurchaseUnit struct {
	ReferenceID string `json:"reference_id,omitempty"`
	CustomID    string `json:"custom_id,omitempty"`
	Description string `json:"description,omitempty"`
	Amount      Money  `json:"amount"`
	Payments    *struct {
		Captures []CaptureObj `json:"captures"`
	} `json:"payments,omitempty"`
}

// Money is PayPal's amount.
type Money struct {
	CurrencyCode string `json:"currency_code"`
	Value        string `json:"value"`
}

// Link is a HATEOAS link.
type Link struct {
	Href   string `json:"href"`
	Rel    string `json:"rel"`
	Method string `json:"method,omitempty"`
}

// CaptureObj is PayPal's capture resource (also the resource of PAYMENT.CAPTURE.* events).
type CaptureObj struct {
	ID            string `json:"id"`
	Status        string `json:"status"` // COMPLETED, PENDING, DECLINED, FAILED, ...
	StatusDetails *struct {
		Reason string `json:"reason"`
	} `json:"status_details,omitempty"`
	Amount            Money  `json:"amount"`
	CustomID          string `json:"custom_id,omitempty"`
	FinalCapture      bool   `json:"final_capture,omitempty"`
	SupplementaryData *struct {
		RelatedIDs struct {
			OrderID string `json:"order_id"`
		} `json:"related_ids"`
	} `json:"supplementary_data,omitempty"`
}

// Capture is the outcome of capturing an order, flattened.
type Capture struct {
	OrderID     string
	OrderStatus string
	CaptureID   string
	Status      string // COMPLETED, PENDING, DECLINED, FAILED; "" when the order has no capture
	Reason      string
	AmountCents int64
	AmountOK    bool // the amount value parsed
	Currency    string
	CustomID    string
}

func captureFromOrder(o *Order) *Capture {
	c := &Capture{OrderID: o.ID, OrderStatus: o.Status}
	for _, pu := range o.PurchaseUnits {
		if c.CustomID == "" {
			c.CustomID = pu.CustomID
		}
		if pu.Payments == nil || len(pu.Payments.Captures) == 0 {
			continue
		}
		cp := pu.Payments.Captures[0]
		c.CaptureID, c.Status = cp.ID, cp.Status
		if cp.StatusDetails != nil {
			c.Reason = cp.StatusDetails.Reason
		}
		c.AmountCents, c.AmountOK = ParseAmount(cp.Amount.Value)
		c.Currency = cp.Amount.CurrencyCode
		if cp.CustomID != "" {
			c.CustomID = cp.CustomID
		}
		break
	}
	return c
}

// CreateOrderInput describes the order to create.
type CreateOrderInput struct {
	AmountCents int64
	Currency    string
	CustomID    string // the application id
	ReferenceID string // the badge id
	Description string
}

// CreateOrder creates an order (intent CAPTURE). requestID is sent as PayPal-Request-Id
// so that a repeated call creates the order once.
func (c *Client) CreateOrder(ctx context.Context, in CreateOrderInput, requestID string) (*Order, error) {
	ctx, cancel := context.WithTimeout(ctx, c.CreateTimeout)
	defer cancel()
	desc := in.Description
	if len(desc) > 127 {
		desc = desc[:127]
	}
	body := map[string]any{
		"intent": "CAPTURE",
		"purchase_units": []map[string]any{{
			"reference_id": in.ReferenceID,
			"custom_id":    in.CustomID,
			"description":  desc,
			"amount":       Money{CurrencyCode: in.Currency, Value: Amount(in.AmountCents)},
		}},
		"payment_source": map[string]any{"paypal": map[string]any{"experience_context": map[string]any{
			"shipping_preference": "NO_SHIPPING", "user_action": "PAY_NOW", "brand_name": "Meritmark",
		}}},
	}
	var o Order
	if err := c.call(ctx, http.MethodPost, "/v2/checkout/orders", requestID, body, &o); err != nil {
		return nil, err
	}
	if o.ID == "" {
		return nil, fmt.Errorf("%w: order response without id", ErrIndeterminate)
	}
	return &o, nil
}

// GetOrder reads an order.
func (c *Client) GetOrder(ctx context.Context, id string) (*Order, error) {
	ctx, cancel := context.WithTimeout(ctx, c.LookupTimeout)
	defer cancel()
	var o Order
	if err := c.call(ctx, http.MethodGet, "/v2/checkout/orders/"+url.PathEscape(id), "", nil, &o); err != nil {
		return nil, err
	}
	return &o, nil
}

// CaptureOrder captures an approved order, sending requestID as PayPal-Request-Id on
// every attempt: a retry after a timeout returns the first attempt's result instead of
// capturing twice. When no attempt gets an answer, it reads the order to learn whether
// the capture happened. A capture PayPal refuses comes back as *APIError; when the truth
// cannot be learned, ErrIndeterminate.
func (c *Client) CaptureOrder(ctx context.Context, id, requestID string) (*Capture, error) {
	ctx, cancel := context.WithTimeout(ctx, c.CaptureBudget)
	defer cancel()
	path := "/v2/checkout/orders/" + url.PathEscape(id) + "/capture"
	attempts := c.CaptureAttempts
	if attempts < 1 {
		attempts = 1
	}
	var lastErr error
	for i := 0; i < attempts; i++ {
		// keep time for the order lookup after the attempts
		remaining := time.Until(deadlineOf(ctx)) - c.LookupTimeout
		if remaining <= 0 {
			break
		}
		at := c.CaptureAttemptTimeout
		if at > remaining {
			at = remaining
		}
		actx, acancel := context.WithTimeout(ctx, at)
		var o Order
		err := c.call(actx, http.MethodPost, path, requestID, map[string]any{}, &o)
		acancel()
		if err == nil {
			return captureFromOrder(&o), nil
		}
		var ae *APIError
		if errors.As(err, &ae) {
			if ae.Issue == "ORDER_ALREADY_CAPTURED" {
				break // captured earlier (another request id): read the order
			}
			return nil, err
		}
		lastErr = err
		slog.Warn("paypal capture attempt failed; retrying with the same request id", "order", id, "attempt", i+1, "err", err)
		if ctx.Err() != nil {
			break
		}
	}
	// learn the truth from the order itself
	lctx, lcancel := context.WithTimeout(context.WithoutCancel(ctx), c.LookupTimeout)
	defer lcancel()
	o, err := c.GetOrder(lctx, id)
	if err != nil {
		var ae *APIError
		if errors.As(err, &ae) && ae.Status == http.StatusNotFound {
			return nil, err
		}
		return nil, fmt.Errorf("%w: capture: %v; lookup: %v", ErrIndeterminate, lastErr, err)
	}
	cp := captureFromOrder(o)
	if cp.CaptureID == "" {
		if lastErr == nil {
			return nil, &APIError{Status: http.StatusUnprocessableEntity, Name: "UNPROCESSABLE_ENTITY", Issue: "ORDER_NOT_CAPTURED", Message: "the order has no capture"}
		}
		return nil, fmt.Errorf("%w: capture: %v; order status %s", ErrIndeterminate, lastErr, o.Status)
	}
	return cp, nil
}

func deadlineOf(ctx context.Context) time.Time {
	if d, ok := ctx.Deadline(); ok {
		return d
	}
	return time.Now().Add(time.Hour)
}

// WebhookHeaders are the transmission headers PayPal sends with a webhook.
type WebhookHeaders struct {
	AuthAlgo, CertURL, TransmissionID, TransmissionSig, TransmissionTime string
}

// VerifyWebhookSignature asks PayPal whether the event (raw body) with these headers was
// sent by PayPal for webhookID.
func (c *Client) VerifyWebhookSignature(ctx context.Context, h WebhookHeaders, webhookID string, body []byte) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, c.VerifyTimeout)
	defer cancel()
	req := map[string]any{
		"auth_algo":         h.AuthAlgo,
		"cert_url":          h.CertURL,
		"transmission_id":   h.TransmissionID,
		"transmission_sig":  h.TransmissionSig,
		"transmission_time": h.TransmissionTime,
		"webhook_id":        webhookID,
		"webhook_event":     json.RawMessage(body),
	}
	var res struct {
		VerificationStatus string `json:"verification_status"`
	}
	if err := c.call(ctx, http.MethodPost, "/v1/notifications/verify-webhook-signature", "", req, &res); err != nil {
		return false, err
	}
	return res.VerificationStatus == "SUCCESS", nil
}

// accessToken returns a cached OAuth2 token, fetching a new one when it is missing or
// about to expire.
func (c *Client) accessToken(ctx context.Context, refresh bool) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !refresh && c.token != "" && time.Now().Before(c.tokenExp) {
		return c.token, nil
	}
	tctx, cancel := context.WithTimeout(ctx, c.LookupTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(tctx, http.MethodPost, c.BaseURL+"/v1/oauth2/token", strings.NewReader("grant_type=client_credentials"))
	if err != nil {
		return "", err
	}
	req.SetBasicAuth(c.ClientID, c.Secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	res, err := c.HTTP.Do(req)
	if err != nil {
		return "", fmt.Errorf("%w: token: %v", ErrIndeterminate, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if res.StatusCode != http.StatusOK {
		if res.StatusCode >= 500 {
			return "", fmt.Errorf("%w: token: status %d", ErrIndeterminate, res.StatusCode)
		}
		return "", apiError(res.StatusCode, b)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
		ExpiresIn   int64  `json:"expires_in"`
	}
	if err := json.Unmarshal(b, &tok); err != nil || tok.AccessToken == "" {
		return "", fmt.Errorf("%w: token response unreadable", ErrIndeterminate)
	}
	life := time.Duration(tok.ExpiresIn) * time.Second
	if life > 2*time.Minute {
		life -= time.Minute // refresh a minute early
	}
	c.token, c.tokenExp = tok.AccessToken, time.Now().Add(life)
	return c.token, nil
}

// call sends one JSON request with the bearer token (refreshed once on a 401) and decodes
// a 2xx answer into out. 4xx answers become *APIError; transport failures and 5xx wrap
// ErrIndeterminate.
func (c *Client) call(ctx context.Context, method, path, requestID string, in, out any) error {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return err
		}
	}
	for try := 0; try < 2; try++ {
		tok, err := c.accessToken(ctx, try > 0)
		if err != nil {
			return err
		}
		var body io.Reader
		if payload != nil {
			body = bytes.NewReader(payload)
		}
		req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, body)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Accept", "application/json")
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		if requestID != "" {
			req.Header.Set("PayPal-Request-Id", requestID)
		}
		req.Header.Set("Prefer", "return=representation")
		res, err := c.HTTP.Do(req)
		if err != nil {
			return fmt.Errorf("%w: %s %s: %v", ErrIndeterminate, method, path, err)
		}
		b, rerr := io.ReadAll(io.LimitReader(res.Body, 4<<20))
		res.Body.Close()
		if rerr != nil {
			return fmt.Errorf("%w: %s %s: read: %v", ErrIndeterminate, method, path, rerr)
		}
		switch {
		case res.StatusCode == http.StatusUnauthorized && try == 0:
			continue // token revoked or expired early: fetch a new one once
		case res.StatusCode >= 200 && res.StatusCode < 300:
			if out != nil && len(b) > 0 {
				if err := json.Unmarshal(b, out); err != nil {
					return fmt.Errorf("%w: %s %s: unreadable answer: %v", ErrIndeterminate, method, path, err)
				}
			}
			return nil
		case res.StatusCode >= 500 || res.StatusCode == http.StatusTooManyRequests:
			return fmt.Errorf("%w: %s %s: status %d", ErrIndeterminate, method, path, res.StatusCode)
		default:
			return apiError(res.StatusCode, b)
		}
	}
	return &APIError{Status: http.StatusUnauthorized, Name: "AUTHENTICATION_FAILURE", Message: "PayPal refused the access token"}
}

func apiError(status int, b []byte) *APIError {
	var e struct {
		Name             string `json:"name"`
		Message          string `json:"message"`
		DebugID          string `json:"debug_id"`
		Error            string `json:"error"`
		ErrorDescription string `json:"error_description"`
		Details          []struct {
			Issue       string `json:"issue"`
			Description string `json:"description"`
		} `json:"details"`
	}
	_ = json.Unmarshal(b, &e)
	ae := &APIError{Status: status, Name: e.Name, Message: e.Message, DebugID: e.DebugID}
	if ae.Name == "" {
		ae.Name = e.Error
	}
	if ae.Message == "" {
		ae.Message = e.ErrorDescription
	}
	if len(e.Details) > 0 {
		ae.Issue = e.Details[0].Issue
	}
	return ae
}
