package backup_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app/backup"
	"meritmark/db"
)

// instance is a data directory with a SQLite database holding rows, a secret, a key
// and an upload.
func instance(t *testing.T) (string, backup.Options) {
	t.Helper()
	dir := t.TempDir()
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	if _, err := d.ExecContext(ctx, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)"); err != nil {
		t.Fatal(err)
	}
	if _, err := d.ExecContext(ctx, "INSERT INTO notes (body) VALUES ('kept'), ('also kept')"); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{"secrets/key": "k-0123456789abcdef", "keys/signing-keys": "seed", "uploads/ab/c.pdf": "%PDF-1.7"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir, backup.Options{DataDir: dir, SQLitePath: filepath.Join(dir, "meritmark.db"), Version: "test"}
}

func create(t *testing.T, o backup.Options) []byte {
	t.Helper()
	d, err := db.Open(context.Background(), "", o.DataDir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var buf bytes.Buffer
	m, err := backup.Create(context.Background(), d, o, &buf)
	if err != nil {
		t.Fatal(err)
	}
	if m.Database != "sqlite" || len(m.Files) != 4 {
		t.Fatalf("manifest: %+v", m)
	}
	return buf.Bytes()
}

func restoredNotes(t *testing.T, dir string) int {
	t.Helper()
	d, err := db.Open(context.Background(), "", dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var n int
	if err := d.NewSelect().Table("notes").ColumnExpr("count(*)").Scan(context.Background(), &n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRoundTrip(t *testing.T) {
	for _, pass := range []string{"", "correct horse battery staple"} {
		_, o := instance(t)
		o.Passphrase = pass
		b := create(t, o)
		if pass != "" && (bytes.Contains(b, []byte("k-0123456789abcdef")) || !bytes.HasPrefix(b, []byte("MERITMARK-BACKUP-ENC1\n"))) {
			t.Fatal("the encrypted backup is readable")
		}
		dir := t.TempDir()
		m, err := backup.Restore(bytes.NewReader(b), backup.Options{DataDir: dir, SQLitePath: filepath.Join(dir, "meritmark.db"), Passphrase: pass}, false)
		if err != nil {
			t.Fatalf("restore (passphrase %q): %v", pass, err)
		}
		if m.Encrypted != (pass != "") || restoredNotes(t, dir) != 2 {
			t.Fatalf("restored %+v", m)
		}
		for name, want := range map[string]string{"secrets/key": "k-0123456789abcdef", "keys/signing-keys": "seed", "uploads/ab/c.pdf": "%PDF-1.7"} {
			got, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil || string(got) != want {
				t.Fatalf("%s: %q %v", name, got, err)
			}
			if st, _ := os.Stat(filepath.Join(dir, name)); st.Mode().Perm() != 0o600 {
				t.Fatalf("%s restored %v", name, st.Mode())
			}
		}
		// over an existing database only with force
		if _, err := backup.Restore(bytes.NewReader(b), backup.Options{DataDir: dir, SQLitePath: filepath.Join(dir, "meritmark.db"), Passphrase: pass}, false); !errors.Is(err, backup.ErrNotEmpty) {
			t.Fatalf("restore over a database: %v", err)
		}
	}
}

func TestEncryptedBackupRefusesWrongOrDamaged(t *testing.T) {
	_, o := instance(t)
	o.Passphrase = "correct horse battery staple"
	b := create(t, o)
	restore := func(b []byte, pass string) error {
		dir := t.TempDir()
		_, err := backup.Restore(bytes.NewReader(b), backup.Options{DataDir: dir, SQLitePath: filepath.Join(dir, "meritmark.db"), Passphrase: pass}, false)
		if err != nil {
			if _, serr := os.Stat(filepath.Join(dir, "meritmark.db")); serr == nil {
				t.Fatal("a failed restore left a database behind")
			}
		}
		return err
	}
	if err := restore(b, ""); err == nil || !strings.Contains(err.Error(), "passphrase") {
		t.Fatalf("no passphrase: %v", err)
	}
	if err := restore(b, "wrong"); !errors.Is(err, backup.ErrPassphrase) {
		t.Fatalf("wrong passphrase: %v", err)
	}
	flipped := bytes.Clone(b)
	flipped[len(flipped)/2] ^= 1
	if err := restore(flipped, o.Passphrase); err == nil {
		t.Fatal("an altered backup restored")
	}
	if err := restore(b[:len(b)-100], o.Passphrase); err == nil {
		t.Fatal("a truncated backup restored")
	}
}

// A crafted archive cannot write outside the data directory's own folders.
func TestRestoreRefusesForeignEntries(t *testing.T) {
	for _, name := range []string{"../evil", "secrets/../../evil", "/etc/evil", "bin/meritmark"} {
		var buf bytes.Buffer
		gz := gzip.NewWriter(&buf)
		tw := tar.NewWriter(gz)
		man := []byte(`{"format":1,"database":"sqlite"}`)
		_ = tw.WriteHeader(&tar.Header{Name: "MANIFEST.json", Mode: 0o600, Size: int64(len(man))})
		_, _ = tw.Write(man)
		_ = tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: 1})
		_, _ = tw.Write([]byte("x"))
		_ = tw.Close()
		_ = gz.Close()
		dir := filepath.Join(t.TempDir(), "data")
		if _, err := backup.Restore(&buf, backup.Options{DataDir: dir, SQLitePath: filepath.Join(dir, "meritmark.db")}, false); err == nil {
			t.Fatalf("%q was restored", name)
		}
	}
}
