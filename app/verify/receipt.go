package verify

// Verification receipts: a bulk check's answer signed with the issuer's active credential
// key (a compact JWS, the same keys as the credentials, published in the JWKS), so that a
// recruiter can keep proof of what Meritmark answered and when, and anyone can check it
// later, here or with any JOSE library and /.well-known/jwks.json.

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"meritmark/app/credential"
	"meritmark/app/model"
)

// ReceiptType names a receipt's payload.
const ReceiptType = "MeritmarkVerificationReceipt"

// Messages of receipts.
const (
	MsgReceiptMissing  = "Upload or paste a verification receipt."
	MsgReceiptInvalid  = "This is not a Meritmark verification receipt."
	MsgReceiptTampered = "This receipt's signature does not match its content: it was changed after Meritmark signed it, or Meritmark did not sign it."
	MsgReceiptGenuine  = "This receipt is genuine: Meritmark signed these results."
)

// ReceiptPayload is what a receipt says.
type ReceiptPayload struct {
	Type      string      `json:"type"`
	Iss       string      `json:"iss"`
	Jti       string      `json:"jti"`
	Iat       int64       `json:"iat"`
	CheckedAt time.Time   `json:"checkedAt"`
	Summary   BulkSummary `json:"summary"`
	Rows      []BulkRow   `json:"rows"`
}

// SignReceipt signs res with the issuer's active key.
func (s *Service) SignReceipt(res *BulkResult, origin string) (string, error) {
	p := ReceiptPayload{Type: ReceiptType, Iss: credential.IssuerURL(strings.TrimRight(origin, "/")), Jti: model.NewID(),
		Iat: res.CheckedAt.Unix(), CheckedAt: res.CheckedAt, Summary: res.Summary, Rows: res.Rows}
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return credential.SignJWT(s.Issuer.Keys.Active(), b)
}

// CheckedReceipt is a receipt whose signature checked out.
type CheckedReceipt struct {
	Valid   bool            `json:"valid"`
	Msg     string          `json:"msg"`
	KeyID   string          `json:"keyId"`
	Receipt *ReceiptPayload `json:"receipt"`
}

// Receipt errors: their text is the message the member reads.
const (
	ErrReceiptInvalid  = receiptError(MsgReceiptInvalid)
	ErrReceiptTampered = receiptError(MsgReceiptTampered)
)

type receiptError string

func (e receiptError) Error() string { return string(e) }

// CheckReceipt verifies a receipt (the JWS, or the saved file {"receipt": "…"}) against
// every key the issuer publishes.
func (s *Service) CheckReceipt(ctx context.Context, raw string) (*CheckedReceipt, error) {
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "{") {
		var f struct {
			Receipt string `json:"receipt"`
		}
		if json.Unmarshal([]byte(raw), &f) != nil || f.Receipt == "" {
			return nil, ErrReceiptInvalid
		}
		raw = strings.TrimSpace(f.Receipt)
	}
	p, err := credential.ParseJWT(raw)
	if err != nil {
		return nil, ErrReceiptInvalid
	}
	var pl ReceiptPayload
	if err := json.Unmarshal(p.Payload, &pl); err != nil || pl.Type != ReceiptType {
		return nil, ErrReceiptInvalid
	}
	k, err := p.VerifySignature(s.Issuer.KeySource(ctx))
	if err != nil || k == nil {
		return nil, ErrReceiptTampered
	}
	return &CheckedReceipt{Valid: true, Msg: MsgReceiptGenuine, KeyID: k.KID, Receipt: &pl}, nil
}
