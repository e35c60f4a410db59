package web

import "testing"

// The headers answered without parsing get the coding the parser would choose.
func TestNegotiateFastPathsAgreeWithTheParser(t *testing.T) {
	headers := []string{"", "gzip", "gzip, deflate", "br", "gzip, deflate, br", "gzip, deflate, br, zstd",
		"br, gzip", "gzip, br", "br, gzip, deflate", "gzip;q=0, br", "br;q=0.5, gzip", "identity", "*"}
	for _, h := range headers {
		for _, prefer := range []Encoding{Gzip, Brotli} {
			if got, want := negotiate([]byte(h), prefer), NegotiateEncoding(h, prefer); got != want {
				t.Errorf("%q preferring %s: %s, the parser says %s", h, prefer.Token(), got.Token(), want.Token())
			}
		}
	}
}
