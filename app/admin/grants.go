package admin

import (
	"context"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/web"
)

// Grant status filters of GET /admin/grants.
const (
	GrantActive  = "active"
	GrantRevoked = "revoked"
	GrantExpired = "expired"
)

// MsgBadGrantStatus answers an unknown grant status filter.
const MsgBadGrantStatus = "status must be active, revoked, expired or all."

// GrantSorts are the columns the grants table sorts by.
var GrantSorts = []SortCol{{"grantedAt", "granted_at"}, {"verificationId", "verification_id"}}

// GrantListItem is one row of the grants table.
type GrantListItem struct {
	ID                   string     `json:"_id"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	Status               string     `json:"status"` // active, revoked or expired
	Holder               *Ref       `json:"holder"`
	Badge                *Ref       `json:"badge"`
	ApplicationID        *string    `json:"applicationId"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason"`
}

// GrantList is the answer of GET /admin/grants.
type GrantList struct {
	Grants []GrantListItem `json:"grants"`
	PageInfo
}

// grantListRow is what the list reads of a grant (not its credential).
type grantListRow struct {
	bun.BaseModel `bun:"table:badge_grants,alias:g"`

	ID                   string     `bun:"id"`
	UserID               string     `bun:"user_id"`
	BadgeID              string     `bun:"badge_id"`
	ApplicationID        *string    `bun:"application_id"`
	VerificationID       string     `bun:"verification_id"`
	PublicVerificationID string     `bun:"public_verification_id"`
	GrantedAt            time.Time  `bun:"granted_at"`
	ExpiresAt            *time.Time `bun:"expires_at"`
	RevokedAt            *time.Time `bun:"revoked_at"`
	RevocationReason     string     `bun:"revocation_reason"`
}

// grantBadges are the ids of the badges whose name matches search (few: the catalogue),
// looked up first so that the grants query reads the badge index only when one matches.
func grantBadges(ctx context.Context, d bun.IDB, search string) ([]string, error) {
	var ids []string
	if search == "" {
		return ids, nil
	}
	err := d.NewSelect().Model((*model.Badge)(nil)).Column("id").Where("lower(name) LIKE ?"+likeEsc, LikePattern(search)).Scan(ctx, &ids)
	return ids, err
}

func grantsQuery(d bun.IDB, rows *[]grantListRow, status, search string, badgeIDs []string, now time.Time, pg Page) *bun.SelectQuery {
	q := d.NewSelect().Model(rows)
	switch status {
	case GrantActive:
		q = q.Where("g.revoked_at IS NULL").WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("g.expires_at IS NULL").WhereOr("g.expires_at > ?", now)
		})
	case GrantRevoked:
		q = q.Where("g.revoked_at IS NOT NULL")
	case GrantExpired:
		q = q.Where("g.revoked_at IS NULL AND g.expires_at <= ?", now)
	}
	if search != "" {
		p := LikePattern(search)
		// ids match whole, holders' names and e-mails and badge names anywhere: a union of
		// index look-ups (an OR over the million rows would read them all)
		q = q.Where("g.id IN (SELECT x.id FROM badge_grants AS x WHERE x.id = ?"+
			" UNION ALL SELECT x.id FROM badge_grants AS x WHERE x.verification_id = ?"+
			" UNION ALL SELECT x.id FROM badge_grants AS x WHERE x.public_verification_id = ?"+
			" UNION ALL SELECT x.id FROM badge_grants AS x WHERE x.user_id IN (SELECT u.id FROM users AS u WHERE lower(u.name) LIKE ?"+likeEsc+" OR lower(u.email) LIKE ?"+likeEsc+")"+
			" UNION ALL SELECT x.id FROM badge_grants AS x WHERE x.badge_id IN (?))",
			search, search, search, p, p, bun.List(append(badgeIDs, "")))
	}
	return q.OrderExpr(pg.orderBy("g", "granted_at")).Limit(int64(pg.Limit)).Offset(int64(pg.Offset()))
}

// ListGrants pages the grants matching status ("" = all) and search.
func (s *Service) ListGrants(ctx context.Context, status, search string, pg Page) (*GrantList, error) {
	badges, err := grantBadges(ctx, s.DB, search)
	if err != nil {
		return nil, err
	}
	var rows []grantListRow
	n, err := grantsQuery(s.DB, &rows, status, search, badges, model.Now(), pg).ScanAndCount(ctx)
	if err != nil {
		return nil, err
	}
	items, err := s.grantItems(ctx, rows)
	if err != nil {
		return nil, err
	}
	return &GrantList{Grants: items, PageInfo: pg.Info(int64(n))}, nil
}

func (s *Service) grantItems(ctx context.Context, rows []grantListRow) ([]GrantListItem, error) {
	out := make([]GrantListItem, 0, len(rows))
	if len(rows) == 0 {
		return out, nil
	}
	var userIDs, badgeIDs []string
	for _, r := range rows {
		userIDs, badgeIDs = append(userIDs, r.UserID), append(badgeIDs, r.BadgeID)
	}
	users, err := s.st.usersByID(ctx, s.DB, userIDs)
	if err != nil {
		return nil, err
	}
	badges, err := s.st.badgesByID(ctx, s.DB, badgeIDs)
	if err != nil {
		return nil, err
	}
	now := model.Now()
	for _, r := range rows {
		it := GrantListItem{ID: r.ID, VerificationID: r.VerificationID, PublicVerificationID: r.PublicVerificationID,
			Status: GrantActive, ApplicationID: r.ApplicationID, GrantedAt: r.GrantedAt.UTC(), ExpiresAt: utc(r.ExpiresAt),
			RevokedAt: utc(r.RevokedAt), RevocationReason: r.RevocationReason}
		switch {
		case r.RevokedAt != nil:
			it.Status = GrantRevoked
		case r.ExpiresAt != nil && !r.ExpiresAt.After(now):
			it.Status = GrantExpired
		}
		if u := users[r.UserID]; u != nil {
			it.Holder = &Ref{ID: u.ID, Name: u.Name, Email: u.Email}
		}
		if b := badges[r.BadgeID]; b != nil {
			it.Badge = &Ref{ID: b.ID, Name: b.Name}
		}
		out = append(out, it)
	}
	return out, nil
}

// GrantCSVHeader is the grants export's first line.
var GrantCSVHeader = []string{"id", "verification id", "public verification id", "status", "holder", "email", "badge",
	"granted", "expires", "revoked", "revocation reason"}

// ExportGrants is every grant the filter shows as CSV.
func (s *Service) ExportGrants(ctx context.Context, status, search string, sort Sort) (*csvTable, error) {
	t := newCSV(GrantCSVHeader)
	now := model.Now()
	badges, err := grantBadges(ctx, s.DB, search)
	if err != nil {
		return nil, err
	}
	for pg := (Page{Page: 1, Limit: exportChunk, Sort: sort}); pg.Offset() < MaxExportRows; pg.Page++ {
		var rows []grantListRow
		if err := grantsQuery(s.DB, &rows, status, search, badges, now, pg).Scan(ctx); err != nil {
			return nil, err
		}
		items, err := s.grantItems(ctx, rows)
		if err != nil {
			return nil, err
		}
		for _, g := range items {
			holder, email, badge := "", "", ""
			if g.Holder != nil {
				holder, email = g.Holder.Name, g.Holder.Email
			}
			if g.Badge != nil {
				badge = g.Badge.Name
			}
			granted := g.GrantedAt
			t.Row(g.ID, g.VerificationID, g.PublicVerificationID, g.Status, holder, email, badge, csvTime(&granted),
				csvTime(g.ExpiresAt), csvTime(g.RevokedAt), g.RevocationReason)
		}
		if len(rows) < pg.Limit {
			break
		}
	}
	return t, nil
}

// GET /admin/grants?status=&search=&page=&pageSize=&sort=&format=csv
func (h *Handler) grants(c fiber.Ctx) error {
	pg, q, asCSV, err := tableQuery(c, GrantSorts)
	if err != nil {
		return err
	}
	status := c.Query("status")
	switch status {
	case "all":
		status = ""
	case "", GrantActive, GrantRevoked, GrantExpired:
	default:
		return web.BadRequest(MsgBadGrantStatus)
	}
	if asCSV {
		t, err := h.svc.ExportGrants(c.Context(), status, q, pg.Sort)
		if err != nil {
			return err
		}
		return t.send(c, "grants")
	}
	out, err := h.svc.ListGrants(c.Context(), status, q, pg)
	if err != nil {
		return err
	}
	return c.JSON(out)
}
