package system

import (
	"context"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"meritmark/app/model"
)

// TestWebhookSurvivesKillDuringDelivery: the server is killed (kill -9) while a receiver
// holds a delivery's request unanswered. After the restart, once the delivery's claim has
// lapsed (here moved into the past instead of waiting its minute), the delivery is sent
// again with the same webhook-id and recorded as succeeded: retried, never lost, one
// delivery row.
func TestWebhookSurvivesKillDuringDelivery(t *testing.T) {
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"DATABASE_URL": st.URL, "MERITMARK_DATA_DIR": st.DataDir})
	srv.waitReady(60 * time.Second)
	d := st.open(t)
	admin := addUser(t, d, "admin@hooks.test", "", model.RoleAdmin)
	badge := addBadge(t, d, "Event Driven Design", model.TypeProof, 1900)

	var mu sync.Mutex
	var ids []string
	hold := make(chan struct{})
	got := make(chan struct{}, 4)
	recv := http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		ids = append(ids, r.Header.Get("webhook-id"))
		first := len(ids) == 1
		mu.Unlock()
		got <- struct{}{}
		if first {
			<-hold // the server dies while this request waits
			return
		}
		w.WriteHeader(http.StatusOK)
	})}
	addr := freeAddr(t)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = recv.Serve(ln) }()
	t.Cleanup(func() { close(hold); recv.Close() })

	c := signedIn(t, d, admin, srv).on(srv)
	c.Post("/admin/webhooks", map[string]any{"url": "http://" + addr + "/hook", "events": []string{"badge.changed"}}).Expect(http.StatusCreated)
	c.Patch("/badge-management/badges/"+badge.ID+"/toggle", nil).Expect(http.StatusOK)
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("no delivery reached the receiver")
	}
	srv.kill()
	var status string
	if err := d.NewSelect().Table("webhook_deliveries").Column("status").Scan(context.Background(), &status); err != nil || status != "sending" {
		t.Fatalf("after the kill the delivery is %q (%v), want sending", status, err)
	}
	// its claim lapses (a minute later, in production)
	if _, err := d.NewUpdate().Table("webhook_deliveries").Set("lease_until = ?", time.Now().Add(-time.Second).UTC()).Where("1 = 1").Exec(context.Background()); err != nil {
		t.Fatal(err)
	}
	srv.restart()
	srv.waitReady(60 * time.Second)
	select {
	case <-got:
	case <-time.After(20 * time.Second):
		t.Fatal("the delivery was lost: not sent again after the restart")
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var row struct {
			Status   string `bun:"status"`
			Attempts int    `bun:"attempts"`
		}
		if err := d.NewSelect().Table("webhook_deliveries").Column("status", "attempts").Scan(context.Background(), &row); err != nil {
			t.Fatal(err)
		}
		if row.Status == "succeeded" {
			if row.Attempts != 2 {
				t.Fatalf("succeeded after %d attempts, want 2", row.Attempts)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the delivery is %s after the retry", row.Status)
		}
		time.Sleep(50 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(ids) != 2 || ids[0] != ids[1] || ids[0] == "" {
		t.Fatalf("webhook-ids %v: want the same id twice", ids)
	}
	if n := count(t, d, "webhook_deliveries", "1 = 1"); n != 1 {
		t.Fatalf("%d delivery rows, want 1", n)
	}
}
