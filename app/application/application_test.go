package application

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// Sample file contents shared by the tests.
var (
	pdfBytes  = []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n")
	pngBytes  = append([]byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}, bytes.Repeat([]byte{0}, 64)...)
	jpegBytes = append([]byte{0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 'J', 'F', 'I', 'F'}, bytes.Repeat([]byte{1}, 64)...)
	docBytes  = append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, bytes.Repeat([]byte{0}, 504)...)
	elfBytes  = append([]byte{0x7F, 'E', 'L', 'F', 2, 1, 1, 0}, bytes.Repeat([]byte{0}, 120)...)
	mzBytes   = append([]byte{'M', 'Z', 0x90, 0, 3, 0, 0, 0}, bytes.Repeat([]byte{0}, 120)...)
	docxBytes = zipOf(map[string]string{"[Content_Types].xml": "<Types/>", "word/document.xml": "<w:document/>", "_rels/.rels": "<Relationships/>"})
	zipBytes  = zipOf(map[string]string{"readme.txt": "not a word document"})
)

func zipOf(files map[string]string) []byte {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for name, body := range files {
		f, _ := w.Create(name)
		_, _ = f.Write([]byte(body))
	}
	_ = w.Close()
	return buf.Bytes()
}

func TestCheckFileByExtensionAndContent(t *testing.T) {
	cases := []struct {
		kind, name string
		data       []byte
		status     int    // 0 = accepted
		msg        string // part of the message
	}{
		{KindProof, "cert.pdf", pdfBytes, 0, ""},
		{KindProof, "CERT.PDF", pdfBytes, 0, ""},
		{KindProof, "photo.png", pngBytes, 0, ""},
		{KindProof, "photo.jpg", jpegBytes, 0, ""},
		{KindProof, "photo.jpeg", jpegBytes, 0, ""},
		{KindProof, "letter.doc", docBytes, 0, ""},
		{KindProof, "letter.docx", docxBytes, 0, ""},
		{KindProof, "renamed.png", pdfBytes, 400, `"renamed.png" is not a real PNG file`},
		{KindProof, "program.pdf", elfBytes, 400, `"program.pdf" is not a real PDF file`},
		{KindProof, "setup.pdf", mzBytes, 400, `"setup.pdf" is not a real PDF file`},
		{KindProof, "setup.docx", mzBytes, 400, `"setup.docx" is not a real DOCX file`},
		{KindProof, "archive.docx", zipBytes, 400, `"archive.docx" is not a real DOCX file`},
		{KindProof, "word.doc", docxBytes, 400, `"word.doc" is not a real DOC file`},
		{KindProof, "tool.exe", mzBytes, 400, `"tool.exe" is not an accepted file type`},
		{KindProof, "notes.txt", []byte("hello"), 400, "is not an accepted file type"},
		{KindProof, "noext", pdfBytes, 400, "is not an accepted file type"},
		{KindProof, "empty.pdf", nil, 400, `"empty.pdf" is empty.`},
		{KindResume, "cv.pdf", pdfBytes, 0, ""},
		{KindResume, "cv.docx", docxBytes, 0, ""},
		{KindResume, "cv.png", pngBytes, 400, `Your resume "cv.png" must be a PDF, DOC or DOCX file.`},
		{KindProfilePic, "me.png", pngBytes, 0, ""},
		{KindProfilePic, "me.pdf", pdfBytes, 400, `Your profile picture "me.pdf" must be a JPG or PNG image.`},
		{KindProfilePic, "me.png", jpegBytes, 400, `"me.png" is not a real PNG file`},
	}
	for _, c := range cases {
		_, ferr := CheckFile(c.kind, c.name, int64(len(c.data)), bytes.NewReader(c.data))
		switch {
		case c.status == 0 && ferr != nil:
			t.Errorf("%s %s refused: %v", c.kind, c.name, ferr)
		case c.status != 0 && ferr == nil:
			t.Errorf("%s %s accepted", c.kind, c.name)
		case c.status != 0 && (ferr.Status != c.status || !strings.Contains(ferr.Msg, c.msg)):
			t.Errorf("%s %s: %d %q, want %d containing %q", c.kind, c.name, ferr.Status, ferr.Msg, c.status, c.msg)
		}
	}
}

func TestCheckFileSize(t *testing.T) {
	big := make([]byte, MaxFileBytes+1)
	copy(big, pdfBytes)
	_, ferr := CheckFile(KindProof, "big.pdf", int64(len(big)), bytes.NewReader(big))
	if ferr == nil || ferr.Status != 413 || ferr.Msg != `"big.pdf" is larger than 10 MB. Each file can be at most 10 MB.` {
		t.Fatalf("10 MB + 1: %+v", ferr)
	}
	if _, ferr := CheckFile(KindProof, "max.pdf", MaxFileBytes, bytes.NewReader(big[:MaxFileBytes])); ferr != nil {
		t.Fatalf("exactly 10 MB refused: %v", ferr)
	}
}

func TestSanitizeName(t *testing.T) {
	cases := map[string]string{
		"../../etc/passwd.pdf":            "passwd.pdf",
		`..\..\windows\system32\x.pdf`:    "x.pdf",
		"/abs/path/cv.pdf":                "cv.pdf",
		"..":                              "file",
		"...pdf":                          "pdf",
		"":                                "file",
		"  report final.pdf  ":            "report final.pdf",
		"evil\u202Egpj.pdf":               "evilgpj.pdf", // right-to-left override removed
		"a\x00b\r\nc.pdf":                 "abc.pdf",
		`quote"d<name>.pdf`:               "quote_d_name_.pdf",
		"résumé — Ada.pdf":                "résumé — Ada.pdf",
		strings.Repeat("x", 300) + ".pdf": strings.Repeat("x", 116) + ".pdf",
	}
	for in, want := range cases {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestContentDisposition(t *testing.T) {
	got := ContentDisposition("résumé; v2\".pdf")
	want := `attachment; filename="r_sum__ v2_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9%3B%20v2%22.pdf`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestNormalizeURL(t *testing.T) {
	ok := map[string]string{
		"linkedin.com/in/ada":           "https://linkedin.com/in/ada",
		"https://www.linkedin.com/in/a": "https://www.linkedin.com/in/a",
		"http://ada.dev":                "http://ada.dev",
		"":                              "",
	}
	for in, want := range ok {
		if got, good := NormalizeURL(in); !good || got != want {
			t.Errorf("NormalizeURL(%q) = %q, %v", in, got, good)
		}
	}
	for _, bad := range []string{"javascript:alert(1)", "ftp://x.com/a", "not a url", "localhost", "https://", "https://x.com/<script>"} {
		if _, good := NormalizeURL(bad); good {
			t.Errorf("NormalizeURL(%q) accepted", bad)
		}
	}
}

func TestKeyTime(t *testing.T) {
	at, ok := keyTime("applications/6740000000000000000000aa/6740000000000000000000bb.pdf")
	if !ok || at.Unix() != 0x67400000 {
		t.Fatalf("keyTime = %v, %v", at, ok)
	}
	for _, bad := range []string{"applications/x/y.pdf", "avatars/6740000000000000000000aa/6740000000000000000000bb.pdf", "applications/6740000000000000000000aa.pdf"} {
		if _, ok := keyTime(bad); ok {
			t.Errorf("keyTime(%q) ok", bad)
		}
	}
}
