package system

import (
	"strings"
	"testing"
	"time"

	"meritmark/app/auth"
)

// Two instances of one database with different wallet (OAuth) secrets, as when each
// generates its own in its data dir: the first records the fingerprint, the second starts
// but logs an ERROR naming MERITMARK_SECRET_OAUTH_HMAC; the secret itself is never logged.
func TestInstanceWithAnotherSharedSecretLogsAnError(t *testing.T) {
	requirePostgres(t)
	st := &store{URL: newPostgresDB(t)}
	key := auth.NewToken()
	vars := func(secret string) map[string]string {
		return map[string]string{"DATABASE_URL": st.URL, "MERITMARK_DATA_DIR": t.TempDir(),
			"MERITMARK_SECRET_OAUTH_HMAC": secret, "MERITMARK_SECRET_KEY": key}
	}
	first, other := auth.NewToken(), auth.NewToken()
	a := launch(t, "A", vars(first))
	a.waitReady(60 * time.Second)
	b := launch(t, "B", vars(other))
	b.waitReady(60 * time.Second)
	if errs := a.logs.lines("level=ERROR"); len(errs) > 0 {
		t.Fatalf("the first instance logged errors:\n%s", strings.Join(errs, "\n"))
	}
	errs := b.logs.lines("level=ERROR", "setting=MERITMARK_SECRET_OAUTH_HMAC")
	if len(errs) != 1 || len(b.logs.lines("level=ERROR")) != 1 {
		t.Fatalf("the second instance's errors:\n%s", b.logs.tail(40))
	}
	if all := a.logs.String() + b.logs.String(); strings.Contains(all, other) || strings.Contains(all, first) {
		t.Fatal("a secret was logged")
	}
	// the same secrets again (a restart of A): no error
	c := launch(t, "A2", vars(first))
	c.waitReady(60 * time.Second)
	if errs := c.logs.lines("level=ERROR"); len(errs) > 0 {
		t.Fatalf("an instance with the recorded secrets logged errors:\n%s", strings.Join(errs, "\n"))
	}
}
