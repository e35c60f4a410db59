package credential

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// inspectLD verifies the JSON-LD form (an eddsa-rdfc-2022 Data Integrity proof by a did:web
// key) for `meritmark verify`: the issuer, the id and the verification method must belong to
// a trusted issuer, whose /.well-known/did.json is then the only key source.
func inspectLD(ctx context.Context, client *http.Client, raw []byte, o InspectOptions) (*Report, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	pl, err := Decode(raw)
	if err != nil {
		return nil, err
	}
	vm := ""
	switch pv := m["proof"].(type) {
	case []any:
		if len(pv) > 0 {
			if p, ok := pv[0].(map[string]any); ok {
				vm, _ = p["verificationMethod"].(string)
			}
		}
	case map[string]any:
		vm, _ = pv["verificationMethod"].(string)
	default:
		return nil, fmt.Errorf("this JSON credential carries no proof: verify its .jwt or its baked .png")
	}
	rep := &Report{Credential: pl.ID, Badge: pl.CredentialSubject.Achievement.Name, Issuer: pl.Issuer.Name, IssuerID: pl.Issuer.ID,
		ValidFrom: pl.ValidFrom, ValidUntil: pl.ValidUntil, KeyID: vm, Trusted: o.Trusted}
	add := func(c Check) { rep.Checks = append(rep.Checks, c) }
	verdict := CheckTrust(o.Trusted, pl.ID, pl.Issuer.ID, "", vm)
	rep.IssuerTrusted = verdict.Trusted
	if !verdict.Trusted || vm == "" {
		if vm == "" {
			verdict.Detail = "not trusted: the proof names no verification method"
		}
		add(Check{Name: "issuer", Detail: verdict.Detail})
		add(Check{Name: "signature", Skip: true, Detail: "not checked: keys are fetched only from a trusted issuer"})
		rep.Untrusted = "the issuer is not trusted (" + verdict.Detail + "); use --issuer to trust another issuer"
		return rep, nil
	}
	add(Check{Name: "issuer", OK: true, Detail: verdict.Detail})

	// the keys: the trusted issuer's DID document (did:web resolves over https; a trusted
	// http origin is asked over http)
	rep.JWKS = verdict.Issuer + DIDPath
	doc, keys, err := didKeys(ctx, client, verdict.Issuer)
	if err != nil {
		return nil, err
	}
	if _, err := VerifyProof(raw, keys); err != nil {
		add(Check{Name: "signature", Detail: err.Error()})
	} else if pl.Issuer.ID != doc.ID {
		add(Check{Name: "signature", Detail: "the issuer " + pl.Issuer.ID + " is not the DID " + doc.ID})
	} else {
		add(Check{Name: "signature", OK: true, Detail: "eddsa-rdfc-2022 Data Integrity proof valid, key " + vm})
	}
	if probs := Validate(raw); len(probs) > 0 {
		rep.Problems = probs
		add(Check{Name: "format", Detail: fmt.Sprintf("%d problem(s) with the OpenBadgeCredential", len(probs))})
	} else {
		add(Check{Name: "format", OK: true, Detail: "an Open Badges 3.0 OpenBadgeCredential (JSON-LD, Data Integrity)"})
	}
	now := time.Now()
	vf, err1 := time.Parse(time.RFC3339, pl.ValidFrom)
	switch {
	case err1 != nil || now.Add(time.Minute).Before(vf):
		add(Check{Name: "dates", Detail: ErrNotYetValid.Error() + dates(pl)})
	case pl.ValidUntil != "" && !now.Add(-time.Minute).Before(mustTime(pl.ValidUntil)):
		add(Check{Name: "dates", Detail: ErrExpired.Error() + dates(pl)})
	default:
		add(Check{Name: "dates", OK: true, Detail: "valid now" + dates(pl)})
	}
	if o.Email != "" {
		ok := false
		for _, id := range pl.CredentialSubject.Identifier {
			if id.IdentityType == "emailAddress" && id.Hashed && IdentityHash(o.Email, id.Salt) == id.IdentityHash {
				ok = true
			}
		}
		add(Check{Name: "recipient", OK: ok, Detail: map[bool]string{true: "issued to " + o.Email, false: "not issued to " + o.Email}[ok]})
	}
	for _, c := range statusChecks(ctx, client, pl, verdict.Issuer, o.Offline) {
		add(c)
	}
	settleReport(rep)
	return rep, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func mustTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}
	}
	return t
}
