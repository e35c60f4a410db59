package credential

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// Validate checks a decoded credential against what OB 3.0 requires of an
// OpenBadgeCredential and of its VC-JWT claims; it returns every problem found.
func Validate(raw []byte) []string {
	var probs []string
	bad := func(f string, a ...any) { probs = append(probs, fmt.Sprintf(f, a...)) }
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return []string{"not a JSON object"}
	}
	ctx, _ := m["@context"].([]any)
	if len(ctx) < 2 || ctx[0] != ContextVC || !strings.HasPrefix(fmt.Sprint(ctx[1]), "https://purl.imsglobal.org/spec/ob/v3p0/context") {
		bad("@context must start with the VC 2.0 context then the OB 3.0 context")
	}
	str := func(v any) string { s, _ := v.(string); return s }
	hasType := func(v any, want string) bool {
		switch t := v.(type) {
		case string:
			return t == want
		case []any:
			for _, x := range t {
				if x == want {
					return true
				}
			}
		}
		return false
	}
	isURI := func(s string) bool {
		u, err := url.Parse(s)
		return err == nil && u.Scheme != "" && (u.Host != "" || u.Opaque != "")
	}
	if !isURI(str(m["id"])) {
		bad("id must be a URI")
	}
	if !hasType(m["type"], "VerifiableCredential") || !hasType(m["type"], "OpenBadgeCredential") {
		bad("type must include VerifiableCredential and OpenBadgeCredential")
	}
	iss, _ := m["issuer"].(map[string]any)
	if iss == nil {
		bad("issuer must be a Profile")
	} else {
		if !isURI(str(iss["id"])) {
			bad("issuer.id must be a URI")
		}
		if !hasType(iss["type"], "Profile") {
			bad("issuer.type must include Profile")
		}
		if str(iss["name"]) == "" {
			bad("issuer.name is required")
		}
	}
	vf, err := time.Parse(time.RFC3339, str(m["validFrom"]))
	if err != nil {
		bad("validFrom must be a date-time")
	}
	if s := str(m["validUntil"]); s != "" {
		if vu, err := time.Parse(time.RFC3339, s); err != nil {
			bad("validUntil must be a date-time")
		} else if !vu.After(vf) {
			bad("validUntil must be after validFrom")
		}
	}
	if str(m["name"]) == "" {
		bad("name is required")
	}
	sub, _ := m["credentialSubject"].(map[string]any)
	if sub == nil {
		bad("credentialSubject is required")
	} else {
		if !hasType(sub["type"], "AchievementSubject") {
			bad("credentialSubject.type must include AchievementSubject")
		}
		ids, _ := sub["identifier"].([]any)
		if str(sub["id"]) == "" && len(ids) == 0 {
			bad("credentialSubject needs an id or an identifier")
		}
		for i, x := range ids {
			o, _ := x.(map[string]any)
			if o == nil || str(o["type"]) != "IdentityObject" || str(o["identityType"]) == "" || str(o["identityHash"]) == "" {
				bad("credentialSubject.identifier[%d] must be an IdentityObject with identityType and identityHash", i)
				continue
			}
			if h, _ := o["hashed"].(bool); h && !strings.HasPrefix(str(o["identityHash"]), "sha256$") {
				bad("credentialSubject.identifier[%d].identityHash must be sha256$…", i)
			}
		}
		a, _ := sub["achievement"].(map[string]any)
		if a == nil {
			bad("credentialSubject.achievement is required")
		} else {
			if !isURI(str(a["id"])) {
				bad("achievement.id must be a URI")
			}
			if !hasType(a["type"], "Achievement") {
				bad("achievement.type must include Achievement")
			}
			if str(a["name"]) == "" {
				bad("achievement.name is required")
			}
			if str(a["description"]) == "" {
				bad("achievement.description is required")
			}
			cr, _ := a["criteria"].(map[string]any)
			if cr == nil || (str(cr["id"]) == "" && str(cr["narrative"]) == "") {
				bad("achievement.criteria needs an id or a narrative")
			}
			if img, ok := a["image"].(map[string]any); ok && (!isURI(str(img["id"])) || str(img["type"]) != "Image") {
				bad("achievement.image must be an Image with a URI id")
			}
		}
	}
	// credentialStatus: one object, or (VC 2.0, our credentials since issue 36) an array
	var statuses []any
	switch st := m["credentialStatus"].(type) {
	case map[string]any:
		statuses = []any{st}
	case []any:
		statuses = st
	}
	for _, x := range statuses {
		if st, ok := x.(map[string]any); !ok || !isURI(str(st["id"])) || str(st["type"]) == "" {
			bad("credentialStatus needs an id and a type")
			break
		}
	}
	// VC-JWT claims, when present (a JWT payload): they must agree with the credential
	if _, ok := m["iss"]; ok || m["jti"] != nil || m["nbf"] != nil {
		if iss != nil && str(m["iss"]) != str(iss["id"]) {
			bad("iss must equal issuer.id")
		}
		if str(m["jti"]) != str(m["id"]) {
			bad("jti must equal id")
		}
		if nbf, ok := m["nbf"].(float64); !ok || err != nil || int64(nbf) != vf.Unix() {
			bad("nbf must equal validFrom")
		}
		if sub != nil && str(sub["id"]) != "" && str(m["sub"]) != str(sub["id"]) {
			bad("sub must equal credentialSubject.id")
		}
		if s := str(m["validUntil"]); s != "" {
			vu, _ := time.Parse(time.RFC3339, s)
			if exp, ok := m["exp"].(float64); !ok || int64(exp) != vu.Unix() {
				bad("exp must equal validUntil")
			}
		}
	}
	return probs
}

// ErrInvalid wraps Validate's findings.
var ErrInvalid = errors.New("the credential does not have the shape of an OpenBadgeCredential")
