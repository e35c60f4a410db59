// Package backup writes and restores one file holding what a Meritmark instance needs to
// come back: a consistent copy of the SQLite database taken while the server runs (VACUUM
// INTO reads one snapshot; writers go on), the generated secrets and credential signing
// keys of the data directory, and the uploads when they are kept in it. It is a gzipped
// tar, encrypted with a passphrase (scrypt, AES-256-GCM in sealed chunks) when one is
// given; without one it holds the secrets in clear and its MANIFEST.json says so.
//
// On PostgreSQL the database is backed up with pg_dump (docs/deploy.md); the file then
// holds the secrets, keys and local uploads only.
package backup

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/db"
)

// Manifest describes a backup; it is the archive's first entry.
type Manifest struct {
	Format    int       `json:"format"`
	Version   string    `json:"version"` // of the server that wrote it
	CreatedAt time.Time `json:"createdAt"`
	Database  string    `json:"database"` // "sqlite", or "postgres" (not included)
	Encrypted bool      `json:"encrypted"`
	Warning   string    `json:"warning"`
	Files     []string  `json:"files"`
}

// dbName is the database's name inside the archive.
const dbName = "meritmark.db"

// dirs are the data directory's folders a backup carries (uploads only when local).
var dirs = []string{"secrets", "keys", "uploads"}

// Options say where the instance keeps its data.
type Options struct {
	DataDir    string
	SQLitePath string // "" on PostgreSQL
	Version    string
	Passphrase string // "" = not encrypted
}

// Create writes a backup of the instance to w (a consistent copy while it serves).
func Create(ctx context.Context, d *bun.DB, o Options, w io.Writer) (*Manifest, error) {
	m := &Manifest{Format: 1, Version: o.Version, CreatedAt: time.Now().UTC(), Database: string(db.EngineOf(d)), Encrypted: o.Passphrase != ""}
	m.Warning = "This file holds the instance's secrets and credential signing keys in clear: keep it like a password."
	if m.Encrypted {
		m.Warning = "Encrypted with a passphrase: without it nothing in this file can be read."
	}
	var snapshot string
	if o.SQLitePath != "" {
		tmp, err := os.MkdirTemp(filepath.Dir(o.SQLitePath), ".backup-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		snapshot = filepath.Join(tmp, dbName)
		if _, err := d.ExecContext(ctx, "VACUUM INTO ?", snapshot); err != nil {
			return nil, fmt.Errorf("copy the database: %w", err)
		}
		m.Files = append(m.Files, dbName)
	}
	var files []string // paths relative to the data dir
	for _, dir := range dirs {
		root := filepath.Join(o.DataDir, dir)
		err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return filepath.SkipDir
			}
			if err != nil {
				return err
			}
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				rel, _ := filepath.Rel(o.DataDir, p)
				files = append(files, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	m.Files = append(m.Files, files...)

	out := w
	var sealer io.WriteCloser
	if m.Encrypted {
		var err error
		if sealer, err = newSealer(w, o.Passphrase); err != nil {
			return nil, err
		}
		out = sealer
	}
	gz := gzip.NewWriter(out)
	tw := tar.NewWriter(gz)
	man, _ := json.MarshalIndent(m, "", "  ")
	if err := tw.WriteHeader(&tar.Header{Name: "MANIFEST.json", Mode: 0o600, Size: int64(len(man)), ModTime: m.CreatedAt}); err != nil {
		return nil, err
	}
	if _, err := tw.Write(man); err != nil {
		return nil, err
	}
	if snapshot != "" {
		if err := addFile(tw, snapshot, dbName); err != nil {
			return nil, err
		}
	}
	for _, rel := range files {
		if err := addFile(tw, filepath.Join(o.DataDir, filepath.FromSlash(rel)), rel); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := gz.Close(); err != nil {
		return nil, err
	}
	if sealer != nil {
		if err := sealer.Close(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func addFile(tw *tar.Writer, src, name string) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: st.Size(), ModTime: st.ModTime()}); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, st.Size())
	return err
}

// ErrNotEmpty refuses to restore over an existing database.
var ErrNotEmpty = errors.New("the data directory already has a database: restore into an empty one, or pass --force")

// Restore unpacks a backup from r into o.DataDir (the database to o.SQLitePath). It
// refuses to overwrite an existing database unless force. An encrypted backup needs
// o.Passphrase.
func Restore(r io.Reader, o Options, force bool) (*Manifest, error) {
	if o.SQLitePath != "" && !force {
		if _, err := os.Stat(o.SQLitePath); err == nil {
			return nil, ErrNotEmpty
		}
	}
	in, encrypted, err := sniff(r)
	if err != nil {
		return nil, err
	}
	if encrypted {
		if o.Passphrase == "" {
			return nil, errors.New("this backup is encrypted: give its passphrase (MERITMARK_BACKUP_PASSPHRASE)")
		}
		if in, err = newOpener(in, o.Passphrase); err != nil {
			return nil, err
		}
	}
	gz, err := gzip.NewReader(in)
	if err != nil {
		return nil, fmt.Errorf("not a Meritmark backup: %w", err)
	}
	tr := tar.NewReader(gz)
	var m *Manifest
	staged := map[string]string{} // archive name -> temporary file
	defer func() {
		for _, tmp := range staged {
			os.Remove(tmp)
		}
	}()
	if err := os.MkdirAll(o.DataDir, 0o700); err != nil {
		return nil, err
	}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read the backup: %w", err)
		}
		if h.Name == "MANIFEST.json" {
			m = &Manifest{}
			if err := json.NewDecoder(io.LimitReader(tr, 1<<20)).Decode(m); err != nil || m.Format != 1 {
				return nil, errors.New("not a Meritmark backup (its manifest is missing or of another format)")
			}
			continue
		}
		if m == nil {
			return nil, errors.New("not a Meritmark backup (no manifest first)")
		}
		dest, ok := target(h.Name, o)
		if !ok || h.Typeflag != tar.TypeReg {
			return nil, fmt.Errorf("the backup holds an unexpected entry %q", h.Name)
		}
		// written beside its place first: nothing is replaced until the whole file is read
		if err := os.MkdirAll(filepath.Dir(dest), 0o700); err != nil {
			return nil, err
		}
		f, err := os.CreateTemp(filepath.Dir(dest), ".restore-")
		if err != nil {
			return nil, err
		}
		staged[h.Name] = f.Name()
		if _, err := io.Copy(f, tr); err != nil {
			f.Close()
			return nil, fmt.Errorf("read %s: %w", h.Name, err)
		}
		if err := f.Close(); err != nil {
			return nil, err
		}
	}
	if m == nil {
		return nil, errors.New("not a Meritmark backup (empty)")
	}
	if m.Database == "sqlite" && o.SQLitePath == "" {
		return nil, errors.New("this backup holds a SQLite database, but this instance is configured for PostgreSQL")
	}
	for name, tmp := range staged {
		dest, _ := target(name, o)
		if name == dbName { // a server's leftover journal files would not match the copy
			os.Remove(dest + "-wal")
			os.Remove(dest + "-shm")
		}
		if err := os.Rename(tmp, dest); err != nil {
			return nil, err
		}
		delete(staged, name)
	}
	return m, nil
}

// target is where an archive entry goes, or false for a name no backup writes.
func target(name string, o Options) (string, bool) {
	if name == dbName {
		return o.SQLitePath, o.SQLitePath != ""
	}
	clean := path.Clean(name)
	if clean != name || strings.HasPrefix(clean, "../") || path.IsAbs(clean) {
		return "", false
	}
	top, _, _ := strings.Cut(clean, "/")
	for _, d := range dirs {
		if top == d && clean != d {
			return filepath.Join(o.DataDir, filepath.FromSlash(clean)), true
		}
	}
	return "", false
}
