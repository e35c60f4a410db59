package pages_test

import (
	"encoding/json"
	"html"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/pages"
)

func contactProps(t *testing.T, r *apptest.Resp) map[string]any {
	t.Helper()
	s := r.Text()
	i := strings.Index(s, `<pre id="props">`)
	if i < 0 {
		t.Fatalf("no page in %d %s", r.Status, s)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(s[i+len(`<pre id="props">`):i+strings.Index(s[i:], "</pre>")])), &m); err != nil {
		t.Fatal(err)
	}
	return m["page"].(map[string]any)["posted"].(map[string]any)
}

// TestContactFormPost: without JavaScript the contact form is posted to /contact (the
// message stays out of the address): missing fields come back with their messages (400)
// and the typed values; a complete form with the prefilled mailto link the script would
// open, encoded as encodeURIComponent does. Nothing is cached.
func TestContactFormPost(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	post := func(v url.Values) *apptest.Resp {
		return c.Raw("POST", "/contact", strings.NewReader(v.Encode()), map[string]string{"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"})
	}
	r := post(url.Values{"name": {"Casey"}, "email": {"casey@"}, "subject": {" "}})
	r.Expect(http.StatusBadRequest)
	p := contactProps(t, r)
	errs := p["errors"].(map[string]any)
	if errs["email"] != pages.MsgContactEmailInvalid || errs["subject"] != pages.MsgContactSubject || errs["message"] != pages.MsgContactMessage || errs["name"] != nil || p["mailto"] != "" ||
		p["values"].(map[string]any)["name"] != "Casey" {
		t.Fatalf("errors: %v", p)
	}
	r = post(url.Values{"name": {"Casey Contact"}, "email": {"casey@example.com"}, "subject": {"Team badges (10)"}, "message": {"A question & more\nthanks!"}})
	r.Expect(http.StatusOK)
	if r.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("cache-control %q", r.Header.Get("Cache-Control"))
	}
	p = contactProps(t, r)
	if want := "mailto:" + e.Deps.Site.SupportEmail + "?subject=Team%20badges%20(10)&body=A%20question%20%26%20more%0Athanks!%0D%0A%0D%0A--%0D%0ACasey%20Contact%0D%0Acasey%40example.com"; p["mailto"] != want || len(p["errors"].(map[string]any)) != 0 {
		t.Fatalf("mailto:\n got %v\nwant %s", p["mailto"], want)
	}
}
