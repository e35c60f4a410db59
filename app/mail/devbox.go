package mail

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"time"

	"meritmark/app/model"
)

// Mailbox is the development mailbox: with no SMTP server set it is the outbox's sender,
// keeping the last mails in memory (the outbox clears a body once sent, as it may hold a
// one-time link), and a page on a loopback address lists them newest first, so that
// sign-up confirmation, password resets and award claims can be tried from a fresh clone.
// It shows every mail, links and all, so config refuses it beyond loopback and on an https
// origin.
type Mailbox struct {
	mu    sync.Mutex
	mails []model.OutboxMessage // newest last
}

// mailboxSize is how many mails the mailbox keeps.
const mailboxSize = 200

// Send keeps m (and logs it as LogSender does).
func (m *Mailbox) Send(ctx context.Context, from string, msg *model.OutboxMessage) error {
	_ = LogSender{}.Send(ctx, from, msg)
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mails = append(m.mails, *msg)
	if len(m.mails) > mailboxSize {
		m.mails = append(m.mails[:0:0], m.mails[len(m.mails)-mailboxSize:]...)
	}
	return nil
}

// Serve listens on addr until ctx is done. A busy address is logged and skipped: another
// instance on this machine already shows the same outbox.
func (m *Mailbox) Serve(ctx context.Context, addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		slog.Warn("development mailbox not started", "addr", addr, "err", err)
		return
	}
	srv := &http.Server{Handler: m, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	slog.Info("development mailbox: the mails this server would send (no MERITMARK_SMTP_URL)", "url", "http://"+ln.Addr().String())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		slog.Error("development mailbox stopped", "err", err)
	}
}

var boxPage = template.Must(template.New("box").Funcs(template.FuncMap{"links": links}).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Development mailbox · Meritmark</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#1f2937;background:#f9fafb}
header{background:#1e3a8a;color:#fff;padding:12px 24px}header p{margin:0;opacity:.85;font-size:13px}
main{display:grid;grid-template-columns:minmax(260px,360px) 1fr;min-height:calc(100vh - 64px)}
nav{border-right:1px solid #e5e7eb;overflow:auto;background:#fff}nav a{display:block;padding:10px 16px;border-bottom:1px solid #f3f4f6;color:inherit;text-decoration:none}
nav a[aria-current]{background:#eff6ff}nav small{color:#4b5563;display:block}
article{padding:16px 24px;overflow:auto}pre{white-space:pre-wrap;background:#fff;border:1px solid #e5e7eb;padding:12px;border-radius:6px}
iframe{width:100%;height:60vh;border:1px solid #e5e7eb;border-radius:6px;background:#fff}
.st{font-size:12px;color:#374151}a{color:#1d4ed8}
@media (max-width:700px){main{grid-template-columns:1fr}nav{border-right:0}}
</style></head><body>
<header><h1 style="margin:0;font-size:18px">Development mailbox</h1><p>The mails this server would send. No SMTP server is set (MERITMARK_SMTP_URL), so nothing leaves this machine. Refresh for new ones.</p></header>
<main><nav aria-label="Mails">{{range .List}}<a href="/?id={{.ID}}"{{if eq .ID $.Current}} aria-current="page"{{end}}><strong>{{.Subject}}</strong><small>to {{.To}} · {{.CreatedAt.Format "2006-01-02 15:04:05"}} UTC</small></a>{{else}}<p style="padding:16px">No mail yet. Sign up, or ask for a password reset, and it appears here.</p>{{end}}</nav>
<article>{{with .Mail}}<h2 style="margin-top:0">{{.Subject}}</h2><p class="st">To {{.To}} · {{.CreatedAt.Format "2006-01-02 15:04:05"}} UTC</p>
{{if .BodyHTML}}<h3>HTML</h3><iframe title="The mail as HTML" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="{{.BodyHTML}}"></iframe>{{end}}
<h3>Text</h3><pre>{{links .BodyText}}</pre>{{else}}<p>Choose a mail.</p>{{end}}</article></main></body></html>`))

var urlRe = regexp.MustCompile(`https?://[^\s<>"']+`)

// links is a mail's text with its URLs made links (escaped otherwise).
func links(text string) template.HTML {
	var b strings.Builder
	last := 0
	for _, loc := range urlRe.FindAllStringIndex(text, -1) {
		b.WriteString(template.HTMLEscapeString(text[last:loc[0]]))
		u := template.HTMLEscapeString(text[loc[0]:loc[1]])
		b.WriteString(`<a href="` + u + `">` + u + `</a>`)
		last = loc[1]
	}
	b.WriteString(template.HTMLEscapeString(text[last:]))
	return template.HTML(b.String())
}

func (m *Mailbox) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet || r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	data := struct {
		List    []model.OutboxMessage
		Mail    *model.OutboxMessage
		Current string
	}{Current: r.URL.Query().Get("id")}
	m.mu.Lock()
	for i := len(m.mails) - 1; i >= 0; i-- {
		data.List = append(data.List, m.mails[i])
	}
	m.mu.Unlock()
	if data.Current == "" && len(data.List) > 0 {
		data.Current = data.List[0].ID
	}
	for i := range data.List {
		if data.List[i].ID == data.Current {
			data.Mail = &data.List[i]
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; img-src data: http: https:; frame-src 'self'")
	w.Header().Set("X-Frame-Options", "DENY")
	_ = boxPage.Execute(w, data)
}
