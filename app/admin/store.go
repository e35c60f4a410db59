package admin

import (
	"context"
	"strings"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// store holds the bun queries of the back office.
type store struct{}

const likeEsc = ` ESCAPE '\'`

// folded is col as a search compares it: SQLite's LIKE already ignores ASCII case and its
// lower() folds ASCII only, so there the bare column matches alike and spares a call per
// row (about a third of a search over 100,000 applications); PostgreSQL's LIKE does not.
func folded(d bun.IDB, col string) string {
	if db.EngineOf(d) == db.SQLite {
		return col
	}
	return "lower(" + col + ")"
}

// applicationSearch narrows q (over applications) to rows matching search: applicant
// name or email (account or application), badge name, application id, payment
// transaction id.
func applicationSearch(d bun.IDB, q *bun.SelectQuery, search string) *bun.SelectQuery {
	if search == "" {
		return q
	}
	p := LikePattern(search)
	like := func(col string) string { return folded(d, col) + " LIKE ?" + likeEsc }
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where(like("full_name"), p).
			WhereOr(like("email"), p).
			WhereOr("id = ?", search).
			WhereOr("user_id IN (SELECT u.id FROM users AS u WHERE "+like("u.name")+" OR "+like("u.email")+")", p, p).
			WhereOr("badge_id IN (SELECT b.id FROM badges AS b WHERE "+like("b.name")+")", p).
			WhereOr("id IN (SELECT p.application_id FROM payments AS p WHERE "+like("p.transaction_id")+")", p)
	})
}

// applicationsOnly is one page without the count (the export reads page after page).
// walk says the statuses asked for are a large share of the rows (see applicationsQuery).
func (store) applicationsOnly(ctx context.Context, d bun.IDB, statuses []string, search string, pg Page, walk bool) ([]model.Application, int64, error) {
	var apps []model.Application
	err := applicationsQuery(d, &apps, statuses, search, pg, walk).Scan(ctx)
	return apps, 0, err
}

// applicationsQuery is one page of the applications in statuses matching search. On
// SQLite, when the statuses are a large share of the rows (walk), the page walks the
// sort's own index and filters, reading about a page's worth; else it reads the statuses'
// rows through the status index and sorts them (few, so cheap). SQLite would otherwise
// pick the status index every time and sort tens of thousands of rows for a page (the
// unary + keeps the planner off it). PostgreSQL's planner weighs that itself.
func applicationsQuery(d bun.IDB, apps *[]model.Application, statuses []string, search string, pg Page, walk bool) *bun.SelectQuery {
	q := d.NewSelect().Model(apps)
	switch {
	case len(statuses) > 0 && walk && db.EngineOf(d) == db.SQLite:
		q = q.Where("+status IN (?)", bun.List(statuses))
	case len(statuses) > 0:
		q = q.Where("status IN (?)", bun.List(statuses))
	}
	return applicationSearch(d, q, search).OrderExpr(pg.order("")).Limit(int64(pg.Limit)).Offset(int64(pg.Offset()))
}

// statusCounts counts applications per status (matching search).
func (store) statusCounts(ctx context.Context, d bun.IDB, search string) (map[string]int64, error) {
	var rows []struct {
		Status string `bun:"status"`
		N      int64  `bun:"n"`
	}
	q := d.NewSelect().Model((*model.Application)(nil)).ColumnExpr("status, count(*) AS n")
	group := "status"
	if search != "" && db.EngineOf(d) == db.SQLite {
		// a search reads every row: in the table's order (then a small sort by status),
		// not through the status index with a table lookup per row (46 against 96 ms at
		// 100,000 applications)
		group = "+status"
	}
	if err := applicationSearch(d, q, search).GroupExpr(group).Scan(ctx, &rows); err != nil {
		return nil, err
	}
	m := map[string]int64{}
	for _, r := range rows {
		m[r.Status] = r.N
	}
	return m, nil
}

func (store) usersByID(ctx context.Context, d bun.IDB, ids []string) (map[string]*model.User, error) {
	m := map[string]*model.User{}
	if len(ids) == 0 {
		return m, nil
	}
	var us []model.User
	if err := d.NewSelect().Model(&us).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for i := range us {
		m[us[i].ID] = &us[i]
	}
	return m, nil
}

func (store) badgesByID(ctx context.Context, d bun.IDB, ids []string) (map[string]*model.Badge, error) {
	m := map[string]*model.Badge{}
	if len(ids) == 0 {
		return m, nil
	}
	var bs []model.Badge
	if err := d.NewSelect().Model(&bs).Where("id IN (?)", bun.List(ids)).Scan(ctx); err != nil {
		return nil, err
	}
	for i := range bs {
		m[bs[i].ID] = &bs[i]
	}
	return m, nil
}

func (store) paymentsByApplication(ctx context.Context, d bun.IDB, appIDs []string) (map[string][]model.Payment, error) {
	m := map[string][]model.Payment{}
	if len(appIDs) == 0 {
		return m, nil
	}
	var ps []model.Payment
	if err := d.NewSelect().Model(&ps).Where("application_id IN (?)", bun.List(appIDs)).OrderExpr("created_at DESC, id DESC").Scan(ctx); err != nil {
		return nil, err
	}
	for _, p := range ps {
		m[p.ApplicationID] = append(m[p.ApplicationID], p)
	}
	return m, nil
}

func (store) filesByApplication(ctx context.Context, d bun.IDB, appIDs []string) (map[string][]model.ApplicationFile, error) {
	m := map[string][]model.ApplicationFile{}
	if len(appIDs) == 0 {
		return m, nil
	}
	var fs []model.ApplicationFile
	if err := d.NewSelect().Model(&fs).Where("application_id IN (?)", bun.List(appIDs)).OrderExpr("created_at, id").Scan(ctx); err != nil {
		return nil, err
	}
	for _, f := range fs {
		m[f.ApplicationID] = append(m[f.ApplicationID], f)
	}
	return m, nil
}

// grantRefCols are the columns the applications list reads of a grant (a grant's link
// and renewal; never its signed credential, the largest column).
var grantRefCols = []string{"id", "user_id", "badge_id", "application_id", "verification_id", "public_verification_id",
	"granted_at", "expires_at", "revoked_at", "revocation_reason", "previous_grant_id"}

func (store) grantsByApplication(ctx context.Context, d bun.IDB, appIDs []string) (map[string]*model.BadgeGrant, error) {
	m := map[string]*model.BadgeGrant{}
	if len(appIDs) == 0 {
		return m, nil
	}
	var gs []model.BadgeGrant
	if err := d.NewSelect().Model(&gs).Column(grantRefCols...).Where("application_id IN (?)", bun.List(appIDs)).Scan(ctx); err != nil {
		return nil, err
	}
	for i := range gs {
		m[*gs[i].ApplicationID] = &gs[i]
	}
	return m, nil
}

// renewedGrants finds, for each application that renews a badge, the grant it renews: the
// one its own grant names as previous, else the applicant's latest unrevoked grant of that
// badge issued before the application was made (as app/grant links a renewal).
func (store) renewedGrants(ctx context.Context, d bun.IDB, apps []model.Application, own map[string]*model.BadgeGrant) (map[string]*model.BadgeGrant, error) {
	out := map[string]*model.BadgeGrant{}
	var userIDs, badgeIDs, prevIDs []string
	for _, a := range apps {
		userIDs = append(userIDs, a.UserID)
		badgeIDs = append(badgeIDs, a.BadgeID)
		if g := own[a.ID]; g != nil && g.PreviousGrantID != nil {
			prevIDs = append(prevIDs, *g.PreviousGrantID)
		}
	}
	var gs []model.BadgeGrant
	q := d.NewSelect().Model(&gs).Column(grantRefCols...).Where("user_id IN (?) AND badge_id IN (?)", bun.List(userIDs), bun.List(badgeIDs))
	if len(prevIDs) > 0 {
		q = q.WhereOr("id IN (?)", bun.List(prevIDs))
	}
	if err := q.Scan(ctx); err != nil {
		return nil, err
	}
	for _, a := range apps {
		if g := own[a.ID]; g != nil && g.PreviousGrantID != nil {
			for i := range gs {
				if gs[i].ID == *g.PreviousGrantID {
					out[a.ID] = &gs[i]
				}
			}
			continue
		}
		if own[a.ID] != nil {
			continue // a first grant of this badge
		}
		var best *model.BadgeGrant
		for i := range gs {
			g := &gs[i]
			if g.UserID != a.UserID || g.BadgeID != a.BadgeID || !g.GrantedAt.Before(a.CreatedAt) || g.RevokedAt != nil ||
				(g.ApplicationID != nil && *g.ApplicationID == a.ID) {
				continue
			}
			if best == nil || g.GrantedAt.After(best.GrantedAt) {
				best = g
			}
		}
		if best != nil {
			out[a.ID] = best
		}
	}
	return out, nil
}

// grantRow is a grant with its badge's name and category.
type grantRow struct {
	model.BadgeGrant `bun:",extend"`
	BadgeName        string `bun:"badge_name"`
	BadgeCategory    string `bun:"badge_category"`
}

func (store) grantsByUser(ctx context.Context, d bun.IDB, userIDs []string) (map[string][]grantRow, error) {
	m := map[string][]grantRow{}
	if len(userIDs) == 0 {
		return m, nil
	}
	var rows []grantRow
	err := d.NewSelect().Model(&rows).
		ColumnExpr("badge_grant.*").
		ColumnExpr("b.name AS badge_name, b.category AS badge_category").
		Join("JOIN badges AS b ON b.id = badge_grant.badge_id").
		Where("badge_grant.user_id IN (?)", bun.List(userIDs)).
		OrderExpr("badge_grant.granted_at DESC, badge_grant.id DESC").
		Scan(ctx)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		m[r.UserID] = append(m[r.UserID], r)
	}
	return m, nil
}

// userSearch narrows q (over users) to name, email or position matching search, or to
// holders of a grant whose badge name, verification id or public verification id matches.
func userSearch(q *bun.SelectQuery, search string) *bun.SelectQuery {
	if search == "" {
		return q
	}
	p := LikePattern(search)
	return q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
		return q.Where("lower(name) LIKE ?"+likeEsc, p).
			WhereOr("lower(email) LIKE ?"+likeEsc, p).
			WhereOr("lower(position) LIKE ?"+likeEsc, p).
			WhereOr("id = ?", search).
			WhereOr("id IN (SELECT g.user_id FROM badge_grants AS g JOIN badges AS b ON b.id = g.badge_id WHERE lower(b.name) LIKE ?"+likeEsc+
				" OR lower(g.verification_id) LIKE ?"+likeEsc+" OR lower(g.public_verification_id) LIKE ?"+likeEsc+")", p, p, p)
	})
}

func (store) users(ctx context.Context, d bun.IDB, role, search string, pg Page) ([]model.User, int64, error) {
	var us []model.User
	q := d.NewSelect().Model(&us)
	if role != "" {
		q = q.Where("role = ?", role)
	}
	q = userSearch(q, search).OrderExpr(pg.order("")).Limit(int64(pg.Limit)).Offset(int64(pg.Offset()))
	if pg.noCount {
		return us, 0, q.Scan(ctx)
	}
	n, err := q.ScanAndCount(ctx)
	return us, int64(n), err
}

func (store) payments(ctx context.Context, d bun.IDB, status, search string, pg Page) ([]model.Payment, int64, error) {
	var ps []model.Payment
	q := d.NewSelect().Model(&ps)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	if search != "" {
		p := LikePattern(search)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			return q.Where("lower(transaction_id) LIKE ?"+likeEsc, p).
				WhereOr("lower(coupon_code) LIKE ?"+likeEsc, p).
				WhereOr("id = ?", search).
				WhereOr("application_id = ?", search).
				WhereOr("user_id IN (SELECT u.id FROM users AS u WHERE lower(u.name) LIKE ?"+likeEsc+" OR lower(u.email) LIKE ?"+likeEsc+")", p, p).
				WhereOr("badge_id IN (SELECT b.id FROM badges AS b WHERE lower(b.name) LIKE ?"+likeEsc+")", p)
		})
	}
	n, err := q.OrderExpr("created_at DESC, id DESC").Limit(int64(pg.Limit)).Offset(int64(pg.Offset())).ScanAndCount(ctx)
	return ps, int64(n), err
}

func (store) audit(ctx context.Context, d bun.IDB, action, targetID, search string, pg Page) ([]model.AuditEntry, int64, error) {
	var es []model.AuditEntry
	q := d.NewSelect().Model(&es)
	if area, ok := strings.CutSuffix(action, ".*"); ok && area != "" {
		// every action of one area (the filter's "All coupon actions")
		q = q.Where("action LIKE ?"+likeEsc, strings.TrimSuffix(LikePattern(area+"."), "%")[1:]+"%")
	} else if action != "" {
		q = q.Where("action = ?", action)
	}
	if targetID != "" {
		q = q.Where("target_id = ?", targetID)
	}
	if search != "" {
		p := LikePattern(search)
		q = q.WhereGroup(" AND ", func(q *bun.SelectQuery) *bun.SelectQuery {
			// what a row shows: its actor, its action, its target's label (a user, an
			// application's badge and applicant, a badge, a grant's badge, holder and ids, a
			// quiz) and the snapshot's own names (coupon codes, titles, deleted rows)
			users := "SELECT u.id FROM users AS u WHERE lower(u.email) LIKE ?" + likeEsc + " OR lower(u.name) LIKE ?" + likeEsc
			badges := "SELECT b.id FROM badges AS b WHERE lower(b.name) LIKE ?" + likeEsc
			return q.Where("lower(actor_email) LIKE ?"+likeEsc, p).
				WhereOr("actor_id IN ("+users+")", p, p).
				WhereOr("lower(action) LIKE ?"+likeEsc, p).
				WhereOr("target_id = ?", search).
				WhereOr("(target_type = 'user' AND target_id IN ("+users+"))", p, p).
				WhereOr("(target_type = 'badge' AND target_id IN ("+badges+"))", p).
				WhereOr("(target_type = 'application' AND target_id IN (SELECT a.id FROM applications AS a WHERE a.user_id IN ("+users+") OR a.badge_id IN ("+badges+")))", p, p, p).
				WhereOr("(target_type = 'grant' AND target_id IN (SELECT g.id FROM badge_grants AS g WHERE lower(g.verification_id) LIKE ?"+likeEsc+" OR g.user_id IN ("+users+") OR g.badge_id IN ("+badges+")))", p, p, p, p).
				WhereOr("(target_type = 'quiz' AND target_id IN (SELECT z.id FROM quizzes AS z WHERE lower(z.title) LIKE ?"+likeEsc+"))", p).
				WhereOr("lower(after) LIKE ?"+likeEsc, p).
				WhereOr("lower(before) LIKE ?"+likeEsc, p)
		})
	}
	q = q.OrderExpr(pg.order("")).Limit(int64(pg.Limit)).Offset(int64(pg.Offset()))
	if pg.noCount {
		return es, 0, q.Scan(ctx)
	}
	n, err := q.ScanAndCount(ctx)
	return es, int64(n), err
}

// dayExpr is the UTC calendar day of a timestamp column as YYYY-MM-DD.
func dayExpr(d bun.IDB, col string) string {
	if db.EngineOf(d) == db.Postgres {
		return "to_char(" + col + " AT TIME ZONE 'UTC', 'YYYY-MM-DD')"
	}
	return "substr(" + col + ", 1, 10)" // stored as 'YYYY-MM-DD hh:mm:ss…+00:00' (UTC)
}

type dayCount struct {
	Day string `bun:"day"`
	N   int64  `bun:"n"`
}

func (store) applicationsPerDay(ctx context.Context, d bun.IDB, since time.Time) ([]dayCount, error) {
	var rows []dayCount
	err := d.NewSelect().Model((*model.Application)(nil)).
		ColumnExpr(dayExpr(d, "created_at")+" AS day, count(*) AS n").
		Where("created_at >= ?", since).GroupExpr("day").Scan(ctx, &rows)
	return rows, err
}

func (store) revenuePerDay(ctx context.Context, d bun.IDB, since time.Time) ([]dayCount, error) {
	var rows []dayCount
	err := d.NewSelect().Model((*model.Payment)(nil)).
		ColumnExpr(dayExpr(d, "completed_at")+" AS day, COALESCE(SUM(amount_cents), 0) AS n").
		Where("status = ?", model.PaymentCompleted).Where("completed_at >= ?", since).GroupExpr("day").Scan(ctx, &rows)
	return rows, err
}
