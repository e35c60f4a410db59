package system

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/storage/s3test"
	"meritmark/app/web"
)

// bigPDF is a proof document of n bytes that passes the upload's magic-number check.
func bigPDF(n int) []byte {
	line := []byte("%PDF stream 0123456789 abcdefghijklmnopqrstuvwxyz\n")
	b := bytes.Repeat(line, n/len(line)+1)
	copy(b, "%PDF-1.7\n")
	return b[:n]
}

// applicationForm is the multipart body of a proof application carrying doc.
func applicationForm(t *testing.T, badgeID string, doc []byte) ([]byte, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.WriteField("badgeId", badgeID)
	_ = w.WriteField("portfolio", "https://example.com/portfolio")
	part, err := w.CreateFormFile("proofFiles", "certificate.pdf")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = part.Write(doc)
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

// request builds a call to the API of in as the holder of token.
func request(t *testing.T, in *instance, method, path, token string, body io.Reader, ctype string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, in.URL+web.APIBase+path, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Origin", in.URL)
	req.Header.Set("Accept", "application/json")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	if token != "" {
		req.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
	}
	return req
}

// submitted posts a proof application with doc and answers the URL of its document.
func submitted(t *testing.T, in *instance, token, badgeID string, doc []byte) string {
	t.Helper()
	body, ctype := applicationForm(t, badgeID, doc)
	res, err := http.DefaultClient.Do(request(t, in, "POST", "/applications", token, bytes.NewReader(body), ctype))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Application struct {
			ProofFiles []struct {
				URL string `json:"url"`
			} `json:"proofFiles"`
		} `json:"application"`
	}
	raw, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusCreated || json.Unmarshal(raw, &out) != nil || len(out.Application.ProofFiles) != 1 {
		t.Fatalf("submit: %d %s", res.StatusCode, raw)
	}
	return out.Application.ProofFiles[0].URL
}

// download fetches a document URL (a path from the API) as the holder of token.
func download(t *testing.T, in *instance, url, token string) (int, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", in.URL+url, nil)
	req.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("download %s: %v", url, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatalf("download %s: %v after %d bytes", url, err, len(b))
	}
	return res.StatusCode, b
}

// TestDocumentDownloadOnS3: with uploads in an S3 bucket, the applicant and an admin
// download a proof document over HTTP, whole (an empty body was answered before: the object
// was read after the request's context had ended).
func TestDocumentDownloadOnS3(t *testing.T) {
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"DATABASE_URL": st.URL, "MERITMARK_DATA_DIR": st.DataDir,
		"MERITMARK_STORAGE_URL": s3test.URL(t)})
	srv.waitReady(60 * time.Second)
	d := st.open(t)
	member := addUser(t, d, "applicant@s3.test", "", model.RoleUser)
	admin := addUser(t, d, "admin@s3.test", "", model.RoleAdmin)
	badge := addBadge(t, d, "Cloud Storage", model.TypeProof, 1900)
	memberToken := signedIn(t, d, member, srv).sessionCookie(srv)
	adminToken := signedIn(t, d, admin, srv).sessionCookie(srv)

	doc := bigPDF(3 << 20)
	url := submitted(t, srv, memberToken, badge.ID, doc)
	for who, token := range map[string]string{"the applicant": memberToken, "an admin": adminToken} {
		status, got := download(t, srv, url, token)
		if status != http.StatusOK || !bytes.Equal(got, doc) {
			t.Fatalf("%s downloaded %d: %d of %d bytes", who, status, len(got), len(doc))
		}
	}
	other := addUser(t, d, "other@s3.test", "", model.RoleUser)
	if status, _ := download(t, srv, url, signedIn(t, d, other, srv).sessionCookie(srv)); status != http.StatusNotFound {
		t.Fatalf("another member's download answered %d, want 404", status)
	}
}

// slowBody is a request body written in chunks over about span; started is closed once
// the first chunk has gone out.
func slowBody(b []byte, chunks int, span time.Duration) (io.Reader, chan struct{}) {
	r, w := io.Pipe()
	started := make(chan struct{})
	go func() {
		size := (len(b) + chunks - 1) / chunks
		for i := 0; i < len(b); i += size {
			end := min(i+size, len(b))
			if _, err := w.Write(b[i:end]); err != nil {
				return
			}
			if i == 0 {
				close(started)
			}
			time.Sleep(span / time.Duration(chunks))
		}
		w.Close()
	}()
	return r, started
}

// TestSIGTERMDrainsRequestsInFlight: SIGTERM while a 3 MB download is being read, a 3 MB
// upload is being sent and a sign-in's body is still arriving: /readyz turns 503 at once,
// requests keep being served for the drain delay, every request in flight completes whole,
// then the listener closes and the process exits 0, logging the start and end of the drain.
// (Before: main returned as the listener closed; all were reset.)
func TestSIGTERMDrainsRequestsInFlight(t *testing.T) {
	st := newStore(t)
	srv := launch(t, "server", map[string]string{"DATABASE_URL": st.URL, "MERITMARK_DATA_DIR": st.DataDir,
		"MERITMARK_SHUTDOWN_DELAY": "1500ms", "MERITMARK_SHUTDOWN_TIMEOUT": "20s"})
	srv.waitReady(60 * time.Second)
	d := st.open(t)
	badge := addBadge(t, d, "Graceful Operations", model.TypeProof, 1900)
	reader := addUser(t, d, "reader@drain.test", "", model.RoleUser)
	uploader := addUser(t, d, "uploader@drain.test", "", model.RoleUser)
	addUser(t, d, "signin@drain.test", "a long sign-in password", model.RoleUser)
	readerToken := signedIn(t, d, reader, srv).sessionCookie(srv)
	uploaderToken := signedIn(t, d, uploader, srv).sessionCookie(srv)
	doc := bigPDF(3 << 20)
	url := submitted(t, srv, readerToken, badge.ID, doc)

	var wg sync.WaitGroup
	errs := make(chan string, 3)
	started := make(chan struct{}, 3)

	// a download read slowly: 64 KiB every 40 ms
	wg.Add(1)
	go func() {
		defer wg.Done()
		req, _ := http.NewRequest("GET", srv.URL+url, nil)
		req.AddCookie(&http.Cookie{Name: session.CookieName, Value: readerToken})
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			errs <- "download: " + err.Error()
			started <- struct{}{}
			return
		}
		defer res.Body.Close()
		var got bytes.Buffer
		buf := make([]byte, 64<<10)
		for {
			n, err := io.ReadFull(res.Body, buf)
			got.Write(buf[:n])
			if got.Len() == n {
				started <- struct{}{}
			}
			if err != nil {
				break
			}
			time.Sleep(40 * time.Millisecond)
		}
		if res.StatusCode != http.StatusOK || !bytes.Equal(got.Bytes(), doc) {
			errs <- fmt.Sprintf("download: %d, %d of %d bytes", res.StatusCode, got.Len(), len(doc))
		}
	}()

	// an upload whose body takes ~2 s to send
	wg.Add(1)
	go func() {
		defer wg.Done()
		body, ctype := applicationForm(t, badge.ID, doc)
		rd, first := slowBody(body, 40, 2*time.Second)
		req := request(t, srv, "POST", "/applications", uploaderToken, rd, ctype)
		req.ContentLength = int64(len(body))
		go func() { <-first; started <- struct{}{} }()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			errs <- "upload: " + err.Error()
			return
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusCreated {
			errs <- fmt.Sprintf("upload: %d %s", res.StatusCode, b)
		}
	}()

	// a sign-in whose body arrives over ~1 s
	wg.Add(1)
	go func() {
		defer wg.Done()
		body := []byte(`{"email":"signin@drain.test","password":"a long sign-in password"}`)
		rd, first := slowBody(body, 10, time.Second)
		req := request(t, srv, "POST", "/auth/login", "", rd, "application/json")
		req.ContentLength = int64(len(body))
		go func() { <-first; started <- struct{}{} }()
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			errs <- "sign-in: " + err.Error()
			return
		}
		defer res.Body.Close()
		if b, _ := io.ReadAll(res.Body); res.StatusCode != http.StatusOK {
			errs <- fmt.Sprintf("sign-in: %d %s", res.StatusCode, b)
		}
	}()

	for i := 0; i < 3; i++ {
		select {
		case <-started:
		case <-time.After(30 * time.Second):
			t.Fatal("the requests did not start")
		}
	}
	if err := srv.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	signalled := time.Now()

	// the load balancer's view: not ready at once, while the instance still answers
	deadline := time.Now().Add(time.Second)
	for {
		res, err := http.Get(srv.URL + "/readyz")
		if err != nil {
			t.Fatalf("/readyz during the drain delay: %v", err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusServiceUnavailable {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("/readyz still answered %d %s after SIGTERM", res.StatusCode, time.Since(signalled))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if res, err := http.Get(srv.URL + "/healthz"); err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("a new request during the drain delay: %v %v", res, err)
	} else {
		res.Body.Close()
	}

	wg.Wait()
	close(errs)
	var failed []string
	for e := range errs {
		failed = append(failed, e)
	}
	if len(failed) > 0 {
		t.Fatalf("requests in flight at SIGTERM did not complete:\n%s", strings.Join(failed, "\n"))
	}
	select {
	case <-srv.done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server had not exited 30 s after SIGTERM")
	}
	if code := srv.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("exit status %d after SIGTERM, want 0:\n%s", code, srv.logs.tail(20))
	}
	if len(srv.logs.lines("shutting down")) != 1 || len(srv.logs.lines("shut down: every accepted request finished")) != 1 {
		t.Fatalf("the drain's start and end are not logged:\n%s", srv.logs.tail(20))
	}
	if n := count(t, d, "applications", "user_id = ?", uploader.ID); n != 1 {
		t.Fatalf("the upload sent during the drain left %d applications, want 1", n)
	}
	if _, err := http.Get(srv.URL + "/healthz"); err == nil {
		t.Fatal("the server still accepts connections after it exited")
	}
}
