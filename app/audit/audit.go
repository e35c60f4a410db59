// Package audit writes the audit log (audit_log): one entry per admin change, written
// inside the change's own transaction so that the entry exists exactly when the change
// does. It is the only writer of audit entries.
package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// Write records that actor (nil for the system) did action to the target (targetType,
// targetID); before and after are the target's JSON views (nil is written as null). A
// view that cannot be marshalled is an error, so the caller's transaction rolls back
// instead of keeping a change with a blind entry.
func Write(ctx context.Context, db bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	b, err := json.Marshal(before)
	if err != nil {
		return fmt.Errorf("audit %s: before: %w", action, err)
	}
	a, err := json.Marshal(after)
	if err != nil {
		return fmt.Errorf("audit %s: after: %w", action, err)
	}
	if Unchanged(b, a) {
		return nil // a save that changed nothing is not an event
	}
	e := &model.AuditEntry{
		ID: model.NewID(), Action: action, TargetType: targetType, TargetID: targetID,
		Before: string(b), After: string(a), CreatedAt: model.Now(),
	}
	if b, ok := ctx.Value(batchKey{}).(string); ok && b != "" {
		e.BatchID = &b
	}
	if actor != nil {
		id := actor.ID
		e.ActorID = &id
		e.ActorEmail = actor.Email
	}
	_, err = db.NewInsert().Model(e).Exec(ctx)
	return err
}

type batchKey struct{}

// WithBatch marks the entries written under ctx as parts of the bulk action batchID (the
// admin's bulk actions and CSV awards: one entry per item, each carrying the batch).
func WithBatch(ctx context.Context, batchID string) context.Context {
	return context.WithValue(ctx, batchKey{}, batchID)
}

// Unchanged reports whether two snapshots are the same object, apart from the time it was
// last saved (updatedAt): a save that changed nothing. Entries without two object
// snapshots (creations, deletions, actions such as an export) always count.
func Unchanged(before, after []byte) bool {
	if len(before) == 0 || before[0] != '{' || len(after) == 0 || after[0] != '{' {
		return false
	}
	var b, a map[string]json.RawMessage
	if json.Unmarshal(before, &b) != nil || json.Unmarshal(after, &a) != nil {
		return false
	}
	for _, k := range []string{"updatedAt", "updated_at"} {
		delete(b, k)
		delete(a, k)
	}
	if len(b) != len(a) {
		return false
	}
	for k, v := range b {
		w, ok := a[k]
		if !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}
