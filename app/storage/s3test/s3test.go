// Package s3test gives tests a real S3-compatible bucket: the one MERITMARK_TEST_S3_URL
// names (s3://ACCESS:SECRET@HOST:PORT/BUCKET?secure=false), or else a versitygw server
// started from the binary MERITMARK_TEST_S3_SERVER names (`make test` builds it from the Go
// module proxy into .cache/bin). Under CI=true a test that needs a bucket fails rather
// than skip when neither is set.
package s3test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// URL is a bucket's s3:// URL for t (a server started for t, stopped when t ends), or
// skips t (fails it under CI) when there is no S3-compatible server to test against.
func URL(t testing.TB) string {
	t.Helper()
	if raw := os.Getenv("MERITMARK_TEST_S3_URL"); raw != "" {
		return raw
	}
	bin := os.Getenv("MERITMARK_TEST_S3_SERVER")
	switch {
	case bin != "":
		return Start(t, bin)
	case os.Getenv("CI") == "true":
		t.Fatal("CI runs this test on a real S3-compatible server: set MERITMARK_TEST_S3_SERVER to a versitygw binary (make test builds one) or MERITMARK_TEST_S3_URL to a bucket")
	default:
		t.Skip("no S3-compatible server to test against: make test builds versitygw and sets MERITMARK_TEST_S3_SERVER; or set MERITMARK_TEST_S3_URL=s3://ACCESS:SECRET@HOST:PORT/BUCKET?secure=false")
	}
	return ""
}

// Start runs the versitygw S3 gateway bin on a free loopback port with its POSIX backend
// in a temporary folder (objects are files there; metadata in a sidecar folder, since a
// temporary file system may lack extended attributes), makes a bucket and returns its URL.
// The server is stopped when the test ends.
func Start(t testing.TB, bin string) string {
	t.Helper()
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("MERITMARK_TEST_S3_SERVER=%s: %v (make test builds it: make .cache/bin/versitygw)", bin, err)
	}
	root, side := t.TempDir(), t.TempDir()
	const bucket = "meritmark-test"
	if err := os.Mkdir(filepath.Join(root, bucket), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	access, secret := "mm"+RandHex(6), RandHex(16)
	var out bytes.Buffer
	cmd := exec.Command(bin, "--quiet", "--port", addr, "posix", "--sidecar", side, root)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY="+access, "ROOT_SECRET_KEY="+secret)
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start versitygw: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("versitygw exited before listening: %v\n%s", err, out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("versitygw did not listen on %s within 15 s\n%s", addr, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	return "s3://" + access + ":" + secret + "@" + addr + "/" + bucket + "?secure=false"
}

// RandHex is n random bytes in hex.
func RandHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
