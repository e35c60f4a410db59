package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/application"
	"meritmark/app/grant"
	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/pagecache"
	"meritmark/app/storage"
	"meritmark/app/web"
	"meritmark/db"
)

// Service is the back office's use cases; it owns their transactions.
type Service struct {
	DB      *bun.DB
	Storage storage.Store
	Mailer  *mail.Worker
	st      store
}

// NewService makes the service.
func NewService(d *bun.DB, s storage.Store, m *mail.Worker) *Service {
	return &Service{DB: d, Storage: s, Mailer: m}
}

func (s *Service) kick() {
	if s.Mailer != nil {
		s.Mailer.Kick()
	}
}

// ---- applications ----

// ApplicationList is the answer of GET /admin/applications.
type ApplicationList struct {
	Applications []ApplicationJSON `json:"applications"`
	Counts       map[string]int64  `json:"counts"`
	PageInfo
}

// ListApplications pages the applications in statuses (nil = all) matching search, with
// the per-status counts (matching search) the review tabs show.
func (s *Service) ListApplications(ctx context.Context, statuses []string, search string, pg Page) (*ApplicationList, error) {
	apps, total, err := s.st.applications(ctx, s.DB, statuses, search, pg)
	if err != nil {
		return nil, err
	}
	items, err := s.buildApplications(ctx, s.DB, apps)
	if err != nil {
		return nil, err
	}
	counts, err := s.st.statusCounts(ctx, s.DB, search)
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
	for _, a := range apps {
		j := ApplicationJSON{
			ID: a.ID, User: applicantJSON(users[a.UserID]), Type: a.Type, Status: a.Status, PaymentStatus: a.PaymentStatus,
			PaymentCompletedAt: utc(a.PaymentCompletedAt), Price: dollars(a.PriceCents), CreatedAt: a.CreatedAt.UTC(),
			UpdatedAt: a.UpdatedAt.UTC(), ReviewedAt: utc(a.ReviewedAt), RejectionReason: a.RejectionReason,
			QuizScore: a.QuizScore, ProofFiles: []FileJSON{}, Description: a.Description, FullName: a.FullName,
			Email: a.Email, Position: a.Position, LinkedinURL: a.LinkedIn, PortfolioURL: a.Portfolio,
			Grant: grantRef(grants[a.ID]),
		}
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

// lockApplication reads the application and holds its row until the transaction ends.
func lockApplication(ctx context.Context, tx bun.Tx, id string) (*model.Application, error) {
	var a model.Application
	if err := forUpdate(tx, tx.NewSelect().Model(&a).Where("id = ?", id)).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgApplicationMissing)
		}
		return nil, err
	}
	return &a, nil
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

// ReviewResult is what an approval or rejection did.
type ReviewResult struct {
	Application ApplicationJSON `json:"application"`
	Created     bool            `json:"grantCreated"`
	Restored    bool            `json:"grantRestored"`
	Revoked     bool            `json:"grantRevoked"`
	// WaitingForEmail: approved, but the grant waits until the applicant confirms their
	// e-mail address.
	WaitingForEmail bool `json:"waitingForEmailVerification"`
}

// Approve approves application id by actor in one transaction: the lifecycle moves the
// status (refusing an unpaid application unless grantFree), the application's one grant
// is issued (or restored after a rejection; never a second one), the review is stamped,
// the applicant is e-mailed when the badge becomes theirs, and the audit log records it.
//
// A revoked grant (by a rejection or by Revoke in User Management) comes back only with
// restore set: the admin confirmed it knowing the revocation reason (else 409).
func (s *Service) Approve(ctx context.Context, actor *model.User, id string, grantFree, restore bool, origin string) (*ReviewResult, error) {
	var res ReviewResult
	var app *model.Application
	mailed := false
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockApplication(ctx, tx, id)
		if err != nil {
			return err
		}
		ev := application.EventApprove
		if grantFree {
			ev = application.EventGrantFree
		}
		next, err := application.Next(a.Status, a.PaymentStatus, ev)
		if errors.Is(err, application.ErrPaymentRequired) {
			return web.Conflict(MsgPaymentRequired)
		}
		if err != nil {
			return web.Conflict("This application cannot be approved from its current status.")
		}
		// hold the applicant's row too: approvals for one user run one after another, so
		// the "already holds this badge" check below cannot race
		var u model.User
		if err := forUpdate(tx, tx.NewSelect().Model(&u).Where("id = ?", a.UserID)).Scan(ctx); err != nil {
			return fmt.Errorf("applicant: %w", err)
		}
		var b model.Badge
		if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
			return fmt.Errorf("badge: %w", err)
		}
		now := model.Now()
		held, err := tx.NewSelect().Model((*model.BadgeGrant)(nil)).
			Where("user_id = ? AND badge_id = ?", a.UserID, a.BadgeID).
			Where("revoked_at IS NULL").
			Where("(expires_at IS NULL OR expires_at > ?)", grant.HeldUntil(now)). // a renewal may be approved
			Where("(application_id IS NULL OR application_id <> ?)", a.ID).Count(ctx)
		if err != nil {
			return err
		}
		if held > 0 {
			return web.Conflict(MsgAlreadyHolds)
		}
		g0, err := currentGrant(ctx, tx, a.ID)
		if err != nil {
			return err
		}
		if g0 != nil && g0.RevokedAt != nil && !restore {
			return web.Conflict(RestoreConfirmMsg(g0.RevocationReason))
		}
		before := stateOf(a, g0)

		a.Status, a.RejectionReason = next, ""
		a.ReviewedAt, a.ReviewedBy, a.UpdatedAt = &now, &actor.ID, now
		if _, err := tx.NewUpdate().Model(a).Column("status", "rejection_reason", "reviewed_at", "reviewed_by", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		// no credential names an address its holder has not proven: the grant waits, and
		// is issued when the applicant confirms the address (app/auth)
		if !u.EmailVerified() {
			res.WaitingForEmail = true
			if err := record(ctx, tx, actor, "application.approve", "application", a.ID, before, stateOf(a, g0)); err != nil {
				return err
			}
			app = a
			return nil
		}
		r, err := grant.Issue(ctx, tx, grant.Input{Application: a, Badge: &b, GrantedBy: actor.ID, Now: now, Origin: origin})
		if err != nil {
			return err
		}
		res.Created, res.Restored = r.Created, r.Restored
		if r.Created || r.Restored {
			if err := mail.Queue(ctx, tx, approvedMail(&u, &b, r.Grant, origin)); err != nil {
				return err
			}
			mailed = true
		}
		action := "application.approve"
		if grantFree {
			action = "application.grant_free"
		}
		if err := record(ctx, tx, actor, action, "application", a.ID, before, stateOf(a, r.Grant)); err != nil {
			return err
		}
		app = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.finishReview(ctx, &res, app, mailed)
}

// Reject rejects application id with reason (already cleaned) in one transaction; when
// the application had been approved its grant is revoked with the same reason.
func (s *Service) Reject(ctx context.Context, actor *model.User, id, reason, origin string) (*ReviewResult, error) {
	var res ReviewResult
	var app *model.Application
	mailed := false
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		a, err := lockApplication(ctx, tx, id)
		if err != nil {
			return err
		}
		next, err := application.Next(a.Status, a.PaymentStatus, application.EventReject)
		if err != nil {
			return web.Conflict("This application cannot be rejected from its current status.")
		}
		g0, err := currentGrant(ctx, tx, a.ID)
		if err != nil {
			return err
		}
		before := stateOf(a, g0)
		wasRejected := a.Status == model.StatusRejected
		now := model.Now()
		a.Status, a.RejectionReason = next, reason
		a.ReviewedAt, a.ReviewedBy, a.UpdatedAt = &now, &actor.ID, now
		if _, err := tx.NewUpdate().Model(a).Column("status", "rejection_reason", "reviewed_at", "reviewed_by", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		g := g0
		if g0 != nil && g0.RevokedAt == nil {
			if g, err = grant.Revoke(ctx, tx, a.ID, reason, now); err != nil {
				return err
			}
			res.Revoked = true
		}
		if !wasRejected {
			var u model.User
			var b model.Badge
			if err := tx.NewSelect().Model(&u).Where("id = ?", a.UserID).Scan(ctx); err != nil {
				return err
			}
			if err := tx.NewSelect().Model(&b).Where("id = ?", a.BadgeID).Scan(ctx); err != nil {
				return err
			}
			if err := mail.Queue(ctx, tx, rejectedMail(&u, &b, reason, res.Revoked, origin)); err != nil {
				return err
			}
			mailed = true
		}
		if err := record(ctx, tx, actor, "application.reject", "application", a.ID, before, stateOf(a, g)); err != nil {
			return err
		}
		app = a
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.finishReview(ctx, &res, app, mailed)
}

// finishReview runs after a review committed: it wakes the mailer when a message was
// queued and answers the application as the dashboard shows it.
func (s *Service) finishReview(ctx context.Context, res *ReviewResult, app *model.Application, mailed bool) (*ReviewResult, error) {
	if mailed {
		s.kick()
	}
	items, err := s.buildApplications(ctx, s.DB, []model.Application{*app})
	if err != nil {
		return nil, err
	}
	res.Application = items[0]
	return res, nil
}

func approvedMail(u *model.User, b *model.Badge, g *model.BadgeGrant, origin string) mail.Message {
	link := origin + "/verify/" + g.PublicVerificationID
	text := fmt.Sprintf("Hi %s,\n\nGood news: your application for the %s badge has been approved, and the badge is now on your profile.\n\n"+
		"Verification ID: %s\nShare or verify it: %s\nYour profile: %s/profile\n\nCongratulations!\nThe %s team\n",
		u.Name, b.Name, g.VerificationID, link, origin, web.SiteName)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hi %s,</p><p>Good news: your application for the <strong>%s</strong> badge has been approved, and the badge is now on your profile.</p>`+
		`<p>Verification ID: <code>%s</code><br><a href="%s">Share or verify your badge</a> &middot; <a href="%s/profile">Your profile</a></p><p>Congratulations!<br>The %s team</p>`,
		h(u.Name), h(b.Name), h(g.VerificationID), h(link), h(origin), web.SiteName)
	return mail.Message{To: u.Email, Subject: fmt.Sprintf("Your %s badge has been granted", b.Name), Text: text, HTML: body}
}

func rejectedMail(u *model.User, b *model.Badge, reason string, revoked bool, origin string) mail.Message {
	lead := fmt.Sprintf("your application for the %s badge was not approved.", b.Name)
	if revoked {
		lead = fmt.Sprintf("your %s badge has been withdrawn after a further review.", b.Name)
	}
	again := origin + "/badges/" + b.ID
	text := fmt.Sprintf("Hi %s,\n\nWe are sorry: %s\n\nReason: %s\n\nYou can apply again at any time: %s\n\nThe %s team\n",
		u.Name, lead, reason, again, web.SiteName)
	h := html.EscapeString
	body := fmt.Sprintf(`<p>Hi %s,</p><p>We are sorry: %s</p><p>Reason: %s</p><p><a href="%s">You can apply again at any time.</a></p><p>The %s team</p>`,
		h(u.Name), h(lead), h(reason), h(again), web.SiteName)
	return mail.Message{To: u.Email, Subject: fmt.Sprintf("Update on your %s badge application", b.Name), Text: text, HTML: body}
}

// ---- users ----

// UserList is the answer of GET /admin/users.
type UserList struct {
	Users []UserJSON `json:"users"`
	Stats UserStats  `json:"stats"`
	PageInfo
}

// UserStats are User Management's stat cards.
type UserStats struct {
	TotalUsers        int64 `json:"totalUsers"`
	TotalAdmins       int64 `json:"totalAdmins"`
	TotalBadgesEarned int64 `json:"totalBadgesEarned"` // grants in force
	VerificationIDs   int64 `json:"verificationIds"`   // every verification id issued
}

// ListUsers pages the users matching search (and role, when given) with their grants.
func (s *Service) ListUsers(ctx context.Context, role, search string, pg Page) (*UserList, error) {
	us, total, err := s.st.users(ctx, s.DB, role, search, pg)
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(us))
	for i := range us {
		ids[i] = us[i].ID
	}
	grants, err := s.st.grantsByUser(ctx, s.DB, ids)
	if err != nil {
		return nil, err
	}
	out := &UserList{Users: make([]UserJSON, 0, len(us)), PageInfo: pg.Info(total)}
	for i := range us {
		out.Users = append(out.Users, userJSON(&us[i], grants[us[i].ID]))
	}
	if out.Stats.TotalUsers, err = s.DB.NewSelect().Model((*model.User)(nil)).Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.TotalAdmins, err = s.DB.NewSelect().Model((*model.User)(nil)).Where("role = ?", model.RoleAdmin).Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.TotalBadgesEarned, err = s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("revoked_at IS NULL").Count(ctx); err != nil {
		return nil, err
	}
	if out.Stats.VerificationIDs, err = s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("verification_id <> ''").Count(ctx); err != nil {
		return nil, err
	}
	return out, nil
}

func (s *Service) userWithGrants(ctx context.Context, u *model.User) (UserJSON, error) {
	grants, err := s.st.grantsByUser(ctx, s.DB, []string{u.ID})
	if err != nil {
		return UserJSON{}, err
	}
	return userJSON(u, grants[u.ID]), nil
}

// userState is a user as the audit log records it (no secrets).
type userState struct {
	Name          string `json:"name"`
	Email         string `json:"email"`
	Role          string `json:"role"`
	Position      string `json:"position"`
	LinkedIn      string `json:"linkedin"`
	Portfolio     string `json:"portfolio"`
	ProfilePicKey string `json:"profilePicKey,omitempty"`
}

func userStateOf(u *model.User) userState {
	return userState{Name: u.Name, Email: u.Email, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, ProfilePicKey: u.ProfilePicKey}
}

func lockUser(ctx context.Context, tx bun.Tx, id string) (*model.User, error) {
	var u model.User
	if err := forUpdate(tx, tx.NewSelect().Model(&u).Where("id = ?", id)).Scan(ctx); err != nil {
		if db.IsNoRows(err) {
			return nil, web.NotFound(MsgUserMissing)
		}
		return nil, err
	}
	return &u, nil
}

// UpdateUser applies an admin's edit (already cleaned) to user id in one transaction,
// enforcing the role rules (no self-demotion, never zero admins) and e-mail uniqueness.
// Profile changes and a role change are audited as separate entries.
func (s *Service) UpdateUser(ctx context.Context, actor *model.User, id string, e UserEdit) (*UserJSON, error) {
	var updated *model.User
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		admins := 0
		if e.Role != nil && *e.Role != model.RoleAdmin {
			// A possible demotion: lock every admin row first, always in id order (so two
			// admins demoting each other wait for one another instead of deadlocking);
			// the one who waited counts again after the other's commit.
			var ids []string
			q := tx.NewSelect().Model((*model.User)(nil)).Column("id").Where("role = ?", model.RoleAdmin).OrderExpr("id")
			if err := forUpdate(tx, q).Scan(ctx, &ids); err != nil {
				return err
			}
			admins = len(ids)
		}
		u, err := lockUser(ctx, tx, id)
		if err != nil {
			return err
		}
		before := userStateOf(u)
		if e.Role != nil && *e.Role != u.Role {
			if msg := RoleChangeRule(actor.ID, u, *e.Role, admins); msg != "" {
				return web.Conflict(msg)
			}
		}
		if e.Email != nil && *e.Email != u.Email {
			n, err := tx.NewSelect().Model((*model.User)(nil)).Where("email = ? AND id <> ?", *e.Email, u.ID).Count(ctx)
			if err != nil {
				return err
			}
			if n > 0 {
				return web.Conflict(MsgEmailTaken)
			}
		}
		set := func(dst *string, v *string) {
			if v != nil {
				*dst = *v
			}
		}
		if e.Email != nil && *e.Email != u.Email {
			u.EmailVerifiedAt = nil // a new address is unproven until its owner confirms it
		}
		set(&u.Name, e.Name)
		set(&u.Email, e.Email)
		set(&u.Position, e.Position)
		set(&u.LinkedIn, e.LinkedIn)
		set(&u.Portfolio, e.Portfolio)
		set(&u.Role, e.Role)
		after := userStateOf(u)
		if after == before {
			updated = u
			return nil
		}
		u.UpdatedAt = model.Now()
		if _, err := tx.NewUpdate().Model(u).Column("name", "email", "position", "linkedin", "portfolio", "role", "updated_at", "email_verified_at").WherePK().Exec(ctx); err != nil {
			if db.IsUniqueViolation(err) {
				return web.Conflict(MsgEmailTaken)
			}
			return err
		}
		if err := pagecache.Bump(ctx, tx, pagecache.Profiles); err != nil {
			return err
		}
		profileBefore, profileAfter := before, after
		profileBefore.Role, profileAfter.Role = "", ""
		if profileBefore != profileAfter {
			if err := record(ctx, tx, actor, "user.update", "user", u.ID, profileBefore, profileAfter); err != nil {
				return err
			}
		}
		if before.Role != after.Role {
			if err := record(ctx, tx, actor, "user.role_change", "user", u.ID,
				map[string]string{"role": before.Role}, map[string]string{"role": after.Role}); err != nil {
				return err
			}
		}
		updated = u
		return nil
	})
	if err != nil {
		return nil, err
	}
	j, err := s.userWithGrants(ctx, updated)
	if err != nil {
		return nil, err
	}
	return &j, nil
}

// SetProfilePic stores png (already processed) as user id's picture: the file is written
// first, the row and the audit entry in one transaction (the file is removed again when
// that fails), and the old picture is deleted after the commit.
func (s *Service) SetProfilePic(ctx context.Context, actor *model.User, id string, png []byte, newKey string) (string, error) {
	if err := s.Storage.Put(ctx, newKey, bytes.NewReader(png), "image/png"); err != nil {
		return "", err
	}
	var oldKey, url string
	err := s.DB.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		u, err := lockUser(ctx, tx, id)
		if err != nil {
			return err
		}
		oldKey = u.ProfilePicKey
		u.ProfilePicKey, u.UpdatedAt = newKey, model.Now()
		if _, err := tx.NewUpdate().Model(u).Column("profile_pic_key", "updated_at").WherePK().Exec(ctx); err != nil {
			return err
		}
		if err := pagecache.Bump(ctx, tx, pagecache.Profiles); err != nil {
			return err
		}
		url = u.ProfilePicURL()
		return record(ctx, tx, actor, "user.profile_pic", "user", u.ID,
			map[string]string{"profilePicKey": oldKey}, map[string]string{"profilePicKey": newKey})
	})
	if err != nil {
		if derr := s.Storage.Delete(context.WithoutCancel(ctx), newKey); derr != nil {
			slog.Warn("admin: could not remove an unused picture", "key", newKey, "err", derr)
		}
		return "", err
	}
	if oldKey != "" && oldKey != newKey && storage.ValidKey(oldKey) {
		if err := s.Storage.Delete(context.WithoutCancel(ctx), oldKey); err != nil {
			slog.Warn("admin: could not remove the old picture", "key", oldKey, "err", err)
		}
	}
	return url, nil
}

// ---- payments ----

// PaymentList is the answer of GET /admin/payments.
type PaymentList struct {
	Payments []PaymentJSON `json:"payments"`
	PageInfo
}

// ListPayments pages the payments (status "" = all) matching search.
func (s *Service) ListPayments(ctx context.Context, status, search string, pg Page) (*PaymentList, error) {
	ps, total, err := s.st.payments(ctx, s.DB, status, search, pg)
	if err != nil {
		return nil, err
	}
	var userIDs, badgeIDs []string
	for _, p := range ps {
		userIDs = append(userIDs, p.UserID)
		badgeIDs = append(badgeIDs, p.BadgeID)
	}
	users, err := s.st.usersByID(ctx, s.DB, userIDs)
	if err != nil {
		return nil, err
	}
	badges, err := s.st.badgesByID(ctx, s.DB, badgeIDs)
	if err != nil {
		return nil, err
	}
	out := &PaymentList{Payments: make([]PaymentJSON, 0, len(ps)), PageInfo: pg.Info(total)}
	for i := range ps {
		p := &ps[i]
		j := PaymentJSON{PaymentRef: *paymentRef(p), ApplicationID: p.ApplicationID}
		if u := users[p.UserID]; u != nil {
			j.User = &Ref{ID: u.ID, Name: u.Name, Email: u.Email}
		}
		if b := badges[p.BadgeID]; b != nil {
			j.Badge = &BadgeRef{ID: b.ID, Name: b.Name, Type: b.Type, Price: dollars(b.PriceCents), Category: b.Category, Level: b.Level}
		}
		out.Payments = append(out.Payments, j)
	}
	return out, nil
}

// ---- summary ----

// SummaryDays is how many days the chart covers (today included).
const SummaryDays = 30

// Summary computes the dashboard's cards and the last 30 days of applications and revenue.
func (s *Service) Summary(ctx context.Context, now time.Time) (*Summary, error) {
	var out Summary
	counts, err := s.st.statusCounts(ctx, s.DB, "")
	if err != nil {
		return nil, err
	}
	for _, n := range counts {
		out.TotalApplications += n
	}
	out.PaidPending = counts[model.StatusPending]
	out.AwaitingPayment = counts[model.StatusAwaitingPayment]
	out.PendingApplications = out.PaidPending + out.AwaitingPayment
	out.ApprovedApplications = counts[model.StatusApproved]
	out.RejectedApplications = counts[model.StatusRejected]
	count := func(dst *int64, q *bun.SelectQuery) {
		if err == nil {
			*dst, err = q.Count(ctx)
		}
	}
	count(&out.TotalUsers, s.DB.NewSelect().Model((*model.User)(nil)))
	count(&out.TotalAdmins, s.DB.NewSelect().Model((*model.User)(nil)).Where("role = ?", model.RoleAdmin))
	count(&out.TotalBadges, s.DB.NewSelect().Model((*model.Badge)(nil)))
	count(&out.ActiveBadges, s.DB.NewSelect().Model((*model.Badge)(nil)).Where("is_active = ?", true))
	count(&out.BadgesGranted, s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("revoked_at IS NULL"))
	count(&out.CompletedPayments, s.DB.NewSelect().Model((*model.Payment)(nil)).Where("status = ?", model.PaymentCompleted))
	if err != nil {
		return nil, err
	}
	var revenue int64
	if err := s.DB.NewSelect().Model((*model.Payment)(nil)).ColumnExpr("COALESCE(SUM(amount_cents), 0)").
		Where("status = ?", model.PaymentCompleted).Scan(ctx, &revenue); err != nil {
		return nil, err
	}
	out.Revenue = dollars(revenue)

	today := now.UTC().Truncate(24 * time.Hour)
	since := today.AddDate(0, 0, -(SummaryDays - 1))
	apps, err := s.st.applicationsPerDay(ctx, s.DB, since)
	if err != nil {
		return nil, err
	}
	rev, err := s.st.revenuePerDay(ctx, s.DB, since)
	if err != nil {
		return nil, err
	}
	out.Days = Series(since, SummaryDays, apps, rev)
	return &out, nil
}

// Series lays per-day counts over n consecutive days from since (missing days are 0).
func Series(since time.Time, n int, apps, revenueCents []dayCount) []Day {
	a := map[string]int64{}
	for _, r := range apps {
		a[r.Day] = r.N
	}
	rv := map[string]int64{}
	for _, r := range revenueCents {
		rv[r.Day] = r.N
	}
	days := make([]Day, n)
	for i := range days {
		d := since.AddDate(0, 0, i).Format("2006-01-02")
		days[i] = Day{Date: d, Applications: a[d], Revenue: dollars(rv[d])}
	}
	return days
}

// ---- audit ----

// record writes one audit entry inside tx.
func record(ctx context.Context, tx bun.IDB, actor *model.User, action, targetType, targetID string, before, after any) error {
	b, err := json.Marshal(before)
	if err != nil {
		return err
	}
	a, err := json.Marshal(after)
	if err != nil {
		return err
	}
	e := &model.AuditEntry{ID: model.NewID(), Action: action, TargetType: targetType, TargetID: targetID,
		Before: string(b), After: string(a), CreatedAt: model.Now()}
	if actor != nil {
		e.ActorID, e.ActorEmail = &actor.ID, actor.Email
	}
	_, err = tx.NewInsert().Model(e).Exec(ctx)
	return err
}

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
		if err := s.DB.NewSelect().Model(&apps).Where("id IN (?)", bun.In(appIDs)).Scan(ctx); err != nil {
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
