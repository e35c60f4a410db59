package config

import (
	"strings"
	"testing"
)

func TestMetricsAndLogSettings(t *testing.T) {
	c, err := Load(env(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.MetricsAddr != "" || c.LogFormat != "text" || c.MetricsExposed() {
		t.Fatalf("defaults: metrics %q (exposed %v), log format %q; want metrics off and text logs", c.MetricsAddr, c.MetricsExposed(), c.LogFormat)
	}
	c, err = Load(env(map[string]string{"MERITMARK_METRICS_ADDR": "127.0.0.1:9090", "MERITMARK_LOG_FORMAT": "JSON"}), nil)
	if err != nil || c.MetricsAddr != "127.0.0.1:9090" || c.LogFormat != "json" {
		t.Fatalf("%v %+v", err, c)
	}
	c, err = Load(env(nil), []string{"--metrics-addr", "[::1]:9100", "--log-format", "text"})
	if err != nil || c.MetricsAddr != "[::1]:9100" || c.LogFormat != "text" {
		t.Fatalf("flags: %v %+v", err, c)
	}
}

func TestBadMetricsAndLogSettingsAreExplained(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"MERITMARK_METRICS_ADDR": "9090"}, `MERITMARK_METRICS_ADDR: "9090" is not host:port (for example 127.0.0.1:9090)`},
		{map[string]string{"MERITMARK_METRICS_ADDR": "localhost"}, `MERITMARK_METRICS_ADDR: "localhost" is not host:port`},
		{map[string]string{"MERITMARK_METRICS_ADDR": "127.0.0.1:http"}, `MERITMARK_METRICS_ADDR: port "http" is not a number from 0 to 65535`},
		{map[string]string{"MERITMARK_METRICS_ADDR": "127.0.0.1:70000"}, `MERITMARK_METRICS_ADDR: port "70000" is not a number`},
		{map[string]string{"MERITMARK_METRICS_ADDR": "127.0.0.1:8080"}, `MERITMARK_METRICS_ADDR: "127.0.0.1:8080" is the application's own address (MERITMARK_ADDR "127.0.0.1:8080")`},
		{map[string]string{"MERITMARK_ADDR": ":8000", "MERITMARK_METRICS_ADDR": "127.0.0.1:8000"}, `is the application's own address`},
		{map[string]string{"MERITMARK_LOG_FORMAT": "yaml"}, `MERITMARK_LOG_FORMAT: "yaml" must be text or json`},
	}
	for _, tc := range cases {
		_, err := Load(env(tc.env), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to say %q", tc.env, err, tc.want)
		}
	}
	// another port on the same host is fine, as is port 0 (tests)
	for _, ok := range []string{"127.0.0.1:8081", "127.0.0.1:0", "10.0.0.5:9090", ":9090"} {
		if _, err := Load(env(map[string]string{"MERITMARK_METRICS_ADDR": ok}), nil); err != nil {
			t.Errorf("%s refused: %v", ok, err)
		}
	}
}

func TestMetricsExposedBeyondPrivateNetworks(t *testing.T) {
	for addr, want := range map[string]bool{
		"":                         false,
		"127.0.0.1:9090":           false,
		"localhost:9090":           false,
		"[::1]:9090":               false,
		"10.1.2.3:9090":            false,
		"192.168.1.5:9090":         false,
		"172.16.0.9:9090":          false,
		"[fd00::5]:9090":           false,
		":9090":                    true,
		"0.0.0.0:9090":             true,
		"[::]:9090":                true,
		"203.0.113.7:9090":         true,
		"metrics.example.com:9090": true,
	} {
		c := &Config{MetricsAddr: addr}
		if got := c.MetricsExposed(); got != want {
			t.Errorf("MetricsExposed(%q) = %v, want %v", addr, got, want)
		}
	}
}
