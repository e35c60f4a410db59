package admin

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
	"meritmark/app/quiz"
	"meritmark/app/web"
	"meritmark/db"
)

// ApplicationList is the answer of GET /admin/applications.
type ApplicationList struct {
	Applications []ApplicationJSON `json:"applications"`
	Counts       map[string]int64  `json:"counts"`
	PageInfo
}

// ListApplications pages the applications in statuses (nil = all) matching search, with
// the per-status counts (matching search) the review tabs show.
func (s *Service) ListApplications(ctx context.Context, statuses []string, search string, pg Page) (*ApplicationList, error) {
	// the review tabs' counts first: the page's total is their sum over its statuses (one
	// pass over the matching rows, not a second count: a search reads every row), and
	// how many there are tells the page query how to read (see applicationsQuery)
	counts, err := s.st.statusCounts(ctx, s.DB, search)
	if err != nil {
		return nil, err
	}
	var total, matching int64
	for _, n := range counts {
		matching += n
	}
	if len(statuses) == 0 {
		total = matching
	}
	for _, st := range statuses {
		total += counts[st]
	}
	// walking the sort's index finds a row for the page in every N/total read (N rows in
	// all), so a page costs (offset+limit)·N/total reads; reading the statuses' rows
	// costs their share, N·total/matching (statuses and search taken as independent)
	walk := int64(pg.Offset()+pg.Limit)*matching < total*total
	apps, _, err := s.st.applicationsOnly(ctx, s.DB, statuses, search, pg, walk)
	if err != nil {
		return nil, err
	}
	items, err := s.buildApplications(ctx, s.DB, apps)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	var all int64
	for _, st := range []string{model.StatusAwaitingPayment, model.StatusPending, model.StatusApproved, model.StatusRejected} {
		out[st] = counts[st]
		all += counts[st]
	}
	out[ReviewGroup] = counts[model.StatusPending] + counts[model.StatusAwaitingPayment]
	out["all"] = all
	return &ApplicationList{Applications: items, Counts: out, PageInfo: pg.Info(total)}, nil
}

// ApplicationDetail is one application with its review history.
type ApplicationDetail struct {
	Application ApplicationJSON `json:"application"`
	History     []AuditJSON     `json:"history"`
}

// GetApplication answers one application and the audit entries about it.
func (s *Service) GetApplication(ctx context.Context, id string) (*ApplicationDetail, error) {
	var a model.Application
	if err := s.DB.NewSelect().Model(&a).Where("id = ?", id).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgApplicationMissing)
		}
		return nil, err
	}
	items, err := s.buildApplications(ctx, s.DB, []model.Application{a})
	if err != nil {
		return nil, err
	}
	hist, _, err := s.st.audit(ctx, s.DB, "", id, "", Page{Page: 1, Limit: MaxLimit})
	if err != nil {
		return nil, err
	}
	hj, err := s.auditJSON(ctx, hist)
	if err != nil {
		return nil, err
	}
	return &ApplicationDetail{Application: items[0], History: hj}, nil
}

// buildApplications loads what the list shows with each application (user, badge,
// payment, files, grant, reviewer) in a few batched queries.
func (s *Service) buildApplications(ctx context.Context, d bun.IDB, apps []model.Application) ([]ApplicationJSON, error) {
	out := make([]ApplicationJSON, 0, len(apps))
	if len(apps) == 0 {
		return out, nil
	}
	var appIDs, userIDs, badgeIDs []string
	for _, a := range apps {
		appIDs = append(appIDs, a.ID)
		userIDs = append(userIDs, a.UserID)
		badgeIDs = append(badgeIDs, a.BadgeID)
		if a.ReviewedBy != nil {
			userIDs = append(userIDs, *a.ReviewedBy)
		}
	}
	users, err := s.st.usersByID(ctx, d, userIDs)
	if err != nil {
		return nil, err
	}
	badges, err := s.st.badgesByID(ctx, d, badgeIDs)
	if err != nil {
		return nil, err
	}
	payments, err := s.st.paymentsByApplication(ctx, d, appIDs)
	if err != nil {
		return nil, err
	}
	files, err := s.st.filesByApplication(ctx, d, appIDs)
	if err != nil {
		return nil, err
	}
	grants, err := s.st.grantsByApplication(ctx, d, appIDs)
	if err != nil {
		return nil, err
	}
	var attemptIDs []string
	for _, a := range apps {
		if a.QuizAttemptID != nil {
			attemptIDs = append(attemptIDs, *a.QuizAttemptID)
		}
	}
	integrity, err := quiz.AttemptIntegrities(ctx, d, attemptIDs)
	if err != nil {
		return nil, err
	}
	renews, err := s.st.renewedGrants(ctx, d, apps, grants)
	if err != nil {
		return nil, err
	}
	for _, a := range apps {
		j := ApplicationJSON{
			ID: a.ID, User: applicantJSON(users[a.UserID]), Type: a.Type, Status: a.Status, PaymentStatus: a.PaymentStatus,
			PaymentCompletedAt: utc(a.PaymentCompletedAt), Price: dollars(a.PriceCents), CreatedAt: a.CreatedAt.UTC(),
			UpdatedAt: a.UpdatedAt.UTC(), ReviewedAt: utc(a.ReviewedAt), RejectionReason: a.RejectionReason,
			QuizScore: a.QuizScore, ProofFiles: []FileJSON{}, Description: a.Description, FullName: a.FullName,
			Email: a.Email, Position: a.Position, LinkedinURL: a.LinkedIn, PortfolioURL: a.Portfolio,
			Grant: grantRef(grants[a.ID]), Renews: grantRef(renews[a.ID]),
		}
		if a.QuizAttemptID != nil {
			j.Integrity = integrity[*a.QuizAttemptID]
		}
		// approved without a completed payment: only Grant Free does that
		j.PaymentWaived = a.PaymentStatus != model.PaymentCompleted && (a.Status == model.StatusApproved || grants[a.ID] != nil)
		if u := users[a.UserID]; u != nil && !u.EmailVerified() && a.Status == model.StatusApproved && grants[a.ID] == nil {
			j.WaitingForEmail = true
		}
		if b := badges[a.BadgeID]; b != nil {
			j.Badge = &BadgeRef{ID: b.ID, Name: b.Name, Type: b.Type, Price: dollars(b.PriceCents), Category: b.Category, Level: b.Level}
		}
		if a.ReviewedBy != nil {
			if r := users[*a.ReviewedBy]; r != nil {
				j.ReviewedBy = &Ref{ID: r.ID, Name: r.Name, Email: r.Email}
			}
		}
		j.PaymentID = paymentRef(choosePayment(a, payments[a.ID]))
		for _, f := range files[a.ID] {
			j.ProofFiles = append(j.ProofFiles, FileJSON{ID: f.ID, OriginalName: f.OriginalName, Kind: f.Kind,
				ContentType: f.ContentType, Size: f.Size,
				DownloadURL: web.APIBase + "/applications/" + a.ID + "/files/" + f.ID})
		}
		out = append(out, j)
	}
	return out, nil
}

// choosePayment picks the application's payment: the one it points at, else the latest
// completed one, else the latest (ps is newest first).
func choosePayment(a model.Application, ps []model.Payment) *model.Payment {
	if a.PaymentID != nil {
		for i := range ps {
			if ps[i].ID == *a.PaymentID {
				return &ps[i]
			}
		}
	}
	for i := range ps {
		if ps[i].Status == model.PaymentCompleted {
			return &ps[i]
		}
	}
	if len(ps) > 0 {
		return &ps[0]
	}
	return nil
}

// lockApplication is model.LockApplication with the back office's 404 for a missing one.
func lockApplication(ctx context.Context, tx bun.Tx, id string) (*model.Application, error) {
	a, err := model.LockApplication(ctx, tx, id)
	if db.IsNoRows(err) {
		return nil, web.NotFound(MsgApplicationMissing)
	}
	return a, err
}

// appState is an application as the audit log records it.
type appState struct {
	Status          string     `json:"status"`
	PaymentStatus   string     `json:"paymentStatus"`
	RejectionReason string     `json:"rejectionReason"`
	ReviewedAt      *time.Time `json:"reviewedAt"`
	ReviewedBy      *string    `json:"reviewedBy"`
	Grant           *grantRefA `json:"grant"`
}

type grantRefA struct {
	ID                   string     `json:"id"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason,omitempty"`
}

func stateOf(a *model.Application, g *model.BadgeGrant) appState {
	st := appState{Status: a.Status, PaymentStatus: a.PaymentStatus, RejectionReason: a.RejectionReason,
		ReviewedAt: utc(a.ReviewedAt), ReviewedBy: a.ReviewedBy}
	if g != nil {
		st.Grant = &grantRefA{ID: g.ID, VerificationID: g.VerificationID, PublicVerificationID: g.PublicVerificationID,
			RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason}
	}
	return st
}

func currentGrant(ctx context.Context, tx bun.IDB, appID string) (*model.BadgeGrant, error) {
	var g model.BadgeGrant
	if err := tx.NewSelect().Model(&g).Where("application_id = ?", appID).Limit(1).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, nil
		}
		return nil, err
	}
	return &g, nil
}
