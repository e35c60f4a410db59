package award

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/admin"
	"meritmark/app/audit"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// CSVBodyLimit is the body limit of the CSV upload (the file and the form around it).
const CSVBodyLimit = MaxCSVBytes + 64<<10

// UploadAnswer answers POST /admin/awards/csv.
type UploadAnswer struct {
	Preview bool   `json:"preview"`
	BatchID string `json:"batchId,omitempty"`
	Badge   struct {
		ID   string `json:"_id"`
		Name string `json:"name"`
	} `json:"badge"`
	Rows   []Row `json:"rows"`
	Counts struct {
		Total   int `json:"total"`
		Valid   int `json:"valid"`
		Invalid int `json:"invalid"`
		Sent    int `json:"sent"`
	} `json:"counts"`
}

// POST /admin/awards/csv (multipart file, badgeId; preview=1 checks without sending) ->
// the checked rows; without preview each valid row is awarded in its own transaction.
func (h *Handler) uploadCSV(c fiber.Ctx) error {
	badgeID := strings.TrimSpace(c.FormValue("badgeId"))
	if badgeID == "" {
		return web.BadRequest(MsgBadgeRequired)
	}
	preview := c.FormValue("preview") == "1" || c.Query("preview") == "1" || c.FormValue("preview") == "true"
	fh, err := c.FormFile("file")
	if err != nil || fh == nil {
		return web.BadRequest(MsgFileRequired)
	}
	if fh.Size > MaxCSVBytes {
		return web.TooLarge(MsgFileTooLarge)
	}
	f, err := fh.Open()
	if err != nil {
		return web.BadRequest(MsgFileRequired)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxCSVBytes+1))
	f.Close()
	if err != nil {
		return err
	}
	if len(data) > MaxCSVBytes {
		return web.TooLarge(MsgFileTooLarge)
	}
	ans, err := h.Upload(c.Context(), web.Viewer(c), badgeID, data, preview, h.Site.Origin(c))
	if err != nil {
		return err
	}
	if !preview && h.Mailer != nil {
		h.Mailer.Kick()
	}
	return c.JSON(ans)
}

// Upload checks the CSV data against badge badgeID and, unless preview, sends the valid
// rows: each row in its own transaction (a row refused then, say a holder who claimed
// meanwhile, is reported and the others go on), every award audited with the batch id.
func (h *Handler) Upload(ctx context.Context, actor *model.User, badgeID string, data []byte, preview bool, origin string) (*UploadAnswer, error) {
	b, err := awardable(ctx, h.DB, badgeID)
	if err != nil {
		return nil, err
	}
	now := h.now()
	y, m, d := now.UTC().Date()
	rows, msg := ParseCSV(data, time.Date(y, m, d, 0, 0, 0, 0, time.UTC))
	if msg != "" {
		return nil, web.BadRequest(msg)
	}
	if err := h.flagKnown(ctx, b.ID, rows, now); err != nil {
		return nil, err
	}
	ans := &UploadAnswer{Preview: preview, Rows: rows}
	ans.Badge.ID, ans.Badge.Name = b.ID, b.Name
	if !preview {
		batch := model.NewID()
		ans.BatchID = batch
		bctx := audit.WithBatch(ctx, batch)
		for i := range rows {
			r := &rows[i]
			if !r.OK {
				continue
			}
			var a *Award
			err := h.DB.RunInTx(bctx, nil, func(ctx context.Context, tx bun.Tx) error {
				var err error
				a, err = send(ctx, tx, actor, b, Recipient{Email: r.Email, Name: r.Name, Note: r.Note, ExpiresAt: r.ExpiresAt}, origin, now, &batch)
				return err
			})
			if err != nil {
				var we *web.Error
				if !errors.As(err, &we) {
					return nil, err
				}
				r.OK, r.Status, r.Msg = false, "failed", we.Msg
				continue
			}
			r.Status, r.Msg, r.AwardID = "sent", "Sent.", a.ID
			ans.Counts.Sent++
		}
	}
	for _, r := range rows {
		ans.Counts.Total++
		if r.OK {
			ans.Counts.Valid++
		} else {
			ans.Counts.Invalid++
		}
	}
	return ans, nil
}

// flagKnown marks the rows whose address already holds the badge, and notes the ones
// that replace an open award, in two queries.
func (h *Handler) flagKnown(ctx context.Context, badgeID string, rows []Row, now time.Time) error {
	var emails []string
	for _, r := range rows {
		if r.OK {
			emails = append(emails, r.Email)
		}
	}
	holders, open := map[string]bool{}, map[string]bool{}
	for start := 0; start < len(emails); start += 500 {
		chunk := emails[start:min(start+500, len(emails))]
		var hs, os []string
		if err := h.DB.NewSelect().Model((*model.BadgeGrant)(nil)).ColumnExpr("u.email").
			Join("JOIN users AS u ON u.id = badge_grant.user_id").
			Where("u.email IN (?) AND badge_grant.badge_id = ?", bun.List(chunk), badgeID).
			Where("badge_grant.revoked_at IS NULL AND (badge_grant.expires_at IS NULL OR badge_grant.expires_at > ?)", now).
			Scan(ctx, &hs); err != nil && !db.IsNoRows(err) {
			return err
		}
		if err := h.DB.NewSelect().Model((*Award)(nil)).Column("email").
			Where("email IN (?) AND badge_id = ? AND claimed_at IS NULL AND withdrawn_at IS NULL", bun.List(chunk), badgeID).
			Scan(ctx, &os); err != nil && !db.IsNoRows(err) {
			return err
		}
		for _, e := range hs {
			holders[e] = true
		}
		for _, e := range os {
			open[e] = true
		}
	}
	for i := range rows {
		r := &rows[i]
		switch {
		case !r.OK:
		case holders[r.Email]:
			r.OK, r.Status, r.Msg = false, "holder", MsgAlreadyHolds
		case open[r.Email]:
			r.Msg = MsgOpenReplaced
		}
	}
	return nil
}

// Register states.
const (
	StateSent      = "sent"
	StateClaimed   = "claimed"
	StateExpired   = "expired"
	StateWithdrawn = "withdrawn"
)

// RegisterRow is an award in the register (never its token).
type RegisterRow struct {
	ID             string     `json:"_id"`
	BadgeID        string     `json:"badgeId"`
	BadgeName      string     `json:"badgeName"`
	Email          string     `json:"email"`
	Name           string     `json:"name"`
	Note           string     `json:"note"` // the issuer's note in the mail ("" = none)
	State          string     `json:"state"`
	CreatedAt      time.Time  `json:"createdAt"`
	ExpiresAt      time.Time  `json:"expiresAt"` // the claim link
	GrantExpiresAt *time.Time `json:"credentialExpiresAt"`
	ClaimedAt      *time.Time `json:"claimedAt"`
	WithdrawnAt    *time.Time `json:"withdrawnAt"`
	SentCount      int        `json:"sentCount"`
	LastSentAt     *time.Time `json:"lastSentAt"`
	BatchID        *string    `json:"batchId"`
}

func stateOf(a *Award, now time.Time) string {
	switch {
	case a.WithdrawnAt != nil:
		return StateWithdrawn
	case a.ClaimedAt != nil:
		return StateClaimed
	case !now.Before(a.ExpiresAt):
		return StateExpired
	}
	return StateSent
}

// RegisterSorts are the columns the award register sorts by (newest first by default).
var RegisterSorts = []admin.SortCol{{Key: "createdAt", Col: "created_at"}, {Key: "email", Col: "email"},
	{Key: "name", Col: "name"}, {Key: "expiresAt", Col: "expires_at"}}

// RegisterCSVHeader is the register export's first line.
var RegisterCSVHeader = []string{"id", "badge", "email", "name", "state", "sent", "link expires", "credential expires",
	"claimed", "withdrawn", "times sent", "batch", "note"}

// GET /admin/awards?state=&badgeId=&search=&page=&limit=|pageSize=&sort=&format= ->
// {awards, total, page, limit, pages, totalPages, sort}, or every award the filter shows as CSV.
func (h *Handler) register(c fiber.Ctx) error {
	page, err1 := strconv.Atoi(c.Query("page", "1"))
	limit, err2 := strconv.Atoi(c.Query("limit", "20"))
	if err1 != nil || page < 1 {
		return web.BadRequest("page must be a whole number from 1.")
	}
	if err2 != nil || limit < 1 || limit > 100 {
		return web.BadRequest("limit must be a whole number from 1 to 100.")
	}
	pg, msg := admin.ParsePageSize(c.Query("pageSize"), admin.Page{Page: page, Limit: limit})
	if msg != "" {
		return web.BadRequest(msg)
	}
	sort, msg := admin.ParseSort(c.Query("sort"), RegisterSorts, admin.Sort{Key: "createdAt", Col: "created_at", Desc: true})
	if msg != "" {
		return web.BadRequest(msg)
	}
	asCSV, err := admin.WantsCSV(c)
	if err != nil {
		return err
	}
	now := h.now()
	var rows []struct {
		Award     `bun:",extend"`
		BadgeName string `bun:"badge_name"`
	}
	q := h.DB.NewSelect().Model(&rows).ColumnExpr("award.*").ColumnExpr("b.name AS badge_name").
		Join("JOIN badges AS b ON b.id = award.badge_id")
	switch c.Query("state") {
	case "", "all":
	case StateSent:
		q = q.Where("award.claimed_at IS NULL AND award.withdrawn_at IS NULL AND award.expires_at > ?", now)
	case StateClaimed:
		q = q.Where("award.claimed_at IS NOT NULL")
	case StateExpired:
		q = q.Where("award.claimed_at IS NULL AND award.withdrawn_at IS NULL AND award.expires_at <= ?", now)
	case StateWithdrawn:
		q = q.Where("award.withdrawn_at IS NOT NULL")
	default:
		return web.BadRequest("state must be sent, claimed, expired, withdrawn or all.")
	}
	if b := strings.TrimSpace(c.Query("badgeId")); b != "" {
		q = q.Where("award.badge_id = ?", b)
	}
	if s := strings.ToLower(strings.TrimSpace(c.Query("search"))); s != "" {
		if len(s) > 200 {
			return web.BadRequest("The search text must be at most 200 characters.")
		}
		p := "%" + strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(s) + "%"
		q = q.Where(`(lower(award.email) LIKE ? ESCAPE '\' OR lower(award.name) LIKE ? ESCAPE '\')`, p, p)
	}
	q = q.OrderExpr(sort.Order("award"))
	if asCSV {
		// every award the filter shows, in the table's order (a register is at most a few
		// uploads of 1,000 rows; bounded as the other exports are)
		if err := q.Limit(admin.MaxExportRows).Scan(c.Context()); err != nil && !db.IsNoRows(err) {
			return err
		}
		t := admin.NewCSV(RegisterCSVHeader)
		for i := range rows {
			a := &rows[i].Award
			created, expires := a.CreatedAt, a.ExpiresAt
			batch := ""
			if a.BatchID != nil {
				batch = *a.BatchID
			}
			t.Row(a.ID, rows[i].BadgeName, a.Email, a.Name, stateOf(a, now), admin.CSVTime(&created), admin.CSVTime(&expires),
				admin.CSVTime(a.GrantExpiresAt), admin.CSVTime(a.ClaimedAt), admin.CSVTime(a.WithdrawnAt), strconv.Itoa(a.SentCount), batch, a.Note)
		}
		return t.Send(c, "awards")
	}
	limit = pg.Limit
	total, err := q.Limit(int64(limit)).Offset(int64((page - 1) * limit)).ScanAndCount(c.Context())
	if err != nil && !db.IsNoRows(err) {
		return err
	}
	out := make([]RegisterRow, 0, len(rows))
	for i := range rows {
		a := &rows[i].Award
		out = append(out, RegisterRow{ID: a.ID, BadgeID: a.BadgeID, BadgeName: rows[i].BadgeName, Email: a.Email, Name: a.Name, Note: a.Note,
			State: stateOf(a, now), CreatedAt: a.CreatedAt.UTC(), ExpiresAt: a.ExpiresAt.UTC(), GrantExpiresAt: a.GrantExpiresAt,
			ClaimedAt: a.ClaimedAt, WithdrawnAt: a.WithdrawnAt, SentCount: a.SentCount, LastSentAt: a.LastSentAt, BatchID: a.BatchID})
	}
	pages := (int(total) + limit - 1) / limit
	// totalPages as the other admin lists name it (the table's pager reads it); pages as before
	return c.JSON(fiber.Map{"awards": out, "total": total, "page": page, "limit": limit, "pages": pages, "totalPages": pages, "sort": sort.String()})
}

// Messages of the register's actions.
const (
	MsgAwardNotFound    = "Award not found."
	MsgResent           = "Award sent again with a new link. The earlier link no longer works."
	MsgWithdrawnOK      = "Award withdrawn. Its claim link no longer works."
	MsgAlreadyWithdrawn = "This award is already withdrawn."
	MsgClaimedNoChange  = "This award has been claimed; revoke the badge instead."
)

// lockAward reads award id for a change (row-locked on PostgreSQL).
func lockAward(ctx context.Context, tx bun.Tx, id string) (*Award, error) {
	if !model.ValidID(id) {
		return nil, web.NotFound(MsgAwardNotFound)
	}
	var a Award
	q := tx.NewSelect().Model(&a).Where("id = ?", id)
	if db.EngineOf(tx) == db.Postgres {
		q = q.For("UPDATE")
	}
	if err := q.Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgAwardNotFound)
		}
		return nil, err
	}
	return &a, nil
}

// POST /admin/awards/{id}/resend -> {msg}: a new link (the old one stops working), valid
// for TTL again, mailed to the address.
func (h *Handler) resend(c fiber.Ctx) error {
	actor, origin, now := web.Viewer(c), h.Site.Origin(c), h.now()
	err := h.DB.RunInTx(c.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockAward(ctx, tx, c.Params("id"))
		if err != nil {
			return err
		}
		switch {
		case a.ClaimedAt != nil:
			return web.Conflict(MsgLinkUsed)
		case a.WithdrawnAt != nil:
			return web.Conflict(MsgAlreadyWithdrawn)
		}
		if held, err := holds(ctx, tx, a.Email, a.BadgeID, now); err != nil {
			return err
		} else if held {
			return web.Conflict(MsgAlreadyHolds)
		}
		var b model.Badge
		if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
			return err
		}
		before := map[string]any{"expiresAt": a.ExpiresAt, "sentCount": a.SentCount}
		tok := NewToken()
		a.TokenHash, a.ExpiresAt, a.SentCount, a.LastSentAt = HashToken(tok), now.Add(TTL), a.SentCount+1, &now
		if _, err := tx.NewUpdate().Model(a).Column("token_hash", "expires_at", "sent_count", "last_sent_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := mail.Queue(ctx, tx, Mail(a.Email, a.Name, b.Name, a.Note, ClaimURL(origin, tok), a.ExpiresAt).Message()); err != nil {
			return err
		}
		return audit.Write(ctx, tx, actor, "award.resend", "award", a.ID, before, map[string]any{"expiresAt": a.ExpiresAt, "sentCount": a.SentCount})
	})
	if err != nil {
		return err
	}
	if h.Mailer != nil {
		h.Mailer.Kick()
	}
	return c.JSON(fiber.Map{"msg": MsgResent})
}

// POST /admin/awards/{id}/withdraw -> {msg}: the claim link stops working at once.
func (h *Handler) withdraw(c fiber.Ctx) error {
	actor, now := web.Viewer(c), h.now()
	err := h.DB.RunInTx(c.Context(), nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockAward(ctx, tx, c.Params("id"))
		if err != nil {
			return err
		}
		switch {
		case a.ClaimedAt != nil:
			return web.Conflict(MsgClaimedNoChange)
		case a.WithdrawnAt != nil:
			return web.Conflict(MsgAlreadyWithdrawn)
		}
		r, err := tx.NewUpdate().Model((*Award)(nil)).Set("withdrawn_at = ?", now).Set("withdrawn_by = ?", actor.ID).
			Where("id = ? AND claimed_at IS NULL AND withdrawn_at IS NULL", a.ID).Exec(ctx)
		if err != nil {
			return err
		}
		if n, _ := r.RowsAffected(); n != 1 {
			return web.Conflict(MsgClaimedNoChange) // claimed at this very moment
		}
		return audit.Write(ctx, tx, actor, "award.withdraw", "award", a.ID, map[string]any{"state": stateOf(a, now)}, map[string]any{"state": StateWithdrawn})
	})
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"msg": MsgWithdrawnOK})
}
