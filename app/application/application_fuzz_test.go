package application

import (
	"archive/zip"
	"bytes"
	"mime"
	"net/url"
	"path"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var fuzzNames = []string{"resume.pdf", "../../etc/passwd", `..\..\boot.ini`, "C:\\Users\\ann\\cv.docx", "a/b/c.png", ".htaccess",
	"...", " .pdf", "x.PDF", "evil\u202egpj.exe", "x\x00.pdf", "\"><img src=x onerror=alert(1)>.pdf", "<script>alert(1)</script>.png",
	"name\r\nX-Injected: 1.pdf", strings.Repeat("é", 300) + ".pdf", strings.Repeat("a", 200) + "." + strings.Repeat("b", 20),
	"\xff\xfe.pdf", "con.pdf", "file:x.jpg", "%2e%2e%2fx.pdf", ". . .", "😀.jpeg"}

// FuzzSanitizeName: a client's file name becomes display text that is never a path and
// never markup: no separators, no control or bidi characters, no <>"... , valid UTF-8, at
// most 120 characters, not empty, not hidden, and sanitizing again changes nothing.
func FuzzSanitizeName(f *testing.F) {
	for _, n := range fuzzNames {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		name := SanitizeName(raw)
		switch {
		case name == "":
			t.Fatalf("%q: empty", raw)
		case strings.ContainsAny(name, "/\\"):
			t.Fatalf("%q -> %q: holds a path separator", raw, name)
		case strings.ContainsAny(name, "<>\"*?|:"):
			t.Fatalf("%q -> %q: holds a reserved character", raw, name)
		case !utf8.ValidString(name):
			t.Fatalf("%q -> %q: invalid UTF-8", raw, name)
		case utf8.RuneCountInString(name) > 120:
			t.Fatalf("%q -> %q: %d characters", raw, name, utf8.RuneCountInString(name))
		case strings.HasPrefix(name, "."):
			t.Fatalf("%q -> %q: a hidden name", raw, name)
		case name == "." || name == "..":
			t.Fatalf("%q -> %q", raw, name)
		case strings.TrimSpace(name) != name:
			t.Fatalf("%q -> %q: surrounding spaces", raw, name)
		}
		for _, r := range name {
			if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
				t.Fatalf("%q -> %q: holds control or format character %U", raw, name, r)
			}
		}
		if again := SanitizeName(name); again != name {
			t.Fatalf("not stable: %q -> %q -> %q", raw, name, again)
		}
		// the download header carries it safely
		cd := ContentDisposition(name)
		if strings.ContainsAny(cd, "\r\n\x00") {
			t.Fatalf("Content-Disposition %q holds a line break", cd)
		}
		_, params, err := mime.ParseMediaType(cd)
		if err != nil {
			t.Fatalf("Content-Disposition %q does not parse: %v", cd, err)
		}
		// a reader of RFC 6266 takes filename*, which is the name itself
		if params["filename"] != name {
			t.Fatalf("Content-Disposition %q: filename %q, want %q", cd, params["filename"], name)
		}
		if fb := ASCIIName(name); strings.ContainsAny(fb, "/\\\"") || !strings.Contains(cd, `filename="`+fb+`"`) {
			t.Fatalf("fallback filename %q in %q", fb, cd)
		}
	})
}

// FuzzExtValue: the RFC 5987 value of a name decodes back to the name.
func FuzzExtValue(f *testing.F) {
	for _, n := range fuzzNames {
		f.Add(n)
	}
	f.Fuzz(func(t *testing.T, name string) {
		v := extValue(name)
		for i := 0; i < len(v); i++ {
			if v[i] <= ' ' || v[i] >= 0x7f || strings.IndexByte(`"';,\()<>@:/[]?={}`, v[i]) >= 0 {
				t.Fatalf("extValue(%q) = %q holds %q", name, v, v[i])
			}
		}
		back, err := url.PathUnescape(v)
		if err != nil || back != name {
			t.Fatalf("extValue(%q) = %q decodes to %q, %v", name, v, back, err)
		}
	})
}

// fuzzDocx is a minimal Word package.
func fuzzDocx() []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for _, n := range []string{"[Content_Types].xml", "word/document.xml"} {
		fw, _ := w.Create(n)
		_, _ = fw.Write([]byte("<x/>"))
	}
	_ = w.Close()
	return buf.Bytes()
}

// FuzzCheckFile: an upload is accepted only when its extension is allowed for its kind,
// its size is within 10 MB and its first bytes really are that type (for DOCX: a zip
// with a Word document inside). Whatever the bytes, nothing panics or decompresses.
func FuzzCheckFile(f *testing.F) {
	kinds := []string{KindResume, KindProfilePic, KindProof}
	seeds := [][]byte{[]byte("%PDF-1.7\n%%EOF"), {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1, 0}, fuzzDocx(),
		[]byte("PK\x03\x04garbage"), {0xFF, 0xD8, 0xFF, 0xE0}, []byte("\x89PNG\r\n\x1a\n...."), []byte("MZ\x90\x00"), []byte("<html><script>")}
	for i, s := range seeds {
		for _, n := range []string{"a.pdf", "a.doc", "a.docx", "a.jpg", "a.png", "a.exe", "a.svg", "a.html"} {
			f.Add(uint8(i%3), n, s)
		}
	}
	f.Fuzz(func(t *testing.T, k uint8, name string, data []byte) {
		kind := kinds[int(k)%len(kinds)]
		typ, ferr := CheckFile(kind, name, int64(len(data)), bytes.NewReader(data))
		if ferr != nil {
			if ferr.Status != 400 && ferr.Status != 413 {
				t.Fatalf("status %d", ferr.Status)
			}
			if ferr.Msg == "" {
				t.Fatal("a refusal without a message")
			}
			return
		}
		want, ok := byExt[strings.ToLower(path.Ext(name))]
		if !ok || want != typ {
			t.Fatalf("%q accepted as %v", name, typ)
		}
		if (kind == KindResume && !typ.Document) || (kind == KindProfilePic && !typ.Image) {
			t.Fatalf("%s accepted as a %s", typ.Label, kind)
		}
		if len(data) == 0 || len(data) > MaxFileBytes {
			t.Fatalf("size %d accepted", len(data))
		}
		magic := map[FileType][]byte{TypePDF: magicPDF, TypeDOC: magicOLE, TypeDOCX: magicZIP, TypeJPEG: magicJPEG, TypePNG: magicPNG}[typ]
		if !bytes.HasPrefix(data, magic) {
			t.Fatalf("%s accepted without its magic number: %q", typ.Label, data[:min(len(data), 16)])
		}
	})
}

// FuzzNormalizeURL: an accepted address is an http(s) URL with a dotted host and nothing
// that could break out of an attribute; normalizing it again changes nothing.
func FuzzNormalizeURL(f *testing.F) {
	for _, s := range []string{"linkedin.com/in/ada", "https://x.io", "http://x.io/a?b=c#d", "javascript:alert(1)", "JaVaScRiPt:alert(1)",
		"javascript://x.com/%0aalert(1)", " https://x.io ", "data:text/html,<script>", "https://x.io\"><script>", "//evil.com",
		"https://user:pw@x.io", "vbscript:x", "https://localhost", "ftp://x.io", "https://x.io/\u2028", "\tjavascript:alert(1)", "https:x.io"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		out, ok := NormalizeURL(raw)
		if !ok || out == "" {
			return
		}
		u, err := url.Parse(out)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !strings.Contains(u.Hostname(), ".") {
			t.Fatalf("%q -> %q: not an http(s) address with a dotted host", raw, out)
		}
		if !strings.HasPrefix(out, "http://") && !strings.HasPrefix(out, "https://") {
			t.Fatalf("%q -> %q: does not start with its scheme", raw, out)
		}
		if strings.ContainsAny(out, " \t\r\n<>\"") {
			t.Fatalf("%q -> %q: holds a character that could break out of an attribute", raw, out)
		}
		if again, ok := NormalizeURL(out); !ok || again != out {
			t.Fatalf("not stable: %q -> %q -> %q (%v)", raw, out, again, ok)
		}
	})
}
