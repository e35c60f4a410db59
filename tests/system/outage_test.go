package system

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"meritmark/app/model"
	"meritmark/app/web"
)

// probe is one request the outage test sends again and again.
type probe struct {
	name, method, path, body string
	signedIn, html           bool
}

// outageProbes cover the ways a request meets the database: the session lookup, public
// reads, a sign-in (rate limiter and users), a write, a server-rendered page.
func outageProbes(badgeID string) []probe {
	return []probe{
		{name: "me", method: "GET", path: web.APIBase + "/auth/me", signedIn: true},
		{name: "catalogue", method: "GET", path: web.APIBase + "/badges/with-ownership"},
		{name: "badge", method: "GET", path: web.APIBase + "/badges/" + badgeID},
		{name: "login", method: "POST", path: web.APIBase + "/auth/login", body: `{"email":"nobody@outage.test","password":"whatever1"}`},
		{name: "profile", method: "POST", path: web.APIBase + "/users/profile", signedIn: true,
			body: `{"name":"Grace","email":"grace@outage.test","position":"Admiral","linkedin":"https://linkedin.com/in/grace","portfolio":""}`},
		{name: "page", method: "GET", path: "/badges", html: true},
	}
}

type answer struct {
	status int
	msg    string
	dur    time.Duration
	err    error
}

func send(base, token string, p probe) answer {
	var body *strings.Reader
	if p.body != "" {
		body = strings.NewReader(p.body)
	} else {
		body = strings.NewReader("")
	}
	req, _ := http.NewRequest(p.method, base+p.path, body)
	if p.body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Origin", base)
	if p.html {
		req.Header.Set("Accept", "text/html")
	} else {
		req.Header.Set("Accept", "application/json")
	}
	if p.signedIn {
		req.Header.Set("Cookie", "mm_session="+token)
	}
	start := time.Now()
	res, err := (&http.Client{Timeout: 30 * time.Second}).Do(req)
	a := answer{dur: time.Since(start), err: err}
	if err != nil {
		return a
	}
	defer res.Body.Close()
	a.status = res.StatusCode
	var m struct {
		Msg    string `json:"msg"`
		Status string `json:"status"`
	}
	if !p.html {
		_ = json.NewDecoder(res.Body).Decode(&m)
		a.msg = m.Msg
	}
	return a
}

func readyz(base string) answer {
	return send(base, "", probe{method: "GET", path: "/readyz"})
}

// TestDatabaseOutageAnswers503AndRecovers puts a TCP proxy between the server and
// PostgreSQL and cuts it for a few seconds: every request that needs the database is
// answered 503 with the clear {"msg"} and Retry-After (pages: the error page with 503),
// quickly; /readyz says not ready while /healthz stays up; when the proxy is back, the
// same process serves again by itself.
func TestDatabaseOutageAnswers503AndRecovers(t *testing.T) {
	requirePostgres(t)
	direct := newPostgresDB(t)
	px := newProxy(t, "127.0.0.1:5432")
	u, _ := url.Parse(direct)
	u.Host = px.Addr
	srv := launch(t, "server", map[string]string{"DATABASE_URL": u.String(), "MERITMARK_DATA_DIR": t.TempDir()})
	srv.waitReady(60 * time.Second)
	st := &store{URL: direct}
	d := st.open(t)
	grace := addUser(t, d, "grace@outage.test", "", model.RoleUser)
	token := signedIn(t, d, grace, srv).sessionCookie(srv)
	badge := addBadge(t, d, "Resilience", model.TypeProof, 1900)
	probes := outageProbes(badge.ID)

	healthy := func(when string) {
		t.Helper()
		for _, p := range probes {
			a := send(srv.URL, token, p)
			want := http.StatusOK
			if p.name == "login" {
				want = http.StatusUnauthorized
			}
			if a.err != nil || a.status != want {
				t.Fatalf("%s: %s answered %d %q %v, want %d", when, p.name, a.status, a.msg, a.err, want)
			}
		}
		if a := readyz(srv.URL); a.status != http.StatusOK {
			t.Fatalf("%s: /readyz %d", when, a.status)
		}
	}
	healthy("before the outage")

	outage := 4 * time.Second
	if soak() {
		outage = 30 * time.Second
	}
	px.cut()
	cutAt := time.Now()
	var slowest time.Duration
	answered := 0
	for round := 0; time.Since(cutAt) < outage; round++ {
		for _, p := range probes {
			a := send(srv.URL, token, p)
			if a.err != nil {
				t.Fatalf("outage: %s: no answer: %v", p.name, a.err)
			}
			if a.status != http.StatusServiceUnavailable || (!p.html && a.msg != web.MsgUnavailable) {
				t.Fatalf("outage (%s in): %s answered %d %q, want 503 %q", time.Since(cutAt).Round(time.Millisecond), p.name, a.status, a.msg, web.MsgUnavailable)
			}
			slowest = max(slowest, a.dur)
			answered++
		}
		if a := readyz(srv.URL); a.status != http.StatusServiceUnavailable {
			t.Fatalf("outage: /readyz answered %d", a.status)
		}
		if a := send(srv.URL, "", probe{method: "GET", path: "/healthz"}); a.status != http.StatusOK {
			t.Fatalf("outage: /healthz answered %d: the process is up", a.status)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if slowest > 5*time.Second {
		t.Fatalf("outage: the slowest answer took %s", slowest)
	}
	// the Retry-After header comes with the 503
	req, _ := http.NewRequest("GET", srv.URL+web.APIBase+"/badges/with-ownership", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Fatalf("503 without Retry-After: %v %v", err, res)
	}
	res.Body.Close()

	px.restore()
	backAt := time.Now()
	for readyz(srv.URL).status != http.StatusOK {
		if time.Since(backAt) > 30*time.Second {
			t.Fatal("not ready 30 s after the database came back")
		}
		time.Sleep(20 * time.Millisecond)
	}
	recovered := time.Since(backAt)
	healthy("after the outage")
	if !srv.running() || strings.Count(srv.logs.String(), "meritmark is serving") != 1 {
		t.Fatal("the server restarted")
	}
	if n := len(srv.logs.lines("level=ERROR", "request failed")); n > 0 {
		t.Fatalf("%d requests failed as internal errors during the outage:\n%s", n, strings.Join(srv.logs.lines("level=ERROR", "request failed"), "\n"))
	}
	t.Logf("outage of %s: %d answers, all 503 with the message, slowest %s; ready again %s after the database came back",
		outage, answered, slowest.Round(time.Millisecond), recovered.Round(time.Millisecond))
}

// TestSilentDatabaseAnswers503WithinTheRequestTimeout: the database does not refuse but
// stops answering (a network partition, a hung server: the proxy keeps the connections
// and forwards nothing). Requests are answered 503 once MERITMARK_REQUEST_TIMEOUT has
// passed instead of hanging, /readyz says not ready, and service resumes by itself.
func TestSilentDatabaseAnswers503WithinTheRequestTimeout(t *testing.T) {
	requirePostgres(t)
	direct := newPostgresDB(t)
	px := newProxy(t, "127.0.0.1:5432")
	u, _ := url.Parse(direct)
	u.Host = px.Addr
	const timeout = 2 * time.Second
	srv := launch(t, "server", map[string]string{"DATABASE_URL": u.String(), "MERITMARK_DATA_DIR": t.TempDir(),
		"MERITMARK_REQUEST_TIMEOUT": timeout.String()})
	srv.waitReady(60 * time.Second)
	d := (&store{URL: direct}).open(t)
	grace := addUser(t, d, "grace@outage.test", "", model.RoleUser)
	token := signedIn(t, d, grace, srv).sessionCookie(srv)
	badge := addBadge(t, d, "Resilience", model.TypeProof, 1900)
	probes := outageProbes(badge.ID)
	for _, p := range probes[:3] {
		if a := send(srv.URL, token, p); a.status != http.StatusOK {
			t.Fatalf("before: %s %d", p.name, a.status)
		}
	}

	px.freeze()
	// the probes at once, as concurrent users would send them
	answers := make([]answer, len(probes))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		go func(i int, p probe) { defer wg.Done(); answers[i] = send(srv.URL, token, p) }(i, p)
	}
	wg.Wait()
	var slowest time.Duration
	for i, a := range answers {
		p := probes[i]
		// the catalogue and the badge were held by the page cache before the freeze: a hit
		// reads nothing from the database, and the LISTEN connection is found silent only
		// at its next ping (docs/performance.md, "Cache hits"), so they may still be served
		if held := p.name == "catalogue" || p.name == "badge"; held && a.err == nil && a.status == http.StatusOK {
			continue
		}
		if a.err != nil || a.status != http.StatusServiceUnavailable || (!p.html && a.msg != web.MsgUnavailable) {
			t.Fatalf("silent database: %s answered %d %q %v after %s", p.name, a.status, a.msg, a.err, a.dur)
		}
		if a.dur > timeout+3*time.Second {
			t.Fatalf("silent database: %s took %s (request timeout %s)", p.name, a.dur, timeout)
		}
		slowest = max(slowest, a.dur)
	}
	if a := readyz(srv.URL); a.status != http.StatusServiceUnavailable {
		t.Fatalf("silent database: /readyz %d", a.status)
	}
	px.thaw()
	backAt := time.Now()
	for {
		ok := readyz(srv.URL).status == http.StatusOK
		for _, p := range probes[:3] {
			ok = ok && send(srv.URL, token, p).status == http.StatusOK
		}
		if ok {
			break
		}
		if time.Since(backAt) > 30*time.Second {
			t.Fatal("no service 30 s after the database answered again")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !srv.running() || strings.Count(srv.logs.String(), "meritmark is serving") != 1 {
		t.Fatal("the server restarted")
	}
	t.Logf("silent database: %d concurrent requests answered 503 after at most %s (request timeout %s); serving again %s after it answered",
		len(probes), slowest.Round(time.Millisecond), timeout, time.Since(backAt).Round(time.Millisecond))
}

// TestSQLiteLockedByAnotherProcess is SQLite's version of the database going away: the
// file is local and the server holds it open, so it cannot vanish like a server on the
// network; what does happen is another process (a backup, a sqlite3 shell, a migration)
// holding the write lock. Reads go on (WAL); writes wait the busy timeout (5 s) and are
// then answered 503 with the clear message; once the lock is released writes succeed
// again, without a restart.
func TestSQLiteLockedByAnotherProcess(t *testing.T) {
	if postgresMode() {
		t.Skip("SQLite only (runs in the SQLite pass)")
	}
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"MERITMARK_DATA_DIR": st.DataDir})
	srv.waitReady(60 * time.Second)
	d := st.open(t)
	grace := addUser(t, d, "grace@outage.test", "", model.RoleUser)
	token := signedIn(t, d, grace, srv).sessionCookie(srv)
	badge := addBadge(t, d, "Resilience", model.TypeProof, 1900)
	probes := outageProbes(badge.ID)
	byName := map[string]probe{}
	for _, p := range probes {
		byName[p.name] = p
	}

	// another connection (as another process would) takes the write lock and keeps it
	tx, err := d.BeginTx(context.Background(), nil) // IMMEDIATE: the write lock
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec("UPDATE badges SET updated_at = updated_at"); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"me", "catalogue", "badge", "page"} {
		if a := send(srv.URL, token, byName[name]); a.status != http.StatusOK {
			t.Fatalf("read %s under another process's write lock: %d %q", name, a.status, a.msg)
		}
	}
	if a := readyz(srv.URL); a.status != http.StatusOK {
		t.Fatalf("/readyz under a write lock: %d (reads are served)", a.status)
	}
	var wg sync.WaitGroup
	writes := []string{"login", "profile"}
	answers := make([]answer, len(writes))
	for i, name := range writes {
		wg.Add(1)
		go func(i int, p probe) { defer wg.Done(); answers[i] = send(srv.URL, token, p) }(i, byName[name])
	}
	wg.Wait()
	for i, a := range answers {
		if a.status != http.StatusServiceUnavailable || a.msg != web.MsgUnavailable {
			t.Fatalf("write %s under another process's lock: %d %q after %s", writes[i], a.status, a.msg, a.dur)
		}
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if a := send(srv.URL, token, byName["profile"]); a.status != http.StatusOK {
		t.Fatalf("write after the lock was released: %d %q", a.status, a.msg)
	}
	if a := send(srv.URL, token, byName["login"]); a.status != http.StatusUnauthorized {
		t.Fatalf("sign-in after the lock was released: %d %q", a.status, a.msg)
	}
	if n := len(srv.logs.lines("level=ERROR", "request failed")); n > 0 {
		t.Fatalf("internal errors:\n%s", strings.Join(srv.logs.lines("level=ERROR", "request failed"), "\n"))
	}
	t.Logf("SQLite write lock held elsewhere: reads served; writes answered 503 after %s and %s (busy timeout 5 s); writes work once it is released",
		answers[0].dur.Round(time.Millisecond), answers[1].dur.Round(time.Millisecond))
}
