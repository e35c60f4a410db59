package mail_test

import (
	"strings"
	"testing"

	"meritmark/app/mail"
)

// A letter's values are escaped by the template in the HTML form (a name or a reason
// cannot inject markup or a link), and both forms carry every part.
func TestLetterEscapesAndCarriesEveryPart(t *testing.T) {
	l := mail.Letter{To: "a@example.com", Subject: "S", Greeting: `Hello <b>Eve</b> & "co",`,
		Paragraphs: []mail.Paragraph{{Text: "Reason: <script>alert(1)</script>", List: []string{"Go <Gopher>"},
			Links: []mail.Link{{Label: "Profile", URL: "https://x.example/profile?a=1&b=2"}}}},
		Action: &mail.Link{Label: "Confirm", URL: `javascript:alert(1)`}, Small: []string{"small print"}, SignOff: "The team"}
	m := l.Message()
	for _, bad := range []string{"<b>Eve", "<script>", "<Gopher>", `href="javascript:`} {
		if strings.Contains(m.HTML, bad) {
			t.Fatalf("the HTML form holds %q:\n%s", bad, m.HTML)
		}
	}
	for _, want := range []string{"Hello &lt;b&gt;Eve&lt;/b&gt; &amp; &#34;co&#34;,", "<li>Go &lt;Gopher&gt;</li>", `href="https://x.example/profile?a=1&amp;b=2"`, "small print", "The team"} {
		if !strings.Contains(m.HTML, want) {
			t.Fatalf("the HTML form lacks %q:\n%s", want, m.HTML)
		}
	}
	for _, want := range []string{`Hello <b>Eve</b> & "co",`, "- Go <Gopher>", "Profile: https://x.example/profile?a=1&b=2", "Confirm:\n\njavascript:alert(1)", "The team\n"} {
		if !strings.Contains(m.Text, want) {
			t.Fatalf("the text form lacks %q:\n%s", want, m.Text)
		}
	}
}
