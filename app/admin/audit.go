package admin

import (
	"context"
	"encoding/json"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// AuditList is the answer of GET /admin/audit.
type AuditList struct {
	Entries []AuditJSON `json:"entries"`
	PageInfo
}

// ListAudit pages the audit log, newest first.
func (s *Service) ListAudit(ctx context.Context, action, targetID, search string, pg Page) (*AuditList, error) {
	es, total, err := s.st.audit(ctx, s.DB, action, targetID, search, pg)
	if err != nil {
		return nil, err
	}
	items, err := s.auditJSON(ctx, es)
	if err != nil {
		return nil, err
	}
	return &AuditList{Entries: items, PageInfo: pg.Info(total)}, nil
}

// auditJSON resolves actors and readable target labels in batches.
func (s *Service) auditJSON(ctx context.Context, es []model.AuditEntry) ([]AuditJSON, error) {
	out := make([]AuditJSON, 0, len(es))
	var userIDs, appIDs, badgeIDs []string
	for _, e := range es {
		if e.ActorID != nil {
			userIDs = append(userIDs, *e.ActorID)
		}
		switch e.TargetType {
		case "user":
			userIDs = append(userIDs, e.TargetID)
		case "application":
			appIDs = append(appIDs, e.TargetID)
		case "badge":
			badgeIDs = append(badgeIDs, e.TargetID)
		}
	}
	var apps []model.Application
	if len(appIDs) > 0 {
		if err := s.DB.NewSelect().Model(&apps).Where("id IN (?)", bun.List(appIDs)).Scan(ctx); err != nil {
			return nil, err
		}
	}
	appsByID := map[string]*model.Application{}
	for i := range apps {
		appsByID[apps[i].ID] = &apps[i]
		badgeIDs = append(badgeIDs, apps[i].BadgeID)
		userIDs = append(userIDs, apps[i].UserID)
	}
	users, err := s.st.usersByID(ctx, s.DB, userIDs)
	if err != nil {
		return nil, err
	}
	badges, err := s.st.badgesByID(ctx, s.DB, badgeIDs)
	if err != nil {
		return nil, err
	}
	for _, e := range es {
		j := AuditJSON{ID: e.ID, Action: e.Action, TargetType: e.TargetType, TargetID: e.TargetID,
			Before: rawJSON(e.Before), After: rawJSON(e.After), CreatedAt: e.CreatedAt.UTC()}
		if e.ActorID != nil {
			if u := users[*e.ActorID]; u != nil {
				j.Actor = &Ref{ID: u.ID, Name: u.Name, Email: u.Email}
			}
		}
		if j.Actor == nil && e.ActorEmail != "" {
			j.Actor = &Ref{Email: e.ActorEmail}
		}
		switch e.TargetType {
		case "user":
			if u := users[e.TargetID]; u != nil {
				j.TargetLabel = u.Name + " <" + u.Email + ">"
			}
		case "application":
			if a := appsByID[e.TargetID]; a != nil {
				label := "Application"
				if b := badges[a.BadgeID]; b != nil {
					label = b.Name
				}
				if u := users[a.UserID]; u != nil {
					label += " for " + u.Email
				}
				j.TargetLabel = label
			}
		case "badge":
			if b := badges[e.TargetID]; b != nil {
				j.TargetLabel = b.Name
			}
		}
		if j.TargetLabel == "" {
			// other features' targets (coupons, quizzes, questions) and deleted rows: the
			// snapshot's own name
			j.TargetLabel = labelFrom(e.After)
			if j.TargetLabel == "" {
				j.TargetLabel = labelFrom(e.Before)
			}
		}
		out = append(out, j)
	}
	return out, nil
}

// labelFrom names an audit snapshot by its first of name, code, title, text or email.
func labelFrom(snapshot string) string {
	var m map[string]any
	if json.Unmarshal([]byte(snapshot), &m) != nil {
		return ""
	}
	for _, k := range []string{"name", "code", "title", "text", "email"} {
		if v, ok := m[k].(string); ok && v != "" {
			if r := []rune(v); len(r) > 80 {
				return string(r[:80]) + "…"
			}
			return v
		}
	}
	return ""
}

func rawJSON(s string) json.RawMessage {
	if s == "" || !json.Valid([]byte(s)) {
		return json.RawMessage("null")
	}
	return json.RawMessage(s)
}
