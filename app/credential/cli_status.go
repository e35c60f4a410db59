package credential

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// The status checks of `meritmark verify` (issue 36): every entry a credential names is
// read from the trusted issuer and must answer; a check that could not be made is
// "skipped", and a report with a skipped check is never VALID.
//
//   - BitstringStatusListEntry (every credential since issue 36, and the JSON-LD form since
//     issue 15): the BitstringStatusListCredential must be on the trusted issuer, signed
//     by a key of its DID document, issued by that DID, of the entry's statusPurpose and
//     not expired; the bit at statusListIndex is the status ("revocation": revoked for
//     good; "suspension": suspended, e.g. an expiry set after issue that has passed).
//   - 1EdTechRevocationList (the VC-JWTs issued before issue 36): the list must name the
//     credential's id as revoked.

// didKeys reads the trusted issuer's DID document and answers its assertion keys by
// verification method id: Ed25519 Multikey and P-256 JsonWebKey.
func didKeys(ctx context.Context, client *http.Client, issuer string) (*DIDDocument, func(string) *Key, error) {
	didURL := issuer + DIDPath
	b, err := fetch(ctx, client, didURL)
	if err != nil {
		return nil, nil, fmt.Errorf("read the issuer's DID document: %w", err)
	}
	var doc DIDDocument
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, nil, fmt.Errorf("the DID document at %s is not valid JSON: %w", didURL, err)
	}
	keys := func(id string) *Key {
		if !SameIssuer(issuer, doc.ID) || !contains(doc.AssertionMethod, id) {
			return nil
		}
		for _, v := range doc.VerificationMethod {
			if v.ID == id && v.Type == "JsonWebKey" && v.Controller == doc.ID && v.PublicKeyJwk != nil &&
				v.PublicKeyJwk.Kty == "EC" && v.PublicKeyJwk.Crv == "P-256" {
				k, err := ES256PublicKey(id, v.PublicKeyJwk.X, v.PublicKeyJwk.Y)
				if err != nil {
					return nil
				}
				return k
			}
			if v.ID == id && v.Type == "Multikey" && v.Controller == doc.ID && strings.HasPrefix(v.PublicKeyMultibase, "z") {
				raw, err := Base58Decode(v.PublicKeyMultibase[1:])
				if err != nil || len(raw) != 2+ed25519.PublicKeySize || raw[0] != 0xed || raw[1] != 0x01 {
					return nil
				}
				return &Key{KID: id, Public: ed25519.PublicKey(raw[2:])}
			}
		}
		return nil
	}
	return &doc, keys, nil
}

// statusChecks checks every status entry of pl against the trusted issuer.
func statusChecks(ctx context.Context, client *http.Client, pl *Payload, issuer string, offline bool) []Check {
	switch {
	case offline:
		return []Check{{Name: "status", Skip: true, Detail: "not checked (--offline): whether it was revoked is unknown"}}
	case len(pl.CredentialStatus) == 0:
		return []Check{{Name: "status", OK: true, Detail: "the credential names no status list"}}
	}
	var out []Check
	var keys func(string) *Key
	var did string
	for _, e := range pl.CredentialStatus {
		switch e.Type {
		case StatusType:
			out = append(out, revocation1EdTech(ctx, client, pl, e, issuer))
		case "BitstringStatusListEntry":
			name := e.StatusPurpose
			if name == "" {
				name = "status"
			}
			if keys == nil {
				doc, k, err := didKeys(ctx, client, issuer)
				if err != nil {
					out = append(out, Check{Name: name, Skip: true, Detail: "not checked: " + err.Error()})
					continue
				}
				keys, did = k, doc.ID
			}
			out = append(out, bitstringStatus(ctx, client, e, issuer, did, keys))
		default:
			out = append(out, Check{Name: "status", Skip: true, Detail: "not checked: unsupported status type " + strconv.Quote(e.Type)})
		}
	}
	return out
}

// bitstringStatus reads the bit of one BitstringStatusListEntry.
func bitstringStatus(ctx context.Context, client *http.Client, e Status, issuer, did string, keys func(string) *Key) Check {
	name := e.StatusPurpose
	c := Check{Name: name}
	if !ValidPurpose(e.StatusPurpose) {
		c.Name, c.Skip, c.Detail = "status", true, "not checked: unsupported statusPurpose "+strconv.Quote(e.StatusPurpose)
		return c
	}
	idx, err := strconv.Atoi(e.StatusListIndex)
	if err != nil || idx < 0 {
		c.Detail = "the statusListIndex " + strconv.Quote(e.StatusListIndex) + " is not a number"
		return c
	}
	if !SameIssuer(issuer, e.StatusListCredential) || OriginOf(e.StatusListCredential) != issuer {
		c.Detail = "the status list " + e.StatusListCredential + " is not on the issuer " + issuer
		return c
	}
	b, err := fetch(ctx, client, e.StatusListCredential)
	if err != nil {
		c.Skip, c.Detail = true, "not checked: could not read the status list: "+err.Error()
		return c
	}
	if _, err := VerifyProof(b, keys); err != nil {
		c.Detail = "the status list " + e.StatusListCredential + " is not signed by the issuer: " + err.Error()
		return c
	}
	var list StatusListCredential
	if err := json.Unmarshal(b, &list); err != nil {
		c.Detail = "the status list is not a BitstringStatusListCredential"
		return c
	}
	now := time.Now()
	switch {
	case list.Issuer != did:
		c.Detail = "the status list's issuer " + list.Issuer + " is not " + did
		return c
	case list.ID != e.StatusListCredential:
		c.Detail = "the status list's id " + list.ID + " is not " + e.StatusListCredential
		return c
	case list.CredentialSubject.StatusPurpose != e.StatusPurpose:
		c.Detail = "the status list's statusPurpose " + strconv.Quote(list.CredentialSubject.StatusPurpose) + " is not the entry's"
		return c
	case list.ValidUntil != "" && !now.Add(-time.Minute).Before(mustTime(list.ValidUntil)):
		c.Skip, c.Detail = true, "not checked: the status list expired at "+list.ValidUntil+" (fetch it again)"
		return c
	}
	bits, err := DecodeList(list.CredentialSubject.EncodedList)
	if err != nil || len(bits)*8 < MinListBits || idx >= len(bits)*8 {
		c.Detail = "the status list cannot be read at index " + e.StatusListIndex
		return c
	}
	if BitSet(bits, idx) {
		if e.StatusPurpose == PurposeRevocation {
			c.Detail = "revoked (" + e.StatusListCredential + ")"
		} else {
			c.Detail = "suspended: it does not verify for now, e.g. an expiry set after issue has passed (the verify page says why)"
		}
		return c
	}
	c.OK = true
	if e.StatusPurpose == PurposeRevocation {
		c.Detail = "not revoked (" + e.StatusListCredential + ")"
	} else {
		c.Detail = "not suspended (" + e.StatusListCredential + ")"
	}
	return c
}

// revocation1EdTech reads the 1EdTech Revocation List a VC-JWT issued before issue 36 names.
func revocation1EdTech(ctx context.Context, client *http.Client, pl *Payload, e Status, issuer string) Check {
	listURL := e.ID
	if !SameIssuer(issuer, listURL) {
		return Check{Name: "revocation", Detail: "the status list " + listURL + " is not on the issuer " + issuer}
	}
	b, err := fetch(ctx, client, listURL)
	if err != nil {
		return Check{Name: "revocation", Skip: true, Detail: "not checked: could not read the revocation list: " + err.Error()}
	}
	var list struct {
		RevokedCredential []struct {
			ID      string `json:"id"`
			Revoked bool   `json:"revoked"`
		} `json:"revokedCredential"`
	}
	if err := json.Unmarshal(b, &list); err != nil {
		return Check{Name: "revocation", Detail: "the revocation list is not valid JSON"}
	}
	for _, r := range list.RevokedCredential {
		if r.ID == pl.ID && r.Revoked {
			return Check{Name: "revocation", Detail: "revoked (" + listURL + ")"}
		}
	}
	return Check{Name: "revocation", OK: true, Detail: "not revoked (" + listURL + ")"}
}

// settleReport sets rep.Valid: every check passed and none was skipped.
func settleReport(rep *Report) {
	rep.Valid = len(rep.Checks) > 0
	rep.Skipped = nil
	for _, c := range rep.Checks {
		if c.Skip {
			rep.Skipped = append(rep.Skipped, c.Name)
		}
		if !c.OK || c.Skip {
			rep.Valid = false
		}
	}
}
