package metrics_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/mail"
	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// withMetrics builds the app with m, as main does when MERITMARK_METRICS_ADDR is set.
func withMetrics(m *metrics.Metrics) apptest.Option {
	return func(d *app.Deps) {
		d.Metrics = m
		d.Mailer.Metrics = m
	}
}

// serve starts m's server on a loopback port for the test and answers its address.
func serve(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr, err := m.Listen(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + addr.String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	res, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, string(b)
}

func scrape(t *testing.T, base string) string {
	t.Helper()
	status, body := get(t, base+metrics.Path)
	if status != 200 {
		t.Fatalf("GET /metrics: %d %s", status, body)
	}
	return body
}

// value is the sample of series (its name and labels exactly as exposed, labels sorted)
// in the exposition body; -1 when it is absent.
func value(body, series string) float64 {
	for _, line := range strings.Split(body, "\n") {
		if v, ok := strings.CutPrefix(line, series+" "); ok {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return -1
			}
			return f
		}
	}
	return -1
}

// want fails the test unless every series has its value in body.
func want(t *testing.T, body string, series map[string]float64) {
	t.Helper()
	for s, v := range series {
		if got := value(body, s); got != v {
			t.Errorf("%s = %v, want %v", s, got, v)
		}
	}
	if t.Failed() {
		t.Logf("exposition:\n%s", body)
	}
}

func TestExpositionCountsRequestsByRouteAndSignInFailures(t *testing.T) {
	m := metrics.New("test-version")
	env := apptest.New(t, withMetrics(m), apptest.WithPageCache)
	base := serve(t, m)

	c := env.Client()
	id := model.NewID()
	c.Get("/badges/" + id).Expect(404) // a matched route: /backend/api/v1/badges/:id
	c.Get("/badges/" + id).Expect(404)
	c.Get("/no-such-page-" + id).Expect(404) // no route: unmatched
	env.CreateUser("ann@example.com", "password123", model.RoleUser)
	c.Post("/auth/login", map[string]any{"email": "ann@example.com", "password": "not-her-password"}).ExpectMsg(401, auth.MsgBadCredentials)
	c.Page("/badges") // the page cache: a miss, then a hit (the API's badge route is cached too: two misses)
	c.Page("/badges")

	body := scrape(t, base)
	api := web.APIBase
	want(t, body, map[string]float64{
		`meritmark_http_requests_total{code="404",method="GET",route="` + api + `/badges/:id"}`:                               2,
		`meritmark_http_requests_total{code="404",method="GET",route="unmatched"}`:                                            1,
		`meritmark_http_requests_total{code="401",method="POST",route="` + api + `/auth/login"}`:                              1,
		`meritmark_http_requests_total{code="200",method="GET",route="/badges"}`:                                              2,
		`meritmark_http_request_duration_seconds_count{method="GET",route="` + api + `/badges/:id",status="4xx"}`:             2,
		`meritmark_http_request_duration_seconds_bucket{method="GET",route="` + api + `/badges/:id",status="4xx",le="+Inf"}`:  2,
		`meritmark_http_request_duration_seconds_bucket{method="POST",route="` + api + `/auth/login",status="4xx",le="+Inf"}`: 1,
		`meritmark_signin_failures_total{reason="password"}`:                                                                  1,
		`meritmark_signin_failures_total{reason="throttled"}`:                                                                 0,
		`meritmark_pagecache_requests_total{result="hit"}`:                                                                    1,
		`meritmark_pagecache_requests_total{result="miss"}`:                                                                   3, // the two 404s of the cached API route too
		`meritmark_pagecache_member_pages_total`:                                                                              0, // app/pagetest and the browser count them
		`meritmark_build_info{version="test-version"}`:                                                                        1,
		`meritmark_outbox_messages{status="pending"}`:                                                                         0,
		`meritmark_outbox_send_failures_total{outcome="retry"}`:                                                               0,
	})
	// the histogram's buckets and sum are there; the raw path never is
	if !strings.Contains(body, `meritmark_http_request_duration_seconds_bucket{method="GET",route="`+api+`/badges/:id",status="4xx",le="0.001"}`) ||
		!strings.Contains(body, `meritmark_http_request_duration_seconds_sum{method="GET",route="`+api+`/badges/:id",status="4xx"}`) {
		t.Errorf("no latency histogram for the badge route:\n%s", body)
	}
	if strings.Contains(body, id) {
		t.Errorf("the exposition holds a raw path (id %s):\n%s", id, body)
	}
	// the database pool, the Go runtime and the process
	for _, s := range []string{`go_sql_open_connections{db_name="main"}`, `go_sql_max_open_connections{db_name="main"}`,
		`go_sql_wait_count_total{db_name="main"}`, `go_goroutines`, `process_cpu_seconds_total`} {
		if value(body, s) < 0 {
			t.Errorf("no %s in the exposition", s)
		}
	}
	if value(body, `go_sql_open_connections{db_name="main"}`) < 1 {
		t.Errorf("the pool reports no open connection after requests:\n%s", body)
	}

	// metrics are served on their own address only
	if status, _ := get(t, env.URL+"/metrics"); status != 404 {
		t.Errorf("the public app answers /metrics: %d", status)
	}
	if status, _ := get(t, base+"/"); status != 404 {
		t.Errorf("the metrics server answers /: %d", status)
	}
	if res, err := http.Post(base+metrics.Path, "text/plain", nil); err != nil || res.StatusCode != 405 {
		t.Errorf("POST /metrics: %v %v, want 405", res, err)
	} else {
		res.Body.Close()
	}
}

// Ten wrong passwords for one account pass its throttle thresholds (two lockouts: the
// account from untrusted clients, and the account from this client); the next attempt is
// refused while the wait runs. A wrong second-step code is a two_factor failure.
func TestSignInLockoutsAndTwoFactorFailuresAreCounted(t *testing.T) {
	m := metrics.New("v")
	env := apptest.New(t, withMetrics(m))
	base := serve(t, m)

	admin := env.CreateUser("root@example.com", "password123", model.RoleAdmin)
	c := env.Client()
	c.Post("/auth/login", map[string]any{"email": admin.Email, "password": "password123"}).Expect(200)
	wrong := "000000"
	step := time.Now().Unix() / 30
	for s := step - 1; s <= step+1; s++ {
		if code, _ := auth.TOTPCode(apptest.TestTOTPSecret, s); code == wrong {
			wrong = "111111"
		}
	}
	c.Post("/auth/login/2fa", map[string]any{"code": wrong}).ExpectMsg(400, auth.MsgMFACodeWrong)

	env.CreateUser("bob@example.com", "password123", model.RoleUser)
	v := env.Client()
	for i := 0; i < 10; i++ {
		v.Post("/auth/login", map[string]any{"email": "bob@example.com", "password": fmt.Sprintf("guess-%d", i)}).ExpectMsg(401, auth.MsgBadCredentials)
	}
	v.Post("/auth/login", map[string]any{"email": "bob@example.com", "password": "guess-10"}).ExpectMsg(429, auth.MsgTooManyLogins)

	body := scrape(t, base)
	want(t, body, map[string]float64{
		`meritmark_signin_failures_total{reason="password"}`:      10,
		`meritmark_signin_failures_total{reason="throttled"}`:     1,
		`meritmark_signin_failures_total{reason="two_factor"}`:    1,
		`meritmark_signin_lockouts_total{count="account"}`:        1,
		`meritmark_signin_lockouts_total{count="account_client"}`: 1,
		`meritmark_signin_lockouts_total{count="client"}`:         0, // 50 free: not reached
	})
	if strings.Contains(body, "bob@example.com") || strings.Contains(body, "127.0.0.1\"") {
		t.Errorf("a count's key reached the exposition:\n%s", body)
	}
}

type failingSender struct{}

func (failingSender) Send(context.Context, string, *model.OutboxMessage) error {
	return errors.New("connection refused")
}

// The outbox backlog is counted on each scrape; failed attempts are counted as retries
// until the last, which leaves the message failed.
func TestOutboxBacklogAndFailures(t *testing.T) {
	m := metrics.New("v")
	env := apptest.New(t, withMetrics(m))
	base := serve(t, m)
	ctx := env.Ctx()
	for _, to := range []string{"a@example.com", "b@example.com"} {
		if err := mail.Queue(ctx, env.DB, mail.Message{To: to, Subject: "Hello", Text: "Hi"}); err != nil {
			t.Fatal(err)
		}
	}
	want(t, scrape(t, base), map[string]float64{
		`meritmark_outbox_messages{status="pending"}`: 2,
		`meritmark_outbox_messages{status="sending"}`: 0,
		`meritmark_outbox_messages{status="failed"}`:  0,
	})
	w := mail.NewWorker(env.DB, failingSender{}, "Meritmark <no-reply@meritmark.example>")
	w.Metrics = m
	for i := 0; i < 5; i++ { // every attempt of both messages fails
		if _, err := w.Flush(ctx); err != nil {
			t.Fatal(err)
		}
	}
	want(t, scrape(t, base), map[string]float64{
		`meritmark_outbox_messages{status="pending"}`:            0,
		`meritmark_outbox_messages{status="failed"}`:             2,
		`meritmark_outbox_send_failures_total{outcome="retry"}`:  8,
		`meritmark_outbox_send_failures_total{outcome="failed"}`: 2,
	})
}

// A nil *Metrics (metrics off) records nothing and never panics.
func TestNilMetricsIsOff(t *testing.T) {
	var m *metrics.Metrics
	m.ObserveRender(time.Millisecond, time.Millisecond)
	m.MailFailed(true)
	m.SignInFailed(metrics.ReasonPassword)
	m.SignInLockout("account")
	m.WatchDB(nil)
	m.WatchPageCache(nil)
	m.WatchRenderPool(nil)
	if m.RenderObserver() != nil {
		t.Fatal("a nil Metrics gave the render pool an observer")
	}
}

// A database that does not answer costs the scrape its outbox count only: the other
// metrics are still served, and the failure is counted.
func TestScrapeSurvivesAnUnreachableDatabase(t *testing.T) {
	m := metrics.New("v")
	d := apptest.OpenDB(t)
	m.WatchDB(d)
	base := serve(t, m)
	if v := value(scrape(t, base), `meritmark_outbox_messages{status="pending"}`); v != 0 {
		t.Fatalf("outbox pending %v before the database closed", v)
	}
	d.Close()
	scrape(t, base) // the handler counts a failed gathering after answering: the next scrape shows it
	body := scrape(t, base)
	want(t, body, map[string]float64{
		`meritmark_outbox_messages{status="pending"}`:             -1,
		`go_sql_open_connections{db_name="main"}`:                 0,
		`promhttp_metric_handler_errors_total{cause="gathering"}`: 1,
		`meritmark_signin_failures_total{reason="password"}`:      0,
		`meritmark_outbox_send_failures_total{outcome="failed"}`:  0,
		`meritmark_build_info{version="v"}`:                       1,
	})
}
