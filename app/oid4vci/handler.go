package oid4vci

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/credential"
	"meritmark/app/ratelimit"
	"meritmark/app/web"
)

// Handler serves the wallet endpoints.
type Handler struct {
	site    *web.Site
	svc     *Service
	limiter *ratelimit.Limiter
}

// New builds the handler on the credential issuer.
func New(d *bun.DB, site *web.Site, iss *credential.Issuer, limiter *ratelimit.Limiter) *Handler {
	return &Handler{site: site, svc: &Service{DB: d, Issuer: iss}, limiter: limiter}
}

// Service is the handler's service (tests move its clock).
func (h *Handler) Service() *Service { return h.svc }

func asset(method, path string, fn fiber.Handler) web.Route {
	return web.Route{Method: method, Path: path, Access: web.Public, Kind: web.Asset, Handler: fn}
}

// Routes lists the routes. The OpenID4VCI and VC API endpoints are public in the table:
// they never act on a session cookie and authenticate each request themselves (the
// pre-authorized code, the access token, the proof, the exchange's challenge).
func (h *Handler) Routes() []web.Route {
	rs := []web.Route{
		asset("GET", IssuerMetadataPath, h.issuerMetadata),
		asset("GET", ASMetadataPath, h.asMetadata),
		asset("POST", TokenPath, h.token).WithCrossSite().WithRawBody(),
		asset("POST", NoncePath, h.nonce).WithCrossSite(),
		asset("POST", CredentialPath, h.credential).WithCrossSite(),
		asset("POST", ExchangePath+":id", h.exchange).WithCrossSite(),
		web.Post("/users/badges/:grantId/wallet-offer", web.Member, h.offer),
	}
	for _, p := range []string{IssuerMetadataPath, ASMetadataPath, TokenPath, NoncePath, CredentialPath, ExchangePath + ":id"} {
		rs = append(rs, asset("OPTIONS", p, h.preflight))
	}
	return rs
}

// cors lets browser wallets call the endpoints (no cookie is ever read here).
func cors(c fiber.Ctx) {
	c.Set("Access-Control-Allow-Origin", "*")
	c.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, DPoP")
	c.Set("Access-Control-Allow-Methods", "GET, POST, OPTIONS")
	c.Set("Access-Control-Max-Age", "600")
}

func (h *Handler) preflight(c fiber.Ctx) error {
	cors(c)
	return c.SendStatus(http.StatusNoContent)
}

func (h *Handler) issuerMetadata(c fiber.Ctx) error {
	cors(c)
	return c.JSON(IssuerMetadata(h.site.Origin(c)))
}

func (h *Handler) asMetadata(c fiber.Ctx) error {
	cors(c)
	return c.JSON(ASMetadata(h.site.Origin(c)))
}

// jsonAnswer writes a web error as {"msg"} whatever the client accepts: these endpoints
// are called by wallets, never navigated to.
func jsonAnswer(c fiber.Ctx, err error) error {
	var we *web.Error
	if errors.As(err, &we) {
		c.Set(fiber.HeaderCacheControl, "no-store")
		return c.Status(we.Status).JSON(fiber.Map{"msg": we.Msg})
	}
	return err
}

// oauthAnswer writes err as {"error", "error_description"} when it is one of ours.
func oauthAnswer(c fiber.Ctx, err error) error {
	var oe *Error
	if !errors.As(err, &oe) {
		return jsonAnswer(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	if oe.Status == http.StatusUnauthorized {
		c.Set(fiber.HeaderWWWAuthenticate, `Bearer error="`+oe.Code+`"`)
	}
	return c.Status(oe.Status).JSON(fiber.Map{"error": oe.Code, "error_description": oe.Description})
}

func (h *Handler) allow(c fiber.Ctx, what string, n int, per time.Duration) error {
	if h.limiter == nil {
		return nil
	}
	ok, err := h.limiter.Allow(c.Context(), "oid4vci:"+what+":"+c.IP(), n, per)
	if err != nil {
		return err
	}
	if !ok {
		return web.TooMany("Too many requests; try again in a minute.")
	}
	return nil
}

// POST /oid4vci/token (application/x-www-form-urlencoded).
func (h *Handler) token(c fiber.Ctx) error {
	cors(c)
	if err := h.allow(c, "token", 30, time.Minute); err != nil {
		return jsonAnswer(c, err)
	}
	if !strings.HasPrefix(c.Get(fiber.HeaderContentType), fiber.MIMEApplicationForm) {
		return oauthAnswer(c, oauthErr(http.StatusBadRequest, "invalid_request", "Send the token request as application/x-www-form-urlencoded."))
	}
	args := c.Request().PostArgs()
	ans, err := h.svc.Token(c.Context(), string(args.Peek("grant_type")), string(args.Peek("pre-authorized_code")),
		string(args.Peek("tx_code")), args.Has("tx_code"))
	if err != nil {
		return oauthAnswer(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(ans)
}

// POST /oid4vci/nonce -> {c_nonce}.
func (h *Handler) nonce(c fiber.Ctx) error {
	cors(c)
	if err := h.allow(c, "nonce", 60, time.Minute); err != nil {
		return jsonAnswer(c, err)
	}
	n, err := h.svc.Nonce(c.Context())
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(fiber.Map{"c_nonce": n})
}

// POST /oid4vci/credential (Authorization: Bearer, JSON).
func (h *Handler) credential(c fiber.Ctx) error {
	cors(c)
	tok, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
	if !ok {
		return oauthAnswer(c, ErrInvalidToken)
	}
	var req CredentialRequest
	if err := json.Unmarshal(c.Body(), &req); err != nil {
		return oauthAnswer(c, oauthErr(http.StatusBadRequest, "invalid_credential_request", "The credential request is not JSON."))
	}
	ans, err := h.svc.Credential(c.Context(), strings.TrimSpace(tok), &req)
	if err != nil {
		return oauthAnswer(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(ans)
}

// POST /exchanges/{id}: the VC API exchange.
func (h *Handler) exchange(c fiber.Ctx) error {
	cors(c)
	if err := h.allow(c, "exchange", 30, time.Minute); err != nil {
		return jsonAnswer(c, err)
	}
	var body ExchangeBody
	if b := strings.TrimSpace(string(c.Body())); b != "" {
		if err := json.Unmarshal([]byte(b), &body); err != nil {
			return jsonAnswer(c, web.BadRequest(MsgPresentation))
		}
	}
	ans, err := h.svc.Exchange(c.Context(), c.Params("id"), &body)
	if err != nil {
		return jsonAnswer(c, err)
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(ans)
}

// POST /users/badges/{grantId}/wallet-offer {txCode?: bool} (holder only).
func (h *Handler) offer(c fiber.Ctx) error {
	u := web.Viewer(c)
	if ok, err := h.limiter.Allow(c.Context(), "oid4vci:offer:"+u.ID, 30, time.Hour); err != nil {
		return err
	} else if !ok {
		return web.TooMany("Too many wallet offers; try again later.")
	}
	in := struct {
		TxCode *bool `json:"txCode"`
	}{}
	if len(strings.TrimSpace(string(c.Body()))) > 0 {
		if err := web.BindJSON(c, &in); err != nil {
			return err
		}
	}
	withTx := in.TxCode == nil || *in.TxCode
	v, err := h.svc.CreateOffer(c.Context(), u, c.Params("grantId"), h.site.Origin(c), withTx)
	if err != nil {
		return err
	}
	c.Set(fiber.HeaderCacheControl, "no-store")
	return c.JSON(v)
}
