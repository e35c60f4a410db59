// Package mail queues e-mail in the outbox table (inside the caller's transaction, so a
// message is sent exactly when its cause commits) and a worker delivers it: over SMTP when
// MERITMARK_SMTP_URL is set, otherwise to the log (envelope only). A sent message keeps its
// envelope in the outbox, not its body; a claim lapses after a lease, so a crash between
// claiming and sending delays a message, never loses it.
package mail

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/smtp"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/metrics"
	"meritmark/app/model"
	"meritmark/app/outbox"
)

// Message is one e-mail.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
	// ID names the outbox row (empty: a new id); NotBefore holds the message back until
	// then (zero: send at once).
	ID        string
	NotBefore time.Time
}

// Queue stores msg in the outbox through d (a transaction or the database).
func Queue(ctx context.Context, d bun.IDB, msg Message) error {
	if r, ok := ctx.Value(recorderKey{}).(*Recorder); ok {
		r.To = append(r.To, msg.To)
	}
	id := msg.ID
	if id == "" {
		id = model.NewID()
	}
	row := &model.OutboxMessage{
		ID: id, To: msg.To, Subject: msg.Subject, BodyText: msg.Text, BodyHTML: msg.HTML,
		Status: "pending", CreatedAt: model.Now(),
	}
	if !msg.NotBefore.IsZero() {
		nb := msg.NotBefore.UTC()
		row.NotBefore = &nb
	}
	_, err := d.NewInsert().Model(row).Exec(ctx)
	return err
}

type recorderKey struct{}

// Recorder lists the addresses Queue queued mail to under a context of Record (the bulk
// actions' preview names who would be e-mailed).
type Recorder struct{ To []string }

// Record makes a context whose Queue calls are listed in the answered Recorder.
func Record(ctx context.Context) (context.Context, *Recorder) {
	r := &Recorder{}
	return context.WithValue(ctx, recorderKey{}, r), r
}

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, from string, m *model.OutboxMessage) error
}

// LogSender writes messages to the log (the default on a fresh machine): their
// envelope only. A body may hold a one-time link (a password reset), which must never
// reach a log; set MERITMARK_SMTP_URL (or run a local SMTP catcher) to read mail.
type LogSender struct{}

func (LogSender) Send(_ context.Context, from string, m *model.OutboxMessage) error {
	slog.Info("mail (log outbox; body not logged, set MERITMARK_SMTP_URL to deliver it)", "id", m.ID, "to", m.To, "subject", m.Subject)
	return nil
}

// SMTPSender delivers over SMTP. smtps:// speaks TLS from the start; smtp:// upgrades
// with STARTTLS whenever the server offers it, and insists on it (refusing to go on in
// clear) with ?tls=required or when the URL carries a password for a host that is not
// this machine. With a user in the URL it authenticates with AUTH PLAIN, or LOGIN when
// that is all the server offers; a server offering neither is refused rather than sent
// to unauthenticated.
type SMTPSender struct {
	URL *url.URL
	// TLSConfig, when set, is the base of the TLS configuration (tests trust their own
	// certificate with RootCAs); ServerName is always the URL's host.
	TLSConfig *tls.Config
}

// NewSMTP parses smtp://user:pass@host:port.
func NewSMTP(raw string) (*SMTPSender, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	return &SMTPSender{URL: u}, nil
}

func (s *SMTPSender) tlsConfig(hostname string) *tls.Config {
	c := &tls.Config{}
	if s.TLSConfig != nil {
		c = s.TLSConfig.Clone()
	}
	c.ServerName = hostname
	return c
}

// tlsRequired: STARTTLS is mandatory on smtp:// (see SMTPSender).
func (s *SMTPSender) tlsRequired(hostname string) bool {
	if s.URL.Query().Get("tls") == "required" {
		return true
	}
	_, hasPass := s.URL.User.Password()
	return hasPass && !isLoopback(hostname)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *SMTPSender) Send(ctx context.Context, from string, m *model.OutboxMessage) error {
	host := s.URL.Host
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(host, "25")
	}
	hostname, _, _ := net.SplitHostPort(host)
	dialer := net.Dialer{Timeout: 10 * time.Second}
	var conn net.Conn
	var err error
	if s.URL.Scheme == "smtps" {
		conn, err = tls.DialWithDialer(&dialer, "tcp", host, s.tlsConfig(hostname))
	} else {
		conn, err = dialer.DialContext(ctx, "tcp", host)
	}
	if err != nil {
		return err
	}
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	c, err := smtp.NewClient(conn, hostname)
	if err != nil {
		conn.Close()
		return err
	}
	defer c.Close()
	if s.URL.Scheme == "smtp" {
		if ok, _ := c.Extension("STARTTLS"); ok {
			if err := c.StartTLS(s.tlsConfig(hostname)); err != nil {
				return fmt.Errorf("smtp starttls: %w", err)
			}
		} else if s.tlsRequired(hostname) {
			return fmt.Errorf("smtp: %s does not offer STARTTLS and TLS is required (the password is never sent in clear)", host)
		}
	}
	if s.URL.User != nil && s.URL.User.Username() != "" {
		pass, _ := s.URL.User.Password()
		ok, mechs := c.Extension("AUTH")
		if !ok {
			return fmt.Errorf("smtp: %s offers no AUTH, and the URL has credentials", host)
		}
		var a smtp.Auth
		switch {
		case hasWord(mechs, "PLAIN"):
			a = smtp.PlainAuth("", s.URL.User.Username(), pass, hostname)
		case hasWord(mechs, "LOGIN"):
			a = &loginAuth{user: s.URL.User.Username(), pass: pass, host: hostname}
		default:
			return fmt.Errorf("smtp: %s offers AUTH %s, none of PLAIN and LOGIN", host, mechs)
		}
		if err := c.Auth(a); err != nil {
			return fmt.Errorf("smtp auth as %s: %w", s.URL.User.Username(), err)
		}
	}
	fromAddr, err := mail.ParseAddress(from)
	if err != nil {
		return fmt.Errorf("mail from: %w", err)
	}
	if err := c.Mail(fromAddr.Address); err != nil {
		return err
	}
	if err := c.Rcpt(m.To); err != nil {
		return err
	}
	w, err := c.Data()
	if err != nil {
		return err
	}
	if _, err := w.Write(Render(from, m)); err != nil {
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	return c.Quit()
}

func hasWord(list, word string) bool {
	for _, w := range strings.Fields(list) {
		if strings.EqualFold(w, word) {
			return true
		}
	}
	return false
}

// loginAuth is AUTH LOGIN (the user name and the password each in answer to a prompt),
// which some servers offer instead of PLAIN. Like net/smtp's PlainAuth it sends the
// password only over TLS or to this machine.
type loginAuth struct{ user, pass, host string }

func (a *loginAuth) Start(server *smtp.ServerInfo) (string, []byte, error) {
	if !server.TLS && !isLoopback(server.Name) {
		return "", nil, errors.New("unencrypted connection")
	}
	if server.Name != a.host {
		return "", nil, errors.New("wrong host name")
	}
	return "LOGIN", nil, nil
}

func (a *loginAuth) Next(fromServer []byte, more bool) ([]byte, error) {
	if !more {
		return nil, nil
	}
	switch strings.ToLower(strings.TrimSpace(string(fromServer))) {
	case "username:", "username":
		return []byte(a.user), nil
	case "password:", "password":
		return []byte(a.pass), nil
	}
	return nil, fmt.Errorf("unexpected AUTH LOGIN prompt %q", fromServer)
}

// Render formats m as an RFC 5322 message: plain text, or multipart/alternative with
// HTML under a random boundary; bodies in quoted-printable, so that no line is longer
// than 76 octets whatever the text (SMTP refuses lines over 998); the Subject encoded
// and folded. The Message-ID comes from the message's id, the same on every attempt, so
// a message delivered twice (a crash after the server accepted it, before the outbox
// recorded it) is one message to the receiving side.
func Render(from string, m *model.OutboxMessage) []byte {
	var b bytes.Buffer
	b.WriteString("From: " + from + "\r\n")
	b.WriteString("To: " + m.To + "\r\n")
	b.WriteString(foldHeader("Subject", mime.QEncoding.Encode("utf-8", m.Subject)))
	b.WriteString("Date: " + time.Now().UTC().Format(time.RFC1123Z) + "\r\n")
	b.WriteString("Message-ID: " + MessageID(from, m.ID) + "\r\n")
	b.WriteString("MIME-Version: 1.0\r\n")
	if m.BodyHTML == "" {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n")
		writeQP(&b, m.BodyText)
		return b.Bytes()
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body) // a random boundary: no body can contain it by chance
	for _, part := range []struct{ ctype, text string }{{"text/plain; charset=utf-8", m.BodyText}, {"text/html; charset=utf-8", m.BodyHTML}} {
		w, _ := mw.CreatePart(textproto.MIMEHeader{"Content-Type": {part.ctype}, "Content-Transfer-Encoding": {"quoted-printable"}})
		var qp bytes.Buffer
		writeQP(&qp, part.text)
		_, _ = w.Write(qp.Bytes())
	}
	_ = mw.Close()
	b.WriteString("Content-Type: multipart/alternative; boundary=\"" + mw.Boundary() + "\"\r\n\r\n")
	b.Write(body.Bytes())
	return b.Bytes()
}

// MessageID is the Message-ID of outbox message id sent from address from:
// <id@domain of from>.
func MessageID(from, id string) string {
	domain := "meritmark.invalid"
	if a, err := mail.ParseAddress(from); err == nil {
		if i := strings.LastIndexByte(a.Address, '@'); i >= 0 && i < len(a.Address)-1 {
			domain = a.Address[i+1:]
		}
	}
	return "<" + id + "@" + domain + ">"
}

// writeQP writes text quoted-printable with CRLF line ends, ending in CRLF.
func writeQP(b *bytes.Buffer, text string) {
	w := quotedprintable.NewWriter(b)
	_, _ = w.Write([]byte(strings.ReplaceAll(text, "\r\n", "\n")))
	_ = w.Close()
	b.WriteString("\r\n")
}

// foldHeader writes "Name: value" folded at spaces into lines of at most 78 octets where
// it can (RFC 5322 2.2.3); a single word longer than that is cut at 900 octets so that
// no line exceeds 998.
func foldHeader(name, value string) string {
	var b strings.Builder
	line := name + ":"
	for _, word := range strings.Fields(value) {
		if len(word) > 900 {
			word = word[:900]
		}
		if len(line)+1+len(word) > 78 && len(line) > len(name)+1 {
			b.WriteString(line + "\r\n")
			line = ""
		}
		line += " " + word
	}
	b.WriteString(line + "\r\n")
	return b.String()
}

// DefaultLease is how long a claimed message belongs to the worker that claimed it. A
// message still 'sending' after its lease (its process died, or hung, between claiming
// and recording the result) is claimed again. It outlasts the SMTP sender's own time
// limits (10 s to connect, 30 s for the conversation).
const DefaultLease = 2 * time.Minute

// maxAttempts is how often a message is tried before it is left 'failed'.
const maxAttempts = 5

// Worker delivers pending outbox messages (a queue of app/outbox).
type Worker struct {
	DB     *bun.DB
	Sender Sender
	From   string
	Lease  time.Duration    // 0 = DefaultLease
	Now    func() time.Time // nil = the clock
	// Metrics counts failed attempts (nil = not counted).
	Metrics *metrics.Metrics
	kick    outbox.Kicker
}

// NewWorker makes a worker.
func NewWorker(d *bun.DB, s Sender, from string) *Worker {
	return &Worker{DB: d, Sender: s, From: from, kick: outbox.NewKicker()}
}

func (w *Worker) now() time.Time {
	if w.Now != nil {
		return w.Now().UTC()
	}
	return model.Now()
}

func (w *Worker) lease() time.Duration {
	if w.Lease > 0 {
		return w.Lease
	}
	return DefaultLease
}

// Kick asks the worker to look at the outbox now.
func (w *Worker) Kick() { w.kick.Kick() }

// Run delivers until ctx ends, polling every interval and whenever kicked.
func (w *Worker) Run(ctx context.Context, interval time.Duration) {
	outbox.Loop(ctx, "mail worker", interval, w.kick, func(ctx context.Context) error {
		_, err := w.Flush(ctx)
		return err
	})
}

// claimable selects the messages a worker may claim at now: pending ones, and ones whose
// claim has lapsed, until their last attempt.
const claimable = "(status = 'pending' OR " + outbox.Lapsed + ") AND attempts < ? AND (not_before IS NULL OR not_before <= ?)"

// Claim takes up to limit deliverable messages for this worker: each is marked 'sending'
// with a lease until now + Lease in one conditional update, so of several workers (or
// instances) exactly one claims a message, and a claim left by a crash lapses.
func (w *Worker) Claim(ctx context.Context, limit int) ([]model.OutboxMessage, error) {
	now := w.now()
	until := now.Add(w.lease()).Truncate(time.Millisecond) // compared for equality: no precision a database drops
	claimed, err := outbox.Claim(ctx, w.DB, "outbox", claimable, []any{now, maxAttempts, now}, "created_at", limit, until,
		func(m *model.OutboxMessage) string { return m.ID })
	for i := range claimed {
		claimed[i].Status, claimed[i].Attempts, claimed[i].LeaseUntil = "sending", claimed[i].Attempts+1, &until
	}
	return claimed, err
}

// Deliver sends one claimed message and records the result, if the claim is still this
// worker's: sent (its body cleared: it may hold a one-time link), or back to pending
// with the error (failed after the last attempt).
func (w *Worker) Deliver(ctx context.Context, m *model.OutboxMessage) error {
	mine := func(q *bun.UpdateQuery) *bun.UpdateQuery {
		return q.Where("id = ? AND status = 'sending' AND lease_until = ?", m.ID, *m.LeaseUntil)
	}
	if err := w.Sender.Send(ctx, w.From, m); err != nil {
		slog.Warn("mail send failed", "id", m.ID, "to", m.To, "err", err)
		status := "pending"
		if m.Attempts >= maxAttempts {
			status = "failed"
		}
		w.Metrics.MailFailed(status == "failed")
		_, _ = mine(w.DB.NewUpdate().Model((*model.OutboxMessage)(nil)).Set("status = ?", status).Set("last_error = ?", err.Error()).
			Set("lease_until = NULL")).Exec(ctx)
		return err
	}
	_, err := mine(w.DB.NewUpdate().Model((*model.OutboxMessage)(nil)).Set("status = 'sent'").Set("sent_at = ?", w.now()).
		Set("body_text = ''").Set("body_html = ''").Set("lease_until = NULL")).Exec(ctx)
	return err
}

// Flush claims the deliverable messages and sends each once; it reports how many were
// sent.
func (w *Worker) Flush(ctx context.Context) (int, error) {
	msgs, err := w.Claim(ctx, 50)
	sent := 0
	for i := range msgs {
		if w.Deliver(ctx, &msgs[i]) == nil {
			sent++
		}
	}
	return sent, err
}
