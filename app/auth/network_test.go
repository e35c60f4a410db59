package auth_test

import (
	"strconv"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/model"
)

// KnownNetwork: the /24 of an IPv4 address (mapped ones too), the /64 of an IPv6 one.
func TestKnownNetworkIsTheSlash24OrSlash64(t *testing.T) {
	for _, c := range []struct{ a, b string }{
		{"203.0.113.7", "203.0.113.250"},
		{"::ffff:203.0.113.7", "203.0.113.9"},
		{"2001:db8:1:2::5", "2001:db8:1:2:ffff:ffff:ffff:1"},
		{"fe80::1%eth0", "fe80::2"},
	} {
		if auth.KnownNetwork(c.a) != auth.KnownNetwork(c.b) {
			t.Errorf("%s and %s are not one network: %s, %s", c.a, c.b, auth.KnownNetwork(c.a), auth.KnownNetwork(c.b))
		}
	}
	for _, c := range []struct{ a, b string }{
		{"203.0.113.7", "203.0.114.7"},
		{"2001:db8:1:2::5", "2001:db8:1:3::5"},
		{"10.0.0.1", "::ffff:10.0.1.1"},
	} {
		if auth.KnownNetwork(c.a) == auth.KnownNetwork(c.b) {
			t.Errorf("%s and %s are one network: %s", c.a, c.b, auth.KnownNetwork(c.a))
		}
	}
	if auth.KnownNetwork("203.0.113.7") != "203.0.113.0/24" || auth.KnownNetwork("2001:db8:1:2::5") != "2001:db8:1:2::/64" {
		t.Fatalf("networks %s %s", auth.KnownNetwork("203.0.113.7"), auth.KnownNetwork("2001:db8:1:2::5"))
	}
}

// The owner signed in before from one address of their network; while the account is
// hammered from elsewhere, a new browser on a neighbouring address of that network (no
// device cookie) signs in at once, and one outside it waits like the attacker.
func TestOwnerOnANeighbouringAddressOfTheirNetworkSignsIn(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("owner@example.com", "owner-long-password", model.RoleUser)
	home := from(e, "127.0.3.10")
	login(home, "owner@example.com", "owner-long-password").Expect(200)

	// the attacker: 40 guesses from another network
	for i := 0; i < 40; i++ {
		login(from(e, "127.0.4."+strconv.Itoa(1+i%4)), "owner@example.com", "guess-"+strconv.Itoa(i))
	}
	// a stranger outside the owner's network waits, even with the right password
	login(from(e, "127.0.5.10"), "owner@example.com", "owner-long-password").ExpectMsg(429, auth.MsgTooManyLogins)
	// the owner's new phone on the same /24, another address: signs in at once
	phone := from(e, "127.0.3.201")
	login(phone, "owner@example.com", "owner-long-password").ExpectMsg(200, auth.MsgLoggedIn)
	phone.Get("/auth/me").Expect(200)
}
