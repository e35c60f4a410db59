package admin

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gofiber/fiber/v3"
	"github.com/uptrace/bun"

	"meritmark/app/bulk"
	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
	"meritmark/db"
)

// Bulk actions on applications (POST /admin/applications/bulk).
const (
	ActionApprove      = "approve"
	ActionReject       = "reject"
	ActionExtraAttempt = "extra_attempt"
)

// Messages of the bulk actions on applications.
const (
	MsgBulkReasonRequired = "Please give a reason for rejecting these applications."
	MsgBulkAlreadyApprove = "Already approved; nothing changed."
	MsgBulkAlreadyReject  = "Already rejected; nothing changed."
	MsgBulkNoQuiz         = "This badge has no quiz, so there is no attempt to grant."
	MsgBulkIDsOrFilter    = "Send either ids or a filter, not both."
	MsgBulkAttemptsOff    = "Extra attempts cannot be granted here."
	MsgBulkAttemptWaiting = "An extra attempt is already waiting; nothing changed."
)

// AttemptGranter grants a member one extra attempt at a quiz (app/quizadmin's
// GrantAttempt, given by the wiring: Handler.WithAttempts).
type AttemptGranter interface {
	GrantAttempt(ctx context.Context, actor *model.User, quizID, userID string) (*quiz.Eligibility, error)
}

// BulkFilter selects "all that match": the list's status tab and search.
type BulkFilter struct {
	Status string `json:"status"`
	Search string `json:"search"`
}

// BulkInput is the body of POST /admin/applications/bulk.
type BulkInput struct {
	IDs     []string    `json:"ids"`
	Filter  *BulkFilter `json:"filter"`
	Action  string      `json:"action"`
	Reason  string      `json:"reason"`
	Preview bool        `json:"preview"`
}

// MatchingApplicationIDs answers the ids of the applications the filter matches, newest
// first as the list shows them; more than bulk.Max is a 400.
func (s *Service) MatchingApplicationIDs(ctx context.Context, f BulkFilter) ([]string, error) {
	statuses, msg := ParseStatuses(f.Status)
	if msg != "" {
		return nil, web.BadRequest(msg)
	}
	search, msg := ParseSearch(f.Search)
	if msg != "" {
		return nil, web.BadRequest(msg)
	}
	q := s.DB.NewSelect().Model((*model.Application)(nil)).Column("id")
	if len(statuses) > 0 {
		q = q.Where("status IN (?)", bun.List(statuses))
	}
	var ids []string
	if err := applicationSearch(s.DB, q, search).OrderExpr("created_at DESC, id DESC").Limit(bulk.Max+1).Scan(ctx, &ids); err != nil && !db.IsNoRows(err) {
		return nil, err
	}
	if len(ids) > bulk.Max {
		n, err := applicationSearch(s.DB, s.DB.NewSelect().Model((*model.Application)(nil)).Where("status IN (?)", bun.List(orAll(statuses))), search).Count(ctx)
		if err != nil {
			return nil, err
		}
		return nil, web.BadRequest(bulk.TooMany(int(n), "applications"))
	}
	return ids, nil
}

func orAll(statuses []string) []string {
	if len(statuses) > 0 {
		return statuses
	}
	return []string{model.StatusAwaitingPayment, model.StatusPending, model.StatusApproved, model.StatusRejected}
}

// BulkApplications runs action over the applications, each through Approve, Reject or the
// quiz's GrantAttempt in its own transaction; with preview nothing is kept.
func (s *Service) BulkApplications(ctx context.Context, actor *model.User, in BulkInput, origin string) (*bulk.Answer, error) {
	action := strings.TrimSpace(in.Action)
	reason := ""
	switch action {
	case ActionApprove:
	case ActionReject:
		if strings.TrimSpace(in.Reason) == "" {
			return nil, web.BadRequest(MsgBulkReasonRequired)
		}
		r, msg := CleanReason(in.Reason)
		if msg != "" {
			return nil, web.BadRequest(msg)
		}
		reason = r
	case ActionExtraAttempt:
		if s.Attempts == nil {
			return nil, web.BadRequest(MsgBulkAttemptsOff)
		}
	default:
		return nil, web.BadRequest(fmt.Sprintf(bulk.MsgActionInvalid, "approve, reject, extra_attempt"))
	}
	var ids []string
	var err error
	switch {
	case in.Filter != nil && len(in.IDs) > 0:
		return nil, web.BadRequest(MsgBulkIDsOrFilter)
	case in.Filter != nil:
		if ids, err = s.MatchingApplicationIDs(ctx, *in.Filter); err != nil {
			return nil, err
		}
		if len(ids) == 0 {
			return nil, web.BadRequest("No application matches the filter.")
		}
	default:
		if ids, err = bulk.IDs(in.IDs, "applications"); err != nil {
			return nil, err
		}
	}
	ans := bulk.Run(ctx, ids, in.Preview, func(ctx context.Context, id string) (bulk.Outcome, error) {
		return s.bulkStep(ctx, actor, action, reason, id, origin)
	})
	return &ans, nil
}

// bulkStep is one application: its label, then the single-item use case.
func (s *Service) bulkStep(ctx context.Context, actor *model.User, action, reason, id, origin string) (bulk.Outcome, error) {
	var out bulk.Outcome
	if !model.ValidID(id) {
		return out, web.NotFound(MsgApplicationMissing)
	}
	var a model.Application
	if err := s.DB.NewSelect().Model(&a).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return out, web.NotFound(MsgApplicationMissing)
		}
		return out, err
	}
	var b model.Badge
	if err := s.DB.NewSelect().Model(&b).Column("id", "name").Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
		return out, err
	}
	out.Label = a.FullName + " — " + b.Name
	switch action {
	case ActionApprove:
		if a.Status == model.StatusApproved {
			return out, &bulk.Unchanged{Msg: MsgBulkAlreadyApprove}
		}
		out.Done, out.Will = MsgApproved, "Will be approved."
		res, err := s.Approve(ctx, actor, id, false, false, origin)
		if err != nil {
			return out, s.already(ctx, id, model.StatusApproved, MsgBulkAlreadyApprove, err)
		}
		if res.WaitingForEmail {
			out.Done = MsgApprovedWaiting
		}
		return out, nil
	case ActionReject:
		if a.Status == model.StatusRejected {
			return out, &bulk.Unchanged{Msg: MsgBulkAlreadyReject}
		}
		out.Done, out.Will = MsgRejected, "Will be rejected."
		if a.Status == model.StatusApproved {
			out.Will = "Will be rejected, and the badge granted by it revoked."
		}
		_, err := s.Reject(ctx, actor, id, reason, origin)
		if err != nil {
			return out, s.already(ctx, id, model.StatusRejected, MsgBulkAlreadyReject, err)
		}
		return out, nil
	}
	var quizID []string
	if err := s.DB.NewSelect().Model((*model.Quiz)(nil)).Column("id").Where("badge_id = ?", a.BadgeID).Limit(1).Scan(ctx, &quizID); err != nil && !db.IsNoRows(err) {
		return out, err
	}
	if len(quizID) == 0 {
		return out, web.Conflict(MsgBulkNoQuiz)
	}
	out.Done, out.Will = "An extra attempt was granted.", "Will get an extra attempt at the quiz."
	_, err := s.Attempts.GrantAttempt(ctx, actor, quizID[0], a.UserID)
	var we *web.Error
	if errors.As(err, &we) && we.Msg == quiz.MsgGrantWaiting {
		return out, &bulk.Unchanged{Msg: MsgBulkAttemptWaiting}
	}
	return out, err
}

// already turns a refusal caused by a concurrent run of the same action (a retry racing
// the first call) into "unchanged"; any other error stays as it is.
func (s *Service) already(ctx context.Context, id, status, msg string, err error) error {
	var we *web.Error
	if !errors.As(err, &we) || we.Status != 409 {
		return err
	}
	var now string
	if e := s.DB.NewSelect().Model((*model.Application)(nil)).Column("status").Where("id = ?", id).Scan(ctx, &now); e == nil && now == status {
		return &bulk.Unchanged{Msg: msg}
	}
	return err
}

// POST /admin/applications/bulk {ids | filter, action, reason, preview} ->
// {results: [{id, ok, msg, label, emailed}], batchId, preview, counts}.
func (h *Handler) bulk(c fiber.Ctx) error {
	var in BulkInput
	if err := web.BindJSON(c, &in); err != nil {
		return err
	}
	ans, err := h.svc.BulkApplications(c.Context(), web.Viewer(c), in, h.site.Origin(c))
	if err != nil {
		return err
	}
	if !in.Preview {
		h.svc.kick()
	}
	return c.JSON(ans)
}
