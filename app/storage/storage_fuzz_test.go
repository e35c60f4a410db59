package storage

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzValidKey: a key ValidKey accepts names a file strictly inside the storage folder
// (never the folder itself, never outside it), on the local disk and in a bucket folder.
func FuzzValidKey(f *testing.F) {
	for _, k := range []string{"applications/0123/abcd.pdf", "avatars/x.png", "", ".", "./", "a/.", "a//b", "a/./b",
		"../escape", "a/../../b", "/etc/passwd", "a\\b", "a/b/", "...", ".hidden", "UPPER", "a b", "a%2e%2e/b", "a/\x00"} {
		f.Add(k)
	}
	dir := filepath.Join(string(filepath.Separator), "srv", "uploads")
	f.Fuzz(func(t *testing.T, key string) {
		if !ValidKey(key) {
			if _, err := (&Local{Dir: dir}).path(key); err == nil {
				t.Fatalf("Local.path accepted a key ValidKey refuses: %q", key)
			}
			return
		}
		p, err := (&Local{Dir: dir}).path(key)
		if err != nil {
			t.Fatalf("Local.path refused a valid key %q: %v", key, err)
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			t.Fatalf("key %q resolves to %q: not strictly inside %q", key, p, dir)
		}
		if filepath.ToSlash(rel) != key {
			t.Fatalf("key %q resolves to %q: the path is not the key itself", key, rel)
		}
		// in a bucket the key is appended to a folder prefix: it must stay below it
		if strings.HasPrefix(key, "/") || strings.Contains(key, "//") || strings.Contains(key, "\\") {
			t.Fatalf("key %q could leave its bucket folder", key)
		}
	})
}

// FuzzParseS3URL: a storage URL either is refused with a message or gives a bucket and a
// folder prefix that keys cannot leave.
func FuzzParseS3URL(f *testing.F) {
	for _, u := range []string{"s3://AK:SK@minio:9000/bucket", "s3://AK:SK@minio:9000/bucket/folder/sub?secure=false&region=eu",
		"s3://minio:9000", "s3://AK:SK@minio/bucket", "s3://AK:SK@minio:x/bucket", "s3://AK:SK@minio:9000/bucket/../x",
		"s3://AK:SK@minio:9000/bucket/a//b", "http://minio:9000/bucket", "s3://AK:SK@[::1]:9000/b", "s3://%zz"} {
		f.Add(u)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		endpoint, _, _, bucket, prefix, _, _, err := ParseS3URL(raw)
		if err != nil {
			return
		}
		if bucket == "" || strings.Contains(bucket, "/") {
			t.Fatalf("%q: bucket %q", raw, bucket)
		}
		if endpoint == "" {
			t.Fatalf("%q: no endpoint", raw)
		}
		if prefix != "" && (!strings.HasSuffix(prefix, "/") || !ValidKey(strings.TrimSuffix(prefix, "/"))) {
			t.Fatalf("%q: folder prefix %q", raw, prefix)
		}
	})
}
