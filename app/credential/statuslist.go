package credential

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Status lists. Every credential has one index (badge_grants.status_index), drawn at
// random when it is signed, unique (credential_status_slots), so an index says nothing
// about the order or the number of grants. Both forms of a credential (VC-JWT and JSON-LD)
// carry two BitstringStatusListEntry objects with that index (issue 36):
//
//   - {origin}/credentials/status/revocation: statusPurpose "revocation". Final: an index
//     once revoked stays on (credential_revocations); a restored grant is signed again
//     under a new index, so the new credential verifies and the old copies stay revoked.
//   - {origin}/credentials/status/suspension: statusPurpose "suspension", the reversible
//     states: an expiry set or brought forward after issue that has passed (the copies
//     downloaded before carry the older validUntil). Clearing it turns the bit off.
//
// Each list is a BitstringStatusListCredential signed with a Data Integrity proof by the
// issuer's did:web. {origin}/credentials/status is the 1EdTech Revocation List (OB 3.0,
// VCRL 1.0, deprecated by 1EdTech in 2025) still served for the VC-JWTs issued before,
// whose credentialStatus is {id: that URL, type: "1EdTechRevocationList"}: it names each
// revoked credential {id, revoked: true}. Reasons are never published.

// MinListBits is the smallest status list (the Bitstring Status List minimum: 16 KiB).
const MinListBits = 131072

// ListBits is the length of the status lists once n indexes have been handed out: at
// least MinListBits and at least 8n rounded up to a power of two, so random indexes
// stay sparse and are found in a few tries.
func ListBits(n int) int {
	bits := MinListBits
	for bits < 8*n {
		bits *= 2
	}
	return bits
}

// RandomIndex draws an index in [1, bits).
func RandomIndex(bits int) int {
	v, err := rand.Int(rand.Reader, big.NewInt(int64(bits-1)))
	if err != nil {
		panic(err)
	}
	return int(v.Int64()) + 1
}

// DrawIndex draws the candidate indexes of AllocateStatusIndex (tests replace it).
var DrawIndex = RandomIndex

// EncodeList is a Bitstring Status List's encodedList: "u" + base64url (no padding) of
// the gzip of the bits (bit 0 is the most significant bit of byte 0) with set on.
func EncodeList(bits int, set []int) (string, error) {
	buf := make([]byte, (bits+7)/8)
	for _, i := range set {
		if i < 0 || i >= bits {
			return "", errors.New("status index outside the list")
		}
		buf[i/8] |= 0x80 >> (i % 8)
	}
	var z bytes.Buffer
	w, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if _, err := w.Write(buf); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return "u" + base64.RawURLEncoding.EncodeToString(z.Bytes()), nil
}

// DecodeList reads an encodedList back into its bytes (tests and the CLI).
func DecodeList(enc string) ([]byte, error) {
	if len(enc) < 2 || enc[0] != 'u' {
		return nil, errors.New("encodedList is not multibase base64url")
	}
	z, err := base64.RawURLEncoding.DecodeString(enc[1:])
	if err != nil {
		return nil, err
	}
	r, err := gzip.NewReader(bytes.NewReader(z))
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if _, err := out.ReadFrom(&limitedReader{r: r, n: 64 << 20}); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

type limitedReader struct {
	r interface{ Read([]byte) (int, error) }
	n int
}

func (l *limitedReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, errors.New("status list too large")
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.r.Read(p)
	l.n -= n
	return n, err
}

// BitSet reports whether bit i is on in a decoded list.
func BitSet(list []byte, i int) bool {
	return i >= 0 && i/8 < len(list) && list[i/8]&(0x80>>(i%8)) != 0
}

// Status purposes.
const (
	PurposeRevocation = "revocation"
	PurposeSuspension = "suspension"
)

// Purposes are the status lists we publish, in the order a credential names them.
var Purposes = []string{PurposeRevocation, PurposeSuspension}

// ValidPurpose reports whether purpose is one of ours.
func ValidPurpose(purpose string) bool {
	return purpose == PurposeRevocation || purpose == PurposeSuspension
}

// StatusListPath is the path of a Bitstring Status List credential.
func StatusListPath(purpose string) string { return "/credentials/status/" + purpose }

// BitstringStatusListURL is the URL of a Bitstring Status List credential on origin.
func BitstringStatusListURL(origin, purpose string) string { return origin + StatusListPath(purpose) }

// BitstringEntry is the BitstringStatusListEntry of index on origin.
func BitstringEntry(origin, purpose string, index int) *Status {
	list := BitstringStatusListURL(origin, purpose)
	return &Status{ID: list + "#" + strconv.Itoa(index), Type: "BitstringStatusListEntry", StatusPurpose: purpose,
		StatusListIndex: strconv.Itoa(index), StatusListCredential: list}
}

// StatusEntries are the credentialStatus of a credential with status index on origin: one
// BitstringStatusListEntry per purpose.
func StatusEntries(origin string, index int) Statuses {
	out := make(Statuses, 0, len(Purposes))
	for _, p := range Purposes {
		out = append(out, *BitstringEntry(origin, p, index))
	}
	return out
}

// Statuses is a credentialStatus: one object or an array of them (VC 2.0). It is written
// as an object when it holds one entry (the credentials issued before issue 36) and as an
// array otherwise.
type Statuses []Status

// MarshalJSON writes one entry as an object.
func (s Statuses) MarshalJSON() ([]byte, error) {
	if len(s) == 1 {
		return json.Marshal(s[0])
	}
	return json.Marshal([]Status(s))
}

// UnmarshalJSON reads an object or an array.
func (s *Statuses) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var list []Status
		if err := json.Unmarshal(b, &list); err != nil {
			return err
		}
		*s = list
		return nil
	}
	if string(b) == "null" {
		*s = nil
		return nil
	}
	var one Status
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*s = Statuses{one}
	return nil
}

// Entry is the BitstringStatusListEntry of purpose, or nil.
func (s Statuses) Entry(purpose string) *Status {
	for i := range s {
		if s[i].Type == "BitstringStatusListEntry" && s[i].StatusPurpose == purpose {
			return &s[i]
		}
	}
	return nil
}

// RecordRevocation makes g's status index revoked for good (inside the revoking
// transaction): the revocation lists read credential_revocations, which nothing deletes
// from. A grant without an index (never signed) has nothing of its own to record; its
// wallet copies are recorded with it.
func RecordRevocation(ctx context.Context, tx bun.IDB, g *model.BadgeGrant, at time.Time) error {
	if err := recordCopyRevocations(ctx, tx, g, at); err != nil { // every wallet copy too (copy.go)
		return err
	}
	if g.StatusIndex <= 0 {
		return nil
	}
	_, err := tx.NewRaw(`INSERT INTO credential_revocations (idx, grant_id, public_verification_id, credential_origin, revoked_at)
VALUES (?, ?, ?, ?, ?) ON CONFLICT (idx) DO NOTHING`, g.StatusIndex, g.ID, g.PublicVerificationID, g.CredentialOrigin, at.UTC()).Exec(ctx)
	if err != nil {
		return fmt.Errorf("record revocation: %w", err)
	}
	return nil
}

// IndexRevoked reports whether status index idx was ever revoked.
func IndexRevoked(ctx context.Context, d bun.IDB, idx int) (bool, error) {
	if idx <= 0 {
		return false, nil
	}
	n, err := d.NewSelect().Table("credential_revocations").Where("idx = ?", idx).Count(ctx)
	return n > 0, err
}

// StatusListCredential is a BitstringStatusListCredential (without its proof).
type StatusListCredential struct {
	Context           []string          `json:"@context"`
	ID                string            `json:"id"`
	Type              []string          `json:"type"`
	Issuer            string            `json:"issuer"`
	ValidFrom         string            `json:"validFrom"`
	ValidUntil        string            `json:"validUntil,omitempty"` // the next moment a bit turns on by expiry
	CredentialSubject StatusListSubject `json:"credentialSubject"`
}

// StatusListSubject is the list itself.
type StatusListSubject struct {
	ID            string `json:"id"`
	Type          string `json:"type"`
	StatusPurpose string `json:"statusPurpose"`
	EncodedList   string `json:"encodedList"`
}
