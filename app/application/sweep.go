package application

import (
	"context"
	"encoding/hex"
	"log/slog"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/storage"
)

// SweepOrphans deletes uploaded application files that no record points to and that
// are older than olderThan (files written by a submission that crashed between storage
// and the database). Age comes from the generated file id in the key (model.NewID
// starts with the creation time), so it works the same on every storage backend; keys
// that are not application uploads are left alone. It answers how many were deleted.
func SweepOrphans(ctx context.Context, d bun.IDB, store storage.Store, olderThan time.Duration) (int, error) {
	keys, err := store.List(ctx, "applications/")
	if err != nil {
		return 0, err
	}
	cutoff := time.Now().Add(-olderThan)
	var old []string
	for _, k := range keys {
		created, ok := keyTime(k)
		if ok && created.Before(cutoff) {
			old = append(old, k)
		}
	}
	known, err := knownKeys(ctx, d, old)
	if err != nil {
		return 0, err
	}
	deleted := 0
	for _, k := range old {
		if known[k] {
			continue
		}
		if err := store.Delete(ctx, k); err != nil {
			return deleted, err
		}
		deleted++
	}
	if deleted > 0 {
		slog.Info("application: removed orphaned uploads", "count", deleted)
	}
	return deleted, nil
}

// keyTime reads the creation time out of applications/{appID}/{fileID}.{ext}.
func keyTime(key string) (time.Time, bool) {
	parts := strings.Split(key, "/")
	if len(parts) != 3 || parts[0] != "applications" || !model.ValidID(parts[1]) {
		return time.Time{}, false
	}
	id, _, _ := strings.Cut(parts[2], ".")
	if !model.ValidID(id) {
		return time.Time{}, false
	}
	b, err := hex.DecodeString(id[:8])
	if err != nil {
		return time.Time{}, false
	}
	sec := int64(b[0])<<24 | int64(b[1])<<16 | int64(b[2])<<8 | int64(b[3])
	return time.Unix(sec, 0), true
}
