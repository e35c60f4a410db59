// Package webhook sends outbound webhooks, following Standard Webhooks 1.0: admins add
// endpoints with the events they want; each event is queued as a delivery per endpoint in
// the transaction that caused it (an app/events subscriber) and sent by a leased worker
// (app/outbox) with exponential backoff for up to three days. A request carries
// webhook-id (the event's id, the same on every retry), webhook-timestamp and
// webhook-signature ("v1," + base64 HMAC-SHA256 over "id.timestamp.body" with the
// endpoint's whsec_ secret). Egress is guarded: https only on an https site, no private,
// loopback or link-local address after DNS resolution (checked when connecting, so a
// rebinding name cannot slip through), no redirects, a short timeout, a capped response.
package webhook

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/web"
)

// Endpoint is a receiver an admin added.
type Endpoint struct {
	bun.BaseModel `bun:"table:webhook_endpoints"`

	ID           string     `bun:"id,pk"`
	URL          string     `bun:"url"`
	Description  string     `bun:"description"`
	Events       []string   `bun:"events,type:text"`
	Secret       string     `bun:"secret"` // sealed (app/auth SecretBox)
	PausedAt     *time.Time `bun:"paused_at"`
	FailingSince *time.Time `bun:"failing_since"`
	CreatedBy    *string    `bun:"created_by"`
	CreatedAt    time.Time  `bun:"created_at"`
	UpdatedAt    time.Time  `bun:"updated_at"`
}

// Delivery is one event on its way to one endpoint.
type Delivery struct {
	bun.BaseModel `bun:"table:webhook_deliveries"`

	ID            string     `bun:"id,pk"`
	EndpointID    string     `bun:"endpoint_id"`
	EventID       string     `bun:"event_id"`
	EventType     string     `bun:"event_type"`
	Payload       string     `bun:"payload"`
	Status        string     `bun:"status"` // pending, sending, succeeded, failed
	Attempts      int        `bun:"attempts"`
	NextAttemptAt time.Time  `bun:"next_attempt_at"`
	LeaseUntil    *time.Time `bun:"lease_until"`
	ResponseCode  int        `bun:"response_code"`
	LastError     string     `bun:"last_error"`
	DurationMS    int64      `bun:"duration_ms"`
	CreatedAt     time.Time  `bun:"created_at"`
	DeliveredAt   *time.Time `bun:"delivered_at"`
}

// NewSecret is a new endpoint secret: "whsec_" and 24 random bytes in base64.
func NewSecret() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return "whsec_" + base64.StdEncoding.EncodeToString(b)
}

// Sign answers the webhook-signature header of a message (Standard Webhooks 1.0).
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return "", errors.New("webhook: malformed secret")
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(ts.Unix(), 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Messages a client sees.
const (
	MsgURLInvalid   = "Enter the endpoint's full URL, such as https://hooks.example.com/meritmark."
	MsgURLScheme    = "The endpoint must use https."
	MsgURLPrivate   = "The endpoint must be reachable on the public internet: private, loopback and link-local addresses are refused."
	MsgEventsNeeded = "Choose at least one event to send."
	MsgEventUnknown = "Unknown event: %s."
	MsgNotFound     = "Webhook endpoint not found."
	MsgDeliveryGone = "Delivery not found."
	MsgDescTooLong  = "The description must be at most 200 characters."
)

// Policy is where deliveries may go: AllowHTTP and AllowLoopback are for a development
// origin (http://), so that tests and local receivers work.
type Policy struct {
	AllowHTTP     bool
	AllowLoopback bool
}

// CheckURL validates an endpoint URL at entry (the address is checked again at every
// connection); a refusal is a 400 with its message.
func (p Policy) CheckURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.User != nil || u.Fragment != "" || len(raw) > 2000 || u.Hostname() == "" {
		return "", web.BadRequest(MsgURLInvalid)
	}
	switch u.Scheme {
	case "https":
	case "http":
		if !p.AllowHTTP {
			return "", web.BadRequest(MsgURLScheme)
		}
	default:
		return "", web.BadRequest(MsgURLInvalid)
	}
	if a, err := netip.ParseAddr(u.Hostname()); err == nil && !p.allowed(a) {
		return "", web.BadRequest(MsgURLPrivate)
	}
	if h := strings.ToLower(u.Hostname()); (h == "localhost" || strings.HasSuffix(h, ".localhost")) && !p.AllowLoopback {
		return "", web.BadRequest(MsgURLPrivate)
	}
	return u.String(), nil
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// allowed reports whether a delivery may connect to a.
func (p Policy) allowed(a netip.Addr) bool {
	a = a.Unmap()
	if a.IsLoopback() {
		return p.AllowLoopback
	}
	return a.IsGlobalUnicast() && !a.IsPrivate() && !cgnat.Contains(a)
}

// errEgress is the error of a connection to a refused address.
var errEgress = errors.New("address refused: private, loopback or link-local")

// MaxResponse is how much of a receiver's answer is read (for the error shown to admins).
const MaxResponse = 64 << 10

// Timeout bounds one delivery attempt.
const Timeout = 10 * time.Second

// Client is the HTTP client deliveries go through: every connection's address is checked
// against p as it is dialled, redirects are not followed, proxies from the environment are
// not used.
func (p Policy) Client() *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, Control: func(network, address string, _ syscall.RawConn) error {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return err
		}
		a, err := netip.ParseAddr(host)
		if err != nil || !p.allowed(a) {
			return fmt.Errorf("%w (%s)", errEgress, host)
		}
		return nil
	}}
	return &http.Client{
		Timeout: Timeout,
		Transport: &http.Transport{
			Proxy:                 nil,
			DialContext:           d.DialContext,
			TLSHandshakeTimeout:   5 * time.Second,
			ResponseHeaderTimeout: Timeout,
			MaxIdleConnsPerHost:   2,
			IdleConnTimeout:       30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// retryIn is how long after attempt n (1-based) the next one is made: Standard Webhooks'
// suggested schedule; after the last, the delivery has failed (about 3 days in all).
var retryIn = []time.Duration{5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour, 5 * time.Hour,
	10 * time.Hour, 10 * time.Hour, 24 * time.Hour, 20 * time.Hour}

// MaxAttempts is how many times a delivery is tried.
var MaxAttempts = len(retryIn) + 1

// nextAttempt answers when to try again after attempt n, or false when n was the last.
func nextAttempt(n int, now time.Time) (time.Time, bool) {
	if n < 1 || n > len(retryIn) {
		return time.Time{}, false
	}
	return now.Add(retryIn[n-1]), true
}
