package apptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"

	"meritmark/app/web"
)

// Client is a browser-like HTTP client with its own cookies.
type Client struct {
	env  *Env
	HTTP *http.Client
	// Origin is sent on state-changing requests, as a browser does (empty: none).
	Origin string
}

// Client returns a new visitor.
func (e *Env) Client() *Client {
	jar, _ := cookiejar.New(nil)
	return &Client{env: e, HTTP: &http.Client{Jar: jar, Timeout: 60 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}, Origin: e.URL}
}

// Resp is an answer.
type Resp struct {
	Status int
	Header http.Header
	Body   []byte
	t      testing.TB
}

// JSON decodes the body into v.
func (r *Resp) JSON(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		r.t.Fatalf("decode %q: %v", truncate(string(r.Body)), err)
	}
}

// Map decodes the body as a JSON object.
func (r *Resp) Map() map[string]any {
	var m map[string]any
	r.JSON(&m)
	return m
}

// Msg is the body's "msg".
func (r *Resp) Msg() string {
	var m struct {
		Msg string `json:"msg"`
	}
	_ = json.Unmarshal(r.Body, &m)
	return m.Msg
}

// Text is the body as a string.
func (r *Resp) Text() string { return string(r.Body) }

// Expect fails the test unless the status is want.
func (r *Resp) Expect(want int) *Resp {
	r.t.Helper()
	if r.Status != want {
		r.t.Fatalf("status %d, want %d; body: %s", r.Status, want, truncate(string(r.Body)))
	}
	return r
}

// ExpectMsg fails the test unless status and msg are as given.
func (r *Resp) ExpectMsg(status int, msg string) *Resp {
	r.t.Helper()
	r.Expect(status)
	if r.Msg() != msg {
		r.t.Fatalf("msg %q, want %q", r.Msg(), msg)
	}
	return r
}

func truncate(s string) string {
	if len(s) > 2000 {
		return s[:2000] + "…"
	}
	return s
}

// Do sends an API request with an optional JSON body; path is relative to the API base
// ("/auth/me"). Use Abs for other paths.
func (c *Client) Do(method, path string, body any) *Resp {
	c.env.T.Helper()
	return c.Abs(method, web.APIBase+path, body)
}

// Abs sends a request to an absolute path ("/badges/x", "/healthz").
func (c *Client) Abs(method, path string, body any) *Resp {
	c.env.T.Helper()
	var rd io.Reader
	ctype := ""
	if body != nil {
		switch b := body.(type) {
		case []byte:
			rd = bytes.NewReader(b)
		case string:
			rd = strings.NewReader(b)
		default:
			j, err := json.Marshal(body)
			if err != nil {
				c.env.T.Fatal(err)
			}
			rd = bytes.NewReader(j)
		}
		ctype = "application/json"
	}
	return c.send(method, path, rd, ctype, nil)
}

// Get, Post, Put, Patch, Delete are Do shorthands.
func (c *Client) Get(path string) *Resp             { return c.Do("GET", path, nil) }
func (c *Client) Post(path string, body any) *Resp  { return c.Do("POST", path, body) }
func (c *Client) Put(path string, body any) *Resp   { return c.Do("PUT", path, body) }
func (c *Client) Patch(path string, body any) *Resp { return c.Do("PATCH", path, body) }
func (c *Client) Delete(path string) *Resp          { return c.Do("DELETE", path, nil) }

// File is one part of a multipart upload.
type File struct {
	Field, Name, ContentType string
	Data                     []byte
}

// Multipart sends fields and files to an API path (relative to the API base).
func (c *Client) Multipart(method, path string, fields map[string]string, files ...File) *Resp {
	c.env.T.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	for _, f := range files {
		h := make(map[string][]string)
		h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="%s"; filename="%s"`, f.Field, strings.ReplaceAll(f.Name, `"`, `\"`))}
		ct := f.ContentType
		if ct == "" {
			ct = "application/octet-stream"
		}
		h["Content-Type"] = []string{ct}
		p, err := w.CreatePart(h)
		if err != nil {
			c.env.T.Fatal(err)
		}
		_, _ = p.Write(f.Data)
	}
	_ = w.Close()
	return c.send(method, web.APIBase+path, &buf, w.FormDataContentType(), nil)
}

// Raw sends a request to an absolute path with explicit headers.
func (c *Client) Raw(method, path string, body io.Reader, headers map[string]string) *Resp {
	return c.send(method, path, body, headers["Content-Type"], headers)
}

func (c *Client) send(method, path string, body io.Reader, ctype string, headers map[string]string) *Resp {
	c.env.T.Helper()
	u := path
	if !strings.HasPrefix(path, "http") {
		u = c.env.URL + path
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		c.env.T.Fatal(err)
	}
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	req.Header.Set("Accept", "application/json, text/html")
	if c.Origin != "" && method != "GET" && method != "HEAD" {
		req.Header.Set("Origin", c.Origin)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		c.env.T.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return &Resp{Status: res.StatusCode, Header: res.Header, Body: b, t: c.env.T}
}

// Page fetches a page (absolute path) and returns the props the page was rendered with
// (decoded from the fake renderer's output).
func (c *Client) Page(path string) (*Resp, map[string]any) {
	c.env.T.Helper()
	r := c.send("GET", c.env.URL+path, nil, "", map[string]string{"Accept": "text/html"})
	s := string(r.Body)
	i := strings.Index(s, `<pre id="props">`)
	if i < 0 {
		return r, nil
	}
	j := strings.Index(s[i:], "</pre>")
	var props map[string]any
	if err := json.Unmarshal([]byte(html.UnescapeString(s[i+len(`<pre id="props">`):i+j])), &props); err != nil {
		c.env.T.Fatalf("page props: %v", err)
	}
	return r, props
}

// PageName is the rendered page's name (from the fake renderer).
func PageName(r *Resp) string {
	s := string(r.Body)
	i := strings.Index(s, `data-page="`)
	if i < 0 {
		return ""
	}
	s = s[i+len(`data-page="`):]
	return s[:strings.IndexByte(s, '"')]
}
