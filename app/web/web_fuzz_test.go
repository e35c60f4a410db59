package web_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"
	"github.com/valyala/fasthttp"
	"golang.org/x/net/html"

	"meritmark/app/apptest/htmlcheck"
	"meritmark/app/model"
	"meritmark/app/web"
)

// bodyShape is a request struct with the kinds of fields the features bind.
type bodyShape struct {
	Name    string             `json:"name"`
	Ptr     *string            `json:"ptr"`
	Num     int                `json:"num"`
	Float   float64            `json:"float"`
	Flag    *bool              `json:"flag"`
	List    []string           `json:"list"`
	Raw     json.RawMessage    `json:"raw"`
	Answers map[string]int     `json:"answers"`
	Nested  *struct{ A []int } `json:"nested"`
}

// FuzzBindJSON: any body either binds or is answered 400 with one of BindJSON's two
// messages; a body that binds is valid JSON; nothing panics, however deep or large.
func FuzzBindJSON(f *testing.F) {
	for _, s := range []string{``, ` `, `{}`, `null`, `[]`, `"x"`, `{"name":"a","num":1,"list":["x"],"raw":{"a":[1,2]}}`,
		`{"num":1e400}`, `{"num":"1"}`, `{"answers":{"q":1,"r":null}}`, `{"name":"\ud800"}`, `{"a":` + strings.Repeat("[", 20000),
		strings.Repeat(`{"nested":`, 3000) + `{}` + strings.Repeat("}", 3000), "{\"name\":\"a\"}\x00", `{"name":"a"} {"name":"b"}`,
		`{"raw":` + strings.Repeat("[", 11000) + strings.Repeat("]", 11000) + `}`} {
		f.Add([]byte(s))
	}
	app := fiber.New()
	f.Fuzz(func(t *testing.T, body []byte) {
		fctx := &fasthttp.RequestCtx{}
		fctx.Request.Header.SetMethod("POST")
		fctx.Request.SetBody(body)
		c := app.AcquireCtx(fctx)
		defer app.ReleaseCtx(c)
		for _, v := range []any{&bodyShape{}, &map[string]any{}} {
			err := web.BindJSON(c, v)
			if err == nil {
				if !json.Valid(body) {
					t.Fatalf("bound a body that is not valid JSON: %q", body)
				}
				continue
			}
			var we *web.Error
			if !errors.As(err, &we) || we.Status != http.StatusBadRequest ||
				(we.Msg != web.MsgInvalidJSON && we.Msg != "The request body is empty; expected JSON.") {
				t.Fatalf("BindJSON(%q) = %v, want a 400 with BindJSON's message", body, err)
			}
		}
	})
}

// pageRenderer answers a fixed body and one island whose props hold the fuzzed text.
type pageRenderer struct{ text string }

func (r pageRenderer) Render(_ context.Context, _ string, props []byte) (string, []byte, error) {
	islands, _ := json.Marshal([]map[string]any{{"n": "Header", "p": json.RawMessage(props), "l": 0}, {"n": "Profile", "p": map[string]string{"bio": r.text}, "l": 1}})
	return `<main>` + html.EscapeString(r.text) + `</main>`, islands, nil
}

// FuzzDocument: whatever a user put in the fields the document frame writes itself (title,
// description, social image, JSON-LD, island props, the signed-in user's name), the page
// has no executable markup and the fields come back as the same text.
func FuzzDocument(f *testing.F) {
	for _, s := range []string{"plain", `<script>alert(1)</script>`, `"><img src=x onerror=alert(1)>`, `</script><script>alert(1)</script>`,
		`javascript:alert(1)`, `{{7*7}}`, "\u2028\u2029", `<!--`, `<![CDATA[`, `</title><script>alert(1)</script>`, `' onmouseover='alert(1)`} {
		f.Add(s, s, s)
	}
	app := fiber.New()
	f.Fuzz(func(t *testing.T, title, desc, text string) {
		site := &web.Site{Renderer: pageRenderer{text}, Assets: web.Assets{Entry: "/static/dist/entry.js", CSS: "/static/dist/app.css",
			Islands: map[string][]string{"Header": {"/static/dist/h.js"}}}, BaseURL: "https://meritmark.example"}
		fctx := &fasthttp.RequestCtx{}
		fctx.Request.SetRequestURI("/profile/x")
		c := app.AcquireCtx(fctx)
		defer app.ReleaseCtx(c)
		web.SetViewer(c, &model.User{ID: model.NewID(), Name: text, Email: "a@x.io", Role: model.RoleUser})
		doc, err := site.Document(c, "ProfilePage", map[string]string{"name": text}, web.Meta{
			Title: title, Description: desc, Image: text, JSONLD: map[string]any{"@type": "Person", "name": text, "url": desc}})
		if err != nil {
			// only text json.Marshal cannot encode fails, and none can: strings are always encodable
			t.Fatalf("Document: %v", err)
		}
		if p := htmlcheck.Problems(doc, web.ThemeScript); len(p) > 0 {
			t.Fatalf("title %q desc %q text %q: %v\n%s", title, desc, text, p, doc)
		}
		// exactly the scripts the frame writes: theme, JSON-LD, two props, the module
		if n := strings.Count(string(doc), "<script"); n != 5 {
			t.Fatalf("%d script elements, want 5:\n%s", n, doc)
		}
		z := html.NewTokenizer(strings.NewReader(string(doc)))
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			if tt == html.StartTagToken && string(must(z.TagName())) == "title" {
				z.Next()
				got := html.UnescapeString(string(z.Raw()))
				want := web.SiteName
				if title != "" {
					want = title + " | " + web.SiteName
				}
				if got != want {
					t.Fatalf("title %q, want %q", got, want)
				}
			}
		}
	})
}

func must(b []byte, _ bool) []byte { return b }
