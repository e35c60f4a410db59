package app

import (
	"context"
	"log/slog"
	"time"

	"meritmark/app/model"
	"meritmark/db"
)

// checkSharedSecrets records the fingerprints of the secrets the instances of one
// database must share (db.SharedSecrets) when none is recorded yet, and logs an error
// naming the setting for each one this instance holds differently: behind a load
// balancer such instances refuse each other's wallet tokens, or two-step sign-in codes,
// at random. To rotate a secret on purpose, delete its row (`DELETE FROM
// secret_fingerprints WHERE name = '…'`) and restart every instance with the new value:
// the first to start records it (docs/deploy.md).
func (a *App) checkSharedSecrets() {
	cfg, d := a.Deps.Config, a.Deps.DB
	if cfg == nil || d == nil {
		return
	}
	values := map[string]string{}
	for _, s := range db.SharedSecrets {
		if v, err := cfg.Secret(nil, s.Name); err == nil {
			values[s.Name] = v
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	differ, err := db.RecordSecretFingerprints(ctx, d, values, model.Now())
	if err != nil {
		slog.Warn("shared secrets: cannot compare with the other instances", "err", err)
		return
	}
	for _, s := range differ {
		slog.Error("shared secret differs from the one the other instances of this database use",
			"setting", s.Setting, "breaks", s.Breaks,
			"fix", "set the same "+s.Setting+" on every instance; to rotate it on purpose, delete its row (DELETE FROM secret_fingerprints WHERE name = '"+s.Name+"') and restart every instance with the new value")
	}
}
