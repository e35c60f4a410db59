package credential

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"math/big"
	"strconv"
)

// Status lists. Every credential has one index (badge_grants.status_index), drawn at
// random when it is first signed, unique (credential_status_slots), so an index says
// nothing about the order or the number of grants.
//
//   - {origin}/credentials/status: the 1EdTech Revocation List (OB 3.0, VCRL 1.0): the
//     VC-JWT's credentialStatus {id: that URL, type: "1EdTechRevocationList"}. The list
//     names each revoked credential: {id, revoked: true}. Reasons are never published.
//   - {origin}/credentials/status/revocation: a BitstringStatusListCredential
//     (statusPurpose "revocation", signed with a Data Integrity proof by the issuer's
//     did:web): the JSON-LD credential's credentialStatus is a BitstringStatusListEntry
//     pointing at it.

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
)

// StatusListPath is the path of the revocation Bitstring Status List credential.
func StatusListPath(purpose string) string { return "/credentials/status/" + purpose }

// BitstringStatusListURL is the URL of a Bitstring Status List credential on origin.
func BitstringStatusListURL(origin, purpose string) string { return origin + StatusListPath(purpose) }

// BitstringEntry is the BitstringStatusListEntry of index on origin.
func BitstringEntry(origin, purpose string, index int) *Status {
	list := BitstringStatusListURL(origin, purpose)
	return &Status{ID: list + "#" + strconv.Itoa(index), Type: "BitstringStatusListEntry", StatusPurpose: purpose,
		StatusListIndex: strconv.Itoa(index), StatusListCredential: list}
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
