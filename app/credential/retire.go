package credential

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/audit"
	"meritmark/app/model"
	"meritmark/app/pagecache"
)

// SignedBy is a credential a key signed: its grant and public verification id.
type SignedBy struct {
	GrantID              string `bun:"id"`
	PublicVerificationID string `bun:"public_verification_id"`
	VerificationID       string `bun:"verification_id"`
}

// CredentialsSignedBy lists the grants whose stored credential (the VC-JWT, or the
// JSON-LD form's Data Integrity proof) any of kids signed, oldest first.
func CredentialsSignedBy(ctx context.Context, d bun.IDB, kids ...string) ([]SignedBy, error) {
	want := map[string]bool{}
	for _, k := range kids {
		want[KIDOf(k)] = true
	}
	var rows []struct {
		SignedBy
		CredentialJWT string `bun:"credential_jwt"`
		CredentialLD  string `bun:"credential_ld"`
	}
	err := d.NewRaw(`SELECT g.id, g.public_verification_id, g.verification_id, g.credential_jwt, COALESCE(gc.credential_ld, '') AS credential_ld
FROM badge_grants AS g LEFT JOIN badge_grant_credentials AS gc ON gc.grant_id = g.id
WHERE g.credential_jwt <> '' ORDER BY g.granted_at, g.id`).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	var out []SignedBy
	for _, r := range rows {
		signed := false
		if p, err := ParseJWT(r.CredentialJWT); err == nil && want[KIDOf(p.Header.Kid)] {
			signed = true
		}
		if !signed && r.CredentialLD != "" {
			var doc struct {
				Proof json.RawMessage `json:"proof"`
			}
			type proof struct {
				VerificationMethod string `json:"verificationMethod"`
			}
			var proofs []proof
			if json.Unmarshal([]byte(r.CredentialLD), &doc) == nil && json.Unmarshal(doc.Proof, &proofs) != nil {
				var one proof
				if json.Unmarshal(doc.Proof, &one) == nil {
					proofs = []proof{one}
				}
			}
			for _, p := range proofs {
				signed = signed || want[KIDOf(p.VerificationMethod)]
			}
		}
		if signed {
			out = append(out, r.SignedBy)
		}
	}
	return out, nil
}

// Messages of rotate-key --retire.
const (
	MsgRetireActive  = "%s is an active signing key: run `meritmark rotate-key` first (and restart the server so that it signs with the new keys), then retire it"
	MsgRetireUnknown = "no issuing key %s: the kids are listed at /.well-known/jwks.json and in `meritmark rotate-key`'s output"
)

// RetireKey runs `meritmark rotate-key --retire KID`: the key (an Ed25519 key retires the
// ES256 key once derived from its seed too) leaves the JWKS and the DID document of every
// instance (signing_keys.retired_at), its line leaves the data directory's key file, and
// the credentials it signed are listed: they no longer verify. An active signing key is
// refused: rotate first.
func RetireKey(ctx context.Context, d *bun.DB, dataDir, configured, kid string, out io.Writer) error {
	kid = KIDOf(strings.TrimSpace(kid))
	if kid == "" {
		return errors.New("usage: meritmark rotate-key --retire KID")
	}
	ring, err := LoadKeyring(dataDir, configured)
	if err != nil {
		return err
	}
	if kid == ring.Active().KID || kid == ring.ActiveES256().KID {
		return fmt.Errorf(MsgRetireActive, kid)
	}
	var row SigningKey
	if err := d.NewSelect().Model(&row).Where("kid = ?", kid).Scan(ctx); err != nil {
		return fmt.Errorf(MsgRetireUnknown, kid)
	}
	kids := []string{kid}
	kinds := []string{row.Alg}
	for _, k := range ring.Keys { // the seed of an Ed25519 key also gave a P-256 key
		if k.KID == kid && k.Companion != nil {
			kids, kinds = append(kids, k.Companion.KID), append(kinds, AlgES256+", derived from the same seed")
		}
	}
	signed, err := CredentialsSignedBy(ctx, d, kids...)
	if err != nil {
		return err
	}
	now := model.Now()
	retired := 0
	err = d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		for _, k := range kids {
			res, err := tx.NewUpdate().Model((*SigningKey)(nil)).Set("retired_at = ?", now).Where("kid = ? AND retired_at IS NULL", k).Exec(ctx)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue
			}
			retired++
			if err := audit.Write(ctx, tx, nil, "key.retire", "signing_key", k, map[string]any{"kid": k, "retired": false},
				map[string]any{"kid": k, "retired": true, "credentials": len(signed)}); err != nil {
				return err
			}
		}
		// the verify pages of every instance are built again
		return pagecache.Bump(ctx, tx, pagecache.Grants, pagecache.Keys)
	})
	if err != nil {
		return fmt.Errorf("retire key: %w", err)
	}
	if retired == 0 {
		fmt.Fprintf(out, "Key %s was already retired on %s.\n", kid, row.RetiredAt.UTC().Format("Jan 2, 2006"))
	} else {
		for i, k := range kids {
			fmt.Fprintf(out, "Retired key %s (%s): it is no longer in the JWKS or the DID document.\n", k, kinds[i])
		}
	}
	if strings.TrimSpace(configured) != "" {
		fmt.Fprintf(out, "Keys come from %s: remove the retired key from it, then restart.\n", EnvKeys)
	} else if err := dropKeyLine(dataDir, kid); err != nil {
		return err
	}
	switch len(signed) {
	case 0:
		fmt.Fprintln(out, "It signed no credential of this instance.")
	default:
		fmt.Fprintf(out, "It signed %d credential(s); they no longer verify (grant id, public verification id, verification id):\n", len(signed))
		for _, s := range signed {
			fmt.Fprintf(out, "  %s  %s  %s\n", s.GrantID, s.PublicVerificationID, s.VerificationID)
		}
	}
	return nil
}

// dropKeyLine removes the key kid from the data directory's key file (an Ed25519 seed or an
// es256: line; nothing when it is not there: another instance's key).
func dropKeyLine(dataDir, kid string) error {
	path := KeyFile(dataDir)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	lines := keyLines(string(b))
	kept := lines[:0:0]
	for _, line := range lines {
		var k *Key
		if secret, ok := strings.CutPrefix(line, ES256Prefix); ok {
			k, err = ES256KeyFromSecret(secret)
		} else {
			k, err = KeyFromSeed(line)
		}
		if err == nil && k.KID == kid {
			continue
		}
		kept = append(kept, line)
	}
	if len(kept) == len(lines) {
		return nil
	}
	return writeSeeds(path, kept, false)
}
