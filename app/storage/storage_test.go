package storage

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"meritmark/app/storage/s3test"
)

// The same suite runs against every backend: the local folder always, and a real
// S3-compatible bucket (s3test.URL: versitygw under make test; CI fails rather than skip
// without one).

func TestLocalStore(t *testing.T) {
	s, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	runSuite(t, s, "")
}

func TestS3Store(t *testing.T) {
	raw := s3test.URL(t)
	s, err := NewS3(context.Background(), raw)
	if err != nil {
		t.Fatalf("connect to %s: %v", redactS3(raw), err)
	}
	// a folder of its own per run, so that runs do not see each other's objects
	root := "suite-" + s3test.RandHex(6) + "/"
	t.Cleanup(func() {
		keys, _ := s.List(context.Background(), root)
		for _, k := range keys {
			_ = s.Delete(context.Background(), k)
		}
	})
	runSuite(t, s, root)
}

func redactS3(raw string) string {
	e, _, _, b, _, _, _, err := ParseS3URL(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return "s3://" + e + "/" + b
}

func read(t *testing.T, s Store, key string) []byte {
	t.Helper()
	r, err := s.Open(context.Background(), key)
	if err != nil {
		t.Fatalf("open %s: %v", key, err)
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return b
}

// onlyReader hides Seek, so a backend cannot learn the length in advance.
type onlyReader struct{ io.Reader }

func runSuite(t *testing.T, s Store, root string) {
	ctx := context.Background()
	k := func(key string) string { return root + key }

	t.Run("put and open round-trip", func(t *testing.T) {
		data := []byte("%PDF-1.7 hello")
		if err := s.Put(ctx, k("rt/a.pdf"), bytes.NewReader(data), "application/pdf"); err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, k("rt/a.pdf")); !bytes.Equal(got, data) {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("put overwrites", func(t *testing.T) {
		_ = s.Put(ctx, k("ow/x.txt"), bytes.NewReader([]byte("first, longer")), "text/plain")
		if err := s.Put(ctx, k("ow/x.txt"), bytes.NewReader([]byte("second")), "text/plain"); err != nil {
			t.Fatal(err)
		}
		if got := read(t, s, k("ow/x.txt")); string(got) != "second" {
			t.Fatalf("got %q", got)
		}
	})

	t.Run("an opened file reads after its context is done", func(t *testing.T) {
		// a response streams the file after its handler returned and the request's
		// context was cancelled (S3 answered an empty body: issue 32)
		data := bytes.Repeat([]byte("%PDF-1.7 streamed "), 64<<10) // 1.1 MB: more than one read
		if err := s.Put(ctx, k("late/a.pdf"), bytes.NewReader(data), "application/pdf"); err != nil {
			t.Fatal(err)
		}
		octx, cancel := context.WithCancel(ctx)
		r, err := s.Open(octx, k("late/a.pdf"))
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		cancel()
		got, err := io.ReadAll(r)
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read after cancel: %d of %d bytes, err %v", len(got), len(data), err)
		}
	})

	t.Run("missing key is ErrNotFound", func(t *testing.T) {
		_, err := s.Open(ctx, k("nope/missing.pdf"))
		if !errors.Is(err, ErrNotFound) {
			t.Fatalf("err = %v, want ErrNotFound", err)
		}
	})

	t.Run("delete removes and is idempotent", func(t *testing.T) {
		_ = s.Put(ctx, k("del/x.png"), bytes.NewReader([]byte{1, 2, 3}), "image/png")
		if err := s.Delete(ctx, k("del/x.png")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Open(ctx, k("del/x.png")); !errors.Is(err, ErrNotFound) {
			t.Fatalf("after delete: %v", err)
		}
		if err := s.Delete(ctx, k("del/x.png")); err != nil {
			t.Fatalf("second delete: %v", err)
		}
	})

	t.Run("list by prefix", func(t *testing.T) {
		for _, key := range []string{"ls/a/1.pdf", "ls/a/2.pdf", "ls/b/1.pdf"} {
			if err := s.Put(ctx, k(key), bytes.NewReader([]byte(key)), "application/pdf"); err != nil {
				t.Fatal(err)
			}
		}
		got, err := s.List(ctx, k("ls/a/"))
		if err != nil {
			t.Fatal(err)
		}
		sort.Strings(got)
		want := []string{k("ls/a/1.pdf"), k("ls/a/2.pdf")}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("list = %v, want %v", got, want)
		}
		all, _ := s.List(ctx, k("ls/"))
		if len(all) != 3 {
			t.Fatalf("list ls/ = %v", all)
		}
	})

	t.Run("keys a client could craft are refused", func(t *testing.T) {
		for _, bad := range []string{"", "../escape.pdf", k("a/../../escape.pdf"), "/etc/passwd", k("UPPER.pdf"), k("sp ace.pdf"), k(`back\slash.pdf`)} {
			if err := s.Put(ctx, bad, bytes.NewReader([]byte("x")), ""); err == nil {
				t.Errorf("Put(%q) accepted", bad)
			}
			if _, err := s.Open(ctx, bad); !errors.Is(err, ErrNotFound) {
				t.Errorf("Open(%q) = %v, want ErrNotFound", bad, err)
			}
			if err := s.Delete(ctx, bad); err == nil {
				t.Errorf("Delete(%q) accepted", bad)
			}
		}
		all, _ := s.List(ctx, root)
		for _, key := range all {
			if !ValidKey(key) {
				t.Errorf("an invalid key was stored: %q", key)
			}
		}
	})

	t.Run("large file streamed without a known length", func(t *testing.T) {
		data := make([]byte, 12<<20+7)
		_, _ = rand.Read(data)
		if err := s.Put(ctx, k("big/blob.bin"), onlyReader{bytes.NewReader(data)}, "application/octet-stream"); err != nil {
			t.Fatal(err)
		}
		got := read(t, s, k("big/blob.bin"))
		if sha256.Sum256(got) != sha256.Sum256(data) {
			t.Fatalf("content differs (len %d vs %d)", len(got), len(data))
		}
	})

	t.Run("concurrent puts", func(t *testing.T) {
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				errs <- s.Put(ctx, k(fmt.Sprintf("cc/%d.pdf", i)), bytes.NewReader(bytes.Repeat([]byte{byte(i)}, 100_000)), "application/pdf")
			}(i)
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got, _ := s.List(ctx, k("cc/"))
		if len(got) != 8 {
			t.Fatalf("stored %d of 8", len(got))
		}
		for i := 0; i < 8; i++ {
			if b := read(t, s, k(fmt.Sprintf("cc/%d.pdf", i))); len(b) != 100_000 || b[0] != byte(i) {
				t.Fatalf("object %d corrupted", i)
			}
		}
	})
}

func TestParseS3URL(t *testing.T) {
	e, a, s, b, p, r, sec, err := ParseS3URL("s3://AKIA:se%2Fcret@127.0.0.1:9000/uploads?secure=false&region=eu-west-1")
	if err != nil {
		t.Fatal(err)
	}
	if e != "127.0.0.1:9000" || a != "AKIA" || s != "se/cret" || b != "uploads" || p != "" || r != "eu-west-1" || sec {
		t.Fatalf("got %q %q %q %q %q %q %v", e, a, s, b, p, r, sec)
	}
	_, _, _, b, p, _, sec, err = ParseS3URL("s3://k:s@s3.example.com/bucket/meritmark")
	if err != nil || b != "bucket" || p != "meritmark/" || !sec {
		t.Fatalf("prefix form: %q %q %v %v", b, p, sec, err)
	}
	for _, bad := range []string{"http://k:s@h/b", "s3://k:s@h:9000", "s3://k:s@h:9000/", "s3://k:s@h:port/b", "s3://k:s@h/b?secure=maybe", "s3://k:s@h/b/UP"} {
		if _, _, _, _, _, _, _, err := ParseS3URL(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// Uploads are this user's alone: files 0600 in 0700 folders.
func TestLocalFilesArePrivate(t *testing.T) {
	root := filepath.Join(t.TempDir(), "uploads")
	l, err := NewLocal(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Put(context.Background(), "applications/abc/proof.pdf", strings.NewReader("%PDF-1.4"), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{
		root: 0o700, filepath.Join(root, "applications"): 0o700, filepath.Join(root, "applications", "abc"): 0o700,
		filepath.Join(root, "applications", "abc", "proof.pdf"): 0o600,
	} {
		st, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != want {
			t.Errorf("%s is %04o, want %04o", p, st.Mode().Perm(), want)
		}
	}
}
