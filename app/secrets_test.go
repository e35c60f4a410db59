package app_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/db"
)

// The first instance of a database records a fingerprint of each shared secret (never
// the secret); a later instance compares with it.
func TestStartRecordsSharedSecretFingerprints(t *testing.T) {
	e := apptest.New(t)
	for _, s := range db.SharedSecrets {
		b, err := os.ReadFile(filepath.Join(e.DataDir, "secrets", s.Name))
		if err != nil {
			t.Fatal(err)
		}
		secret := strings.TrimSpace(string(b))
		var fp string
		if err := e.DB.NewSelect().Table("secret_fingerprints").Column("fingerprint").Where("name = ?", s.Name).Scan(e.Ctx(), &fp); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if fp != db.SecretFingerprint(secret) || len(fp) != 16 || strings.Contains(secret, fp) {
			t.Errorf("%s: recorded %q, want %q", s.Name, fp, db.SecretFingerprint(secret))
		}
		differ, err := db.CompareSecretFingerprints(e.Ctx(), e.DB, map[string]string{s.Name: secret + "x"})
		if err != nil || len(differ) != 1 || differ[0].Setting != s.Setting {
			t.Errorf("%s: another value: %v %v", s.Name, differ, err)
		}
	}
	if differ, err := db.RecordSecretFingerprints(e.Ctx(), e.DB, map[string]string{"oauth-hmac": "another"}, model.Now()); err != nil || len(differ) != 1 || differ[0].Setting != "MERITMARK_SECRET_OAUTH_HMAC" {
		t.Fatalf("a later instance with another secret: %v %v", differ, err)
	}
}
