package obapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/gofiber/fiber/v3/middleware/adaptor"
	"github.com/ory/fosite"
	"github.com/uptrace/bun"

	"meritmark/app/config"
	"meritmark/app/credential"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
)

// Handler serves the OAuth 2.0 endpoints, the Open Badges API and the connected apps.
type Handler struct {
	site    *web.Site
	svc     *Service
	limiter *ratelimit.Limiter
}

// New builds the handler: the HMAC secret comes from MERITMARK_SECRET_OAUTH_HMAC or is
// generated once into <data dir>/secrets/oauth-hmac.
func New(d *bun.DB, site *web.Site, cfg *config.Config, iss *credential.Issuer, limiter *ratelimit.Limiter) *Handler {
	secret, err := cfg.Secret(nil, "oauth-hmac")
	if err != nil {
		panic("obapi: oauth secret: " + err.Error())
	}
	return &Handler{site: site, svc: NewService(d, secret, iss), limiter: limiter}
}

// Service is the handler's service (tests use it).
func (h *Handler) Service() *Service { return h.svc }

func public(method, path string, fn fiber.Handler) web.Route {
	return web.Route{Method: method, Path: path, Access: web.Public, Kind: web.Asset, Handler: fn}
}

// Routes lists the routes. The Open Badges API and the token, revocation and
// registration endpoints are public in the table: they authenticate each request
// themselves (bearer token, client credentials) and never act on a session cookie.
func (h *Handler) Routes() []web.Route {
	return []web.Route{
		public("GET", BasePath+"/discovery", h.discovery),
		public("GET", BasePath+"/credentials", h.credentials),
		public("GET", BasePath+"/profile", h.profile),
		public("OPTIONS", BasePath+"/credentials", h.preflight),
		public("OPTIONS", BasePath+"/profile", h.preflight),
		public("OPTIONS", BasePath+"/discovery", h.preflight),
		public("POST", RegisterPath, h.register).WithCrossSite(),
		public("POST", TokenPath, h.token).WithCrossSite(),
		public("POST", RevokePath, h.revoke).WithCrossSite(),
		web.PageRoute(AuthorizePath, web.Member, h.authorizePage),
		{Method: "POST", Path: AuthorizePath, Access: web.Member, Kind: web.Page, Handler: h.authorizeDecision},
		web.Get("/oauth/apps", web.Member, h.listApps),
		web.Delete("/oauth/apps/:clientId", web.Member, h.deleteApp),
	}
}

// ---- net/http bridge for fosite ----

// recorder is the http.ResponseWriter fosite writes to; send copies it to fiber.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder                    { return &recorder{header: http.Header{}, status: http.StatusOK} }
func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(code int)        { r.status = code }

func (r *recorder) send(c fiber.Ctx) error {
	for k, vs := range r.header {
		c.Response().Header.Del(k)
		for _, v := range vs {
			c.Response().Header.Add(k, v)
		}
	}
	return c.Status(r.status).Send(r.body.Bytes())
}

// httpRequest is the fiber request as a net/http one, with the request's context.
func httpRequest(c fiber.Ctx) (*http.Request, context.Context, error) {
	req, err := adaptor.ConvertRequest(c, true)
	if err != nil {
		return nil, nil, err
	}
	ctx := c.Context()
	return req.WithContext(ctx), ctx, nil
}

// ---- discovery ----

func (h *Handler) discovery(c fiber.Ctx) error {
	c.Set("Cache-Control", "public, max-age=300")
	c.Set("Access-Control-Allow-Origin", "*")
	return c.JSON(Discovery(h.site.Origin(c)))
}

// ---- dynamic client registration (RFC 7591) ----

// RegistrationsPerHour bounds registrations per client address.
const RegistrationsPerHour = 20

func regError(c fiber.Ctx, status int, e *RegistrationError) error {
	c.Set("Cache-Control", "no-store")
	return c.Status(status).JSON(e)
}

func (h *Handler) register(c fiber.Ctx) error {
	if ok, err := h.limiter.Allow(c.Context(), "oauth-register:"+c.IP(), RegistrationsPerHour, time.Hour); err != nil {
		return err
	} else if !ok {
		c.Set("Retry-After", "3600")
		return regError(c, http.StatusTooManyRequests, regErr("too_many_requests", "too many client registrations from this address; try again later"))
	}
	ct := strings.ToLower(c.Get(fiber.HeaderContentType))
	if !strings.HasPrefix(ct, "application/json") {
		return regError(c, http.StatusBadRequest, regErr("invalid_client_metadata", "the registration must be a JSON object (Content-Type: application/json)"))
	}
	var r Registration
	if err := jsonStrict(c.Body(), &r); err != nil {
		return regError(c, http.StatusBadRequest, regErr("invalid_client_metadata", "the registration is not a valid JSON object of client metadata"))
	}
	if e := CheckRegistration(&r); e != nil {
		return regError(c, http.StatusBadRequest, e)
	}
	out, err := h.svc.Register(c.Context(), r)
	if err != nil {
		return err
	}
	slog.Info("oauth client registered", "client_id", out.ClientID, "name", out.ClientName)
	c.Set("Cache-Control", "no-store")
	return c.Status(http.StatusCreated).JSON(out)
}

// ---- authorization endpoint and consent ----

// ConsentProps are the consent page's props.
type ConsentProps struct {
	Client *ClientInfo `json:"client,omitempty"`
	Scopes []Scope     `json:"scopes"`
	// Fields are the authorization request's parameters, posted back with the decision.
	Fields       [][2]string `json:"fields"`
	RedirectHost string      `json:"redirectHost"`
	// Error, when set, is why the request cannot be shown (no redirect is made: the
	// client or its redirect URI is not one that can be trusted with an answer).
	Error            string `json:"error,omitempty"`
	ErrorTitle       string `json:"errorTitle,omitempty"`
	ErrorDescription string `json:"errorDescription,omitempty"`
}

// The page an unconfirmed account gets instead of the consent screen.
const (
	MsgConfirmFirstTitle = "Confirm your email address first"
	MsgConfirmFirst      = "Apps can be connected only to an account whose email address is confirmed. Open the confirmation link we emailed you, or ask for a new one from your profile."
)

// unconfirmed answers an authorization request of a member whose address is not
// confirmed: no consent screen, no code and no redirect (403). An account someone
// opened with another person's address must not hold a grant that outlives the owner
// taking the account back.
func (h *Handler) unconfirmed(c fiber.Ctx) error {
	return h.site.Render(c, "OAuthAuthorizePage", ConsentProps{Scopes: []Scope{}, Fields: [][2]string{}, Error: fosite.ErrAccessDenied.ErrorField,
		ErrorTitle: MsgConfirmFirstTitle, ErrorDescription: MsgConfirmFirst}, web.Meta{Title: "Connect an app", NoIndex: true, Status: http.StatusForbidden})
}

// authorizeFailed answers an invalid authorization request: with the standard error at
// the client's redirect URI when that URI is registered, else a page (400) and no
// redirect at all.
func (h *Handler) authorizeFailed(c fiber.Ctx, ctx context.Context, ar fosite.AuthorizeRequester, err error) error {
	if ar != nil && ar.IsRedirectURIValid() {
		rw := newRecorder()
		h.svc.Provider.WriteAuthorizeError(ctx, rw, ar, err)
		return rw.send(c)
	}
	rfc := fosite.ErrorToRFC6749Error(err)
	desc := "This sign-in link is not valid: the app is not registered here, or it asked to send you back to an address it did not register."
	if rfc.ErrorField == fosite.ErrServerError.ErrorField {
		return err
	}
	status := http.StatusBadRequest
	return h.site.Render(c, "OAuthAuthorizePage", ConsentProps{Scopes: []Scope{}, Fields: [][2]string{}, Error: rfc.ErrorField, ErrorDescription: desc},
		web.Meta{Title: "Connect an app", NoIndex: true, Status: status})
}

// checkAuthorizeRequest adds this host's rules to fosite's: PKCE with S256 is required
// up front (so the holder is never asked to consent to a request that will fail) and at
// least one scope must be asked for.
func checkAuthorizeRequest(ar fosite.AuthorizeRequester) error {
	f := ar.GetRequestForm()
	if f.Get("code_challenge") == "" {
		return fosite.ErrInvalidRequest.WithHint("Clients must include a code_challenge when performing the authorize code flow (PKCE is required).")
	}
	if f.Get("code_challenge_method") != "S256" {
		return fosite.ErrInvalidRequest.WithHint("The code_challenge_method must be S256.")
	}
	if msg := CheckCodeChallenge(f.Get("code_challenge")); msg != "" {
		return fosite.ErrInvalidRequest.WithHint(msg)
	}
	if len(ar.GetRequestedScopes()) == 0 {
		return fosite.ErrInvalidScope.WithHint("Ask for at least one scope.")
	}
	return nil
}

// offeredOnly drops from an authorization request's scope every scope this host does
// not offer or the client did not register, such as offline_access (every grant gets a
// refresh token here anyway): RFC 6749 3.3 lets the server grant less than asked, and
// the answer's scope parameter says what was granted. Nothing left is invalid_scope.
func (h *Handler) offeredOnly(ctx context.Context, req *http.Request) error {
	if err := req.ParseForm(); err != nil {
		return fosite.ErrInvalidRequest.WithHint("The request's parameters cannot be parsed.")
	}
	asked, ok := req.Form["scope"]
	if !ok {
		return nil
	}
	var registered []string
	if cl, err := h.svc.Store.GetClient(ctx, req.Form.Get("client_id")); err == nil {
		registered = cl.GetScopes()
	}
	keep := []string{}
	for _, s := range strings.Fields(strings.Join(asked, " ")) {
		if Offers(s) && (registered == nil || contains(registered, s)) && !contains(keep, s) {
			keep = append(keep, s)
		}
	}
	req.Form["scope"] = []string{strings.Join(keep, " ")}
	return nil
}

// newAuthorizeRequest is fosite's authorization request of req, with this host's rules.
func (h *Handler) newAuthorizeRequest(ctx context.Context, req *http.Request) (fosite.AuthorizeRequester, error) {
	if err := h.offeredOnly(ctx, req); err != nil {
		return nil, err
	}
	ar, err := h.svc.Provider.NewAuthorizeRequest(ctx, req)
	if err == nil {
		err = checkAuthorizeRequest(ar)
	}
	return ar, err
}

func (h *Handler) authorizePage(c fiber.Ctx) error {
	req, ctx, err := httpRequest(c)
	if err != nil {
		return err
	}
	ar, err := h.newAuthorizeRequest(ctx, req)
	if err != nil {
		return h.authorizeFailed(c, ctx, ar, err)
	}
	if !web.Viewer(c).EmailVerified() {
		return h.unconfirmed(c)
	}
	client, err := h.svc.Client(ctx, ar.GetClient().GetID())
	if err != nil {
		return err
	}
	props := ConsentProps{Client: client, Scopes: []Scope{}, Fields: [][2]string{}}
	for _, s := range ar.GetRequestedScopes() {
		props.Scopes = append(props.Scopes, ScopeInfo(s))
	}
	q := c.Request().URI().QueryArgs()
	for k, v := range q.All() {
		props.Fields = append(props.Fields, [2]string{string(k), string(v)})
	}
	redirect := ar.GetRedirectURI()
	props.RedirectHost = redirect.Host
	// the consent form posts here, and the answer redirects to the client: browsers apply
	// the page's form-action to that redirect, so the client's origin is allowed too
	if csp := string(c.Response().Header.Peek("Content-Security-Policy")); csp != "" {
		origin := redirect.Scheme + "://" + redirect.Host
		c.Set("Content-Security-Policy", strings.Replace(csp, "form-action 'self'", "form-action 'self' "+origin, 1))
	}
	return h.site.Render(c, "OAuthAuthorizePage", props, web.Meta{Title: "Connect " + client.Name, NoIndex: true})
}

// authorizeDecision handles the consent form: Allow issues a code (and records the
// consent) in one transaction; Deny answers access_denied at the redirect URI.
func (h *Handler) authorizeDecision(c fiber.Ctx) error {
	u := web.Viewer(c)
	req, ctx, err := httpRequest(c)
	if err != nil {
		return err
	}
	ar, err := h.newAuthorizeRequest(ctx, req)
	if err != nil {
		return h.authorizeFailed(c, ctx, ar, err)
	}
	if !u.EmailVerified() {
		return h.unconfirmed(c)
	}
	if req.PostForm.Get("decision") != "allow" {
		return h.authorizeFailed(c, ctx, ar, fosite.ErrAccessDenied.WithHint("The holder denied the request."))
	}
	for _, s := range ar.GetRequestedScopes() {
		ar.GrantScope(s)
	}
	txCtx, err := h.svc.Store.BeginTX(ctx)
	if err != nil {
		return err
	}
	resp, err := h.svc.Provider.NewAuthorizeResponse(txCtx, ar, NewSession(u.ID))
	if err == nil {
		err = h.svc.RecordConsent(txCtx, h.svc.Store.idb(txCtx), u.ID, ar.GetClient().GetID(), ar.GetGrantedScopes())
	}
	if ferr := h.svc.Store.Finish(txCtx, err != nil); ferr != nil && err == nil {
		err = ferr
	}
	if err != nil {
		return h.authorizeFailed(c, ctx, ar, err)
	}
	rw := newRecorder()
	h.svc.Provider.WriteAuthorizeResponse(ctx, rw, ar, resp)
	return rw.send(c)
}

// ---- token and revocation endpoints ----

func (h *Handler) token(c fiber.Ctx) error {
	req, ctx, err := httpRequest(c)
	if err != nil {
		return err
	}
	rw := newRecorder()
	// the whole request in one transaction: a refused request changes nothing (but the
	// revocation a reused code or refresh token triggers)
	txCtx, err := h.svc.Store.BeginTX(ctx)
	if err != nil {
		return err
	}
	var resp fosite.AccessResponder
	ar, err := h.svc.Provider.NewAccessRequest(txCtx, req, NewSession(""))
	if err == nil {
		resp, err = h.svc.Provider.NewAccessResponse(txCtx, ar)
	}
	if ferr := h.svc.Store.Finish(txCtx, err != nil); ferr != nil && err == nil {
		err = fosite.ErrServerError.WithWrap(ferr)
	}
	if err != nil {
		h.svc.Provider.WriteAccessError(ctx, rw, ar, err)
		return rw.send(c)
	}
	h.svc.Provider.WriteAccessResponse(ctx, rw, ar, resp)
	return rw.send(c)
}

func (h *Handler) revoke(c fiber.Ctx) error {
	req, ctx, err := httpRequest(c)
	if err != nil {
		return err
	}
	rw := newRecorder()
	h.svc.Provider.WriteRevocationResponse(ctx, rw, h.svc.Provider.NewRevocationRequest(ctx, req))
	return rw.send(c)
}

// ---- connected apps (the member's profile) ----

func (h *Handler) listApps(c fiber.Ctx) error {
	apps, err := h.svc.ConnectedApps(c.Context(), web.Viewer(c).ID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"apps": apps})
}

func (h *Handler) deleteApp(c fiber.Ctx) error {
	id := c.Params("clientId")
	if id == "" || len(id) > 100 {
		return web.NotFound(MsgAppNotFound)
	}
	if err := h.svc.Disconnect(c.Context(), web.Viewer(c).ID, id); err != nil {
		return err
	}
	return web.OK(c, "The app was disconnected and its access revoked.")
}

var errNotObject = errors.New("not a JSON object")

// jsonStrict decodes a JSON object (anything else, an array or a string, is refused).
func jsonStrict(b []byte, v any) error {
	t := bytes.TrimSpace(b)
	if len(t) == 0 || t[0] != '{' {
		return errNotObject
	}
	return json.Unmarshal(t, v)
}
