package pagetest

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/valyala/fasthttp"

	"meritmark/app/apptest"
	"meritmark/app/pagecache"
	"meritmark/app/seed"
	"meritmark/app/web"
)

// fetch sends GET path with the given Accept-Encoding ("" = none) and Accept.
func fetch(t *testing.T, e *apptest.Env, c *apptest.Client, path, ae, accept string) *apptest.Resp {
	t.Helper()
	h := map[string]string{"Accept": accept, "Accept-Encoding": ae}
	if ae == "" {
		h["Accept-Encoding"] = "identity"
	}
	return c.Raw("GET", path, nil, h)
}

// decode undoes the answer's Content-Encoding.
func decode(t *testing.T, r *apptest.Resp) []byte {
	t.Helper()
	var out []byte
	var err error
	switch r.Header.Get("Content-Encoding") {
	case "":
		return r.Body
	case "gzip":
		out, err = fasthttp.AppendGunzipBytes(nil, r.Body)
	case "br":
		out, err = fasthttp.AppendUnbrotliBytes(nil, r.Body)
	default:
		t.Fatalf("unexpected Content-Encoding %q", r.Header.Get("Content-Encoding"))
	}
	if err != nil {
		t.Fatalf("decode %s: %v", r.Header.Get("Content-Encoding"), err)
	}
	return out
}

// Pages and the API are compressed as Accept-Encoding allows, every variant decodes to the
// same document, and the seeded home page and catalogue weigh at most 12 KB gzipped. When
// the client ranks brotli and gzip alike, an answer compressed per request (a member's
// page, the API without the page cache) is sent in gzip, which costs a quarter of the
// CPU, and so is a visitor's page in the page cache until it has been served
// pagecache.BrotliAfter times; then it is sent in brotli.
func TestPagesAndAPIAreCompressedByNegotiation(t *testing.T) {
	for _, cached := range []bool{false, true} {
		t.Run(map[bool]string{false: "per request", true: "page cache"}[cached], func(t *testing.T) {
			var opts []apptest.Option
			if cached {
				opts = append(opts, apptest.WithPageCache)
			}
			e := New(t, opts...)
			if _, err := seed.Run(e.Ctx(), e.DB, "password123"); err != nil {
				t.Fatal(err)
			}
			_, mc := e.Member("reader@meritmark.test")
			for _, tc := range []struct {
				path, accept string
				client       *apptest.Client
				budget       int // gzipped bytes, 0 = none
			}{
				{"/", "text/html", e.Client(), 12 * 1024},
				{"/badges", "text/html", e.Client(), 12 * 1024},
				{"/hall-of-fame", "text/html", e.Client(), 0},
				{"/about", "text/html", mc, 0}, // a signed-in page, compressed per request
				{web.APIBase + "/badges/with-ownership", "application/json", e.Client(), 0},
				{web.APIBase + "/badges/with-ownership", "application/json", mc, 0},
			} {
				tie := "gzip" // both ranked alike
				plain := fetch(t, e, tc.client, tc.path, "", tc.accept).Expect(200)
				if cached && tc.client != mc {
					if got := fetch(t, e, tc.client, tc.path, "gzip, br", tc.accept).Header.Get("Content-Encoding"); got != "gzip" {
						t.Errorf("%s, a page just cached: Content-Encoding %q, want gzip", tc.path, got)
					}
					for i := 0; i < pagecache.BrotliAfter; i++ {
						fetch(t, e, tc.client, tc.path, "", tc.accept).Expect(200)
					}
					tie = "br"
				}
				if ce := plain.Header.Get("Content-Encoding"); ce != "" {
					t.Fatalf("%s without Accept-Encoding: Content-Encoding %q", tc.path, ce)
				}
				for _, ae := range []struct{ header, want string }{
					{"gzip, deflate, br", tie}, {"br;q=1.0, gzip;q=0.8", "br"}, {"gzip", "gzip"}, {"br", "br"},
					{"br;q=0, gzip", "gzip"}, {"gzip;q=0.5, br;q=0.9", "br"}, {"gzip;q=0.9, br;q=0.5", "gzip"},
					{"deflate", ""}, {"*;q=0", ""},
				} {
					r := fetch(t, e, tc.client, tc.path, ae.header, tc.accept).Expect(200)
					if got := r.Header.Get("Content-Encoding"); got != ae.want {
						t.Errorf("%s, Accept-Encoding %q: Content-Encoding %q, want %q", tc.path, ae.header, got, ae.want)
					}
					if !strings.Contains(r.Header.Get("Vary"), "Accept-Encoding") {
						t.Errorf("%s: Vary %q lacks Accept-Encoding", tc.path, r.Header.Get("Vary"))
					}
					body := decode(t, r)
					if string(body) != string(plain.Body) {
						t.Errorf("%s, %q: decoded body (%d bytes) differs from the identity body (%d bytes)", tc.path, ae.header, len(body), len(plain.Body))
					}
					if ae.want != "" && len(r.Body) >= len(plain.Body)/2 {
						t.Errorf("%s, %s: %d bytes of %d: hardly compressed", tc.path, ae.want, len(r.Body), len(plain.Body))
					}
					if ae.want == "gzip" && tc.budget > 0 && len(r.Body) > tc.budget {
						t.Errorf("%s: %d bytes gzipped, budget %d", tc.path, len(r.Body), tc.budget)
					}
				}
				if tc.budget > 0 {
					t.Logf("%s: %d bytes, %d gzipped", tc.path, len(plain.Body), len(fetch(t, e, tc.client, tc.path, "gzip", tc.accept).Body))
				}
			}
			// small answers and errors stay readable
			fetch(t, e, e.Client(), web.APIBase+"/badges/0123456789abcdef01234567", "br, gzip", "application/json").ExpectMsg(404, "Badge not found")
		})
	}
}

// Hashed build files (scripts, stylesheet, logos) are sent precompressed (brotli or gzip
// as written by the build) with a year of immutable caching; a revalidation of the
// compressed variant answers 304.
func TestStaticAssetsArePrecompressedAndImmutable(t *testing.T) {
	e := New(t)
	page := fetch(t, e, e.Client(), "/", "", "text/html").Expect(200).Text()
	var files []string
	for _, m := range regexp.MustCompile(`(?:href|src)="(/static/dist/[^"]+\.(?:js|css|svg))"`).FindAllStringSubmatch(page, -1) {
		files = append(files, m[1])
	}
	if len(files) < 13 { // stylesheet, entry, 11 logos
		t.Fatalf("only %d hashed files on the home page: %v", len(files), files)
	}
	c := e.Client()
	for _, f := range files {
		plain := fetch(t, e, c, f, "", "*/*").Expect(200)
		for _, enc := range []string{"br", "gzip"} {
			r := fetch(t, e, c, f, enc, "*/*").Expect(200)
			if r.Header.Get("Content-Encoding") != enc {
				t.Errorf("%s: Content-Encoding %q, want %s", f, r.Header.Get("Content-Encoding"), enc)
				continue
			}
			if string(decode(t, r)) != string(plain.Body) {
				t.Errorf("%s (%s) decodes to other bytes", f, enc)
			}
			if cc := r.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
				t.Errorf("%s: Cache-Control %q", f, cc)
			}
			tag := r.Header.Get("ETag")
			if tag == "" || tag == plain.Header.Get("ETag") {
				t.Errorf("%s (%s): ETag %q, identity %q: each representation needs its own", f, enc, tag, plain.Header.Get("ETag"))
			}
			nm := c.Raw("GET", f, nil, map[string]string{"Accept-Encoding": enc, "If-None-Match": tag})
			if nm.Status != http.StatusNotModified || nm.Header.Get("ETag") != tag {
				t.Errorf("%s (%s) revalidated: %d, ETag %q", f, enc, nm.Status, nm.Header.Get("ETag"))
			}
		}
	}
	if r := c.Raw("HEAD", files[0], nil, map[string]string{"Accept-Encoding": "br"}); r.Status != 200 || r.Header.Get("Content-Encoding") != "br" {
		t.Errorf("HEAD %s: %d %q", files[0], r.Status, r.Header.Get("Content-Encoding"))
	}
}
