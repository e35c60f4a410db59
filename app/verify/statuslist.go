package verify

import (
	"context"
	"fmt"
	"sort"
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
// 1EdTechRevocationList, VCRL 1.0, deprecated by 1EdTech in 2025 and kept for the VC-JWTs
// issued before issue 36): every revoked credential, in status index order (random, so it
// tells nothing of when they were issued).
type StatusList struct {
	ID                string         `json:"id"`
	Issuer            string         `json:"issuer"`
	RevokedCredential []RevokedEntry `json:"revokedCredential"`
}

// revokedSQL lists every revoked credential: the indexes revoked for good and the grants
// revoked now (a grant revoked before it was ever signed has index 0).
const revokedSQL = `SELECT idx, public_verification_id, credential_origin FROM credential_revocations
UNION SELECT status_index, public_verification_id, credential_origin FROM badge_grants WHERE revoked_at IS NOT NULL
ORDER BY 1, 2`

type revokedRow struct {
	Idx                  int    `bun:"idx"`
	PublicVerificationID string `bun:"public_verification_id"`
	CredentialOrigin     string `bun:"credential_origin"`
}

// StatusListDocument reads the 1EdTech revocation list (the VC-JWTs issued before issue 36
// name it): every credential ever revoked, never an expiry.
func (s *Service) StatusListDocument(ctx context.Context, origin string) (*StatusList, error) {
	var rows []revokedRow
	if err := s.DB.NewRaw(revokedSQL).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	l := &StatusList{ID: credential.StatusListURL(origin), Issuer: credential.DIDWeb(origin), RevokedCredential: make([]RevokedEntry, 0, len(rows))}
	seen := map[string]bool{}
	for _, r := range rows {
		o := r.CredentialOrigin
		if o == "" {
			o = origin
		}
		id := credential.CredentialURL(o, r.PublicVerificationID)
		if !seen[id] {
			seen[id] = true
			l.RevokedCredential = append(l.RevokedCredential, RevokedEntry{ID: id, Revoked: true})
		}
	}
	return l, nil
}

// statusSet is the indexes on in the list of purpose at now, and (suspension) the next
// moment one turns on by expiry.
func (s *Service) statusSet(ctx context.Context, purpose string, now time.Time) ([]int, *time.Time, error) {
	if purpose == credential.PurposeRevocation {
		var rows []revokedRow
		if err := s.DB.NewRaw(revokedSQL).Scan(ctx, &rows); err != nil {
			return nil, nil, err
		}
		set := make([]int, 0, len(rows))
		for _, r := range rows {
			if r.Idx > 0 && (len(set) == 0 || set[len(set)-1] != r.Idx) {
				set = append(set, r.Idx)
			}
		}
		return set, nil, nil
	}
	var set, copies []int
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("status_index").Where("status_index > 0")
	if err := suspendedAt(q, now).OrderExpr("status_index").Scan(ctx, &set); err != nil {
		return nil, nil, err
	}
	// the wallet copies of a suspended grant are suspended with it (app/oid4vci)
	grants := suspendedAt(s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Column("id"), now)
	if err := s.DB.NewSelect().Table("wallet_copies").Column("status_index").Where("grant_id IN (?)", grants).Scan(ctx, &copies); err != nil {
		return nil, nil, err
	}
	if len(copies) > 0 {
		set = append(set, copies...)
		sort.Ints(set)
	}
	next, err := nextStatusChange(ctx, s.DB, now)
	return set, next, err
}

// BitstringStatusList is the signed BitstringStatusListCredential of origin for purpose
// (credential.PurposeRevocation or PurposeSuspension): bit i is on when the credential with
// status index i was revoked (for good), or is suspended now (expirystatus.go). Rebuilt
// (and signed) only when the set of indexes, the list length or the next expiry changes.
func (s *Service) BitstringStatusList(ctx context.Context, origin, purpose string) ([]byte, error) {
	if !credential.ValidPurpose(purpose) {
		return nil, fmt.Errorf("status list: unknown purpose %q", purpose)
	}
	now := s.now().UTC()
	set, next, err := s.statusSet(ctx, purpose, now)
	if err != nil {
		return nil, err
	}
	bits, err := credential.StatusListBits(ctx, s.DB)
	if err != nil {
		return nil, err
	}
	cacheKey := origin + "\x00" + purpose
	key := fmt.Sprintf("%s\x00%d\x00%v\x00%s", cacheKey, bits, set, timestampOrEmpty(next))
	s.listMu.Lock()
	defer s.listMu.Unlock()
	if b, ok := s.lists[cacheKey]; ok && b.key == key {
		return b.doc, nil
	}
	enc, err := credential.EncodeList(bits, set)
	if err != nil {
		return nil, err
	}
	url := credential.BitstringStatusListURL(origin, purpose)
	doc := credential.StatusListCredential{Context: []string{credential.ContextVC}, ID: url,
		Type: []string{"VerifiableCredential", "BitstringStatusListCredential"}, Issuer: credential.DIDWeb(origin),
		ValidFrom: credential.Timestamp(now), ValidUntil: timestampOrEmpty(next),
		CredentialSubject: credential.StatusListSubject{ID: url + "#list", Type: "BitstringStatusList",
			StatusPurpose: purpose, EncodedList: enc}}
	k := s.Issuer.Keys.Active()
	b, err := credential.AddProof(doc, k, credential.VerificationMethodID(origin, k.KID), now)
	if err != nil {
		return nil, err
	}
	if s.lists == nil || len(s.lists) > 64 {
		s.lists = map[string]signedList{}
	}
	s.lists[cacheKey] = signedList{key: key, doc: b}
	return b, nil
}

// signedList is a signed status list and what it was built from.
type signedList struct {
	key string
	doc []byte
}
