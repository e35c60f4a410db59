package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net"
	"net/textproto"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/valyala/fasthttp"
)

const (
	userAgent  = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 meritmark-load"
	acceptHTML = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
	apiBase    = "/backend/api/v1"
	cookieName = "mm_session"
)

// browser sends requests the way the site's pages do: cookies, Origin and Sec-Fetch-* on
// the API's writes, Accept by kind, keep-alive connections. It is fasthttp's client, so
// that the load generator takes as little as possible of the CPU it shares with the
// server.
type browser struct {
	base string
	hc   *fasthttp.HostClient
}

func newBrowser(base string, conns int, localIP net.IP) *browser {
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	if localIP != nil {
		d.LocalAddr = &net.TCPAddr{IP: localIP}
	}
	host := strings.TrimPrefix(base, "http://")
	return &browser{base: base, hc: &fasthttp.HostClient{
		Addr:                host,
		Dial:                func(addr string) (net.Conn, error) { return d.Dial("tcp", addr) },
		MaxConns:            conns * 2,
		MaxIdleConnDuration: 90 * time.Second,
		ReadTimeout:         30 * time.Second,
		WriteTimeout:        30 * time.Second,
		MaxResponseBodySize: 16 << 20,
	}}
}

func (b *browser) close() { b.hc.CloseIdleConnections() }

// kind of a request, for its headers.
type kind int

const (
	kindPage kind = iota
	kindAPI
)

// call is one request to make.
type call struct {
	method string
	path   string // starts with "/"
	kind   kind
	token  string // session cookie; "" = visitor
	body   []byte
	ctype  string
	// expect reports whether a status is the expected answer; nil = 2xx.
	expect func(int) bool
	// from is the browser to send with; nil = the runner's shared one (127.0.0.1)
	from *browser
	// memberPage: a page asked for by a signed-in member (never cached), also counted
	// in the "member pages" line
	memberPage bool
	// coded leaves the body as it came (compressed): decoding every page took over half
	// of this tool's CPU, which the server shares (checkPage)
	coded bool
}

// response is what came back.
type response struct {
	status  int
	body    []byte // decoded, unless the call said coded
	ctype   string
	coding  string // the Content-Encoding of a coded body
	session string // the mm_session cookie it set, if any
}

func (b *browser) do(ctx context.Context, c call) (*response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	req, resp := fasthttp.AcquireRequest(), fasthttp.AcquireResponse()
	defer fasthttp.ReleaseRequest(req)
	defer fasthttp.ReleaseResponse(resp)
	req.SetRequestURI(b.base + c.path)
	req.Header.SetMethod(c.method)
	h := &req.Header
	h.Set("User-Agent", userAgent)
	h.Set("Accept-Language", "en-US,en;q=0.9")
	h.Set("Accept-Encoding", "gzip, deflate, br")
	if c.kind == kindPage {
		h.Set("Accept", acceptHTML)
		h.Set("Sec-Fetch-Mode", "navigate")
		h.Set("Sec-Fetch-Dest", "document")
		h.Set("Sec-Fetch-Site", "same-origin")
		h.Set("Upgrade-Insecure-Requests", "1")
	} else {
		h.Set("Accept", "application/json, text/plain, */*")
		h.Set("Sec-Fetch-Mode", "cors")
		h.Set("Sec-Fetch-Dest", "empty")
		h.Set("Sec-Fetch-Site", "same-origin")
		h.Set("Referer", b.base+"/")
	}
	if c.method != "GET" && c.method != "HEAD" {
		h.Set("Origin", b.base)
	}
	if c.ctype != "" {
		h.SetContentType(c.ctype)
	}
	if c.token != "" {
		h.Set("Cookie", cookieName+"="+c.token+"; vite-ui-theme=light")
	}
	if c.body != nil {
		req.SetBody(c.body)
	}
	if err := b.hc.DoTimeout(req, resp, 30*time.Second); err != nil {
		return nil, err
	}
	var body []byte
	var err error
	out := &response{status: resp.StatusCode(), ctype: string(resp.Header.ContentType())}
	if c.coded {
		body, out.coding = resp.Body(), string(resp.Header.ContentEncoding())
	} else if body, err = resp.BodyUncompressed(); err != nil {
		return nil, err
	}
	out.body = append([]byte(nil), body...)
	for k, v := range resp.Header.Cookies() {
		if string(k) == cookieName {
			var ck fasthttp.Cookie
			if ck.ParseBytes(v) == nil && len(ck.Value()) > 0 && ck.MaxAge() >= 0 {
				out.session = string(ck.Value())
			}
		}
	}
	return out, nil
}

// sessionCookie returns the mm_session value a response set ("" when none).
func sessionCookie(r *response) string { return r.session }

func jsonBody(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// proofPDF is a small but real PDF (the server checks the magic bytes).
var proofPDF = func() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\n")
	for b.Len() < 6*1024 {
		b.WriteString("% load test proof document padding line to make the file a realistic few kilobytes\n")
	}
	b.WriteString("trailer << /Root 1 0 R >>\n%%EOF\n")
	return b.Bytes()
}()

// applicationForm is the multipart body the application form posts for a proof badge.
func applicationForm(badgeID, name, n string) ([]byte, string) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	field := func(k, v string) { _ = mw.WriteField(k, v) }
	field("badgeId", badgeID)
	field("type", "proof")
	field("fullName", name)
	field("position", "Senior Engineer")
	field("linkedin", "https://linkedin.com/in/load-"+n)
	field("portfolio", "https://portfolio.example/"+n)
	field("description", "Three years of maintaining open source tooling; the attached document lists the projects and my role in each.")
	hdr := textproto.MIMEHeader{}
	hdr.Set("Content-Disposition", `form-data; name="proofFiles"; filename="evidence-`+n+`.pdf"`)
	hdr.Set("Content-Type", "application/pdf")
	w, _ := mw.CreatePart(hdr)
	_, _ = w.Write(proofPDF)
	_ = mw.Close()
	return buf.Bytes(), mw.FormDataContentType()
}

// loopback is the n-th address of the loopback block 127.<netByte>.0.0/16 (never a .0 or
// .255 last byte). Linux answers the whole of 127.0.0.0/8 on lo, so a client can bind any
// of them and the server sees that address as the request's remote address.
func loopback(netByte byte, n uint32) net.IP {
	n %= 250 * 250
	return net.IPv4(127, netByte, byte(n/250), byte(n%250)+1)
}

// visitorBrowsers are n browsers, each sending from its own loopback address: visitors
// of a public site come from many addresses, and the server keeps some limits (such as
// verification lookups) per client address, trusting no forwarded header.
func visitorBrowsers(base string, n int) []*browser {
	out := make([]*browser, n)
	for i := range out {
		out[i] = newBrowser(base, 2, loopback(20, uint32(i)))
	}
	return out
}

// ipPool hands out distinct loopback source addresses (127.10.x.y) for sign-ups: the
// server counts sign-ups per client address (10 an hour) and does not trust forwarded
// headers, so new accounts come from many addresses, as on the internet, and each
// address stays well under the limit.
type ipPool struct {
	mu      sync.Mutex
	next    uint32
	netByte byte
	base    string
	cur     *browser
	uses    int
	max     int // sign-ups per address
	made    atomic.Int64
}

func newIPPool(base string, netByte byte, perAddress int) *ipPool {
	return &ipPool{base: base, netByte: netByte, max: perAddress}
}

// get returns the browser to sign up with, moving to a new address every max sign-ups.
func (p *ipPool) get() *browser {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur == nil || p.uses >= p.max {
		if p.cur != nil {
			old := p.cur
			go func() { time.Sleep(2 * time.Second); old.close() }()
		}
		p.cur = newBrowser(p.base, 2, loopback(p.netByte, p.next))
		p.next++
		p.uses = 0
		p.made.Add(1)
	}
	p.uses++
	return p.cur
}

func (p *ipPool) addresses() int64 { return p.made.Load() }

func (p *ipPool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil {
		p.cur.close()
	}
}

// must sends c and fails unless the answer is 2xx.
func (b *browser) must(ctx context.Context, c call, what string) (*response, error) {
	r, err := b.do(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if r.status < 200 || r.status > 299 {
		return nil, fmt.Errorf("%s: status %d: %s", what, r.status, truncate(string(r.body), 300))
	}
	return r, nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
