package grant

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/bulk"
	"meritmark/app/model"
	"meritmark/app/web"
	"meritmark/db"
)

// Bulk actions on grants (POST /admin/grants/bulk).
const (
	ActionRevoke      = "revoke"
	ActionSetExpiry   = "set_expiry"
	ActionClearExpiry = "clear_expiry"
)

// RevocationCategories are the reasons an administrator's revocation (one grant or in
// bulk) names: the stored reason is the label, then ": " and the admin's detail when
// given ("other" needs the detail); the public verification shows the label only.
var RevocationCategories = []struct{ Key, Label string }{
	{"issued_in_error", "Issued in error"},
	{"misconduct", "Policy violation or misconduct"},
	{"fraud", "Fraudulent or misrepresented evidence"},
	{"superseded", "Superseded by a newer credential"},
	{"other", "Other"},
}

// Messages of the bulk grant actions.
const (
	MsgCategoryInvalid   = "category must be one of: issued_in_error, misconduct, fraud, superseded, other."
	MsgOtherNeedsDetail  = "Please describe the reason when the category is Other."
	MsgBulkAlreadyRevoke = "Already revoked; nothing changed."
	MsgBulkSameExpiry    = "The expiry is already so; nothing changed."
	MsgBulkRevokedExpiry = "This badge is revoked; its expiry is not changed."
)

// The category of the revocations made by deleting an account (not one an administrator
// chooses).
const (
	CategoryAccountDeleted = "account_deleted"
	LabelAccountDeleted    = "holder deleted the account"
)

// CategoryLabel is the label of category key ("" for none or an unknown key): all that
// the public verification says of a revocation.
func CategoryLabel(key string) string {
	if key == CategoryAccountDeleted {
		return LabelAccountDeleted
	}
	for _, c := range RevocationCategories {
		if c.Key == key {
			return c.Label
		}
	}
	return ""
}

// CategoryReason is the revocation reason of category key with detail, or a message.
func CategoryReason(key, detail string) (string, string) {
	detail = strings.Join(strings.Fields(detail), " ")
	for _, c := range RevocationCategories {
		if c.Key != strings.TrimSpace(key) {
			continue
		}
		r := c.Label
		switch {
		case detail != "" && c.Key == "other":
			r = detail
		case detail != "":
			r += ": " + detail
		case c.Key == "other":
			return "", MsgOtherNeedsDetail
		}
		if len([]rune(r)) > MaxReason {
			return "", MsgReasonTooLong
		}
		return r, ""
	}
	return "", MsgCategoryInvalid
}

// GrantFilter selects "all that match": a badge and/or a state (active, revoked, expired).
type GrantFilter struct {
	BadgeID string `json:"badgeId"`
	State   string `json:"state"`
}

// BulkInput is the body of POST /admin/grants/bulk.
type BulkInput struct {
	IDs       []string        `json:"ids"`
	Filter    *GrantFilter    `json:"filter"`
	Action    string          `json:"action"`
	Category  string          `json:"category"`
	Reason    string          `json:"reason"`
	ExpiresAt json.RawMessage `json:"expiresAt"`
	Preview   bool            `json:"preview"`
}

// MatchingIDs answers the ids of the grants the filter matches (newest first).
func (s *Admin) MatchingIDs(ctx context.Context, f GrantFilter) ([]string, error) {
	q := s.DB.NewSelect().Model((*model.BadgeGrant)(nil))
	if b := strings.TrimSpace(f.BadgeID); b != "" {
		if !model.ValidID(b) {
			return nil, web.BadRequest("badgeId is not a valid id.")
		}
		q = q.Where("badge_id = ?", b)
	}
	now := model.Now()
	switch strings.TrimSpace(f.State) {
	case "", "all":
	case "active":
		q = q.Where("revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)", now)
	case "revoked":
		q = q.Where("revoked_at IS NOT NULL")
	case "expired":
		q = q.Where("revoked_at IS NULL AND expires_at <= ?", now)
	default:
		return nil, web.BadRequest("state must be active, revoked, expired or all.")
	}
	n, err := q.Count(ctx)
	if err != nil {
		return nil, err
	}
	if n > bulk.Max {
		return nil, web.BadRequest(bulk.TooMany(int(n), "grants"))
	}
	var ids []string
	if err := q.Column("id").OrderExpr("granted_at DESC, id DESC").Scan(ctx, &ids); err != nil && !db.IsNoRows(err) {
		return nil, err
	}
	return ids, nil
}

// Bulk runs the action over the grants, each through Revoke or SetExpiry in its own
// transaction; with preview nothing is kept.
func (s *Admin) Bulk(ctx context.Context, actor *model.User, in BulkInput, origin string) (*bulk.Answer, error) {
	action := strings.TrimSpace(in.Action)
	var reason string
	var at *time.Time
	switch action {
	case ActionRevoke:
		r, msg := CategoryReason(in.Category, in.Reason)
		if msg != "" {
			return nil, web.BadRequest(msg)
		}
		reason = r
	case ActionSetExpiry:
		var v string
		if len(in.ExpiresAt) == 0 || string(in.ExpiresAt) == "null" {
			return nil, web.BadRequest(MsgExpiryRequired)
		}
		if err := json.Unmarshal(in.ExpiresAt, &v); err != nil {
			return nil, web.BadRequest(MsgExpiryInvalid)
		}
		t, ok := ParseExpiry(v)
		if !ok {
			return nil, web.BadRequest(MsgExpiryInvalid)
		}
		at = &t
	case ActionClearExpiry:
	default:
		return nil, web.BadRequest(fmt.Sprintf(bulk.MsgActionInvalid, "revoke, set_expiry, clear_expiry"))
	}
	var ids []string
	var err error
	switch {
	case in.Filter != nil && len(in.IDs) > 0:
		return nil, web.BadRequest("Send either ids or a filter, not both.")
	case in.Filter != nil:
		if ids, err = s.MatchingIDs(ctx, *in.Filter); err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, web.BadRequest("No grant matches the filter.")
		}
	default:
		if ids, err = bulk.IDs(in.IDs, "grants"); err != nil {
			return nil, err
		}
	}
	ans := bulk.Run(ctx, ids, in.Preview, func(ctx context.Context, id string) (bulk.Outcome, error) {
		return s.bulkStep(ctx, actor, action, strings.TrimSpace(in.Category), reason, at, id, origin)
	})
	if !in.Preview && s.Mailer != nil {
		s.Mailer.Kick()
	}
	return &ans, nil
}

func (s *Admin) bulkStep(ctx context.Context, actor *model.User, action, category, reason string, at *time.Time, id, origin string) (bulk.Outcome, error) {
	var out bulk.Outcome
	if !model.ValidID(id) {
		return out, web.NotFound(MsgGrantNotFound)
	}
	var row struct {
		model.BadgeGrant `bun:",extend"`
		Holder           string `bun:"holder"`
		BadgeName        string `bun:"badge_name"`
	}
	if err := s.DB.NewSelect().Model(&row).ColumnExpr("badge_grant.*").ColumnExpr("u.name AS holder").ColumnExpr("b.name AS badge_name").
		Join("JOIN users AS u ON u.id = badge_grant.user_id").Join("JOIN badges AS b ON b.id = badge_grant.badge_id").
		Where("badge_grant.id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return out, web.NotFound(MsgGrantNotFound)
		}
		return out, err
	}
	g := &row.BadgeGrant
	out.Label = row.Holder + " — " + row.BadgeName
	switch action {
	case ActionRevoke:
		if g.RevokedAt != nil {
			return out, &bulk.Unchanged{Msg: MsgBulkAlreadyRevoke}
		}
		out.Done, out.Will = MsgRevoked, "Will be revoked (the credential stops verifying)."
		_, err := s.Revoke(ctx, actor, id, category, reason, origin)
		if we := (*web.Error)(nil); errors.As(err, &we) && we.Msg == MsgAlreadyRevoked {
			return out, &bulk.Unchanged{Msg: MsgBulkAlreadyRevoke} // revoked by a concurrent call
		}
		return out, err
	}
	if g.RevokedAt != nil {
		return out, web.Conflict(MsgBulkRevokedExpiry)
	}
	if sameTime(g.ExpiresAt, at) {
		return out, &bulk.Unchanged{Msg: MsgBulkSameExpiry}
	}
	if at == nil {
		out.Done, out.Will = MsgExpiryCleared, "The expiry will be cleared and the credential signed again."
	} else {
		out.Done, out.Will = MsgExpirySet, "The expiry will be set to "+at.UTC().Format("Jan 2, 2006")+" and the credential signed again."
	}
	_, err := s.SetExpiry(ctx, actor, id, at, origin)
	return out, err
}

func sameTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// POST /admin/grants/bulk {ids | filter, action, category, reason, expiresAt, preview} ->
// {results: [{id, ok, msg, label, emailed}], batchId, preview, counts}.
func (h *AdminHandler) bulk(c fiber.Ctx) error {
	var in BulkInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	ans, err := h.svc.Bulk(c.Context(), web.Viewer(c), in, h.site.Origin(c))
	if err != nil {
		return err
	}
	return c.JSON(ans)
}
