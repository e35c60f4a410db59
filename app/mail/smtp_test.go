package mail_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/mail"
	"meritmark/app/mail/mailtest"
	"meritmark/app/model"
)

const (
	smtpUser     = "mailer"
	smtpPassword = "s3cret-Pa55word"
)

// deliverOne queues one message through a worker using snd, flushes once and returns the
// outbox row afterwards with how many were sent.
func deliverOne(t *testing.T, snd *mail.SMTPSender, to string) (model.OutboxMessage, int) {
	t.Helper()
	w := mail.NewWorker(apptest.OpenDB(t), snd, from)
	id := queued(t, w, mail.Message{To: to, Subject: "Your badge", Text: "Congratulations."})
	n, err := w.Flush(context.Background())
	if err != nil {
		t.Fatalf("flush: %v", err)
	}
	return row(t, w, id), n
}

// expectQueued fails unless the message is back in the queue (pending, one attempt)
// with an error containing want, and the error does not hold the password.
func expectQueued(t *testing.T, m model.OutboxMessage, sent int, want string) {
	t.Helper()
	if sent != 0 {
		t.Errorf("sent = %d, want 0", sent)
	}
	if m.Status != "pending" {
		t.Errorf("status = %q, want pending (the message stays queued)", m.Status)
	}
	if m.Attempts != 1 {
		t.Errorf("attempts = %d, want 1", m.Attempts)
	}
	if !strings.Contains(m.LastError, want) {
		t.Errorf("last_error = %q, want it to contain %q", m.LastError, want)
	}
	if strings.Contains(m.LastError, smtpPassword) {
		t.Errorf("last_error holds the password: %q", m.LastError)
	}
	if m.BodyText == "" {
		t.Errorf("the body of an unsent message was cleared")
	}
}

func TestSMTPSendsOverSTARTTLSWithAuth(t *testing.T) {
	for _, mech := range []string{"PLAIN", "LOGIN"} {
		t.Run(mech, func(t *testing.T) {
			srv := mailtest.StartWith(t, mailtest.Options{STARTTLS: true, User: smtpUser, Password: smtpPassword,
				AuthMechanisms: []string{mech}})
			m, sent := deliverOne(t, srv.Sender(), "member@example.com")
			if sent != 1 || m.Status != "sent" || m.LastError != "" {
				t.Fatalf("sent %d, status %q, last_error %q; want 1, sent, none", sent, m.Status, m.LastError)
			}
			got := srv.To("member@example.com")
			if len(got) != 1 {
				t.Fatalf("the server received %d messages, want 1", len(got))
			}
			if !got[0].TLS {
				t.Errorf("the message did not come over TLS")
			}
			if got[0].User != smtpUser {
				t.Errorf("authenticated as %q, want %q", got[0].User, smtpUser)
			}
			if want := []string{mech + " " + smtpUser + " ok"}; !slices.Equal(srv.AuthAttempts(), want) {
				t.Errorf("auth attempts %q, want %q", srv.AuthAttempts(), want)
			}
			if s := got[0].Subject(); s != "Your badge" {
				t.Errorf("subject %q", s)
			}
		})
	}
}

func TestSMTPWrongPasswordKeepsTheMessageQueued(t *testing.T) {
	srv := mailtest.StartWith(t, mailtest.Options{STARTTLS: true, User: smtpUser, Password: smtpPassword})
	snd := srv.Sender()
	snd.URL.User = url.UserPassword(smtpUser, "wrong-"+smtpPassword[:4])
	m, sent := deliverOne(t, snd, "member@example.com")
	expectQueued(t, m, sent, "535")
	if !strings.Contains(m.LastError, "smtp auth") {
		t.Errorf("last_error = %q does not say authentication failed", m.LastError)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("the server accepted %d messages", n)
	}
	if want := []string{"PLAIN " + smtpUser + " fail"}; !slices.Equal(srv.AuthAttempts(), want) {
		t.Errorf("auth attempts %q, want %q", srv.AuthAttempts(), want)
	}
}

func TestSMTPRefusesWithoutTLSWhenRequired(t *testing.T) {
	// the server offers AUTH in clear but no STARTTLS; the URL requires TLS
	srv := mailtest.StartWith(t, mailtest.Options{User: smtpUser, Password: smtpPassword})
	snd := srv.Sender()
	snd.URL.RawQuery = "tls=required"
	m, sent := deliverOne(t, snd, "member@example.com")
	expectQueued(t, m, sent, "does not offer STARTTLS")
	if a := srv.AuthAttempts(); len(a) != 0 {
		t.Errorf("credentials were sent in clear: %q", a)
	}
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("the server accepted %d messages", n)
	}
}

func TestSMTPRefusesAnUntrustedCertificate(t *testing.T) {
	srv := mailtest.StartWith(t, mailtest.Options{STARTTLS: true, User: smtpUser, Password: smtpPassword})
	snd := srv.Sender()
	snd.TLSConfig = nil // the system roots do not know the test's certificate
	m, sent := deliverOne(t, snd, "member@example.com")
	expectQueued(t, m, sent, "certificate")
	if a := srv.AuthAttempts(); len(a) != 0 {
		t.Errorf("credentials were sent over an untrusted connection: %q", a)
	}
}

func TestSMTPRefusesAServerWithoutAuthWhenGivenCredentials(t *testing.T) {
	srv := mailtest.StartWith(t, mailtest.Options{STARTTLS: true}) // no AUTH at all
	snd := srv.Sender()
	snd.URL.User = url.UserPassword(smtpUser, smtpPassword)
	m, sent := deliverOne(t, snd, "member@example.com")
	expectQueued(t, m, sent, "offers no AUTH")
	if n := len(srv.Messages()); n != 0 {
		t.Errorf("the server accepted %d messages unauthenticated", n)
	}
}
