package payment_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/payment"
	"meritmark/app/paypalsim"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// fixture is a running app with a paid badge.
type fixture struct {
	t     *testing.T
	env   *apptest.Env
	badge *model.Badge
}

func newFixture(t *testing.T, opts ...apptest.Option) *fixture {
	env := apptest.New(t, opts...)
	f := &fixture{t: t, env: env}
	f.badge = f.addBadge("React Developer", "Development", 4900)
	return f
}

func (f *fixture) addBadge(name, category string, price int64) *model.Badge {
	f.t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Description: name + " badge", Category: category, Type: model.TypeProof,
		Level: "intermediate", PriceCents: price, Icon: "Code", Color: "blue", Criteria: "Show your work.", IsActive: true,
		CreatedAt: now, UpdatedAt: now}
	if _, err := f.env.DB.NewInsert().Model(b).Exec(f.env.Ctx()); err != nil {
		f.t.Fatal(err)
	}
	return b
}

// member inserts a user without hashing a password (fast for 50 users) and signs in.
func (f *fixture) member(email string) (*model.User, *apptest.Client) {
	f.t.Helper()
	now := model.Now()
	u := &model.User{ID: model.NewID(), Name: strings.Split(email, "@")[0], Email: email, PasswordHash: "x", Role: model.RoleUser,
		Skills: []string{}, CreatedAt: now, UpdatedAt: now}
	if _, err := f.env.DB.NewInsert().Model(u).Exec(f.env.Ctx()); err != nil {
		f.t.Fatal(err)
	}
	return u, f.env.LoginAs(u)
}

// application inserts an application awaiting payment at the badge's price.
func (f *fixture) application(u *model.User, b *model.Badge) *model.Application {
	f.t.Helper()
	now := model.Now()
	a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, Type: b.Type, Status: model.StatusAwaitingPayment,
		PaymentStatus: model.PaymentPending, FullName: u.Name, Email: u.Email, Position: "Engineer", LinkedIn: "https://linkedin.com/in/x",
		PriceCents: b.PriceCents, CreatedAt: now, UpdatedAt: now}
	if _, err := f.env.DB.NewInsert().Model(a).Exec(f.env.Ctx()); err != nil {
		f.t.Fatal(err)
	}
	return a
}

type couponOpt func(*model.Coupon)

func (f *fixture) coupon(code, typ string, value int64, opts ...couponOpt) *model.Coupon {
	f.t.Helper()
	now := model.Now()
	c := &model.Coupon{ID: model.NewID(), Code: code, Name: code + " name", Description: "", DiscountType: typ, DiscountValue: value,
		ValidFrom: now.Add(-time.Hour), ValidUntil: now.Add(24 * time.Hour), IsActive: true,
		ApplicableBadges: []string{}, ApplicableCategories: []string{}, CreatedAt: now, UpdatedAt: now}
	for _, o := range opts {
		o(c)
	}
	if _, err := f.env.DB.NewInsert().Model(c).Exec(f.env.Ctx()); err != nil {
		f.t.Fatal(err)
	}
	return c
}

func limit(n int) couponOpt { return func(c *model.Coupon) { l := n; c.UsageLimit = &l } }

// order creates a PayPal order through the API and returns its id.
func (f *fixture) order(c *apptest.Client, b *model.Badge, coupon any) string {
	f.t.Helper()
	var out struct {
		Success bool   `json:"success"`
		OrderID string `json:"orderId"`
	}
	c.Post("/payments/paypal-order", map[string]any{"amount": 49, "badgeId": b.ID, "couponCode": coupon}).Expect(201).JSON(&out)
	apptest.Expect(f.t, "order", out,
		apptest.True("out.Success", out.Success),
		apptest.True("out.OrderID != \"\"", out.OrderID != ""))
	return out.OrderID
}

// approve is the buyer's decision in the simulator (through the app's /paypal-sim mount).
func (f *fixture) approve(orderID, outcome string) {
	f.t.Helper()
	f.env.Client().Abs("POST", payment.SimPath+"/sim/orders/"+orderID+"/approve", map[string]string{"outcome": outcome}).Expect(200)
}

// simToken gets an access token from the mounted simulator with the app's generated
// simulator secret.
func (f *fixture) simToken() string {
	f.t.Helper()
	secret, err := f.env.Deps.Config.Secret(nil, "paypal-simulator")
	if err != nil {
		f.t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", f.env.URL+payment.SimPath+"/v1/oauth2/token", strings.NewReader(url.Values{"grant_type": {"client_credentials"}}.Encode()))
	req.SetBasicAuth(payment.SimClientID, secret)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != 200 {
		f.t.Fatalf("sim token: %d", res.StatusCode)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	decode(f.t, res, &tok)
	return tok.AccessToken
}

// sim calls the mounted simulator's API with a bearer token.
func (f *fixture) sim(method, path string, body any) *apptest.Resp {
	f.t.Helper()
	c := f.env.Client()
	c.Origin = ""
	var rd *strings.Reader
	if body != nil {
		rd = strings.NewReader(jsonString(f.t, body))
	} else {
		rd = strings.NewReader("")
	}
	return c.Raw(method, payment.SimPath+path, rd, map[string]string{"Authorization": "Bearer " + f.simToken(), "Content-Type": "application/json"})
}

// signer signs webhook events the way the app's simulator does (same secret and id).
func (f *fixture) signer() *paypalsim.Sim {
	secret, err := f.env.Deps.Config.Secret(nil, "paypal-simulator")
	if err != nil {
		f.t.Fatal(err)
	}
	return paypalsim.New(payment.SimClientID, secret, payment.SimWebhookID)
}

// postEvent delivers a webhook event to the app.
func (f *fixture) postEvent(body []byte, h http.Header) *apptest.Resp {
	f.t.Helper()
	headers := map[string]string{}
	for k := range h {
		headers[k] = h.Get(k)
	}
	c := f.env.Client()
	c.Origin = ""
	return c.Raw("POST", "/backend/api/v1/payments/paypal-webhook", strings.NewReader(string(body)), headers)
}

func (f *fixture) count(table, where string, args ...any) int {
	f.t.Helper()
	n, err := f.env.DB.NewSelect().Table(table).Where(where, args...).Count(f.env.Ctx())
	if err != nil {
		f.t.Fatal(err)
	}
	return int(n)
}

func (f *fixture) reload(v any, where string, args ...any) {
	f.t.Helper()
	if err := f.env.DB.NewSelect().Model(v).Where(where, args...).Scan(f.env.Ctx()); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) app(id string) *model.Application {
	a := new(model.Application)
	f.reload(a, "id = ?", id)
	return a
}

func (f *fixture) couponRow(id string) *model.Coupon {
	c := new(model.Coupon)
	f.reload(c, "id = ?", id)
	return c
}

func (f *fixture) orderRow(id string) *model.PaymentOrder {
	o := new(model.PaymentOrder)
	f.reload(o, "order_id = ?", id)
	return o
}

// verifyResult is the verify answer.
type verifyResult struct {
	Success             bool    `json:"success"`
	Msg                 string  `json:"msg"`
	Amount              float64 `json:"amount"`
	OriginalAmount      float64 `json:"originalAmount"`
	DiscountAmount      float64 `json:"discountAmount"`
	PaymentID           string  `json:"paymentId"`
	ApplicationApproved bool    `json:"applicationApproved"`
	TransactionID       string  `json:"transactionId"`
	Status              string  `json:"status"`
	ApplicationStatus   string  `json:"applicationStatus"`
	CouponCode          string  `json:"couponCode"`
}

func (f *fixture) verify(c *apptest.Client, orderID string, b *model.Badge) *apptest.Resp {
	return c.Post("/payments/paypal-verify", map[string]any{"orderId": orderID, "badgeId": b.ID, "couponCode": nil})
}

func decode(t *testing.T, res *http.Response, v any) {
	t.Helper()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

func jsonString(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
