package config

import (
	"strings"
	"testing"
)

func TestTrustedProxiesParsed(t *testing.T) {
	c, err := Load(env(map[string]string{"MERITMARK_TRUSTED_PROXIES": " 10.0.0.0/8, 192.168.1.5 ,::1"}), nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(c.TrustedProxies, "|") != "10.0.0.0/8|192.168.1.5|::1" {
		t.Fatalf("trusted proxies %q", c.TrustedProxies)
	}
	for _, bad := range []string{"10.0.0.0/33", "proxy.example", "10.0.0.0/8,nope"} {
		_, err := Load(env(map[string]string{"MERITMARK_TRUSTED_PROXIES": bad}), nil)
		if err == nil || !strings.Contains(err.Error(), "MERITMARK_TRUSTED_PROXIES") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	p, err := ParsePrefix("192.168.1.5")
	if err != nil || p.String() != "192.168.1.5/32" {
		t.Fatalf("%v %v", p, err)
	}
}

func TestLoopbackHosts(t *testing.T) {
	for _, h := range []string{"localhost", "LOCALHOST:8080", "127.0.0.1", "127.1.2.3:80", "[::1]:8080", "::1", "app.localhost"} {
		if !IsLoopbackHost(h) {
			t.Errorf("%q is loopback", h)
		}
	}
	for _, h := range []string{"", "evil.example", "localhost.evil.example", "0.0.0.0", "10.0.0.1:8080", "[::]:80", "::"} {
		if IsLoopbackHost(h) {
			t.Errorf("%q is not loopback", h)
		}
	}
}

func TestServeRefusesUnsafeStarts(t *testing.T) {
	load := func(m map[string]string) *Config {
		t.Helper()
		c, err := Load(env(m), nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// the defaults: loopback, no base URL, simulator on http — fine
	if err := load(nil).ServeProblem(); err != nil {
		t.Fatalf("defaults refused: %v", err)
	}
	for _, addr := range []string{":8080", "0.0.0.0:8080", "10.1.2.3:80", "[::]:8080"} {
		err := load(map[string]string{"MERITMARK_ADDR": addr}).ServeProblem()
		if err == nil || !strings.Contains(err.Error(), "MERITMARK_BASE_URL is not set") || !strings.Contains(err.Error(), addr) {
			t.Errorf("%s without a base URL: %v", addr, err)
		}
	}
	if err := load(map[string]string{"MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "http://badges.example"}).ServeProblem(); err != nil {
		t.Fatalf("public listen with a base URL refused: %v", err)
	}
	// the simulator on an https origin
	https := map[string]string{"MERITMARK_ADDR": ":8080", "MERITMARK_BASE_URL": "https://badges.example"}
	c := load(https)
	if err := c.ServeProblem(); err == nil || err.Error() != MsgSimulatorOnHTTPS || c.SimulatorBanner() {
		t.Fatalf("simulator on https: %v", err)
	}
	https["MERITMARK_PAYPAL_SIMULATOR"] = "1"
	if c := load(https); c.ServeProblem() != nil || !c.SimulatorBanner() {
		t.Fatalf("simulator allowed explicitly: %v %v", c.ServeProblem(), c.SimulatorBanner())
	}
	delete(https, "MERITMARK_PAYPAL_SIMULATOR")
	https["MERITMARK_PAYPAL_BASE_URL"] = "https://api-m.paypal.com"
	https["MERITMARK_PAYPAL_CLIENT_ID"], https["MERITMARK_PAYPAL_SECRET"] = "id", "secret"
	if c := load(https); c.ServeProblem() != nil || c.SimulatorBanner() {
		t.Fatalf("real PayPal on https: %v", c.ServeProblem())
	}
}

func TestHSTSOnlyOnHTTPS(t *testing.T) {
	for _, tc := range []struct {
		base, hsts, want string
	}{
		{"", "", ""},
		{"http://badges.example", "", ""},
		{"https://badges.example", "", "max-age=63072000; includeSubDomains"},
		{"https://badges.example", "0", ""},
	} {
		c, err := Load(env(map[string]string{"MERITMARK_BASE_URL": tc.base, "MERITMARK_HSTS": tc.hsts}), nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.HSTSHeader(); got != tc.want {
			t.Errorf("%s HSTS=%q: %q, want %q", tc.base, tc.hsts, got, tc.want)
		}
	}
}
