package application_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/http/httpguts"

	"meritmark/app"
	"meritmark/app/application"
	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/storage"
	"meritmark/app/web"
)

// fuzzForm builds a multipart body (boundary FUZZ) with fields and files.
func fuzzForm(fields map[string]string, files ...apptest.File) []byte {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.SetBoundary("FUZZ")
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	for _, f := range files {
		h := textproto.MIMEHeader{}
		h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="%s"; filename="%s"`, f.Field, strings.ReplaceAll(f.Name, `"`, `\"`)))
		h.Set("Content-Type", f.ContentType)
		p, _ := w.CreatePart(h)
		_, _ = p.Write(f.Data)
	}
	_ = w.Close()
	return buf.Bytes()
}

// FuzzSubmitRequest sends whole POST /applications requests (any body, any Content-Type)
// through the running application: every answer is a deliberate one (201 or a 4xx with a
// message, never a 5xx), and an accepted application's files are stored under generated
// keys, with sanitized names, content matching their type, one row per stored file.
func FuzzSubmitRequest(f *testing.F) {
	var hour atomic.Int64
	e := apptest.New(f, func(d *app.Deps) {
		// every request in its own rate-limit window: the fuzzer explores validation, not the limit
		d.Limiter.Now = func() time.Time { return time.Unix(1_800_000_000+hour.Add(1)*3600, 0) }
	})
	now := model.Now()
	badge := &model.Badge{ID: model.NewID(), Name: "Proof", Category: "Design", Type: model.TypeProof, Level: "beginner",
		PriceCents: 4900, Icon: "Award", Color: "blue", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(badge).Exec(e.Ctx()); err != nil {
		f.Fatal(err)
	}
	u, c := e.Member("fuzz@x.io")
	u.Position, u.LinkedIn = "Engineer", "https://linkedin.com/in/fuzz"
	if _, err := e.DB.NewUpdate().Model(u).Column("position", "linkedin").WherePK().Exec(e.Ctx()); err != nil {
		f.Fatal(err)
	}
	const ctype = "multipart/form-data; boundary=FUZZ"
	base := map[string]string{"badgeId": badge.ID, "type": "proof", "description": "My work"}
	pdf := []byte("%PDF-1.7\n%%EOF\n")
	f.Add(ctype, fuzzForm(base, apptest.File{Field: "proofFiles", Name: "work.pdf", ContentType: "application/pdf", Data: pdf}))
	f.Add(ctype, fuzzForm(base, apptest.File{Field: "proofFiles[]", Name: "../../../etc/passwd.pdf", ContentType: "application/pdf", Data: pdf},
		apptest.File{Field: "proofFiles", Name: `"><img src=x onerror=alert(1)>.png`, ContentType: "image/png", Data: []byte("\x89PNG\r\n\x1a\nxxxx")}))
	f.Add(ctype, fuzzForm(map[string]string{"badgeId": badge.ID, "portfolio": "javascript:alert(1)"}))
	f.Add(ctype, fuzzForm(map[string]string{"badgeId": badge.ID, "portfolio": "https://ann.dev", "linkedin": "linkedin.com/in/ann"}))
	f.Add(ctype, fuzzForm(base, apptest.File{Field: "proofFiles", Name: "evil.exe.pdf", ContentType: "application/pdf", Data: []byte("MZ\x90\x00")}))
	f.Add(ctype, fuzzForm(base, apptest.File{Field: "resume", Name: "cv.docx", ContentType: "application/zip", Data: []byte("PK\x03\x04")}))
	f.Add(ctype, []byte("--FUZZ\r\nContent-Disposition: form-data; name=\"badgeId\"\r\n\r\n"+badge.ID+"\r\n--FUZZ"))
	f.Add("multipart/form-data", []byte("--x\r\n\r\n--x--"))
	f.Add("application/json", []byte(`{"badgeId":"`+badge.ID+`"}`))
	f.Add("multipart/form-data; boundary=\"\"", []byte("----\r\n"))

	f.Fuzz(func(t *testing.T, contentType string, body []byte) {
		if len(body) > 4<<20 || !httpguts.ValidHeaderFieldValue(contentType) {
			return // not something an HTTP client can send
		}
		req, _ := http.NewRequest("POST", e.URL+web.APIBase+"/applications", bytes.NewReader(body))
		req.Header.Set("Content-Type", contentType)
		req.Header.Set("Accept", "application/json")
		res, err := c.HTTP.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(res.Body)
		res.Body.Close()
		r := fuzzResp{Status: res.StatusCode, Body: raw}
		switch r.Status {
		case http.StatusCreated:
		case http.StatusBadRequest, http.StatusNotFound, http.StatusConflict, http.StatusRequestEntityTooLarge,
			http.StatusUnprocessableEntity, http.StatusUnsupportedMediaType:
			if r.Msg() == "" {
				t.Fatalf("%d without a message: %s", r.Status, r.Body)
			}
			return
		default:
			t.Fatalf("Content-Type %q: %d %s", contentType, r.Status, r.Body)
		}
		var out struct {
			Application struct {
				ID string `json:"_id"`
			} `json:"application"`
		}
		if err := json.Unmarshal(r.Body, &out); err != nil || !model.ValidID(out.Application.ID) {
			t.Fatalf("201 without an application: %s", r.Body)
		}
		var files []model.ApplicationFile
		if err := e.DB.NewSelect().Model(&files).Where("application_id = ?", out.Application.ID).Scan(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		for _, fl := range files {
			if !storage.ValidKey(fl.StorageKey) || !strings.HasPrefix(fl.StorageKey, "applications/"+out.Application.ID+"/") {
				t.Fatalf("file stored under %q", fl.StorageKey)
			}
			if application.SanitizeName(fl.OriginalName) != fl.OriginalName || strings.ContainsAny(fl.OriginalName, "/\\<>\"") {
				t.Fatalf("stored name %q is not sanitized", fl.OriginalName)
			}
			rc, err := e.Deps.Storage.Open(e.Ctx(), fl.StorageKey)
			if err != nil {
				t.Fatalf("row without its file %q: %v", fl.StorageKey, err)
			}
			data, _ := io.ReadAll(rc)
			rc.Close()
			typ, _ := application.TypeForName(fl.OriginalName)
			if int64(len(data)) != fl.Size || typ.ContentType != fl.ContentType {
				t.Fatalf("file %q: %d bytes stored for %d, type %s for %s", fl.OriginalName, len(data), fl.Size, fl.ContentType, typ.ContentType)
			}
			if _, ferr := application.CheckFile(fl.Kind, fl.OriginalName, int64(len(data)), bytes.NewReader(data)); ferr != nil {
				t.Fatalf("stored file %q fails its own check: %s", fl.OriginalName, ferr.Msg)
			}
			_ = e.Deps.Storage.Delete(e.Ctx(), fl.StorageKey)
		}
		// start over: the member may apply again
		if _, err := e.DB.NewDelete().Model((*model.ApplicationFile)(nil)).Where("application_id = ?", out.Application.ID).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewDelete().Model((*model.Application)(nil)).Where("id = ?", out.Application.ID).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	})
}

type fuzzResp struct {
	Status int
	Body   []byte
}

func (r fuzzResp) Msg() string {
	var m struct {
		Msg string `json:"msg"`
	}
	_ = json.Unmarshal(r.Body, &m)
	return m.Msg
}
