package verify

import (
	"context"
	"fmt"
	"time"

	"meritmark/app/credential"
	"meritmark/app/model"
)

// RevokedEntry is one credential in the 1EdTech Revocation List: its id and revoked: true
// (the reason is shown on our verify page only).
type RevokedEntry struct {
	ID      string `json:"id"`
	Revoked bool   `json:"revoked"`
}

// StatusList is the 1EdTech Revocation List (OB 3.0 credentialStatus type
// 1EdTechRevocationList, VCRL 1.0): every revoked credential, in status index order
// (random, so it tells nothing of when they were issued).
type StatusList struct {
	ID                string         `json:"id"`
	Issuer            string         `json:"issuer"`
	RevokedCredential []RevokedEntry `json:"revokedCredential"`
}

// StatusListDocument reads the revocation list.
func (s *Service) StatusListDocument(ctx context.Context, origin string) (*StatusList, error) {
	var rows []struct {
		StatusIndex          int       `bun:"status_index"`
		PublicVerificationID string    `bun:"public_verification_id"`
		CredentialOrigin     string    `bun:"credential_origin"`
		RevokedAt            time.Time `bun:"revoked_at"`
		RevocationReason     string    `bun:"revocation_reason"`
	}
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("status_index", "public_verification_id", "credential_origin")
	if err := statusOn(q, s.now()).OrderExpr("status_index, public_verification_id").Scan(ctx, &rows); err != nil { // revoked, or expired after issue (expirystatus.go)
		return nil, err
	}
	l := &StatusList{ID: credential.StatusListURL(origin), Issuer: credential.DIDWeb(origin), RevokedCredential: make([]RevokedEntry, 0, len(rows))}
	for _, r := range rows {
		o := r.CredentialOrigin
		if o == "" {
			o = origin
		}
		l.RevokedCredential = append(l.RevokedCredential, RevokedEntry{ID: credential.CredentialURL(o, r.PublicVerificationID), Revoked: true})
	}
	return l, nil
}

// BitstringStatusList is the signed BitstringStatusListCredential of origin (purpose
// revocation): bit i is on when the credential with status index i is revoked, or expired
// after issue (expirystatus.go). Rebuilt (and signed) only when the set of indexes, the
// list length or the next expiry changes.
func (s *Service) BitstringStatusList(ctx context.Context, origin string) ([]byte, error) {
	var set []int
	now := s.now().UTC()
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("status_index").Where("status_index > 0")
	if err := statusOn(q, now).OrderExpr("status_index").Scan(ctx, &set); err != nil {
		return nil, err
	}
	next, err := nextStatusChange(ctx, s.DB, now)
	if err != nil {
		return nil, err
	}
	bits, err := credential.StatusListBits(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	key := fmt.Sprintf("%s\x00%d\x00%v\x00%s", origin, bits, set, timestampOrEmpty(next))
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if b, ok := s.lists[origin]; ok && b.key == key {
		return b.doc, nil
	}
	enc, err := credential.EncodeList(bits, set)
	if err != nil {
		return nil, err
	}
	url := credential.BitstringStatusListURL(origin, credential.PurposeRevocation)
	doc := credential.StatusListCredential{Context: []string{credential.ContextVC}, ID: url,
		Type: []string{"VerifiableCredential", "BitstringStatusListCredential"}, Issuer: credential.DIDWeb(origin),
		ValidFrom: credential.Timestamp(now), ValidUntil: timestampOrEmpty(next),
		CredentialSubject: credential.StatusListSubject{ID: url + "#list", Type: "BitstringStatusList",
			StatusPurpose: credential.PurposeRevocation, EncodedList: enc}}
	k := s.Issuer.Keys.Active()
	b, err := credential.AddProof(doc, k, credential.VerificationMethodID(origin, k.KID), now)
	if err != nil {
		return nil, err
	}
	if s.lists == nil || len(s.lists) > 64 {
		s.lists = map[string]signedList{}
	}
	s.lists[origin] = signedList{key: key, doc: b}
	return b, nil
}

// signedList is a signed status list and what it was built from.
type signedList struct {
	key string
	doc []byte
}
