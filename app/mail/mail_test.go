package mail_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/mail"
	"meritmark/app/mail/mailtest"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

const from = "Meritmark <no-reply@meritmark.example>"

func row(t *testing.T, w *mail.Worker, id string) model.OutboxMessage {
	t.Helper()
	var m model.OutboxMessage
	if err := w.DB.NewSelect().Model(&m).Where("id = ?", id).Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m
}

func queued(t *testing.T, w *mail.Worker, msg mail.Message) string {
	t.Helper()
	if err := mail.Queue(context.Background(), w.DB, msg); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := w.DB.NewSelect().Model((*model.OutboxMessage)(nil)).Column("id").Where("to_addr = ?", msg.To).
		Order("created_at DESC").Limit(1).Scan(context.Background(), &id); err != nil {
		t.Fatal(err)
	}
	return id
}

// A process killed between claiming a message and sending it: the message stays
// 'sending' under its lease; after the lease a new process delivers it, once, with the
// message's stable Message-ID, and the outbox keeps no body.
func TestMessageClaimedByACrashedProcessIsDeliveredOnceAfterRestart(t *testing.T) {
	ctx := context.Background()
	srv := mailtest.Start(t)
	d := apptest.OpenDB(t)
	dead := mail.NewWorker(d, srv.Sender(), from)
	id := queued(t, dead, mail.Message{To: "member@example.com", Subject: "Reset your Meritmark password",
		Text: "Open https://badges.example/reset-password?token=SECRET-TOKEN to reset.", HTML: "<p>token SECRET-TOKEN</p>"})

	claimed, err := dead.Claim(ctx, 10) // ...and the process dies here
	if err != nil || len(claimed) != 1 || claimed[0].ID != id {
		t.Fatalf("claim: %v %v", err, claimed)
	}
	if m := row(t, dead, id); m.Status != "sending" || m.Attempts != 1 || m.LeaseUntil == nil {
		t.Fatalf("claimed row: %+v", m)
	}

	now := time.Now()
	restarted := mail.NewWorker(d, srv.Sender(), from)
	restarted.Now = func() time.Time { return now }
	// within the lease the claim may still be sending: nothing is sent twice
	if n, err := restarted.Flush(ctx); n != 0 || err != nil {
		t.Fatalf("within the lease: sent %d, %v", n, err)
	}
	// after it, the message is claimed again and delivered
	now = now.Add(mail.DefaultLease + time.Second)
	if n, err := restarted.Flush(ctx); n != 1 || err != nil {
		t.Fatalf("after the lease: sent %d, %v", n, err)
	}
	now = now.Add(time.Hour)
	if n, err := restarted.Flush(ctx); n != 0 || err != nil {
		t.Fatalf("sent again: %d, %v", n, err)
	}
	got := srv.To("member@example.com")
	if len(got) != 1 {
		t.Fatalf("delivered %d times", len(got))
	}
	if mid := got[0].Header().Get("Message-ID"); mid != "<"+id+"@meritmark.example>" {
		t.Fatalf("Message-ID %q", mid)
	}
	if !strings.Contains(got[0].Text(), "SECRET-TOKEN") {
		t.Fatalf("text %q", got[0].Text())
	}
	m := row(t, restarted, id)
	apptest.Expect(t, "sent row keeps", m,
		apptest.Eq("m.Status", m.Status, "sent"),
		apptest.Eq("m.Attempts", m.Attempts, 2),
		apptest.True("m.SentAt != nil", m.SentAt != nil),
		apptest.Eq("m.BodyText", m.BodyText, ""),
		apptest.Eq("m.BodyHTML", m.BodyHTML, ""),
		apptest.True("m.LeaseUntil == nil", m.LeaseUntil == nil))
	// the crashed worker's late result cannot overwrite the new claim's
	if err := dead.Deliver(ctx, &claimed[0]); err != nil {
		t.Fatal(err)
	}
	m2 := row(t, restarted, id)
	apptest.Expect(t, "late result recorded", m2,
		apptest.Eq("m2.Status", m2.Status, "sent"),
		apptest.True("m2.SentAt != nil", m2.SentAt != nil))
	apptest.Expect(t, "late result recorded", m2,
		apptest.True("m2.SentAt.Equal(*m.SentAt)", m2.SentAt.Equal(*m.SentAt)))
}

// Several workers (instances) flushing the same outbox at once deliver every message
// exactly once.
func TestConcurrentWorkersDeliverEachMessageOnce(t *testing.T) {
	ctx := context.Background()
	srv := mailtest.Start(t)
	d := apptest.OpenDB(t)
	var ws []*mail.Worker
	for i := 0; i < 3; i++ {
		ws = append(ws, mail.NewWorker(d, srv.Sender(), from))
	}
	for i := 0; i < 6; i++ {
		queued(t, ws[0], mail.Message{To: "m" + string(rune('a'+i)) + "@example.com", Subject: "Hello", Text: "Hi"})
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	total := 0
	for _, w := range ws {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := w.Flush(ctx)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	if total != 6 || len(srv.Messages()) != 6 {
		t.Fatalf("sent %d, received %d, want 6", total, len(srv.Messages()))
	}
}

type failing struct{}

func (failing) Send(context.Context, string, *model.OutboxMessage) error {
	return context.DeadlineExceeded
}

func TestFailedSendsAreRetriedThenLeft(t *testing.T) {
	ctx := context.Background()
	d := apptest.OpenDB(t)
	w := mail.NewWorker(d, failing{}, from)
	id := queued(t, w, mail.Message{To: "x@example.com", Subject: "S", Text: "T"})
	for i := 1; i <= 5; i++ {
		if n, _ := w.Flush(ctx); n != 0 {
			t.Fatal("sent through a failing sender")
		}
		want := "pending"
		if i == 5 {
			want = "failed"
		}
		if m := row(t, w, id); m.Status != want || m.Attempts != i || m.LastError == "" || m.BodyText != "T" {
			t.Fatalf("attempt %d: %+v", i, m)
		}
	}
	if n, _ := w.Flush(ctx); n != 0 || row(t, w, id).Attempts != 5 {
		t.Fatal("a failed message was tried again")
	}
}

func TestRenderFoldsLinesAndUsesRandomBoundaries(t *testing.T) {
	long := strings.Repeat("word ", 50) + strings.Repeat("x", 5000) + "\nnext line ünïcödé"
	m := &model.OutboxMessage{ID: "0123abcd", To: "a@example.com", Subject: strings.Repeat("Ünïcödé subject ", 30), BodyText: long,
		BodyHTML: "<p>" + strings.Repeat("y", 3000) + "</p>"}
	a, b := mail.Render(from, m), mail.Render(from, m)
	for i, line := range bytes.Split(a, []byte("\r\n")) {
		if len(line) > 998 {
			t.Fatalf("line %d has %d octets", i, len(line))
		}
		if bytes.ContainsAny(line, "\r\n") {
			t.Fatalf("line %d has a bare CR or LF", i)
		}
	}
	boundary := func(raw []byte) string {
		s := string(raw)
		i := strings.Index(s, `boundary="`)
		if i < 0 {
			t.Fatalf("no boundary in %.300s", s)
		}
		s = s[i+len(`boundary="`):]
		return s[:strings.IndexByte(s, '"')]
	}
	if ba, bb := boundary(a), boundary(b); ba == bb || len(ba) < 20 {
		t.Fatalf("boundaries %q and %q", ba, bb)
	}
	got := mailtest.Message{Data: a}
	if strings.TrimSuffix(got.Text(), "\n") != long {
		t.Fatalf("text does not round-trip: %.200q", got.Text())
	}
	if got.Subject() != m.Subject {
		t.Fatalf("subject %q", got.Subject())
	}
	// plain text only
	m.BodyHTML = ""
	plain := mailtest.Message{Data: mail.Render(from, m)}
	apptest.Expect(t, "plain message", plain.Header(),
		apptest.True("strings.Contains(plain.Header().Get(\"Content-Transfer-Encoding\"), \"quoted-printable\")", strings.Contains(plain.Header().Get("Content-Transfer-Encoding"), "quoted-printable")),
		apptest.Eq("plain.HTML()", plain.HTML(), ""))
}
