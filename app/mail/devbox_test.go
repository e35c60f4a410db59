package mail_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/mail"
)

// The development mailbox lists the outbox newest first and shows a mail's text with its
// links clickable; a mail's HTML stays inside a sandboxed frame, escaped, never in the page.
func TestMailboxShowsTheOutbox(t *testing.T) {
	d := apptest.OpenDB(t)
	ctx := t.Context()
	box := &mail.Mailbox{}
	w := mail.NewWorker(d, box, from)
	if err := mail.Queue(ctx, d, mail.Message{To: "ada@example.com", Subject: "Confirm your address",
		Text: "Open https://localhost:8080/verify-email?token=abc&x=1 to confirm.", HTML: `<p>Hi</p><script>alert(1)</script>`}); err != nil {
		t.Fatal(err)
	}
	if n, err := w.Flush(ctx); err != nil || n != 1 {
		t.Fatalf("flush: %d %v", n, err)
	}
	srv := httptest.NewServer(box)
	defer srv.Close()
	res, err := http.Get(srv.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(b)
	for _, want := range []string{"Confirm your address", "to ada@example.com",
		`<a href="https://localhost:8080/verify-email?token=abc&amp;x=1">`, `sandbox="allow-popups`} {
		if !strings.Contains(page, want) {
			t.Fatalf("the page lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "<script>") || res.Header.Get("Content-Security-Policy") == "" {
		t.Fatal("the mail's HTML reached the page unescaped, or no CSP")
	}
	if res, _ := http.Post(srv.URL+"/", "text/plain", nil); res.StatusCode != http.StatusNotFound {
		t.Fatalf("POST answered %d", res.StatusCode)
	}
}
