// Package credential issues each badge grant as a signed Open Badges 3.0
// OpenBadgeCredential in two forms: a VC-JWT signed with ES256 (kid = a key URL on our
// origin) and a JSON-LD credential with a Data Integrity proof (eddsa-rdfc-2022) whose
// issuer is our did:web. It keeps the issuing keys (with rotation), the status lists,
// bakes credentials into PNG images and verifies them: on the server and offline
// (`meritmark verify`). Credentials signed before (VC-JWT, EdDSA) keep verifying.
//
// This file holds the credential's shape (pure: no I/O).
package credential

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// The JSON-LD contexts of an OB 3.0 credential, in the required order.
const (
	ContextVC  = "https://www.w3.org/ns/credentials/v2"
	ContextOB3 = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json"
)

// Contexts is the @context of every document we publish: VC 2.0, OB 3.0 and the OB
// extensions context (it defines 1EdTechJsonSchemaValidator2019 and
// 1EdTechRevocationList, which context-3.0.3 does not).
var Contexts = []string{ContextVC, ContextOB3, ContextOBExtensions}

// SchemaURL is the 1EdTech OB 3.0 JSON schema every credential names.
const SchemaURL = "https://purl.imsglobal.org/spec/ob/v3p0/schema/json/ob_v3p0_achievementcredential_schema.json"

// SchemaType is the credentialSchema type of SchemaURL.
const SchemaType = "1EdTechJsonSchemaValidator2019"

// IssuerName is the issuer profile's name.
const IssuerName = "Meritmark"

// StatusType is the credentialStatus type of the VC-JWTs issued before issue 36: 1EdTech's
// revocation list (deprecated by 1EdTech in 2025; still served at StatusListURL).
const StatusType = "1EdTechRevocationList"

// Credential is an OpenBadgeCredential.
type Credential struct {
	Context           []string           `json:"@context"`
	ID                string             `json:"id"`
	Type              []string           `json:"type"`
	Issuer            Profile            `json:"issuer"`
	ValidFrom         string             `json:"validFrom"`
	ValidUntil        string             `json:"validUntil,omitempty"`
	Name              string             `json:"name"`
	Description       string             `json:"description,omitempty"`
	Image             *Image             `json:"image,omitempty"`
	AwardedDate       string             `json:"awardedDate,omitempty"`
	CredentialSubject AchievementSubject `json:"credentialSubject"`
	Evidence          []Evidence         `json:"evidence,omitempty"`
	CredentialSchema  []Schema           `json:"credentialSchema,omitempty"`
	CredentialStatus  Statuses           `json:"credentialStatus,omitempty"`
	RefreshService    *Refresh           `json:"refreshService,omitempty"`
}

// Refresh is the refreshService: the credential's own URL answers its current version
// (an expiry set after issue, a re-signed credential).
type Refresh struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// Evidence says what the achievement was awarded on (never the holder's documents).
type Evidence struct {
	ID          string   `json:"id,omitempty"`
	Type        []string `json:"type"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Narrative   string   `json:"narrative,omitempty"`
	Genre       string   `json:"genre,omitempty"`
}

// Schema is a credentialSchema entry.
type Schema struct {
	ID   string `json:"id"`
	Type string `json:"type"`
}

// Profile is the issuer.
type Profile struct {
	Context     []string `json:"@context,omitempty"`
	ID          string   `json:"id"`
	Type        []string `json:"type"`
	Name        string   `json:"name"`
	URL         string   `json:"url"`
	Email       string   `json:"email,omitempty"`
	Description string   `json:"description,omitempty"`
	Image       *Image   `json:"image,omitempty"`
}

// AchievementSubject is the holder and what they achieved.
type AchievementSubject struct {
	ID          string           `json:"id,omitempty"`
	Type        []string         `json:"type"`
	Identifier  []IdentityObject `json:"identifier,omitempty"`
	Achievement Achievement      `json:"achievement"`
	Result      []Result         `json:"result,omitempty"`
}

// IdentityObject identifies the holder: by a salted hash of their e-mail address, and,
// when they chose so, by their name (identityType "name", hashed false).
type IdentityObject struct {
	Type         string `json:"type"`
	IdentityHash string `json:"identityHash"`
	IdentityType string `json:"identityType"`
	Hashed       bool   `json:"hashed"`
	Salt         string `json:"salt,omitempty"`
}

// Achievement is the badge.
type Achievement struct {
	Context         []string `json:"@context,omitempty"`
	ID              string   `json:"id"`
	Type            []string `json:"type"`
	AchievementType string   `json:"achievementType,omitempty"`
	Name            string   `json:"name"`
	Description     string   `json:"description"`
	Criteria        Criteria `json:"criteria"`
	Image           *Image   `json:"image,omitempty"`
	Tag             []string `json:"tag,omitempty"`
	Creator         *Profile `json:"creator,omitempty"`
	// ResultDescription: the result the achievement was awarded on (result.go).
	ResultDescription []ResultDescription `json:"resultDescription,omitempty"`
}

// Criteria says how the achievement is earned.
type Criteria struct {
	ID        string `json:"id,omitempty"`
	Narrative string `json:"narrative,omitempty"`
}

// Image is an image reference.
type Image struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Caption string `json:"caption,omitempty"`
}

// Status is one credentialStatus entry: a BitstringStatusListEntry, or in the VC-JWTs
// issued before issue 36 a 1EdTechRevocationList (id = the list's URL).
type Status struct {
	ID                   string `json:"id"`
	Type                 string `json:"type"`
	StatusPurpose        string `json:"statusPurpose,omitempty"`
	StatusListIndex      string `json:"statusListIndex,omitempty"`
	StatusListCredential string `json:"statusListCredential,omitempty"`
}

// Payload is the VC-JWT payload: the credential's members at the top level plus the
// registered claims OB 3.0 §8.2 asks for (iss = issuer.id, jti = id, nbf = validFrom,
// sub = credentialSubject.id, exp = validUntil).
type Payload struct {
	Credential
	Claims
}

// Input is what a credential is built from.
type Input struct {
	Origin               string // public origin, no trailing slash
	PublicVerificationID string
	StatusIndex          int
	UserID               string
	Email                string
	// HolderName: the holder chose that their credentials name them (users.
	// name_in_credentials): an unhashed IdentityObject of type "name" beside the hashed
	// e-mail address ("" = not named)
	HolderName       string
	Salt             string // hex; empty = a new random salt
	BadgeID          string
	BadgeName        string
	BadgeDescription string
	BadgeCriteria    string
	BadgeCategory    string
	BadgeLevel       string
	GrantedAt        time.Time
	ExpiresAt        *time.Time
	Evidence         []Evidence
	Result           *ResultInput // the assessed result (nil: none); adds the Assessment Extension context
}

// URLs of the published documents. IssuerURL is where the issuer Profile is served (and
// was the issuer's id before did:web).
func IssuerURL(origin string) string      { return origin + "/issuer" }
func IssuerImageURL(origin string) string { return origin + "/issuer/image.png" }
func AchievementURL(origin, badgeID string) string {
	return origin + "/achievements/" + url.PathEscape(badgeID)
}
func AchievementImageURL(origin, badgeID string) string {
	return AchievementURL(origin, badgeID) + "/image.png"
}
func CredentialURL(origin, pvid string) string {
	return origin + "/credentials/" + url.PathEscape(pvid)
}
func StatusListURL(origin string) string      { return origin + "/credentials/status" }
func JWKSURL(origin string) string            { return origin + "/.well-known/jwks.json" }
func ProfileURL(origin, userID string) string { return origin + "/profile/" + url.PathEscape(userID) }

// IssuerProfile is the issuer's Profile (without @context: add it when published alone):
// its id is our did:web.
func IssuerProfile(origin string) Profile {
	return Profile{ID: DIDWeb(origin), Type: []string{"Profile"}, Name: IssuerName, URL: origin,
		Description: "Meritmark issues professional badges after a quiz or a review of submitted proof.",
		Image:       &Image{ID: IssuerImageURL(origin), Type: "Image", Caption: IssuerName}}
}

// AchievementOf builds the achievement (without @context).
func AchievementOf(origin, badgeID, name, description, criteria, category, level string) Achievement {
	iss := IssuerProfile(origin)
	a := Achievement{
		ID: AchievementURL(origin, badgeID), Type: []string{"Achievement"}, AchievementType: "Badge",
		Name: name, Description: description,
		Criteria: Criteria{Narrative: strings.TrimSpace(criteria)},
		Image:    &Image{ID: AchievementImageURL(origin, badgeID), Type: "Image", Caption: name},
		Creator:  &Profile{ID: iss.ID, Type: iss.Type, Name: iss.Name, URL: iss.URL, Image: iss.Image},
	}
	if a.Description == "" {
		a.Description = name
	}
	if a.Criteria.Narrative == "" {
		a.Criteria.Narrative = "Awarded by " + IssuerName + " after review."
	}
	for _, t := range []string{category, level} {
		if t != "" {
			a.Tag = append(a.Tag, t)
		}
	}
	return a
}

// IdentityHash is OB 3.0's hashed identity: "sha256$" and the hex SHA-256 of the
// lower-cased, trimmed e-mail address followed by the salt.
func IdentityHash(email, salt string) string {
	h := sha256.Sum256([]byte(strings.ToLower(strings.TrimSpace(email)) + salt))
	return "sha256$" + hex.EncodeToString(h[:])
}

// NewSalt returns 16 random bytes as hex.
func NewSalt() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b[:])
}

// Timestamp formats t as the credential's dates do (UTC, seconds, Z).
func Timestamp(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

// Build makes the credential and its JWT payload: its credentialStatus is a
// BitstringStatusListEntry per purpose (revocation, suspension) at in.StatusIndex, the same
// in both forms.
func Build(in Input) *Payload {
	for _, f := range []*string{&in.BadgeName, &in.BadgeDescription, &in.BadgeCriteria, &in.BadgeCategory, &in.BadgeLevel} {
		*f = CleanText(*f)
	}
	for i := range in.Evidence {
		e := &in.Evidence[i]
		e.Name, e.Description, e.Narrative, e.Genre = CleanText(e.Name), CleanText(e.Description), CleanText(e.Narrative), CleanText(e.Genre)
	}
	salt := in.Salt
	if salt == "" {
		salt = NewSalt()
	}
	origin := strings.TrimRight(in.Origin, "/")
	c := Credential{
		Context:     Contexts,
		ID:          CredentialURL(origin, in.PublicVerificationID),
		Type:        []string{"VerifiableCredential", "OpenBadgeCredential"},
		Issuer:      IssuerProfile(origin),
		ValidFrom:   Timestamp(in.GrantedAt),
		AwardedDate: Timestamp(in.GrantedAt),
		Name:        in.BadgeName,
		Description: fmt.Sprintf("%s, awarded by %s.", in.BadgeName, IssuerName),
		CredentialSubject: AchievementSubject{
			ID:   ProfileURL(origin, in.UserID),
			Type: []string{"AchievementSubject"},
			Identifier: []IdentityObject{{Type: "IdentityObject", IdentityHash: IdentityHash(in.Email, salt),
				IdentityType: "emailAddress", Hashed: true, Salt: salt}},
			Achievement: AchievementOf(origin, in.BadgeID, in.BadgeName, in.BadgeDescription, in.BadgeCriteria, in.BadgeCategory, in.BadgeLevel),
		},
		Evidence:         in.Evidence,
		CredentialSchema: []Schema{{ID: SchemaURL, Type: SchemaType}},
		CredentialStatus: StatusEntries(origin, in.StatusIndex),
		RefreshService:   &Refresh{ID: CredentialURL(origin, in.PublicVerificationID), Type: "1EdTechCredentialRefresh"},
	}
	if name := CleanText(in.HolderName); name != "" {
		c.CredentialSubject.Identifier = append(c.CredentialSubject.Identifier,
			IdentityObject{Type: "IdentityObject", IdentityHash: name, IdentityType: "name", Hashed: false})
	}
	c.Image = c.CredentialSubject.Achievement.Image
	if in.Result != nil {
		d, r := resultOf(origin, in.BadgeID, in.Result)
		c.Context = append(append([]string{}, Contexts...), ContextOBAssessment)
		c.CredentialSubject.Achievement.ResultDescription = []ResultDescription{d}
		c.CredentialSubject.Result = []Result{r}
	}
	p := &Payload{Credential: c, Claims: Claims{
		Iss: c.Issuer.ID, Jti: c.ID, Sub: c.CredentialSubject.ID, Nbf: in.GrantedAt.UTC().Truncate(time.Second).Unix(),
	}}
	if in.ExpiresAt != nil {
		p.ValidUntil = Timestamp(*in.ExpiresAt)
		p.Exp = in.ExpiresAt.UTC().Truncate(time.Second).Unix()
	}
	return p
}

// LDCredential is the JSON-LD form of p's credential (before its proof): the same
// credential, with the same status entries.
func LDCredential(p *Payload) Credential { return p.Credential }

// Signed is a credential in both forms.
type Signed struct {
	JWT     string
	Payload *Payload
	LD      []byte // the JSON-LD credential with its DataIntegrityProof
}

// SignBoth builds the credential and signs it: the VC-JWT with es (ES256; the header kid
// is its verification method in our DID document, did:web:{host}#{thumbprint}, so
// DID-based JWT verifiers find it) and the JSON-LD form with ed (Ed25519,
// eddsa-rdfc-2022, verificationMethod the did:web key).
func SignBoth(ed, es *Key, in Input, now time.Time) (*Signed, error) {
	p := Build(in)
	origin := strings.TrimRight(in.Origin, "/")
	b, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	tok, err := SignJWTKid(es, VerificationMethodID(origin, es.KID), b)
	if err != nil {
		return nil, err
	}
	ldDoc, err := AddProof(LDCredential(p), ed, VerificationMethodID(origin, ed.KID), now)
	if err != nil {
		return nil, err
	}
	return &Signed{JWT: tok, Payload: p, LD: ldDoc}, nil
}

// Sign builds and signs the VC-JWT with k, named by its thumbprint (the EdDSA form of the
// credentials issued before ES256; tests use it to make such credentials).
func Sign(k *Key, in Input) (string, *Payload, error) {
	p := Build(in)
	b, err := json.Marshal(p)
	if err != nil {
		return "", nil, err
	}
	tok, err := SignJWT(k, b)
	return tok, p, err
}

// Decode reads a verified (or not) payload.
func Decode(payload []byte) (*Payload, error) {
	var p Payload
	if err := json.Unmarshal(payload, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return &p, nil
}

// StatusIndexOf is the revocation list index a credential names (0 when none): its
// revocation BitstringStatusListEntry's, else (EdDSA credentials from before issue 15) the
// fragment of its status id.
func (p *Payload) StatusIndexOf() int {
	if e := p.CredentialStatus.Entry(PurposeRevocation); e != nil {
		n, err := strconv.Atoi(e.StatusListIndex)
		if err != nil || n < 0 {
			return 0
		}
		return n
	}
	if len(p.CredentialStatus) == 0 {
		return 0
	}
	id := p.CredentialStatus[0].ID
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return 0
	}
	var n int
	if _, err := fmt.Sscanf(id[i+1:], "%d", &n); err != nil {
		return 0
	}
	return n
}

// NamesStatusLists reports whether p's credentialStatus is exactly our two
// BitstringStatusListEntry objects on origin at index.
func (p *Payload) NamesStatusLists(origin string, index int) bool {
	want := StatusEntries(origin, index)
	if len(p.CredentialStatus) != len(want) {
		return false
	}
	for i := range want {
		if p.CredentialStatus[i] != want[i] {
			return false
		}
	}
	return true
}

// NamesRevocationList1EdTech reports whether p's credentialStatus is the 1EdTech
// Revocation List of origin (the VC-JWTs issued before issue 36).
func (p *Payload) NamesRevocationList1EdTech(origin string) bool {
	return len(p.CredentialStatus) == 1 && p.CredentialStatus[0].ID == StatusListURL(origin) && p.CredentialStatus[0].Type == StatusType
}
