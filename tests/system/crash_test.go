package system

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/application"
	"meritmark/app/model"
	"meritmark/app/payment"
	"meritmark/app/session"
	"meritmark/app/storage"
	"meritmark/app/web"
)

// member is one applicant of the stream, and how far the client saw it get.
type member struct {
	user    *model.User
	token   string
	coupon  bool
	appID   string // acknowledged submission
	orderID string // acknowledged order
	paid    string // acknowledged payment id
	granted bool   // acknowledged approval
}

// stream drives applicants through submit, order, the buyer's approval, capture and
// the admin's approval against one server, from several goroutines, and records what the
// server acknowledged. A transport error (the server died) stops a worker.
type stream struct {
	base, admin string
	badge       *model.Badge
	hc          *http.Client

	acked    atomic.Int64 // acknowledged payments
	approved atomic.Int64 // acknowledged approvals
	requests atomic.Int64

	mu       sync.Mutex
	failures []string // answers that should not have happened (a 5xx, a wrong status)
}

func (s *stream) fail(format string, args ...any) {
	s.mu.Lock()
	s.failures = append(s.failures, fmt.Sprintf(format, args...))
	s.mu.Unlock()
}

var errGone = errors.New("server gone")

func (s *stream) call(method, path, token string, body io.Reader, ctype string) (int, []byte, error) {
	req, err := http.NewRequest(method, s.base+path, body)
	if err != nil {
		return 0, nil, err
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Origin", s.base)
	if token != "" {
		req.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
	}
	s.requests.Add(1)
	res, err := s.hc.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", errGone, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", errGone, err)
	}
	return res.StatusCode, b, nil
}

func (s *stream) json(method, path, token string, v any) (int, []byte, error) {
	var rd io.Reader
	if v != nil {
		b, _ := json.Marshal(v)
		rd = bytes.NewReader(b)
	}
	return s.call(method, web.APIBase+path, token, rd, "application/json")
}

func field(b []byte, name string) string {
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if v, ok := m[name].(string); ok {
		return v
	}
	if a, ok := m["application"].(map[string]any); ok {
		if v, ok := a[name].(string); ok {
			return v
		}
	}
	return ""
}

// advance takes m through its remaining steps. It returns errGone when the server died.
func (s *stream) advance(m *member) error {
	if m.appID == "" {
		var buf bytes.Buffer
		w := multipart.NewWriter(&buf)
		_ = w.WriteField("badgeId", s.badge.ID)
		_ = w.WriteField("portfolio", "https://example.com/"+m.user.ID)
		part, _ := w.CreateFormFile("proofFiles", "certificate.pdf")
		_, _ = part.Write(pdfFile)
		_ = w.Close()
		st, b, err := s.call("POST", web.APIBase+"/applications", m.token, &buf, w.FormDataContentType())
		if err != nil {
			return err
		}
		if st != http.StatusCreated {
			s.fail("submit %s: %d %s", m.user.Email, st, b)
			return nil
		}
		m.appID = field(b, "_id")
	}
	if m.paid == "" {
		if m.orderID == "" {
			code := any(nil)
			if m.coupon {
				code = "CRASH10"
			}
			st, b, err := s.json("POST", "/payments/paypal-order", m.token, map[string]any{"amount": 1, "badgeId": s.badge.ID, "couponCode": code})
			if err != nil {
				return err
			}
			if st != http.StatusCreated {
				s.fail("order %s: %d %s", m.user.Email, st, b)
				return nil
			}
			m.orderID = field(b, "orderId")
		}
		st, b, err := s.call("POST", payment.SimPath+"/sim/orders/"+m.orderID+"/approve", "", strings.NewReader(`{"outcome":"approve"}`), "application/json")
		if err != nil {
			return err
		}
		if st != http.StatusOK && !(st == http.StatusUnprocessableEntity && bytes.Contains(b, []byte("ORDER_ALREADY_COMPLETED"))) {
			s.fail("approve order %s: %d %s", m.orderID, st, b)
			return nil
		}
		st, b, err = s.json("POST", "/payments/paypal-verify", m.token, map[string]any{"orderId": m.orderID, "badgeId": s.badge.ID, "couponCode": nil})
		if err != nil {
			return err
		}
		if st != http.StatusOK {
			s.fail("verify %s: %d %s", m.orderID, st, b)
			return nil
		}
		m.paid = field(b, "paymentId")
		s.acked.Add(1)
	}
	if !m.granted {
		st, b, err := s.json("PUT", "/admin/applications/"+m.appID+"/approve", s.admin, nil)
		if err != nil {
			return err
		}
		if st != http.StatusOK {
			s.fail("approve application %s: %d %s", m.appID, st, b)
			return nil
		}
		m.granted = true
		s.approved.Add(1)
	}
	return nil
}

// run advances the members with workers goroutines until every one is done or the server
// dies.
func (s *stream) run(members []*member, workers int) {
	next := make(chan *member, len(members))
	for _, m := range members {
		next <- m
	}
	close(next)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range next {
				if err := s.advance(m); err != nil {
					return
				}
			}
		}()
	}
	wg.Wait()
}

// TestKillDuringPaymentsAndApprovals: kill -9 the server while applicants submit, pay
// (half with a coupon) and get approved; after the restart every committed payment has
// its application state, nothing acknowledged is lost, no grant is doubled, the coupon
// count matches its redemptions, every recorded file exists, the startup sweep removes
// planted orphans (and leaves young files alone), and the interrupted applicants finish
// their journey. make soak repeats it over several kill cycles.
func TestKillDuringPaymentsAndApprovals(t *testing.T) {
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"DATABASE_URL": st.URL, "MERITMARK_DATA_DIR": st.DataDir})
	srv.waitReady(60 * time.Second)
	d := st.open(t)
	uploads := filepath.Join(st.DataDir, "uploads")

	admin := addUser(t, d, "admin@crash.test", "", model.RoleAdmin)
	badge := addBadge(t, d, "Incident Response", model.TypeProof, 2900)
	addCoupon(t, d, "CRASH10", 10)
	adminSession := signedIn(t, d, admin, srv).sessionCookie(srv)

	cycles, perCycle, workers := 1, 24, 4
	if soak() {
		cycles, perCycle, workers = 12, 100, 8
	}
	var all []*member
	for cycle := 1; cycle <= cycles; cycle++ {
		var members []*member
		for i := 0; i < perCycle; i++ {
			u := addUser(t, d, fmt.Sprintf("c%d-u%d@crash.test", cycle, i), "", model.RoleUser)
			members = append(members, &member{user: u, token: signedIn(t, d, u, srv).sessionCookie(srv), coupon: i%2 == 0})
		}
		all = append(all, members...)
		s := &stream{base: srv.URL, admin: adminSession, badge: badge, hc: &http.Client{Timeout: 30 * time.Second}}

		// kill -9 once some payments went through, at a moment that varies
		killAt := int64(perCycle/4 + rand.IntN(perCycle/3))
		done := make(chan struct{})
		go func() { s.run(members, workers); close(done) }()
		started := time.Now()
	wait:
		for s.acked.Load() < killAt && time.Since(started) < 30*time.Second {
			select {
			case <-done:
				break wait
			case <-time.After(time.Millisecond):
			}
		}
		srv.kill()
		<-done
		if len(s.failures) > 0 {
			t.Fatalf("cycle %d: unexpected answers before the kill:\n%s", cycle, strings.Join(s.failures, "\n"))
		}

		// while it is down: plant an old orphan (a crashed submission hours ago) and a young
		// one (as if another instance were between storage and database right now)
		oldKey, youngKey := plantOrphan(t, uploads, 2*time.Hour), plantOrphan(t, uploads, 0)

		caught := crashState(t, d)
		t.Logf("cycle %d: killed after %d requests, %d payments and %d approvals acknowledged; left behind: %s",
			cycle, s.requests.Load(), s.acked.Load(), s.approved.Load(), caught)

		srv.restart()
		srv.waitReady(60 * time.Second)

		// the startup sweep removes the old orphan and keeps the young one
		deadline := time.Now().Add(15 * time.Second)
		for exists(uploads, oldKey) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if exists(uploads, oldKey) {
			t.Fatalf("cycle %d: the startup sweep left the old orphan %s", cycle, oldKey)
		}
		if !exists(uploads, youngKey) {
			t.Fatalf("cycle %d: the startup sweep removed a file younger than its age limit", cycle)
		}
		// the sweep logs once it has removed every file, so the line may follow the removal
		for len(srv.logs.lines("removed orphaned uploads")) < cycle && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if len(srv.logs.lines("removed orphaned uploads")) < cycle {
			t.Fatalf("cycle %d: no sweep logged", cycle)
		}

		checkConsistent(t, d, all, uploads, fmt.Sprintf("cycle %d after the restart", cycle))

		// the interrupted applicants finish on the restarted server
		r := &stream{base: srv.URL, admin: adminSession, badge: badge, hc: &http.Client{Timeout: 30 * time.Second}}
		catchUp(t, d, badge, all)
		r.run(all, workers)
		if len(r.failures) > 0 {
			t.Fatalf("cycle %d: resuming after the restart:\n%s", cycle, strings.Join(r.failures, "\n"))
		}
		checkConsistent(t, d, all, uploads, fmt.Sprintf("cycle %d after resuming", cycle))
		for _, m := range all {
			if !m.granted || m.paid == "" {
				t.Fatalf("cycle %d: %s did not finish: %+v", cycle, m.user.Email, m)
			}
		}

		// files no application records (a submission cut off by the kill) are exactly what
		// a sweep without an age limit removes; every recorded file stays
		orphans := orphanKeys(t, d, uploads)
		n, err := application.SweepOrphans(context.Background(), d, mustLocal(t, uploads), 0)
		if err != nil || n != len(orphans) {
			t.Fatalf("cycle %d: sweep removed %d (%v), %d orphans were there: %v", cycle, n, err, len(orphans), orphans)
		}
		if left := orphanKeys(t, d, uploads); len(left) != 0 {
			t.Fatalf("cycle %d: orphans left after the sweep: %v", cycle, left)
		}
		checkConsistent(t, d, all, uploads, fmt.Sprintf("cycle %d after the sweep", cycle))
		t.Logf("cycle %d: resumed %d applicants to approval; the final sweep removed %d orphaned files (the young planted one included)", cycle, len(all), n)
	}
	if errs := srv.logs.lines("level=ERROR"); len(errs) > 0 {
		t.Fatalf("the server logged errors:\n%s", strings.Join(errs, "\n"))
	}
}

// catchUp brings the client's view of each member up to date from the database: answers
// lost in the kill (a submission or an order the server recorded but never acknowledged).
func catchUp(t *testing.T, d *bun.DB, badge *model.Badge, all []*member) {
	t.Helper()
	ctx := context.Background()
	for _, m := range all {
		var app model.Application
		err := d.NewSelect().Model(&app).Where("user_id = ? AND badge_id = ?", m.user.ID, badge.ID).Scan(ctx)
		if err != nil {
			if m.appID != "" {
				t.Fatalf("acknowledged application %s of %s is gone: %v", m.appID, m.user.Email, err)
			}
			continue // the submission never committed: submit again
		}
		m.appID = app.ID
		switch app.Status {
		case model.StatusApproved:
			m.granted = true
			fallthrough
		case model.StatusPending:
			if app.PaymentID == nil {
				t.Fatalf("application %s is %s without a payment", app.ID, app.Status)
			}
			m.paid = *app.PaymentID
		case model.StatusAwaitingPayment:
			// continue with the newest order (a capture cut off is settled by retrying it)
			var o model.PaymentOrder
			if err := d.NewSelect().Model(&o).Where("application_id = ?", app.ID).OrderExpr("created_at DESC").Limit(1).Scan(ctx); err == nil {
				m.orderID = o.OrderID
			} else {
				m.orderID = ""
			}
		}
	}
}

// crashState describes what the kill left half-way.
func crashState(t *testing.T, d *bun.DB) string {
	return fmt.Sprintf("%d captures in flight, %d applications awaiting payment, %d paid awaiting review, %d approved",
		count(t, d, "payment_orders", "status = ?", payment.OrderCapturing),
		count(t, d, "applications", "status = ?", model.StatusAwaitingPayment),
		count(t, d, "applications", "status = ?", model.StatusPending),
		count(t, d, "applications", "status = ?", model.StatusApproved))
}

// checkConsistent asserts the invariants a crash must not break.
func checkConsistent(t *testing.T, d *bun.DB, all []*member, uploads, when string) {
	t.Helper()
	ctx := context.Background()
	fail := func(format string, args ...any) { t.Helper(); t.Fatalf(when+": "+format, args...) }

	var apps []model.Application
	if err := d.NewSelect().Model(&apps).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	var pays []model.Payment
	if err := d.NewSelect().Model(&pays).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	var grants []model.BadgeGrant
	if err := d.NewSelect().Model(&grants).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	byApp := map[string]model.Application{}
	for _, a := range apps {
		byApp[a.ID] = a
	}
	completed := map[string][]model.Payment{}
	for _, p := range pays {
		if p.Status == model.PaymentCompleted {
			completed[p.ApplicationID] = append(completed[p.ApplicationID], p)
		}
	}
	// every committed payment has its application state, and the other way round
	for appID, ps := range completed {
		a := byApp[appID]
		if len(ps) != 1 {
			fail("application %s has %d completed payments", appID, len(ps))
		}
		if a.PaymentStatus != model.PaymentCompleted || a.PaymentID == nil || *a.PaymentID != ps[0].ID ||
			(a.Status != model.StatusPending && a.Status != model.StatusApproved) {
			fail("payment %s is recorded but its application is %s / %s / %v", ps[0].ID, a.Status, a.PaymentStatus, a.PaymentID)
		}
	}
	grantsByApp := map[string]int{}
	live := map[string]int{}
	for _, g := range grants {
		if g.ApplicationID != nil {
			grantsByApp[*g.ApplicationID]++
		}
		if g.RevokedAt == nil {
			live[g.UserID+"/"+g.BadgeID]++
		}
	}
	for _, a := range apps {
		paid := len(completed[a.ID]) == 1
		switch a.Status {
		case model.StatusPending, model.StatusApproved:
			if !paid {
				fail("application %s is %s without a completed payment", a.ID, a.Status)
			}
		case model.StatusAwaitingPayment:
			if paid || a.PaymentStatus == model.PaymentCompleted {
				fail("application %s awaits payment but is paid", a.ID)
			}
		}
		want := 0
		if a.Status == model.StatusApproved {
			want = 1
		}
		if grantsByApp[a.ID] != want {
			fail("application %s is %s with %d grants", a.ID, a.Status, grantsByApp[a.ID])
		}
	}
	for k, n := range live {
		if n > 1 {
			fail("%d live grants of one badge for one user (%s)", n, k)
		}
	}
	// orders: captured exactly when a payment records them
	var orders []model.PaymentOrder
	if err := d.NewSelect().Model(&orders).Scan(ctx); err != nil {
		t.Fatal(err)
	}
	byOrder := map[string]bool{}
	for _, p := range pays {
		if p.OrderID != nil {
			byOrder[*p.OrderID] = true
		}
	}
	for _, o := range orders {
		if (o.Status == payment.OrderCaptured) != byOrder[o.OrderID] {
			fail("order %s is %s; recorded as a payment: %v", o.OrderID, o.Status, byOrder[o.OrderID])
		}
	}
	// the coupon counts exactly its redemptions
	var cp model.Coupon
	if err := d.NewSelect().Model(&cp).Where("code = ?", "CRASH10").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if n := count(t, d, "coupon_redemptions", "coupon_id = ?", cp.ID); n != cp.UsedCount {
		fail("coupon used_count %d, %d redemptions", cp.UsedCount, n)
	}
	// nothing acknowledged is lost
	for _, m := range all {
		if m.appID != "" {
			if _, ok := byApp[m.appID]; !ok {
				fail("acknowledged application %s is gone", m.appID)
			}
		}
		if m.paid != "" && (len(completed[m.appID]) != 1 || completed[m.appID][0].ID != m.paid) {
			fail("acknowledged payment %s of application %s is not recorded", m.paid, m.appID)
		}
		if m.granted && grantsByApp[m.appID] != 1 {
			fail("acknowledged approval of %s has no grant", m.appID)
		}
	}
	// every recorded file exists
	var keys []string
	if err := d.NewSelect().Table("application_files").Column("storage_key").Scan(ctx, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if !exists(uploads, k) {
			fail("recorded file %s is missing from storage", k)
		}
	}
}

// orphanKeys are the stored application files no record points to.
func orphanKeys(t *testing.T, d *bun.DB, uploads string) []string {
	t.Helper()
	stored, err := mustLocal(t, uploads).List(context.Background(), "applications/")
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	if err := d.NewSelect().Table("application_files").Column("storage_key").Scan(context.Background(), &keys); err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	var out []string
	for _, k := range stored {
		if !known[k] {
			out = append(out, k)
		}
	}
	return out
}

func mustLocal(t *testing.T, dir string) storage.Store {
	t.Helper()
	s, err := storage.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// plantOrphan writes an upload no application records, with ids made age ago.
func plantOrphan(t *testing.T, uploads string, age time.Duration) string {
	t.Helper()
	id := func() string {
		return fmt.Sprintf("%08x", uint32(time.Now().Add(-age).Unix())) + model.NewID()[8:]
	}
	key := "applications/" + id() + "/" + id() + ".pdf"
	p := filepath.Join(uploads, filepath.FromSlash(key))
	if err := os.MkdirAll(filepath.Dir(p), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, pdfFile, 0o640); err != nil {
		t.Fatal(err)
	}
	return key
}

func exists(uploads, key string) bool {
	_, err := os.Stat(filepath.Join(uploads, filepath.FromSlash(key)))
	return err == nil
}
