package credential

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Presentations (the DCC wallet's DIDAuthentication, app/oid4vci): a verifiable
// presentation signed by the holder with an eddsa-rdfc-2022 proof of purpose
// "authentication" over our challenge and domain.

// Errors of VerifyAuthentication.
var (
	ErrChallenge = errors.New("the presentation's proof is not over this exchange's challenge")
	ErrDomain    = errors.New("the presentation's proof names another domain")
	ErrHolder    = errors.New("the presentation is not signed by its holder")
)

// Authenticated is a presentation whose proof checked out.
type Authenticated struct {
	Holder             string // the holder's DID
	VerificationMethod string
}

// VerifyAuthentication checks raw, a VerifiablePresentation: its @context must be
// embedded contexts only, its proof an eddsa-rdfc-2022 DataIntegrityProof of purpose
// authentication whose challenge is challenge and whose domain (when present) is domain,
// made by a key keys resolves (a did:key, say) belonging to the presentation's holder. It
// carries only @context, id, type, holder and proof.
func VerifyAuthentication(raw []byte, challenge, domain string, keys func(verificationMethod string) *Key) (*Authenticated, error) {
	m, err := parseEmbedded(raw)
	if err != nil {
		return nil, err
	}
	// a DIDAuthentication presentation holds nothing else: the graph to canonicalize stays
	// a few triples, whatever a client sends
	for k := range m {
		switch k {
		case "@context", "id", "type", "holder", "proof":
		default:
			return nil, fmt.Errorf("%w: a DIDAuthentication presentation carries no %q", ErrUnsafeDocument, k)
		}
	}
	holder, _ := m["holder"].(string)
	if hm, ok := m["holder"].(map[string]any); ok {
		holder, _ = hm["id"].(string)
	}
	var proofs []Proof
	b, _ := json.Marshal(m["proof"])
	if json.Unmarshal(b, &proofs) != nil {
		var p Proof
		if json.Unmarshal(b, &p) != nil {
			return nil, ErrNoProof
		}
		proofs = []Proof{p}
	}
	for _, p := range proofs {
		if p.Type != ProofType || p.Cryptosuite != Cryptosuite || p.ProofPurpose != "authentication" {
			continue
		}
		if p.Challenge != challenge {
			return nil, ErrChallenge
		}
		if p.Domain != "" && p.Domain != domain {
			return nil, ErrDomain
		}
		did, _, _ := strings.Cut(p.VerificationMethod, "#")
		if holder == "" || did != holder {
			return nil, ErrHolder
		}
		if !strings.HasPrefix(p.ProofValue, "z") {
			return nil, ErrProofValue
		}
		sig, err := Base58Decode(p.ProofValue[1:])
		if err != nil || len(sig) != ed25519.SignatureSize {
			return nil, ErrProofValue
		}
		k := keys(p.VerificationMethod)
		if k == nil || len(k.Public) != ed25519.PublicKeySize {
			return nil, fmt.Errorf("%w (%s)", ErrUnknownKey, p.VerificationMethod)
		}
		p.Context = nil
		data, err := hashData(m, p)
		if err != nil {
			return nil, err
		}
		if !ed25519.Verify(k.Public, data, sig) {
			return nil, ErrProofValue
		}
		return &Authenticated{Holder: holder, VerificationMethod: p.VerificationMethod}, nil
	}
	return nil, ErrNoProof
}

// SignPresentation adds an eddsa-rdfc-2022 proof of purpose authentication over challenge
// and domain to doc (a presentation), made with k (verificationMethod vm): what a wallet
// does for DIDAuthentication (tests act as one with it).
func SignPresentation(doc any, k *Key, vm, challenge, domain string, created time.Time) ([]byte, error) {
	if k == nil || k.private == nil {
		return nil, errors.New("credential: no Ed25519 key to sign the presentation with")
	}
	m, err := toGeneric(doc)
	if err != nil {
		return nil, err
	}
	delete(m, "proof")
	p := Proof{Type: ProofType, Created: created.UTC().Truncate(time.Second).Format(time.RFC3339), VerificationMethod: vm,
		Cryptosuite: Cryptosuite, ProofPurpose: "authentication", Challenge: challenge, Domain: domain}
	data, err := hashData(m, p)
	if err != nil {
		return nil, err
	}
	p.ProofValue = "z" + Base58(ed25519.Sign(k.private, data))
	m["proof"] = p
	return json.Marshal(m)
}
