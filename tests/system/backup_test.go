package system

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"meritmark/app/model"
	"meritmark/db"
)

// TestBackupUnderWriteLoadRestores: `meritmark backup` runs while applicants keep
// submitting; the backup is restored into an empty data directory and a server started on
// it: the copy is consistent and holds every submission acknowledged before the backup
// began, a credential issued before still verifies (its signing key came along, so the
// downloaded JWT checks against the restored JWKS), and the admin signs in with the same
// password. Encrypted with a passphrase, as an operator should.
func TestBackupUnderWriteLoadRestores(t *testing.T) {
	if postgresMode() {
		t.Skip("meritmark backup copies the SQLite database; PostgreSQL is backed up with pg_dump (docs/deploy.md)")
	}
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"MERITMARK_DATA_DIR": st.DataDir})
	srv.waitReady(60 * time.Second)
	d := st.open(t)

	// a credential issued before the backup
	admin := addUser(t, d, "admin@backup.test", "admin-password-1", model.RoleAdmin)
	badge := addBadge(t, d, "Disaster Recovery", model.TypeProof, 2900)
	holder := addUser(t, d, "holder@backup.test", "", model.RoleUser)
	adminSession := signedIn(t, d, admin, srv).sessionCookie(srv)
	s := &stream{base: srv.URL, admin: adminSession, badge: badge, hc: &http.Client{Timeout: 30 * time.Second}}
	if err := s.advance(&member{user: holder, token: signedIn(t, d, holder, srv).sessionCookie(srv)}); err != nil || len(s.failures) > 0 {
		t.Fatalf("issue a credential: %v %v", err, s.failures)
	}
	var verificationID string
	if err := d.NewSelect().Table("badge_grants").Column("public_verification_id").Where("user_id = ?", holder.ID).Scan(context.Background(), &verificationID); err != nil {
		t.Fatal(err)
	}
	res, err := http.Get(srv.URL + "/credentials/" + verificationID + ".jwt")
	if err != nil {
		t.Fatal(err)
	}
	jwt, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || bytes.Count(jwt, []byte(".")) != 2 {
		t.Fatalf("the credential's JWT: %d %.80s", res.StatusCode, jwt)
	}

	// the write load: applicants submitting, four at a time
	var members []*member
	for i := 0; i < 400; i++ {
		u := addUser(t, d, fmt.Sprintf("load%d@backup.test", i), "", model.RoleUser)
		members = append(members, &member{user: u, token: signedIn(t, d, u, srv).sessionCookie(srv)})
	}
	var acked atomic.Int64
	var next atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	ackedBefore := make(chan int64, 1)
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				i := next.Add(1) - 1
				if i >= int64(len(members)) {
					return
				}
				m := members[i]
				var buf bytes.Buffer
				mw := multipart.NewWriter(&buf)
				_ = mw.WriteField("badgeId", badge.ID)
				_ = mw.WriteField("portfolio", "https://example.com/"+m.user.ID)
				part, _ := mw.CreateFormFile("proofFiles", "certificate.pdf")
				_, _ = part.Write(pdfFile)
				_ = mw.Close()
				if st, b, err := s.call("POST", "/backend/api/v1/applications", m.token, &buf, mw.FormDataContentType()); err != nil || st != http.StatusCreated {
					s.fail("submit %s: %d %s %v", m.user.Email, st, b, err)
					return
				}
				acked.Add(1)
			}
		}()
	}
	for acked.Load() < 20 { // the load is running
		time.Sleep(5 * time.Millisecond)
	}
	file := filepath.Join(t.TempDir(), "meritmark.backup")
	env := serverEnv(map[string]string{"MERITMARK_DATA_DIR": st.DataDir, "MERITMARK_BACKUP_PASSPHRASE": "correct horse battery staple"})
	ackedBefore <- acked.Load()
	start := time.Now()
	cmd := exec.Command(binary, "backup", file)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("backup: %v\n%s", err, out)
	}
	took := time.Since(start)
	duringBackup := acked.Load() - <-ackedBefore
	close(stop)
	wg.Wait()
	if len(s.failures) > 0 {
		t.Fatalf("the load failed: %v", s.failures[0])
	}
	before := acked.Load() - duringBackup
	fi, _ := os.Stat(file)
	t.Logf("backup: %d bytes in %s while %d submissions were acknowledged", fi.Size(), took.Round(time.Millisecond), duringBackup)
	if duringBackup == 0 {
		t.Log("no submission landed during the backup (a fast machine): the load ran before and after it")
	}

	// restore into an empty data directory, and serve from it
	srv.kill()
	restored := t.TempDir()
	start = time.Now()
	cmd = exec.Command(binary, "restore", file)
	cmd.Env = serverEnv(map[string]string{"MERITMARK_DATA_DIR": restored, "MERITMARK_BACKUP_PASSPHRASE": "correct horse battery staple"})
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("restore: %v\n%s", err, out)
	}
	t.Logf("restore: %s", time.Since(start).Round(time.Millisecond))
	rd, err := db.Open(context.Background(), "", restored)
	if err != nil {
		t.Fatal(err)
	}
	var check string
	if err := rd.NewRaw("PRAGMA integrity_check").Scan(context.Background(), &check); err != nil || check != "ok" {
		t.Fatalf("the restored database: %q %v", check, err)
	}
	if n := count(t, rd, "applications", "badge_id = ? AND user_id <> ?", badge.ID, holder.ID); int64(n) < before {
		t.Fatalf("the restored database has %d submissions; %d were acknowledged before the backup began", n, before)
	}
	rd.Close()

	again := launch(t, "restored", map[string]string{"MERITMARK_DATA_DIR": restored})
	again.waitReady(60 * time.Second)
	var out struct {
		IsValid bool `json:"isValid"`
	}
	res, err = http.Get(again.URL + "/backend/api/v1/verify/badge/" + verificationID)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if json.Unmarshal(raw, &out) != nil || !out.IsValid {
		t.Fatalf("the old credential after the restore: %d %s", res.StatusCode, raw)
	}
	// the downloaded JWT checks against the restored instance's keys
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	part, _ := mw.CreateFormFile("file", "credential.jwt")
	_, _ = part.Write(jwt)
	_ = mw.Close()
	req, _ := http.NewRequest("POST", again.URL+"/backend/api/v1/verify/file", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Origin", again.URL)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ = io.ReadAll(res.Body)
	res.Body.Close()
	out.IsValid = false
	if json.Unmarshal(raw, &out) != nil || !out.IsValid {
		t.Fatalf("the downloaded JWT after the restore: %d %s", res.StatusCode, raw)
	}
	b := newBrowser(t)
	b.on(again).Post("/auth/login", map[string]string{"email": "admin@backup.test", "password": "admin-password-1"}).Expect(http.StatusOK)
	b.on(again).Get("/auth/me").Expect(http.StatusOK)
}
