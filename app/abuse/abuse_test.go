package abuse_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// rawConn opens a TCP connection to the test server.
func rawConn(t *testing.T, e *apptest.Env) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// readResponse reads one HTTP response from c within d.
func readResponse(t *testing.T, c net.Conn, d time.Duration) (*http.Response, string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(d))
	res, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer within %s: %v", d, err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, string(b)
}

func heapMB() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc >> 20
}

func allocatedMB() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.TotalAlloc >> 20
}

// A body larger than its route's limit is answered 413 from its header alone: the test
// announces 50 MB (and 200 MB for the upload route) and never sends it, so an answer
// proves the server did not wait for, nor buffer, the body.
func TestOversizedBodyIsRefusedBeforeItIsRead(t *testing.T) {
	e := apptest.New(t)
	tok := sessionToken(t, e)
	for _, tc := range []struct {
		path   string
		length int
		cookie bool
	}{
		{web.APIBase + "/auth/login", 50 << 20, false},                 // public, default 1 MB
		{web.APIBase + "/auth/login", app.DefaultBodyLimit + 1, false}, // one byte over
		{web.APIBase + "/users/profile", 5 << 20, true},                // member JSON route, 1 MB
		{web.APIBase + "/applications", 200 << 20, true},               // the upload route, 121 MB
		{web.APIBase + "/applications", 5 << 20, false},                // ... but 1 MB without a session
		{web.APIBase + "/users/profile-pic", 20 << 20, true},           // picture upload, 11 MB
		{web.APIBase + "/no-such-route", 50 << 20, false},              // unknown routes get the default
	} {
		c := rawConn(t, e)
		start := time.Now()
		hdr := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", tc.path, tc.length)
		if tc.cookie {
			hdr += "Cookie: mm_session=" + tok + "\r\n"
		}
		if _, err := io.WriteString(c, hdr+"\r\n"); err != nil {
			t.Fatal(err)
		}
		res, body := readResponse(t, c, 3*time.Second)
		if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, `"msg":"The request is too large."`) {
			t.Errorf("%s with %d bytes announced: %d %s", tc.path, tc.length, res.StatusCode, body)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%s: 413 took %s", tc.path, d)
		}
	}

	// within its limit an upload route reads a body far above the default limit: a 3 MB
	// "picture" reaches the handler, which judges its content
	c := e.Client()
	r := c.Raw("POST", web.APIBase+"/users/profile-pic", bytes.NewReader(multipartFile("profilePic", "x.png", bytes.Repeat([]byte("x"), 3<<20))),
		map[string]string{"Content-Type": "multipart/form-data; boundary=BOUNDARY", "Cookie": "mm_session=" + tok})
	if r.Status != http.StatusBadRequest {
		t.Fatalf("3 MB picture: %d %s, want 400 from the handler", r.Status, r.Text())
	}
}

// A chunked body (no Content-Length) is cut at the route's limit too.
func TestChunkedBodyOverTheLimitIsRefused(t *testing.T) {
	e := apptest.New(t)
	c := rawConn(t, e)
	io.WriteString(c, "POST "+web.APIBase+"/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
	chunk := bytes.Repeat([]byte("a"), 64<<10)
	sent := 0
	go func() {
		for sent < 8<<20 {
			if _, err := fmt.Fprintf(c, "%x\r\n%s\r\n", len(chunk), chunk); err != nil {
				return // the server hung up: it stopped reading
			}
			sent += len(chunk)
		}
	}()
	res, body := readResponse(t, c, 5*time.Second)
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(body, "The request is too large.") {
		t.Fatalf("chunked 8 MB: %d %s", res.StatusCode, body)
	}
}

// Twenty clients announcing 100 MB each at once cost the server nothing.
func TestManyOversizedBodiesAtOnce(t *testing.T) {
	e := apptest.New(t)
	before := heapMB()
	start := time.Now()
	var mu sync.Mutex
	statuses := map[int]int{}
	apptest.Parallel(20, func(int) {
		c, err := net.Dial("tcp", strings.TrimPrefix(e.URL, "http://"))
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		fmt.Fprintf(c, "POST %s/auth/register HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", web.APIBase, 100<<20)
		c.Write(bytes.Repeat([]byte("{"), 256<<10)) // the first 256 KB of it
		_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
		res, err := http.ReadResponse(bufio.NewReader(c), nil)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			statuses[0]++
			return
		}
		statuses[res.StatusCode]++
	})
	if statuses[413] != 20 {
		t.Fatalf("statuses %v, want 20 x 413", statuses)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("20 oversized requests took %s", d)
	}
	if grew := int64(heapMB()) - int64(before); grew > 32 {
		t.Fatalf("the heap grew by %d MB answering them", grew)
	}
}

// A compressed body is refused before anything inflates it: fiber's c.Body() inflates
// gzip without a limit, so 200 KB of gzip used to become 200 MB (1.4 GB allocated); here
// 64 KB that would inflate to 64 MB.
func TestCompressedBodiesAreRefused(t *testing.T) {
	e := apptest.New(t)
	var bomb bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	zw.Write(bytes.Repeat([]byte{'a'}, 64<<20))
	zw.Close()
	tok := sessionToken(t, e)
	for _, tc := range []struct{ path, ctype, encoding string }{
		{web.APIBase + "/auth/login", "application/json", "gzip"},
		{web.APIBase + "/auth/login", "application/json", "deflate"},
		{web.APIBase + "/auth/login", "application/json", "br"},
		{web.APIBase + "/auth/login", "application/json", "gzip, gzip"},
		{web.APIBase + "/users/profile-pic", "multipart/form-data; boundary=BOUNDARY", "gzip"},
		{web.APIBase + "/applications", "multipart/form-data; boundary=BOUNDARY", "gzip"},
	} {
		before := allocatedMB()
		start := time.Now()
		r := e.Client().Raw("POST", tc.path, bytes.NewReader(bomb.Bytes()), map[string]string{
			"Content-Type": tc.ctype, "Content-Encoding": tc.encoding, "Cookie": "mm_session=" + tok})
		if r.Status != http.StatusUnsupportedMediaType || r.Msg() != app.MsgEncodedBody {
			t.Errorf("%s %s: %d %s", tc.path, tc.encoding, r.Status, r.Text())
		}
		if mb := allocatedMB() - before; mb > 16 {
			t.Errorf("%s %s: %d MB allocated answering a %d KB request", tc.path, tc.encoding, mb, bomb.Len()>>10)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s %s: took %s", tc.path, tc.encoding, d)
		}
	}
	// "identity" is no encoding at all
	r := e.Client().Raw("POST", web.APIBase+"/auth/login", strings.NewReader(`{"email":"a@x.io","password":"x"}`),
		map[string]string{"Content-Type": "application/json", "Content-Encoding": "identity"})
	r.ExpectMsg(http.StatusUnauthorized, auth.MsgBadCredentials)
}

// Deeply nested or malformed JSON is refused with 400 at once (encoding/json stops at a
// depth of 10,000); JSON over the 1 MB limit gets 413 before it is read (see
// TestOversizedBodyIsRefusedBeforeItIsRead).
func TestJSONBombsAreRefused(t *testing.T) {
	e := apptest.New(t)
	_, admin := e.Admin("boss@x.io")
	c := e.Client()
	deep := `{"email":` + strings.Repeat("[", 500_000) + strings.Repeat("]", 500_000) + `,"password":"x"}`
	deepObj := strings.Repeat(`{"a":`, 150_000) + "1" + strings.Repeat("}", 150_000)
	for name, tc := range map[string]struct {
		client *apptest.Client
		path   string
		body   string
		status int
		msg    string
	}{
		"nested arrays":         {c, "/auth/login", deep, 400, web.MsgInvalidJSON},
		"nested objects":        {c, "/auth/register", deepObj, 400, web.MsgInvalidJSON},
		"nested in a raw field": {admin, "/coupons", `{"code":"ABC","applicableBadges":` + strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000) + `}`, 400, web.MsgInvalidJSON},
		"huge number":           {c, "/auth/login", `{"email":1e999999999,"password":"x"}`, 400, web.MsgInvalidJSON},
		"truncated":             {c, "/auth/login", `{"email":"a@x.io","password":`, 400, web.MsgInvalidJSON},
		"not an object":         {c, "/auth/login", `"just a string"`, 400, web.MsgInvalidJSON},
	} {
		start := time.Now()
		r := tc.client.Post(tc.path, tc.body)
		if r.Status != tc.status || r.Msg() != tc.msg {
			t.Errorf("%s: %d %s, want %d %q", name, r.Status, r.Text(), tc.status, tc.msg)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %s", name, d)
		}
	}
}

// Slow clients (a header or a body sent a byte at a time, or nothing at all) are cut off
// after the read timeout (here 1 s) while everyone else is served; an upload route gets
// the long upload timeout instead.
func TestSlowClientsAreCutOffOthersServed(t *testing.T) {
	e := apptest.New(t, func(d *app.Deps) { d.ReadTimeout = time.Second })
	addr := strings.TrimPrefix(e.URL, "http://")
	const slow = 100
	start := time.Now()
	closed := make(chan time.Duration, slow)
	var stop sync.WaitGroup
	for i := 0; i < slow; i++ {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		stop.Add(1)
		go func(i int) {
			defer stop.Done()
			// a third send a header byte by byte, a third a body byte by byte, a third
			// connect and say nothing
			msg := "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + strings.Repeat("z", 200) + "\r\n\r\n"
			switch i % 3 {
			case 1:
				c.Write([]byte("POST " + web.APIBase + "/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 300\r\n\r\n"))
				msg = strings.Repeat(" ", 300)
			case 2:
				msg = ""
			}
			go func() { // read until the server hangs up
				buf := make([]byte, 4096)
				_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
				for {
					if _, err := c.Read(buf); err != nil {
						closed <- time.Since(start)
						return
					}
				}
			}()
			for j := 0; j < len(msg); j++ {
				if _, err := c.Write([]byte{msg[j]}); err != nil {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
		}(i)
	}
	// meanwhile ordinary requests are answered, before the first slow client is cut off:
	// a server that served them only once slow clients were gone would answer them after
	// that (an order of events, not a time a loaded machine can miss)
	time.Sleep(300 * time.Millisecond)
	c := e.Client()
	for i := 0; i < 10; i++ {
		c.Abs("GET", "/healthz", nil).Expect(200)
		c.Get("/badges/with-ownership").Expect(200)
	}
	answered := time.Since(start)
	// a sign-in (its body read, a password hashed) is answered too; it is not raced
	// against the cut-off, as a hash on a loaded machine can take most of a second
	c.Post("/auth/login", map[string]string{"email": "nobody@x.io", "password": "wrong-password"}).Expect(401)
	first, worst := time.Duration(math.MaxInt64), time.Duration(0)
	for i := 0; i < slow; i++ {
		select {
		case d := <-closed:
			first, worst = min(first, d), max(worst, d)
		case <-time.After(8 * time.Second):
			t.Fatalf("only %d of %d slow clients were cut off", i, slow)
		}
	}
	if answered >= first {
		t.Fatalf("20 ordinary requests were answered %s after the slow clients came, after the first of them was cut off (%s): they waited for the slow ones", answered.Round(time.Millisecond), first.Round(time.Millisecond))
	}
	if worst > 4*time.Second {
		t.Fatalf("a slow client was cut off only after %s (read timeout 1s)", worst)
	}
	t.Logf("%d slow clients cut off from %s to %s; 20 ordinary requests answered by %s", slow, first.Round(time.Millisecond), worst.Round(time.Millisecond), answered.Round(time.Millisecond))
	stop.Wait()

	// an upload gets UploadReadTimeout: 2.5 s of a slowly sent picture is still read
	tok := sessionToken(t, e)
	up := rawConn(t, e)
	body := multipartFile("profilePic", "x.png", []byte("not an image at all"))
	fmt.Fprintf(up, "POST %s/users/profile-pic HTTP/1.1\r\nHost: x\r\nCookie: mm_session=%s\r\nContent-Type: multipart/form-data; boundary=BOUNDARY\r\nContent-Length: %d\r\n\r\n", web.APIBase, tok, len(body))
	for i := 0; i < 5; i++ {
		if _, err := up.Write(body[i*10 : i*10+10]); err != nil {
			t.Fatalf("the upload was cut off after %d s: %v", i/2, err)
		}
		time.Sleep(500 * time.Millisecond)
	}
	up.Write(body[50:])
	res, text := readResponse(t, up, 5*time.Second)
	if res.StatusCode != http.StatusBadRequest {
		t.Fatalf("slow upload: %d %s, want the handler's 400", res.StatusCode, text)
	}
}

// cpuTime is the process's user+system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Thousands of failed sign-ins from one address are refused with 429 after the limits
// (10 per email, 50 per address, then growing waits), quickly, and a refused attempt never
// hashes a password: their CPU cost is a fraction of one argon2 hash each.
func TestFailedLoginFlood(t *testing.T) {
	now := time.Date(2026, 3, 1, 10, 1, 0, 0, time.UTC) // fixed: the whole test is one window
	e := apptest.New(t, func(d *app.Deps) { d.Limiter.Now = func() time.Time { return now } })
	e.CreateUser("victim@x.io", "correct-horse", "user")
	c := e.Client()

	// the cost of one password check, for comparison
	hash, _ := auth.HashPassword("x")
	t0, c0 := time.Now(), cpuTime()
	for i := 0; i < 5; i++ {
		auth.CheckPassword(hash, "y")
	}
	hashWall, hashCPU := time.Since(t0)/5, (cpuTime()-c0)/5

	statuses := map[int]int{}
	for i := 0; i < 20; i++ {
		r := c.Post("/auth/login", map[string]string{"email": "victim@x.io", "password": fmt.Sprintf("guess-%d", i)})
		statuses[r.Status]++
		if i >= 10 {
			r.ExpectMsg(http.StatusTooManyRequests, auth.MsgTooManyLogins)
			if r.Header.Get("Retry-After") == "" {
				t.Fatal("429 without Retry-After")
			}
		}
	}
	apptest.Expect(t, "one email , want 10 x 401 then 10 x 429", statuses,
		apptest.Eq("statuses[401]", statuses[401], 10),
		apptest.Eq("statuses[429]", statuses[429], 10))

	// 2,000 attempts spread over new emails: the address limit (50) stops them
	const flood = 2000
	statuses = map[int]int{}
	t1, c1 := time.Now(), cpuTime()
	var mu sync.Mutex
	apptest.Parallel(4, func(w int) {
		for i := w; i < flood; i += 4 {
			r := c.Post("/auth/login", map[string]string{"email": fmt.Sprintf("u%d@spray.io", i), "password": "password123"})
			mu.Lock()
			statuses[r.Status]++
			mu.Unlock()
		}
	})
	wall, cpu := time.Since(t1), cpuTime()-c1
	// 50 failures per address (10 used above; refused attempts are not counted), then
	// waits of 1 s, 2 s, 4 s…: the odd attempt is checked when a wait ends
	apptest.Expect(t, "spray , want 40 x 401 (50 per address, 10 used), a few more as waits end, and the rest 429", statuses,
		apptest.True("statuses[401] >= 40", statuses[401] >= 40),
		apptest.True("statuses[401] <= 45", statuses[401] <= 45),
		apptest.Eq("statuses[401]+statuses[429]", statuses[401]+statuses[429], flood))
	// ~40 attempts were checked (hashed); the ~1,960 refused must not have been
	checked := time.Duration(statuses[401])
	limit := checked*hashCPU + (flood-checked)*hashCPU/10
	t.Logf("%d attempts in %s (%.0f/s), CPU %s; one password check: %s wall, %s CPU", flood, wall.Round(time.Millisecond),
		float64(flood)/wall.Seconds(), cpu.Round(time.Millisecond), hashWall.Round(time.Microsecond), hashCPU.Round(time.Microsecond))
	if cpu > limit {
		t.Fatalf("the flood cost %s of CPU: refused attempts seem to hash passwords (one check costs %s)", cpu, hashCPU)
	}

	// signing up and asking for reset links are limited the same way
	statuses = map[int]int{}
	for i := 0; i < 30; i++ {
		r := c.Post("/auth/register", map[string]string{"name": "Spam", "email": fmt.Sprintf("s%d@spam.io", i), "password": "spam-filter-42"})
		statuses[r.Status]++
	}
	apptest.Expect(t, "sign-ups , want 10 x 201 then 429", statuses,
		apptest.Eq("statuses[201]", statuses[201], 10),
		apptest.Eq("statuses[429]", statuses[429], 20))
	statuses = map[int]int{}
	for i := 0; i < 30; i++ {
		statuses[c.Post("/auth/forgot-password", map[string]string{"email": "victim@x.io"}).Status]++
	}
	apptest.Expect(t, "reset requests , want 3 x 200 then 429", statuses,
		apptest.Eq("statuses[200]", statuses[200], 3),
		apptest.Eq("statuses[429]", statuses[429], 27))
}

// sessionToken signs a new member in and returns the session cookie's value.
func sessionToken(t *testing.T, e *apptest.Env) string {
	t.Helper()
	u := e.CreateUser(fmt.Sprintf("m%d@x.io", time.Now().UnixNano()), "password123", "user")
	tok, err := e.Deps.Sessions.Create(e.Ctx(), e.DB, u.ID, "127.0.0.1", "test")
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// multipartFile is a multipart body (boundary BOUNDARY) with one file.
func multipartFile(field, name string, data []byte) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "--BOUNDARY\r\nContent-Disposition: form-data; name=%q; filename=%q\r\nContent-Type: application/octet-stream\r\n\r\n", field, name)
	b.Write(data)
	b.WriteString("\r\n--BOUNDARY--\r\n")
	return b.Bytes()
}

// A request the server cannot read (a broken multipart body, a garbled header) is
// answered 400 with a plain JSON message: not an HTML page quoting the parser's error.
func TestUnreadableRequestsAnswerPlainJSON(t *testing.T) {
	e := apptest.New(t)
	tok := sessionToken(t, e)
	r := e.Client().Raw("POST", web.APIBase+"/applications", strings.NewReader("--FUZZ\r\nContent-Disposition: form-data; name=\"badgeId\"\r\n\r\nx\r\n--FUZZ"),
		map[string]string{"Content-Type": "multipart/form-data; boundary=FUZZ", "Cookie": "mm_session=" + tok})
	if r.Status != http.StatusBadRequest || r.Msg() != app.MsgUnreadable || strings.Contains(r.Text(), "multipart") {
		t.Fatalf("broken multipart: %d %s", r.Status, r.Text())
	}
	for _, raw := range []string{"GARBAGE\r\n\r\n", "GET / HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n", "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n"} {
		c := rawConn(t, e)
		io.WriteString(c, raw)
		res, body := readResponse(t, c, 3*time.Second)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, app.MsgUnreadable) || strings.Contains(body, "<html") {
			t.Errorf("%q: %d %s", raw, res.StatusCode, body)
		}
	}
}

// A multipart body of thousands of tiny parts (a parser bomb) is refused at once.
func TestManyMultipartPartsAreRefused(t *testing.T) {
	e := apptest.New(t)
	tok := sessionToken(t, e)
	var b bytes.Buffer
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&b, "--B\r\nContent-Disposition: form-data; name=\"proofFiles\"; filename=\"f%d.pdf\"\r\n\r\n%%PDF-\r\n", i)
	}
	b.WriteString("--B--\r\n")
	for _, path := range []string{"/applications", "/users/profile-pic"} {
		start := time.Now()
		r := e.Client().Raw("POST", web.APIBase+path, bytes.NewReader(b.Bytes()),
			map[string]string{"Content-Type": "multipart/form-data; boundary=B", "Cookie": "mm_session=" + tok})
		if r.Status != http.StatusBadRequest || r.Msg() == "" {
			t.Errorf("%s with 5,000 parts: %d %s", path, r.Status, r.Text())
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s with 5,000 parts took %s", path, d)
		}
	}
}
