// Package mailtest is a real SMTP server for tests, in process: it speaks enough of
// RFC 5321 for net/smtp and mail.SMTPSender (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT),
// optionally STARTTLS (RFC 3207, with a self-signed certificate made for the test) and
// AUTH PLAIN and LOGIN (RFC 4954), and records every message it accepts.
//
//	srv := mailtest.Start(t)                                    // plain, no AUTH
//	srv := mailtest.StartWith(t, mailtest.Options{STARTTLS: true, User: "u", Password: "p"})
//	env := apptest.New(t, func(d *app.Deps) { d.Mailer = mail.NewWorker(d.DB, srv.Sender(), d.Config.MailFrom) })
//	... env.Deps.Mailer.Flush(ctx) ...
//	msg := srv.WaitFor(t, "someone@example.com")
package mailtest

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"io"
	"math/big"
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
	TLS  bool     // it came over a connection upgraded with STARTTLS
	User string   // the user the session authenticated as ("" = none)
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

// Options configure a server: STARTTLS and authentication.
type Options struct {
	// STARTTLS offers STARTTLS with a self-signed certificate for 127.0.0.1 made for
	// this server (CertPool trusts it); AUTH is then offered only after it.
	STARTTLS bool
	// User and Password, when User is set, make AUTH mandatory before MAIL.
	User, Password string
	// AuthMechanisms are the AUTH mechanisms offered (default PLAIN and LOGIN).
	AuthMechanisms []string
}

// Server is a running SMTP server.
type Server struct {
	ln    net.Listener
	opts  Options
	tls   *tls.Config // nil without STARTTLS
	pool  *x509.CertPool
	mu    sync.Mutex
	msgs  []Message
	auths []string // every AUTH attempt: "MECH user ok|fail"
	got   chan struct{}
	wg    sync.WaitGroup
}

// Start listens on a loopback port until the test ends: no TLS, no AUTH.
func Start(t testing.TB) *Server { return StartWith(t, Options{}) }

// StartWith starts a server with opts.
func StartWith(t testing.TB, opts Options) *Server {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if len(opts.AuthMechanisms) == 0 {
		opts.AuthMechanisms = []string{"PLAIN", "LOGIN"}
	}
	s := &Server{ln: ln, opts: opts, got: make(chan struct{}, 1)}
	if opts.STARTTLS {
		cert, pool, err := selfSigned()
		if err != nil {
			ln.Close()
			t.Fatal(err)
		}
		s.tls, s.pool = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, pool
	}
	s.wg.Add(1)
	go s.serve()
	t.Cleanup(s.Close)
	return s
}

// selfSigned makes a certificate for 127.0.0.1 and localhost, valid for a day, and a
// pool that trusts it.
func selfSigned() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(time.Now().UnixNano()), Subject: pkix.Name{CommonName: "mailtest"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true, IsCA: true,
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}

// CertPool trusts the server's certificate (nil without STARTTLS).
func (s *Server) CertPool() *x509.CertPool { return s.pool }

// AuthAttempts lists every AUTH attempt so far as "MECHANISM user ok" or "... fail".
func (s *Server) AuthAttempts() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.auths...)
}

// Addr is host:port.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// URL is smtp://host:port (what MERITMARK_SMTP_URL takes).
func (s *Server) URL() string { return "smtp://" + s.Addr() }

// Sender is a mail.SMTPSender delivering to this server, with its credentials (if any)
// and trusting its certificate (if any).
func (s *Server) Sender() *mm.SMTPSender {
	u := &url.URL{Scheme: "smtp", Host: s.Addr()}
	if s.opts.User != "" {
		u.User = url.UserPassword(s.opts.User, s.opts.Password)
	}
	snd := &mm.SMTPSender{URL: u}
	if s.pool != nil {
		snd.TLSConfig = &tls.Config{RootCAs: s.pool}
	}
	return snd
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
	defer func() { conn.Close() }()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	r := bufio.NewReader(conn)
	w := bufio.NewWriter(conn)
	reply := func(line string) {
		_, _ = w.WriteString(line + "\r\n")
		_ = w.Flush()
	}
	readLine := func() (string, bool) {
		line, err := r.ReadString('\n')
		return strings.TrimRight(line, "\r\n"), err == nil
	}
	reply("220 mailtest ESMTP ready")
	var cur Message
	secure, user := false, ""
	authOffered := func() bool { return s.opts.User != "" && (secure || s.tls == nil) }
	for {
		line, ok := readLine()
		if !ok {
			return
		}
		verb, arg, _ := strings.Cut(line, " ")
		switch strings.ToUpper(verb) {
		case "EHLO":
			reply("250-mailtest greets " + arg)
			if s.tls != nil && !secure {
				reply("250-STARTTLS")
			}
			if authOffered() {
				reply("250-AUTH " + strings.Join(s.opts.AuthMechanisms, " "))
			}
			reply("250-8BITMIME")
			reply("250 SIZE 26214400")
		case "HELO":
			reply("250 mailtest")
		case "STARTTLS":
			if s.tls == nil || secure {
				reply("502 command not implemented")
				continue
			}
			reply("220 2.0.0 ready to start TLS")
			tc := tls.Server(conn, s.tls)
			if err := tc.Handshake(); err != nil {
				return
			}
			conn, secure, user, cur = tc, true, "", Message{} // RFC 3207: the session starts over
			r, w = bufio.NewReader(tc), bufio.NewWriter(tc)
		case "AUTH":
			if !authOffered() {
				reply("503 5.5.1 AUTH not available")
				continue
			}
			if user != "" {
				reply("503 5.5.1 already authenticated")
				continue
			}
			mech, initial, _ := strings.Cut(arg, " ")
			mech = strings.ToUpper(mech)
			if !s.offers(mech) {
				reply("504 5.5.4 unrecognised authentication mechanism")
				continue
			}
			name, pass, ok := s.readCredentials(mech, initial, reply, readLine)
			if !ok {
				reply("501 5.5.2 malformed authentication exchange")
				continue
			}
			good := name == s.opts.User && pass == s.opts.Password
			s.mu.Lock()
			s.auths = append(s.auths, mech+" "+name+" "+map[bool]string{true: "ok", false: "fail"}[good])
			s.mu.Unlock()
			if !good {
				reply("535 5.7.8 authentication credentials invalid")
				continue
			}
			user = name
			reply("235 2.7.0 authentication successful")
		case "MAIL":
			if s.opts.User != "" && user == "" {
				reply("530 5.7.0 authentication required")
				continue
			}
			cur = Message{From: addrOf(arg, "FROM:"), TLS: secure, User: user}
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

func (s *Server) offers(mech string) bool {
	for _, m := range s.opts.AuthMechanisms {
		if strings.EqualFold(m, mech) {
			return true
		}
	}
	return false
}

// readCredentials runs the AUTH exchange of mech (PLAIN or LOGIN) and returns the user
// name and password the client sent.
func (s *Server) readCredentials(mech, initial string, reply func(string), readLine func() (string, bool)) (string, string, bool) {
	ask := func(prompt string) (string, bool) {
		reply("334 " + base64.StdEncoding.EncodeToString([]byte(prompt)))
		line, ok := readLine()
		if !ok || line == "*" {
			return "", false
		}
		b, err := base64.StdEncoding.DecodeString(line)
		return string(b), err == nil
	}
	switch mech {
	case "PLAIN":
		var resp string
		if initial != "" && initial != "=" {
			b, err := base64.StdEncoding.DecodeString(initial)
			if err != nil {
				return "", "", false
			}
			resp = string(b)
		} else {
			var ok bool
			if resp, ok = ask(""); !ok {
				return "", "", false
			}
		}
		parts := strings.Split(resp, "\x00") // authzid NUL authcid NUL password
		if len(parts) != 3 {
			return "", "", false
		}
		return parts[1], parts[2], true
	case "LOGIN":
		name, ok := "", true
		if initial != "" { // the user name as an initial response
			b, err := base64.StdEncoding.DecodeString(initial)
			name, ok = string(b), err == nil
		} else {
			name, ok = ask("Username:")
		}
		if !ok {
			return "", "", false
		}
		pass, ok := ask("Password:")
		return name, pass, ok
	}
	return "", "", false
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
