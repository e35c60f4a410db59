package obapi

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/ory/fosite"

	"meritmark/app/credential"
	"meritmark/app/model"
)

// StatusInfo is the Open Badges API's error (imsx_StatusInfo).
type StatusInfo struct {
	CodeMajor   string    `json:"imsx_codeMajor"`
	Severity    string    `json:"imsx_severity"`
	Description string    `json:"imsx_description"`
	CodeMinor   codeMinor `json:"imsx_codeMinor"`
}

type codeMinor struct {
	Fields []codeMinorField `json:"imsx_codeMinorField"`
}

type codeMinorField struct {
	Name  string `json:"imsx_codeMinorFieldName"`
	Value string `json:"imsx_codeMinorFieldValue"`
}

// The codeMinor values used (1EdTech's imsx_codeMinorFieldValue vocabulary).
const (
	MinorUnauthorized = "unauthorizedrequest"
	MinorForbidden    = "forbidden"
	MinorInvalidQuery = "invalid_query_parameter"
)

func statusInfo(c fiber.Ctx, status int, minor, desc string) error {
	c.Set("Cache-Control", "no-store")
	return c.Status(status).JSON(StatusInfo{CodeMajor: "failure", Severity: "error", Description: desc,
		CodeMinor: codeMinor{Fields: []codeMinorField{{Name: "TargetEndSystem", Value: minor}}}})
}

// bearer checks the request's access token and that it was granted scope; it answers
// the error itself (ok false).
func (h *Handler) bearer(c fiber.Ctx, scope string) (userID, clientID string, ok bool, err error) {
	auth := c.Get(fiber.HeaderAuthorization)
	tok := ""
	if len(auth) > 7 && strings.EqualFold(auth[:7], "bearer ") {
		tok = strings.TrimSpace(auth[7:])
	}
	if tok == "" {
		c.Set("WWW-Authenticate", `Bearer realm="meritmark"`)
		return "", "", false, statusInfo(c, http.StatusUnauthorized, MinorUnauthorized, "An access token is required (Authorization: Bearer).")
	}
	sess := NewSession("")
	use, ar, ierr := h.svc.Provider.IntrospectToken(c.Context(), tok, fosite.AccessToken, sess, scope)
	if ierr == nil && use != fosite.AccessToken {
		ierr = fosite.ErrRequestUnauthorized // a refresh token is not an access token
	}
	if ierr != nil {
		rfc := fosite.ErrorToRFC6749Error(ierr)
		switch {
		case rfc.ErrorField == fosite.ErrInvalidScope.ErrorField:
			c.Set("WWW-Authenticate", `Bearer realm="meritmark", error="insufficient_scope", scope="`+scope+`"`)
			return "", "", false, statusInfo(c, http.StatusForbidden, MinorForbidden, "The access token was not granted the scope "+scope+".")
		case rfc.ErrorField == fosite.ErrServerError.ErrorField:
			return "", "", false, ierr
		}
		c.Set("WWW-Authenticate", `Bearer realm="meritmark", error="invalid_token"`)
		return "", "", false, statusInfo(c, http.StatusUnauthorized, MinorUnauthorized, "The access token is invalid, expired or revoked.")
	}
	userID, clientID = ar.GetSession().GetSubject(), ar.GetClient().GetID()
	if err := h.svc.TouchConsent(c.Context(), userID, clientID); err != nil {
		return "", "", false, err
	}
	return userID, clientID, true, nil
}

// CredentialsResponse is getCredentials' answer (1EdTech's
// GetOpenBadgeCredentialsResponse, additionalProperties false): each credential signed
// as a VC-JWT in compactJwsString and as Data Integrity JSON-LD in credential.
type CredentialsResponse struct {
	Credential []json.RawMessage `json:"credential"`
	CompactJWS []string          `json:"compactJwsString"`
}

// CORS: browser wallets call the API from their own origin with a bearer token (never a
// cookie), so any origin may, and the preflight is answered here.
func cors(c fiber.Ctx) {
	c.Set("Access-Control-Allow-Origin", "*")
	c.Set("Access-Control-Expose-Headers", "Link, X-Total-Count, WWW-Authenticate")
}

// preflight answers a CORS preflight of an API endpoint: GET with an Authorization
// header from any origin, without credentials (cookies are never used).
func (h *Handler) preflight(c fiber.Ctx) error {
	cors(c)
	c.Set("Access-Control-Allow-Methods", "GET, OPTIONS")
	c.Set("Access-Control-Allow-Headers", "Authorization, Accept, Content-Type")
	c.Set("Access-Control-Max-Age", "600")
	c.Set("Vary", "Origin")
	return c.SendStatus(http.StatusNoContent)
}

func (h *Handler) credentials(c fiber.Ctx) error {
	cors(c)
	userID, _, ok, err := h.bearer(c, ScopeCredentialRead)
	if !ok {
		return err
	}
	limit, offset, msg := ParsePaging(c.Query("limit"), c.Query("offset"))
	if msg != "" {
		return statusInfo(c, http.StatusBadRequest, MinorInvalidQuery, msg)
	}
	origin := h.site.Origin(c)
	page, err := h.svc.HolderCredentials(c.Context(), userID, limit, offset, origin)
	if err != nil {
		return err
	}
	c.Set("X-Total-Count", strconv.Itoa(page.Total))
	c.Set("Link", LinkHeader(origin+BasePath+"/credentials", limit, offset, page.Total))
	c.Set("Cache-Control", "no-store")
	return c.JSON(CredentialsResponse{CompactJWS: page.JWS, Credential: page.LD})
}

// Profile is the holder's Open Badges 3.0 Profile.
type Profile struct {
	Context []string `json:"@context"`
	ID      string   `json:"id"`
	Type    []string `json:"type"`
	Name    string   `json:"name"`
	Email   string   `json:"email,omitempty"`
	URL     string   `json:"url,omitempty"`
	Image   *struct {
		ID   string `json:"id"`
		Type string `json:"type"`
	} `json:"image,omitempty"`
	Description string `json:"description,omitempty"`
}

// ProfileOf is u's Profile.
func ProfileOf(origin string, u *model.User) Profile {
	p := Profile{Context: []string{credential.ContextVC, credential.ContextOB3}, ID: credential.ProfileURL(origin, u.ID),
		Type: []string{"Profile"}, Name: u.Name, Email: u.Email, URL: credential.ProfileURL(origin, u.ID), Description: u.Bio}
	if pic := u.ProfilePicURL(); pic != "" {
		p.Image = &struct {
			ID   string `json:"id"`
			Type string `json:"type"`
		}{ID: origin + pic, Type: "Image"}
	}
	return p
}

func (h *Handler) profile(c fiber.Ctx) error {
	cors(c)
	userID, _, ok, err := h.bearer(c, ScopeProfileRead)
	if !ok {
		return err
	}
	u, err := h.svc.Holder(c.Context(), userID)
	if err != nil {
		return err
	}
	if u == nil {
		return statusInfo(c, http.StatusUnauthorized, MinorUnauthorized, "The access token is invalid, expired or revoked.")
	}
	c.Set("Cache-Control", "no-store")
	return c.JSON(ProfileOf(h.site.Origin(c), u))
}
