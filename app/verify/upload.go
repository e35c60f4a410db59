package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"unicode/utf8"

	"meritmark/app/credential"
)

// Verifying a credential file (POST /verify/file): a baked PNG, a VC-JWT as text, or a JSON
// credential, dropped or chosen on /verify-badge. This file reads the upload (pure: no I/O);
// the service decides whether its issuer is trusted and runs the checks an id gets.

// Upload formats.
const (
	FormatPNG  = "png"
	FormatJWT  = "jwt"
	FormatJSON = "json"
)

// MaxFileBytes is the largest credential file looked at (a baked badge PNG is about 30 KB;
// the request itself is held to the server's default body limit, 1 MB).
const MaxFileBytes = 512 << 10

// Messages of the file verifier.
const (
	MsgFileMissing  = "Please choose a credential file: a badge image (PNG), a JWT or a JSON credential."
	MsgFileTooLarge = "The file is too large: a credential file is at most 512 KB."
	MsgFileEmpty    = "The file is empty."
	MsgFileUnknown  = "This file is not a credential: upload a badge image (PNG) with a credential baked in, a JWT or a JSON credential."
	MsgPNGBroken    = "This PNG image could not be read."
	MsgPNGNotBaked  = "This image carries no Open Badges credential. Download the badge image from its verification page: that one has the credential baked in."
	MsgJWTMalformed = "This is not a well-formed credential JWT."
	MsgJSONBroken   = "This JSON is not a credential: it could not be read."
	MsgJSONNotOB    = "This JSON is not an Open Badges credential."
	MsgUnsigned     = "This JSON credential carries no proof, so it cannot be verified. Verify its signed form instead: the badge image (PNG) or the JWT."
	// MsgUntrusted starts the reason given for a credential from an issuer we do not trust.
	MsgUntrusted = "This credential was not issued by Meritmark: its issuer is not one we trust."
)

// Upload is a credential read from a file, not yet verified.
type Upload struct {
	Format  string
	JWT     *credential.Parsed // the JWT (png, jwt)
	JSON    []byte             // the credential (json): an object with a proof
	Payload *credential.Payload
	Kid     string // the key the credential names (JWT kid or proof verificationMethod)
}

// ErrUpload is a file that cannot be read as a credential; its message is for the visitor.
type ErrUpload struct{ Msg string }

func (e *ErrUpload) Error() string { return e.Msg }

func bad(msg string) error { return &ErrUpload{Msg: msg} }

var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// ParseUpload reads a credential file. It never panics; a file it cannot read gives an
// *ErrUpload whose message says what is wrong.
func ParseUpload(data []byte) (*Upload, error) {
	if len(data) > MaxFileBytes {
		return nil, bad(MsgFileTooLarge)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, bad(MsgFileEmpty)
	}
	if bytes.HasPrefix(data, pngMagic) {
		tok, err := credential.Unbake(data)
		switch {
		case errors.Is(err, credential.ErrNotBaked):
			return nil, bad(MsgPNGNotBaked)
		case err != nil:
			return nil, bad(MsgPNGBroken)
		}
		return parseJWT(FormatPNG, tok)
	}
	text := bytes.TrimSpace(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) // a BOM some editors write
	if !utf8.Valid(text) {
		return nil, bad(MsgFileUnknown)
	}
	if len(text) > 0 && text[0] == '{' {
		return parseJSON(text)
	}
	if strings.Count(string(text), ".") == 2 && !bytes.ContainsAny(text, " \t\r\n") {
		return parseJWT(FormatJWT, string(text))
	}
	return nil, bad(MsgFileUnknown)
}

func parseJWT(format, tok string) (*Upload, error) {
	p, err := credential.ParseJWT(tok)
	if err != nil {
		return nil, bad(MsgJWTMalformed)
	}
	pl, err := credential.Decode(p.Payload)
	if err != nil || !isOB(p.Payload) {
		return nil, bad(MsgJWTMalformed)
	}
	return &Upload{Format: format, JWT: p, Payload: pl, Kid: p.Header.Kid}, nil
}

func parseJSON(b []byte) (*Upload, error) {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, bad(MsgJSONBroken)
	}
	if !isOB(b) {
		return nil, bad(MsgJSONNotOB)
	}
	pl, err := credential.Decode(b)
	if err != nil {
		return nil, bad(MsgJSONNotOB)
	}
	up := &Upload{Format: FormatJSON, JSON: b, Payload: pl}
	proofs := proofsOf(m["proof"])
	if len(proofs) == 0 {
		return nil, &ErrUpload{Msg: MsgUnsigned}
	}
	if vm, _ := proofs[0]["verificationMethod"].(string); vm != "" {
		up.Kid = vm
	}
	return up, nil
}

// proofsOf reads a proof member: one object or an array of them.
func proofsOf(v any) []map[string]any {
	var out []map[string]any
	switch p := v.(type) {
	case map[string]any:
		out = append(out, p)
	case []any:
		for _, x := range p {
			if o, ok := x.(map[string]any); ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// isOB reports whether a JSON object says it is an OpenBadgeCredential with an issuer and
// an id (the least a verifier needs to know whose it is).
func isOB(b []byte) bool {
	var m struct {
		ID     string          `json:"id"`
		Type   json.RawMessage `json:"type"`
		Issuer json.RawMessage `json:"issuer"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.ID == "" || len(m.Issuer) == 0 {
		return false
	}
	var types []string
	if err := json.Unmarshal(m.Type, &types); err != nil {
		var one string
		if json.Unmarshal(m.Type, &one) != nil {
			return false
		}
		types = []string{one}
	}
	for _, t := range types {
		if t == "OpenBadgeCredential" || t == "AchievementCredential" {
			return true
		}
	}
	return false
}

// Upload verification lives in the service (it needs the keys and the records).
