package obapi

// CompactJWSPattern is the shape of a compact JWS in 1EdTech's schema (three base64url
// parts, the payload possibly empty).
const CompactJWSPattern = `^[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*\.[a-zA-Z0-9_-]+$`

// abs is path on origin.
func abs(origin, path string) string { return origin + path }

// Discovery is the Open Badges API's service description document (OpenAPI 3.0) for
// origin: the endpoints and the OAuth 2.0 authorization code flow wallets use, with the
// dynamic client registration URL and the scopes offered.
func Discovery(origin string) map[string]any {
	scopes := map[string]string{}
	for _, s := range Offered {
		scopes[s.URI] = s.Title + ": " + s.Description
	}
	security := []map[string][]string{}
	errResp := map[string]any{"description": "An imsx_StatusInfo error", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Imsx_StatusInfo"}}}}
	op := func(id, summary, scope string, params []any, okSchema string) map[string]any {
		return map[string]any{
			"operationId": id, "summary": summary, "tags": []string{"OpenBadgeCredentials"},
			"security":   append(security, map[string][]string{"OAuth2ACG": {scope}}),
			"parameters": params,
			"responses": map[string]any{
				"200": map[string]any{"description": "OK", "content": map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": okSchema}}}},
				"400": errResp, "401": errResp, "403": errResp, "500": errResp,
			},
		}
	}
	paging := []any{
		map[string]any{"name": "limit", "in": "query", "required": false, "schema": map[string]any{"type": "integer", "minimum": 1, "maximum": MaxLimit}},
		map[string]any{"name": "offset", "in": "query", "required": false, "schema": map[string]any{"type": "integer", "minimum": 0}},
	}
	return map[string]any{
		"openapi": "3.0.1",
		"info": map[string]any{
			"title":                    "Meritmark Open Badges API",
			"description":              "The Open Badges 3.0 API of Meritmark: wallets read the credentials Meritmark issued to a holder, with the holder's consent.",
			"version":                  "3.0",
			"termsOfService":           abs(origin, "/termsandconditions"),
			"x-imssf-privacyPolicyUrl": abs(origin, "/privacypolicy"),
			"x-imssf-image":            abs(origin, "/static/images/favicon.svg"),
		},
		"servers": []any{map[string]any{"url": abs(origin, BasePath), "description": "Meritmark"}},
		"tags":    []any{map[string]any{"name": "OpenBadgeCredentials"}, map[string]any{"name": "Discovery"}},
		"paths": map[string]any{
			"/credentials": map[string]any{"get": op("getCredentials", "The holder's OpenBadgeCredentials, paged (X-Total-Count and Link headers)", ScopeCredentialRead, paging, "#/components/schemas/GetOpenBadgeCredentialsResponse")},
			"/profile":     map[string]any{"get": op("getProfile", "The holder's Profile", ScopeProfileRead, []any{}, "#/components/schemas/Profile")},
			"/discovery": map[string]any{"get": map[string]any{"operationId": "getServiceDescription", "tags": []string{"Discovery"},
				"summary":   "This document",
				"responses": map[string]any{"200": map[string]any{"description": "The service description document"}}}},
		},
		"components": map[string]any{
			"securitySchemes": map[string]any{
				"OAuth2ACG": map[string]any{
					"type":                    "oauth2",
					"description":             "OAuth 2.0 authorization code grant with PKCE (S256); clients register dynamically (RFC 7591) and authenticate with client_secret_basic.",
					"x-imssf-registrationUrl": abs(origin, RegisterPath),
					"flows": map[string]any{
						"authorizationCode": map[string]any{
							"authorizationUrl":      abs(origin, AuthorizePath),
							"tokenUrl":              abs(origin, TokenPath),
							"refreshUrl":            abs(origin, TokenPath),
							"x-imssf-revocationUrl": abs(origin, RevokePath),
							"scopes":                scopes,
						},
					},
				},
			},
			"schemas": map[string]any{
				// 1EdTech's shapes, additionalProperties false as in their OpenAPI file
				"GetOpenBadgeCredentialsResponse": map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
					"credential":       map[string]any{"type": "array", "items": map[string]any{"type": "object"}},
					"compactJwsString": map[string]any{"type": "array", "items": map[string]any{"type": "string", "pattern": CompactJWSPattern}},
				}},
				"Profile": map[string]any{"type": "object"},
				"Imsx_StatusInfo": map[string]any{"type": "object", "additionalProperties": false,
					"required": []string{"imsx_codeMajor", "imsx_severity"},
					"properties": map[string]any{
						"imsx_codeMajor":   map[string]any{"type": "string", "enum": []string{"success", "processing", "failure", "unsupported"}},
						"imsx_severity":    map[string]any{"type": "string", "enum": []string{"status", "warning", "error"}},
						"imsx_description": map[string]any{"type": "string"},
						"imsx_codeMinor": map[string]any{"type": "object", "additionalProperties": false, "required": []string{"imsx_codeMinorField"},
							"properties": map[string]any{"imsx_codeMinorField": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{
								"type": "object", "additionalProperties": false, "required": []string{"imsx_codeMinorFieldName", "imsx_codeMinorFieldValue"},
								"properties": map[string]any{
									"imsx_codeMinorFieldName":  map[string]any{"type": "string"},
									"imsx_codeMinorFieldValue": map[string]any{"type": "string", "enum": []string{MinorForbidden, MinorInvalidQuery, MinorUnauthorized}},
								},
							}}}},
					}},
			},
		},
	}
}
