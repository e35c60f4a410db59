// Package bulk runs an admin action over many items (issue 37: bulk approve, reject, extra
// attempts, revoke, expiry; awards from a CSV): each item in its own transaction through
// the single-item service code, so the rules are never copied. A preview runs the same
// code in transactions that are rolled back (events.DryRun) and lists who would be
// e-mailed (mail.Record); a real run tags every audit entry with the batch id
// (audit.WithBatch).
package bulk

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"meritmark/app/audit"
	"meritmark/app/events"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
)

// Max is the most items one bulk call takes.
const Max = 500

// Messages.
const (
	MsgActionInvalid = "action must be one of: %s."
	MsgInternal      = "This item could not be changed because of a server error. Try again."
)

// Result is one item's outcome: ok, or why it was (or would be) skipped.
type Result struct {
	ID      string   `json:"id"`
	OK      bool     `json:"ok"`
	Msg     string   `json:"msg"`
	Label   string   `json:"label,omitempty"`     // what the item is, for the dialog
	Already bool     `json:"unchanged,omitempty"` // ok because it already was so (a retry): nothing changed
	Emailed []string `json:"emailed"`             // the addresses mailed (or that would be)
}

// Counts sums the results.
type Counts struct {
	Total     int `json:"total"`
	OK        int `json:"ok"`
	Skipped   int `json:"skipped"`
	Unchanged int `json:"unchanged"`
	Emailed   int `json:"emailed"`
}

// Answer is the answer of a bulk call: {results, batchId, preview, counts}.
type Answer struct {
	BatchID string   `json:"batchId,omitempty"` // none for a preview: nothing was written
	Preview bool     `json:"preview"`
	Results []Result `json:"results"`
	Counts  Counts   `json:"counts"`
}

// IDs cleans the ids of a request: trimmed, each once in the order given; none or more
// than Max is a 400 naming noun (the plural, "applications").
func IDs(ids []string, noun string) ([]string, error) {
	seen := map[string]bool{}
	out := make([]string, 0, len(ids))
	for _, id := range ids {
		id = strings.TrimSpace(id)
		if id == "" || seen[id] {
			continue
		}
		seen[id] = true
		out = append(out, id)
	}
	if len(out) == 0 {
		return nil, web.BadRequest(fmt.Sprintf("Select at least one of the %s.", noun))
	}
	if len(out) > Max {
		return nil, web.BadRequest(TooMany(len(out), noun))
	}
	return out, nil
}

// TooMany is the 400 message for n items above Max.
func TooMany(n int, noun string) string {
	return fmt.Sprintf("At most %d %s at a time (%d selected). Narrow the selection or the filter.", Max, noun, n)
}

// Unchanged is a step's answer when the item already is as the action would make it (a
// retry): ok, and nothing was written.
type Unchanged struct{ Msg string }

func (u *Unchanged) Error() string { return u.Msg }

// Outcome is what a step says about an item that succeeded: Done after a real run,
// Will in a preview.
type Outcome struct {
	Label string
	Done  string
	Will  string
}

// Step runs the action on one item through the single-item service code, with ctx (a
// DryRun context in a preview). It answers what the item is and what was done.
type Step func(ctx context.Context, id string) (Outcome, error)

// Run runs step over ids one by one, each in its own transaction (all-or-nothing per
// item); a preview rolls every one back. The batch id tags the audit entries.
func Run(ctx context.Context, ids []string, preview bool, step Step) Answer {
	ans := Answer{Preview: preview, Results: make([]Result, 0, len(ids))}
	if !preview {
		ans.BatchID = model.NewID()
	}
	for _, id := range ids {
		ictx := ctx
		if preview {
			ictx = events.DryRun(ictx)
		} else {
			ictx = audit.WithBatch(ictx, ans.BatchID)
		}
		ictx, rec := mail.Record(ictx)
		out, err := step(ictx, id)
		r := Result{ID: id, Label: out.Label, Emailed: []string{}}
		var un *Unchanged
		var we *web.Error
		switch {
		case err == nil || errors.Is(err, events.ErrDryRun):
			r.OK, r.Msg, r.Emailed = true, out.Done, append(r.Emailed, rec.To...)
			if preview {
				r.Msg = out.Will
			}
		case errors.As(err, &un):
			r.OK, r.Already, r.Msg = true, true, un.Msg
		case errors.As(err, &we) && we.Status < 500:
			r.Msg = we.Msg
		default:
			slog.ErrorContext(ctx, "bulk: an item failed", "id", id, "err", err)
			r.Msg = MsgInternal
		}
		ans.add(r)
	}
	return ans
}

func (a *Answer) add(r Result) {
	a.Results = append(a.Results, r)
	a.Counts.Total++
	switch {
	case r.Already:
		a.Counts.OK++
		a.Counts.Unchanged++
	case r.OK:
		a.Counts.OK++
	default:
		a.Counts.Skipped++
	}
	a.Counts.Emailed += len(r.Emailed)
}

// Add appends a result made without a step (CSV rows refused before any transaction).
func (a *Answer) Add(r Result) {
	if r.Emailed == nil {
		r.Emailed = []string{}
	}
	a.add(r)
}
