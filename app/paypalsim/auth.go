package paypalsim

import (
	"crypto/hmac"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"
)

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
