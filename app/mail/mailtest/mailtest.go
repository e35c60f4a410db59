// Package mailtest is a real SMTP server for tests, in process: it speaks enough of
// RFC 5321 for net/smtp and mail.SMTPSender (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT)
// and records every message it accepts.
//
//	srv := mailtest.Start(t)
//	env := apptest.New(t, func(d *app.Deps) { d.Mailer = mail.NewWorker(d.DB, srv.Sender(), d.Config.MailFrom) })
//	... env.Deps.Mailer.Flush(ctx) ...
//	msg := srv.WaitFor(t, "someone@example.com")
package mailtest

import (
	"bufio"
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	mm "meritmark/app/mail"
)

// Message is one accepted message.
type Message struct {
	From string   // MAIL FROM
	To   []string // RCPT TO
	Data []byte   // the message as received (dot-stuffing undone)
}

// Header parses the message's header.
func (m Message) Header() mail.Header {
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		return mail.Header{}
	}
	return msg.Header
}

// Subject is the decoded Subject header.
func (m Message) Subject() string {
	s := m.Header().Get("Subject")
	if d, err := new(mime.WordDecoder).DecodeHeader(s); err == nil {
		return d
	}
	return s
}

// Text is the text/plain body (the text part of a multipart/alternative message).
func (m Message) Text() string { return m.part("text/plain") }

// HTML is the text/html part, if any.
func (m Message) HTML() string { return m.part("text/html") }

func (m Message) part(want string) string {
	msg, err := mail.ReadMessage(bytes.NewReader(m.Data))
	if err != nil {
		return ""
	}
	ct, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		ct = "text/plain"
	}
	if !strings.HasPrefix(ct, "multipart/") {
		if ct != want {
			return ""
		}
		return decode(msg.Header.Get("Content-Transfer-Encoding"), msg.Body)
	}
	r := multipart.NewReader(msg.Body, params["boundary"])
	for {
		p, err := r.NextRawPart()
		if err != nil {
			return ""
		}
		pct, _, _ := mime.ParseMediaType(p.Header.Get("Content-Type"))
		if pct == want {
			return decode(p.Header.Get("Content-Transfer-Encoding"), p)
		}
	}
}

func decode(cte string, r io.Reader) string {
	if strings.EqualFold(cte, "quoted-printable") {
		r = quotedprintable.NewReader(r)
	}
	b, _ := io.ReadAll(r)
	return strings.ReplaceAll(string(b), "\r\n", "\n")
}

// Server is a running SMTP server.
type Server struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []Message
	got  chan struct{}
	wg   sync.WaitGroup
}

// Start listens on a loopback port until the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{ln: ln, got: make(chan struct{}, 1)}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.Close)
	return s
}

// Addr is host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is smtp://host:port (what MERITMARK_SMTP_URL takes).
func (s *Server) URL() string { return "smtp://" + s.Addr() }

// Sender is a mail.SMTPSender delivering to this server.
func (s *Server) Sender() *mm.SMTPSender {
	return &mm.SMTPSender{URL: &url.URL{Scheme: "smtp", Host: s.Addr()}}
}

// Close stops the server.
func (s *Server) Close() {
	_ = s.ln.Close()
	s.wg.Wait()
}

// Messages returns a copy of what was received so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.msgs...)
}

// To returns the messages sent to addr.
func (s *Server) To(addr string) []Message {
	var out []Message
	for _, m := range s.Messages() {
		for _, r := range m.To {
			if strings.EqualFold(r, addr) {
				out = append(out, m)
				break
			}
		}
	}
	return out
}

// WaitFor waits up to 10 seconds for a message to addr and returns the latest one.
func (s *Server) WaitFor(t testing.TB, addr string) Message {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if ms := s.To(addr); len(ms) > 0 {
			return ms[len(ms)-1]
		}
		select {
		case <-s.got:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("mailtest: no message to %s within 10s (received %d)", addr, len(s.Messages()))
		}
	}
}

func (s *Server) serve() {
	defer s.wg.Done()
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.session(conn)
		}()
	}
}

func (s *Server) session(conn net.Conn) {
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	w := bufio.NewWriter(conn)
	reply := func(line string) {
		_, _ = w.WriteString(line + "\r\n")
		_ = w.Flush()
	}
	reply("220 mailtest ESMTP ready")
	var cur Message
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		line = strings.TrimRight(line, "\r\n")
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			reply("250-mailtest greets " + arg)
			reply("250-8BITMIME")
			reply("250 SIZE 26214400")
		case "HELO":
			reply("250 mailtest")
		case "MAIL":
			cur = Message{From: addrOf(arg, "FROM:")}
			reply("250 OK")
		case "RCPT":
			cur.To = append(cur.To, addrOf(arg, "TO:"))
			reply("250 OK")
		case "DATA":
			if len(cur.To) == 0 {
				reply("503 RCPT first")
				continue
			}
			reply("354 end with <CRLF>.<CRLF>")
			var data bytes.Buffer
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" || l == ".\n" {
					break
				}
				if strings.HasPrefix(l, "..") { // undo dot-stuffing
					l = l[1:]
				}
				data.WriteString(l)
			}
			cur.Data = data.Bytes()
			s.mu.Lock()
			s.msgs = append(s.msgs, cur)
			s.mu.Unlock()
			select {
			case s.got <- struct{}{}:
			default:
			}
			cur = Message{}
			reply("250 OK queued")
		case "RSET":
			cur = Message{}
			reply("250 OK")
		case "NOOP":
			reply("250 OK")
		case "QUIT":
			reply("221 bye")
			return
		default:
			reply("502 command not implemented")
		}
	}
}

// addrOf takes "FROM:<a@b> SIZE=…" and returns a@b.
func addrOf(arg, prefix string) string {
	arg = strings.TrimSpace(arg)
	if len(arg) >= len(prefix) && strings.EqualFold(arg[:len(prefix)], prefix) {
		arg = strings.TrimSpace(arg[len(prefix):])
	}
	if i := strings.IndexByte(arg, '>'); strings.HasPrefix(arg, "<") && i > 0 {
		return arg[1:i]
	}
	if f := strings.Fields(arg); len(f) > 0 {
		return f[0]
	}
	return arg
}
