// Package mail queues e-mail in the outbox table (inside the caller's transaction, so a
// message is sent exactly when its cause commits) and a worker delivers it: over SMTP when
// MERITMARK_SMTP_URL is set, otherwise to the log (the outbox keeps every message).
package mail

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"mime"
	"net"
	"net/mail"
	"net/smtp"
	"net/url"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Message is one e-mail.
type Message struct {
	To      string
	Subject string
	Text    string
	HTML    string
}

// Queue stores msg in the outbox through d (a transaction or the database).
func Queue(ctx context.Context, d bun.IDB, msg Message) error {
	_, err := d.NewInsert().Model(&model.OutboxMessage{
		ID: model.NewID(), To: msg.To, Subject: msg.Subject, BodyText: msg.Text, BodyHTML: msg.HTML,
		Status: "pending", CreatedAt: model.Now(),
	}).Exec(ctx)
	return err
}

// Sender delivers one message.
type Sender interface {
	Send(ctx context.Context, from string, m *model.OutboxMessage) error
}

// LogSender writes messages to the log (the default on a fresh machine).
type LogSender struct{}

func (LogSender) Send(_ context.Context, from string, m *model.OutboxMessage) error {
	slog.Info("mail (log outbox)", "to", m.To, "subject", m.Subject, "body", m.BodyText)
	return nil
}

// SMTPSender delivers over SMTP (STARTTLS when the server offers it; smtps:// for TLS).
type SMTPSender struct {
	URL *url.URL
}

// NewSMTP parses smtp://user:pass@host:port.
func NewSMTP(raw string) (*SMTPSender, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, err
	}
	return &SMTPSender{URL: u}, nil
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
		conn, err = tls.DialWithDialer(&dialer, "tcp", host, &tls.Config{ServerName: hostname})
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
	if ok, _ := c.Extension("STARTTLS"); ok && s.URL.Scheme == "smtp" {
		if err := c.StartTLS(&tls.Config{ServerName: hostname}); err != nil {
			return err
		}
	}
	if s.URL.User != nil {
		pass, _ := s.URL.User.Password()
		if ok, _ := c.Extension("AUTH"); ok {
			if err := c.Auth(smtp.PlainAuth("", s.URL.User.Username(), pass, hostname)); err != nil {
				return err
			}
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

// Render formats m as an RFC 5322 message (plain text, or multipart/alternative with HTML).
func Render(from string, m *model.OutboxMessage) []byte {
	var b strings.Builder
	b.WriteString("From: " + from + "\r\n")
	b.WriteString("To: " + m.To + "\r\n")
	b.WriteString("Subject: " + mime.QEncoding.Encode("utf-8", m.Subject) + "\r\n")
	b.WriteString("Date: " + time.Now().UTC().Format(time.RFC1123Z) + "\r\n")
	b.WriteString("Message-ID: <" + m.ID + "@meritmark>\r\n")
	b.WriteString("MIME-Version: 1.0\r\n")
	text := strings.ReplaceAll(m.BodyText, "\n", "\r\n")
	if m.BodyHTML == "" {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n")
		b.WriteString(text + "\r\n")
		return []byte(b.String())
	}
	const boundary = "mm-alt-boundary"
	b.WriteString("Content-Type: multipart/alternative; boundary=" + boundary + "\r\n\r\n")
	b.WriteString("--" + boundary + "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + text + "\r\n")
	b.WriteString("--" + boundary + "\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + strings.ReplaceAll(m.BodyHTML, "\n", "\r\n") + "\r\n")
	b.WriteString("--" + boundary + "--\r\n")
	return []byte(b.String())
}

// Worker delivers pending outbox messages.
type Worker struct {
	DB     *bun.DB
	Sender Sender
	From   string
	kick   chan struct{}
}

// NewWorker makes a worker.
func NewWorker(d *bun.DB, s Sender, from string) *Worker {
	return &Worker{DB: d, Sender: s, From: from, kick: make(chan struct{}, 1)}
}

// Kick asks the worker to look at the outbox now.
func (w *Worker) Kick() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// Run delivers until ctx ends, polling every interval and whenever kicked.
func (w *Worker) Run(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if _, err := w.Flush(ctx); err != nil && ctx.Err() == nil {
			slog.Warn("mail worker", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-w.kick:
		}
	}
}

// Flush sends every pending message once and reports how many were sent.
func (w *Worker) Flush(ctx context.Context) (int, error) {
	var msgs []model.OutboxMessage
	if err := w.DB.NewSelect().Model(&msgs).Where("status = 'pending'").Where("attempts < 5").
		Order("created_at").Limit(50).Scan(ctx); err != nil {
		return 0, err
	}
	sent := 0
	for i := range msgs {
		m := &msgs[i]
		// claim it, so two instances do not both send it
		res, err := w.DB.NewUpdate().Model((*model.OutboxMessage)(nil)).Set("status = 'sending'").Set("attempts = attempts + 1").
			Where("id = ? AND status = 'pending'", m.ID).Exec(ctx)
		if err != nil {
			return sent, err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			continue
		}
		if err := w.Sender.Send(ctx, w.From, m); err != nil {
			slog.Warn("mail send failed", "to", m.To, "err", err)
			_, _ = w.DB.NewUpdate().Model((*model.OutboxMessage)(nil)).Set("status = 'pending'").Set("last_error = ?", err.Error()).
				Where("id = ?", m.ID).Exec(ctx)
			continue
		}
		now := model.Now()
		_, _ = w.DB.NewUpdate().Model((*model.OutboxMessage)(nil)).Set("status = 'sent'").Set("sent_at = ?", now).Where("id = ?", m.ID).Exec(ctx)
		sent++
	}
	return sent, nil
}
