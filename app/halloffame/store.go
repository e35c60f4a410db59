package halloffame

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/db"
)

// Refresh recomputes userID's summary from their grants in force, inside the caller's
// transaction (app/grant calls it when a grant is made, restored or revoked). It reads
// only that user's grants, so it costs the same with a million grants in the table.
//
// A grant is in force while it is neither revoked nor expired (the expiry sweep of
// app/renewal refreshes a holder when a grant expires); a renewed badge counts once.
func Refresh(ctx context.Context, tx bun.IDB, userID string) error {
	now := model.Now()
	if _, err := tx.NewRaw(`DELETE FROM hall_of_fame WHERE user_id = ?
AND NOT EXISTS (SELECT 1 FROM badge_grants WHERE user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?))`, userID, userID, now).Exec(ctx); err != nil {
		return fmt.Errorf("hall of fame: %w", err)
	}
	if _, err := tx.NewRaw(`INSERT INTO hall_of_fame (user_id, total_badges, last_earned_at)
SELECT user_id, COUNT(DISTINCT badge_id), MAX(granted_at) FROM badge_grants
WHERE user_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) GROUP BY user_id
ON CONFLICT (user_id) DO UPDATE SET total_badges = excluded.total_badges, last_earned_at = excluded.last_earned_at`, userID, now).Exec(ctx); err != nil {
		return fmt.Errorf("hall of fame: %w", err)
	}
	if _, err := tx.NewRaw(`DELETE FROM hall_of_fame_categories WHERE user_id = ?`, userID).Exec(ctx); err != nil {
		return fmt.Errorf("hall of fame: %w", err)
	}
	if _, err := tx.NewRaw(`INSERT INTO hall_of_fame_categories (user_id, category, badges)
SELECT g.user_id, b.category, COUNT(DISTINCT g.badge_id) FROM badge_grants g JOIN badges b ON b.id = g.badge_id
WHERE g.user_id = ? AND g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ?) GROUP BY g.user_id, b.category`, userID, now).Exec(ctx); err != nil {
		return fmt.Errorf("hall of fame: %w", err)
	}
	return nil
}

// Rebuild recomputes the whole summary from badge_grants (after a bulk load; the
// migration does the same for the grants that existed).
func Rebuild(ctx context.Context, d *bun.DB) error {
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if _, err := tx.ExecContext(ctx, `DELETE FROM hall_of_fame`); err != nil {
			return err
		}
		if _, err := tx.NewRaw(`INSERT INTO hall_of_fame (user_id, total_badges, last_earned_at)
SELECT user_id, COUNT(DISTINCT badge_id), MAX(granted_at) FROM badge_grants
WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?) GROUP BY user_id`, model.Now()).Exec(ctx); err != nil {
			return err
		}
		return rebuildCategories(ctx, tx)
	})
}

func rebuildCategories(ctx context.Context, tx bun.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM hall_of_fame_categories`); err != nil {
		return err
	}
	_, err := tx.NewRaw(`INSERT INTO hall_of_fame_categories (user_id, category, badges)
SELECT g.user_id, b.category, COUNT(DISTINCT g.badge_id) FROM badge_grants g JOIN badges b ON b.id = g.badge_id
WHERE g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ?) GROUP BY g.user_id, b.category
ON CONFLICT (user_id, category) DO UPDATE SET badges = excluded.badges`, model.Now()).Exec(ctx)
	return err
}

// badgeCategories maps every badge to its category, as JSON (keys sorted): what the
// category summary was last built from.
func badgeCategories(ctx context.Context, d bun.IDB) (map[string]string, string, error) {
	var rows []struct {
		ID       string `bun:"id"`
		Category string `bun:"category"`
	}
	if err := d.NewSelect().Table("badges").Column("id", "category").Scan(ctx, &rows); err != nil {
		return nil, "", err
	}
	m := make(map[string]string, len(rows))
	for _, r := range rows {
		m[r.ID] = r.Category
	}
	b, err := json.Marshal(m)
	return m, string(b), err
}

// syncCategories brings hall_of_fame_categories up to date after a badge moved to another
// category (an admin edit, outside the grant transactions): only the holders of the
// badges that moved are recomputed. New and deleted badges need nothing (a badge with
// grants cannot be deleted). One instance does it: the guarded update of the stored
// mapping elects it.
func syncCategories(ctx context.Context, d *bun.DB) error {
	current, text, err := badgeCategories(ctx, d)
	if err != nil {
		return err
	}
	var stored string
	if err := d.NewRaw(`SELECT categories_signature FROM hall_of_fame_state WHERE id = 1`).Scan(ctx, &stored); err != nil {
		return err
	}
	if stored == text {
		return nil
	}
	var before map[string]string
	full := json.Unmarshal([]byte(stored), &before) != nil // never built from a mapping yet
	var moved []string
	for id, cat := range before {
		if now, ok := current[id]; ok && now != cat {
			moved = append(moved, id)
		}
	}
	return d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE hall_of_fame_state SET categories_signature = ? WHERE id = 1 AND categories_signature = ?`, text, stored)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil // another instance is on it
		}
		switch {
		case full:
			return rebuildCategories(ctx, tx)
		case len(moved) > 0:
			holders := tx.NewSelect().Model((*model.BadgeGrant)(nil)).Column("user_id").Where("badge_id IN (?)", bun.List(moved))
			if _, err := tx.NewDelete().Table("hall_of_fame_categories").Where("user_id IN (?)", holders).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.NewRaw(`INSERT INTO hall_of_fame_categories (user_id, category, badges)
SELECT g.user_id, b.category, COUNT(DISTINCT g.badge_id) FROM badge_grants g JOIN badges b ON b.id = g.badge_id
WHERE g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ?) AND g.user_id IN (?) GROUP BY g.user_id, b.category`, model.Now(), holders).Exec(ctx)
			return err
		}
		return nil
	})
}

// userRow is one earner as the list query reads it.
type userRow struct {
	UserID        string    `bun:"user_id"`
	TotalBadges   int       `bun:"total_badges"`
	LastEarnedAt  time.Time `bun:"last_earned_at"`
	Name          string    `bun:"name"`
	Position      string    `bun:"position"`
	Company       string    `bun:"company"`
	ProfilePicKey string    `bun:"profile_pic_key"`
	LinkedIn      string    `bun:"linkedin"`
	Portfolio     string    `bun:"portfolio"`
	CreatedAt     time.Time `bun:"created_at"`
}

// filtered narrows q to in's category and search; user is the column holding the user's
// id ("h.user_id" or "u.id"). The search looks in name, title and company at once, as one
// text, case-insensitively: lower-cased on PostgreSQL (the expression its trigram index
// covers), and as it is on SQLite, whose LIKE already ignores (ASCII) case — its lower()
// folds no more than that and costs a third of the scan.
func filtered(q *bun.SelectQuery, in Query, user string) *bun.SelectQuery {
	if in.Category != "" {
		q = q.Where("EXISTS (SELECT 1 FROM hall_of_fame_categories AS hc WHERE hc.user_id = "+user+" AND hc.category = ?)", in.Category)
	}
	if in.Search != "" {
		expr := `(u.name || ' ' || u.position || ' ' || u.company)`
		if db.EngineOf(q.DB()) == db.Postgres {
			expr = `lower(u.name || ' ' || u.position || ' ' || u.company)`
		}
		q = q.Where(expr+` LIKE ? ESCAPE '\'`, likePattern(in.Search))
	}
	return q
}

// SearchProbe is how many matches a search collects before it treats the result as large
// (a variable so tests can run both paths).
var SearchProbe = 2000

// searchIDs returns the ids of the earners matching in's search (and category), at most
// SearchProbe+1 of them: one pass over users (the text test first, the cheap one). When
// fewer come back they are all the matches, and the page is read by id.
func searchIDs(ctx context.Context, d bun.IDB, in Query) ([]string, error) {
	var ids []string
	q := filtered(d.NewSelect().TableExpr("users AS u").Column("u.id"), Query{Search: in.Search}, "u.id")
	if in.Category != "" {
		q = q.Where("EXISTS (SELECT 1 FROM hall_of_fame_categories AS hc WHERE hc.user_id = u.id AND hc.category = ?)", in.Category)
	} else {
		q = q.Where("EXISTS (SELECT 1 FROM hall_of_fame AS h WHERE h.user_id = u.id)")
	}
	err := q.Limit(int64(SearchProbe+1)).Scan(ctx, &ids)
	return ids, err
}

// list reads one page of earners (of ids, when given: the matches of a search). The join
// is written as a CROSS JOIN with the condition in WHERE so that SQLite walks the table
// whose index gives the order (hall_of_fame's rank or recency index, users' name index)
// and stops after the page, instead of scanning users and sorting; PostgreSQL plans it
// the same either way.
func list(ctx context.Context, d bun.IDB, in Query, ids []string) ([]userRow, error) {
	var rows []userRow
	q := d.NewSelect().ColumnExpr("h.user_id, h.total_badges, h.last_earned_at, u.name, u.position, u.company, u.profile_pic_key, u.linkedin, u.portfolio, u.created_at")
	if in.Sort == SortName && ids == nil {
		q = q.TableExpr("users AS u CROSS JOIN hall_of_fame AS h").Where("h.user_id = u.id")
	} else {
		q = q.TableExpr("hall_of_fame AS h CROSS JOIN users AS u").Where("u.id = h.user_id")
	}
	if ids != nil {
		q = q.Where("h.user_id IN (?)", bun.List(ids))
	} else {
		q = filtered(q, in, "h.user_id")
	}
	switch in.Sort {
	case SortRecent:
		q = q.OrderExpr("h.last_earned_at DESC, h.user_id")
	case SortName:
		q = q.OrderExpr("lower(u.name), u.id")
	default:
		q = q.OrderExpr("h.total_badges DESC, h.last_earned_at DESC, h.user_id")
	}
	err := q.Limit(int64(in.Limit)).Offset(int64((in.Page-1)*in.Limit)).Scan(ctx, &rows)
	return rows, err
}

// count is how many earners match the category (searches count in searchIDs).
func count(ctx context.Context, d bun.IDB, in Query) (int64, error) {
	var n int64
	var err error
	if in.Category == "" {
		err = d.NewRaw(`SELECT COUNT(*) FROM hall_of_fame`).Scan(ctx, &n)
	} else {
		err = d.NewRaw(`SELECT COUNT(*) FROM hall_of_fame_categories WHERE category = ?`, in.Category).Scan(ctx, &n)
	}
	return n, err
}

type recentRow struct {
	UserID    string    `bun:"user_id"`
	BadgeID   string    `bun:"badge_id"`
	Name      string    `bun:"name"`
	Category  string    `bun:"category"`
	GrantedAt time.Time `bun:"granted_at"`
}

// recent reads the three most recent badges in force of each user.
func recent(ctx context.Context, d bun.IDB, userIDs []string) (map[string][]Badge, error) {
	out := map[string][]Badge{}
	if len(userIDs) == 0 {
		return out, nil
	}
	var rows []recentRow
	err := d.NewRaw(`SELECT user_id, badge_id, name, category, granted_at FROM (
	SELECT g.user_id, g.badge_id, b.name, b.category, g.granted_at,
		ROW_NUMBER() OVER (PARTITION BY g.user_id ORDER BY g.granted_at DESC, g.id DESC) AS rn
	FROM badge_grants AS g JOIN badges AS b ON b.id = g.badge_id
	WHERE g.user_id IN (?) AND g.revoked_at IS NULL AND (g.expires_at IS NULL OR g.expires_at > ?)
		AND NOT EXISTS (SELECT 1 FROM badge_grants AS n WHERE n.previous_grant_id = g.id AND n.revoked_at IS NULL)
) AS t WHERE rn <= ? ORDER BY user_id, granted_at DESC`, bun.List(userIDs), model.Now(), RecentBadges).Scan(ctx, &rows)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		out[r.UserID] = append(out[r.UserID], Badge{ID: r.BadgeID, Name: r.Name, Category: r.Category, EarnedDate: r.GrantedAt.UTC()})
	}
	return out, nil
}

// stats reads the stat cards.
func stats(ctx context.Context, d bun.IDB) (Stats, error) {
	s := Stats{Categories: []string{}}
	var row struct {
		Earners int64 `bun:"earners"`
		Total   int64 `bun:"total"`
	}
	if err := d.NewRaw(`SELECT COUNT(*) AS earners, COALESCE(SUM(total_badges), 0) AS total FROM hall_of_fame`).Scan(ctx, &row); err != nil {
		return s, err
	}
	s.Earners, s.TotalBadges = row.Earners, row.Total
	var cats []string
	if err := d.NewRaw(`SELECT c.category FROM (SELECT DISTINCT category FROM badges) AS c
WHERE EXISTS (SELECT 1 FROM hall_of_fame_categories AS hc WHERE hc.category = c.category)`).Scan(ctx, &cats); err != nil {
		return s, err
	}
	have := map[string]bool{}
	for _, c := range cats {
		have[c] = true
	}
	for _, c := range model.Categories { // the product's order
		if have[c] {
			s.Categories = append(s.Categories, c)
			delete(have, c)
		}
	}
	for _, c := range cats { // any other category, as found
		if have[c] {
			s.Categories = append(s.Categories, c)
		}
	}
	return s, nil
}
