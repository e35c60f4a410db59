package auth_test

import (
	"context"
	"net"
	"net/http"
	"net/http/cookiejar"
	"strconv"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

// from returns a visitor whose requests come from the loopback address ip (127.0.0.0/8
// is all loopback on Linux), so the server sees distinct client addresses.
func from(e *apptest.Env, ip string) *apptest.Client {
	c := e.Client()
	jar, _ := cookiejar.New(nil)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	c.HTTP = &http.Client{Jar: jar, Timeout: 60 * time.Second,
		Transport:     &http.Transport{DialContext: func(ctx context.Context, n, a string) (net.Conn, error) { return d.DialContext(ctx, n, a) }},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return c
}

func login(c *apptest.Client, email, pw string) *apptest.Resp {
	return c.Post("/auth/login", map[string]any{"email": email, "password": pw})
}

// The scenario: an attacker hammers the owner's account from other addresses;
// the owner, on the device and on the network they signed in from before, still signs in
// at once, while a new client is slowed like the attacker.
func TestVictimSignsInWhileAttackerHammersFromOtherAddresses(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("owner@example.com", "owner-long-password", model.RoleUser)
	// the owner signed in before: from their laptop (device cookie) at home (.0.2)
	laptop := from(e, "127.0.0.2")
	login(laptop, "owner@example.com", "owner-long-password").Expect(200)
	laptop.Post("/auth/logout", nil).Expect(200)

	// the attacker: 40 guesses from 4 addresses, faster than the waits allow
	statuses := map[int]int{}
	for i := 0; i < 40; i++ {
		r := login(from(e, "127.0.1."+strconv.Itoa(1+i%4)), "owner@example.com", "guess-"+strconv.Itoa(i))
		statuses[r.Status]++
	}
	// 10 guesses are checked; then waits of 1 s, 2 s, 4 s… let the odd one through on a
	// slow machine, and the rest are refused unchecked
	apptest.Expect(t, "attacker , want 10 checked guesses (a few more as waits end) and the rest refused", statuses,
		apptest.True("statuses[401] >= 10", statuses[401] >= 10),
		apptest.True("statuses[401] <= 13", statuses[401] <= 13),
		apptest.Eq("statuses[401]+statuses[429]", statuses[401]+statuses[429], 40))
	// the attacker's next guess, from yet another address, waits too
	r := login(from(e, "127.0.1.9"), "owner@example.com", "owner-long-password").ExpectMsg(429, auth.MsgTooManyLogins)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}

	// the owner's laptop (device cookie) signs in at once, even from a café (.0.3)
	laptop.HTTP.Transport = from(e, "127.0.0.3").HTTP.Transport
	login(laptop, "owner@example.com", "owner-long-password").Expect(200)
	laptop.Get("/auth/me").Expect(200)
	// a new browser on the owner's home network signs in too (a known network)
	phone := from(e, "127.0.0.2")
	login(phone, "owner@example.com", "owner-long-password").Expect(200)

	// a wrong password from the owner's device counts only against that device
	for i := 0; i < 3; i++ {
		login(laptop, "owner@example.com", "typo").ExpectMsg(401, auth.MsgBadCredentials)
	}
	login(laptop, "owner@example.com", "owner-long-password").Expect(200)

	// successes never counted: the account's count is the attacker's checked failures
	var failures int
	if err := e.DB.NewSelect().Table("login_throttle").Column("failures").Where("key = ?", "acct:owner@example.com").Scan(e.Ctx(), &failures); err != nil || failures != statuses[401] {
		t.Fatalf("account count %d (%v), want %d", failures, err, statuses[401])
	}
}

func TestThrottleDelaysGrow(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want time.Duration
	}{{0, 0}, {9, 0}, {10, time.Second}, {11, 2 * time.Second}, {13, 8 * time.Second}, {19, 512 * time.Second}, {20, 15 * time.Minute}, {1000, 15 * time.Minute}} {
		if got := auth.ThrottleDelay(tc.n, 10); got != tc.want {
			t.Errorf("ThrottleDelay(%d) = %s, want %s", tc.n, got, tc.want)
		}
	}
}

// Past its wait, an account's count lets one more guess through, then waits twice as long.
func TestWaitEndsThenDoubles(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("w@example.com", "right-password-1", model.RoleUser)
	c := from(e, "127.0.2.1")
	for i := 0; i < 10; i++ {
		login(c, "w@example.com", "bad").Expect(401)
	}
	login(c, "w@example.com", "bad").Expect(429)
	// the first wait (1 s) is over: one more attempt is checked, then 2 s
	time.Sleep(1100 * time.Millisecond)
	login(c, "w@example.com", "bad").Expect(401)
	r := login(c, "w@example.com", "right-password-1").Expect(429)
	if ra, _ := strconv.Atoi(r.Header.Get("Retry-After")); ra < 2 || ra > 3 {
		t.Fatalf("Retry-After %q after the 11th failure, want 2 s", r.Header.Get("Retry-After"))
	}
	time.Sleep(2100 * time.Millisecond)
	// the owner's right password after the wait: signed in, and this client's counts cleared
	login(c, "w@example.com", "right-password-1").Expect(200)
	if n := countRows(t, e, "login_throttle", "key LIKE ?", "%127.0.2.1%"); n != 0 {
		t.Fatalf("%d client counts left after a success", n)
	}
}
