package paypalsim

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strings"
	"time"
)

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
