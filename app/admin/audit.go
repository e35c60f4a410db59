package admin

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// AuditList is the answer of GET /admin/audit.
type AuditList struct {
	Entries []AuditJSON `json:"entries"`
	PageInfo
}

// AuditSorts are the columns the audit log's table sorts by (newest first by default).
var AuditSorts = []SortCol{{"createdAt", "created_at"}, {"action", "action"}, {"targetType", "target_type"}}

// AuditCSVHeader is the audit export's first line (the snapshots stay in the log: they
// may hold what a spreadsheet should not).
var AuditCSVHeader = []string{"id", "time", "actor", "actor email", "action", "target type", "target", "target id"}

// ExportAudit is every entry the filter shows (all pages, in the table's order) as CSV.
func (s *Service) ExportAudit(ctx context.Context, action, targetID, search string, sort Sort) (*csvTable, error) {
	t := newCSV(AuditCSVHeader)
	for pg := (Page{Page: 1, Limit: exportChunk, Sort: sort, noCount: true}); pg.Offset() < MaxExportRows; pg.Page++ {
		es, _, err := s.st.audit(ctx, s.DB, action, targetID, search, pg)
		if err != nil {
			return nil, err
		}
		items, err := s.auditJSON(ctx, es)
		if err != nil {
			return nil, err
		}
		for _, e := range items {
			name, email := "", ""
			if e.Actor != nil {
				name, email = e.Actor.Name, e.Actor.Email
			}
			at := e.CreatedAt
			t.Row(e.ID, csvTime(&at), name, email, e.Action, e.TargetType, e.TargetLabel, e.TargetID)
		}
		if len(es) < pg.Limit {
			break
		}
	}
	return t, nil
}

// ListAudit pages the audit log, newest first unless pg sorts otherwise.
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

// KnownActions lists the actions the back office records (the audit filter offers each,
// with any other action the log holds).
var KnownActions = []string{
	"application.approve", "application.grant_free", "application.reject", "application.reject_undo",
	"grant.revoke", "grant.expiry",
	"user.update", "user.email_change_requested", "user.email_change_confirmed", "user.role_change", "user.profile_pic", "user.delete", "user.export", "user.password_reset_by_operator",
	"user.2fa_reset_by_operator", "user.disabled_by_operator", "user.enabled_by_operator", "sessions.flushed_by_operator",
	"badge.create", "badge.update", "badge.toggle", "badge.delete",
	"quiz.create", "quiz.update", "quiz.toggle", "quiz.add_question", "quiz.remove_question", "quiz.grant_attempt",
	"question.create", "question.update", "question.delete", "question.retire", "question.restore",
	"coupon.create", "coupon.update", "coupon.toggle", "coupon.delete", "coupon.free_grant",
	"award.create",
	"user.credential_name",
	"key.retire",
	"webhook.create", "webhook.update", "webhook.delete", "webhook.resend", "webhook.rotate_secret",
}

// AuditActions answers every action the filter offers: the known ones and any other the
// log holds, sorted.
func (s *Service) AuditActions(ctx context.Context) ([]string, error) {
	var held []string
	if err := s.DB.NewSelect().Model((*model.AuditEntry)(nil)).Distinct().Column("action").Scan(ctx, &held); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []string{}
	for _, a := range append(append([]string{}, KnownActions...), held...) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out, nil
}

// auditJSON resolves actors and readable target labels in batches.
func (s *Service) auditJSON(ctx context.Context, es []model.AuditEntry) ([]AuditJSON, error) {
	out := make([]AuditJSON, 0, len(es))
	var userIDs, appIDs, badgeIDs, grantIDs, quizIDs []string
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
		case "grant":
			grantIDs = append(grantIDs, e.TargetID)
		case "quiz":
			quizIDs = append(quizIDs, e.TargetID)
		}
	}
	var grants []model.BadgeGrant
	if len(grantIDs) > 0 {
		if err := s.DB.NewSelect().Model(&grants).Where("id IN (?)", bun.List(grantIDs)).Scan(ctx); err != nil {
			return nil, err
		}
	}
	grantsByID := map[string]*model.BadgeGrant{}
	for i := range grants {
		grantsByID[grants[i].ID] = &grants[i]
		badgeIDs = append(badgeIDs, grants[i].BadgeID)
		userIDs = append(userIDs, grants[i].UserID)
	}
	var quizzes []model.Quiz
	if len(quizIDs) > 0 {
		if err := s.DB.NewSelect().Model(&quizzes).Column("id", "title").Where("id IN (?)", bun.List(quizIDs)).Scan(ctx); err != nil {
			return nil, err
		}
	}
	quizTitles := map[string]string{}
	for _, q := range quizzes {
		quizTitles[q.ID] = q.Title
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
		case "grant":
			if g := grantsByID[e.TargetID]; g != nil {
				label := g.VerificationID
				if b := badges[g.BadgeID]; b != nil {
					label = b.Name + " (" + g.VerificationID + ")"
				}
				if u := users[g.UserID]; u != nil {
					label += " of " + u.Email
				}
				j.TargetLabel = label
			}
		case "quiz":
			j.TargetLabel = quizTitles[e.TargetID]
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
	for _, k := range []string{"name", "code", "title", "text", "email", "url", "verificationId"} {
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
