package credential

import (
	"net/url"
	"strings"
)

// did:web for our origin: the issuer of every credential signed since issue 15 is
// did:web:{host} (a port written %3A, e.g. did:web:localhost%3A8443), resolved by
// verifiers at https://{host}/.well-known/did.json. Its verification methods, named
// {did}#{thumbprint} and listed under assertionMethod, are the Ed25519 issuing keys as
// Multikey (Data Integrity proofs) and the P-256 keys as JsonWebKey (the VC-JWTs' kid, so
// DID-based JWT verifiers such as did-jwt find the key in the issuer's own DID document).

// DIDPath is where the DID document is served.
const DIDPath = "/.well-known/did.json"

// DIDWeb is the did:web of origin ("" when origin is not an http(s) URL).
func DIDWeb(origin string) string {
	u, err := url.Parse(strings.TrimRight(origin, "/"))
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return ""
	}
	did := "did:web:" + strings.ReplaceAll(strings.ToLower(u.Host), ":", "%3A")
	if p := strings.Trim(u.Path, "/"); p != "" {
		did += ":" + strings.ReplaceAll(p, "/", ":")
	}
	return did
}

// ContextJWK defines the JsonWebKey verification method type.
const ContextJWK = "https://w3id.org/security/jwk/v1"

// VerificationMethodID is the DID URL of a key of origin.
func VerificationMethodID(origin, kid string) string { return DIDWeb(origin) + "#" + kid }

// VerificationMethod is one entry of the DID document: a Multikey (Ed25519) or a
// JsonWebKey (P-256).
type VerificationMethod struct {
	ID                 string     `json:"id"`
	Type               string     `json:"type"`
	Controller         string     `json:"controller"`
	PublicKeyMultibase string     `json:"publicKeyMultibase,omitempty"`
	PublicKeyJwk       *PublicJWK `json:"publicKeyJwk,omitempty"`
}

// PublicJWK is a JsonWebKey's publicKeyJwk: the key material only.
type PublicJWK struct {
	Kty string `json:"kty"`
	Crv string `json:"crv"`
	X   string `json:"x"`
	Y   string `json:"y"`
}

// DIDDocument is /.well-known/did.json.
type DIDDocument struct {
	Context            []string             `json:"@context"`
	ID                 string               `json:"id"`
	VerificationMethod []VerificationMethod `json:"verificationMethod"`
	AssertionMethod    []string             `json:"assertionMethod"`
	Authentication     []string             `json:"authentication"`
}

// DIDDocumentOf lists keys as the DID document of origin: the Ed25519 ones as Multikey
// first (in order), then the P-256 ones as JsonWebKey (in order).
func DIDDocumentOf(origin string, keys []*Key) *DIDDocument {
	did := DIDWeb(origin)
	doc := &DIDDocument{Context: []string{ContextDID, ContextMultikey, ContextJWK}, ID: did,
		VerificationMethod: []VerificationMethod{}, AssertionMethod: []string{}, Authentication: []string{}}
	for _, k := range keys {
		if k.IsES256() || len(k.Public) == 0 {
			continue
		}
		id := did + "#" + k.KID
		doc.VerificationMethod = append(doc.VerificationMethod, VerificationMethod{ID: id, Type: "Multikey", Controller: did, PublicKeyMultibase: Multikey(k.Public)})
		doc.AssertionMethod = append(doc.AssertionMethod, id)
	}
	for _, k := range keys {
		if !k.IsES256() || k.EC == nil {
			continue
		}
		id := did + "#" + k.KID
		x, y := ecXY(k.EC)
		doc.VerificationMethod = append(doc.VerificationMethod, VerificationMethod{ID: id, Type: "JsonWebKey", Controller: did,
			PublicKeyJwk: &PublicJWK{Kty: "EC", Crv: "P-256", X: x, Y: y}})
		doc.AssertionMethod = append(doc.AssertionMethod, id)
	}
	return doc
}

// KIDOfVerificationMethod is the key thumbprint a verificationMethod of origin names ("" when
// it is not one of origin's).
func KIDOfVerificationMethod(origin, vm string) string {
	prefix := DIDWeb(origin) + "#"
	if prefix == "#" || !strings.HasPrefix(vm, prefix) {
		return ""
	}
	return vm[len(prefix):]
}
