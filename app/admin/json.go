package admin

import (
	"encoding/json"
	"time"

	"meritmark/app/model"
	"meritmark/app/quiz"
)

// The JSON shapes the dashboard reads (spec section 3: Application, User, Badge grant,
// Payment). Ids are `_id`; money is dollars.

// Ref names a user briefly.
type Ref struct {
	ID    string `json:"_id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

// ApplicantJSON is the applicant's profile as the review dialog shows it.
type ApplicantJSON struct {
	ID            string    `json:"_id"`
	Name          string    `json:"name"`
	Email         string    `json:"email"`
	Role          string    `json:"role"`
	Position      string    `json:"position"`
	LinkedIn      string    `json:"linkedin"`
	Portfolio     string    `json:"portfolio"`
	ProfilePicURL string    `json:"profilePicUrl"`
	Avatar        string    `json:"avatar"`
	Phone         string    `json:"phone"`
	Bio           string    `json:"bio"`
	Location      string    `json:"location"`
	Company       string    `json:"company"`
	Experience    int       `json:"experience"`
	Education     string    `json:"education"`
	Skills        []string  `json:"skills"`
	CreatedAt     time.Time `json:"createdAt"`
}

func applicantJSON(u *model.User) *ApplicantJSON {
	if u == nil {
		return nil
	}
	skills := u.Skills
	if skills == nil {
		skills = []string{}
	}
	return &ApplicantJSON{ID: u.ID, Name: u.Name, Email: u.Email, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, ProfilePicURL: u.ProfilePicURL(), Avatar: u.ProfilePicURL(), Phone: u.Phone, Bio: u.Bio,
		Location: u.Location, Company: u.Company, Experience: u.Experience, Education: u.Education, Skills: skills,
		CreatedAt: u.CreatedAt.UTC()}
}

// BadgeRef is the application's badge.
type BadgeRef struct {
	ID       string  `json:"_id"`
	Name     string  `json:"name"`
	Type     string  `json:"type"`
	Price    float64 `json:"price"`
	Category string  `json:"category"`
	Level    string  `json:"level"`
}

// PaymentRef is the application's payment (the spec's paymentId object).
type PaymentRef struct {
	ID             string     `json:"_id"`
	Amount         float64    `json:"amount"`
	OriginalAmount float64    `json:"originalAmount"`
	DiscountAmount float64    `json:"discountAmount"`
	Currency       string     `json:"currency"`
	TransactionID  string     `json:"transactionId"`
	Provider       string     `json:"provider"`
	Status         string     `json:"status"`
	CouponCode     string     `json:"couponCode"`
	CreatedAt      time.Time  `json:"createdAt"`
	CompletedAt    *time.Time `json:"completedAt"`
}

func paymentRef(p *model.Payment) *PaymentRef {
	if p == nil {
		return nil
	}
	return &PaymentRef{ID: p.ID, Amount: dollars(p.AmountCents), OriginalAmount: dollars(p.OriginalCents),
		DiscountAmount: dollars(p.DiscountCents), Currency: p.Currency, TransactionID: p.TransactionID, Provider: p.Provider,
		Status: p.Status, CouponCode: p.CouponCode, CreatedAt: p.CreatedAt.UTC(), CompletedAt: utc(p.CompletedAt)}
}

// FileJSON is one uploaded file of an application.
type FileJSON struct {
	ID           string `json:"_id"`
	OriginalName string `json:"originalName"`
	Kind         string `json:"kind"`
	ContentType  string `json:"contentType"`
	Size         int64  `json:"size"`
	DownloadURL  string `json:"downloadUrl"`
}

// GrantRef is the grant an application produced.
type GrantRef struct {
	ID                   string     `json:"_id"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason"`
}

func grantRef(g *model.BadgeGrant) *GrantRef {
	if g == nil {
		return nil
	}
	return &GrantRef{ID: g.ID, VerificationID: g.VerificationID, PublicVerificationID: g.PublicVerificationID,
		GrantedAt: g.GrantedAt.UTC(), ExpiresAt: utc(g.ExpiresAt), RevokedAt: utc(g.RevokedAt), RevocationReason: g.RevocationReason}
}

// ApplicationJSON is one application in the review list.
type ApplicationJSON struct {
	ID                 string         `json:"_id"`
	User               *ApplicantJSON `json:"user"`
	Badge              *BadgeRef      `json:"badge"`
	Type               string         `json:"type"`
	Status             string         `json:"status"`
	PaymentStatus      string         `json:"paymentStatus"`
	PaymentID          *PaymentRef    `json:"paymentId"`
	PaymentCompletedAt *time.Time     `json:"paymentCompletedAt"`
	Price              float64        `json:"price"` // the fee when the application was made
	CreatedAt          time.Time      `json:"createdAt"`
	UpdatedAt          time.Time      `json:"updatedAt"`
	ReviewedAt         *time.Time     `json:"reviewedAt"`
	ReviewedBy         *Ref           `json:"reviewedBy"`
	RejectionReason    string         `json:"rejectionReason"`
	QuizScore          *float64       `json:"quizScore"`
	ProofFiles         []FileJSON     `json:"proofFiles"`
	Description        string         `json:"description"`
	FullName           string         `json:"fullName"`
	Email              string         `json:"email"`
	Position           string         `json:"position"`
	LinkedinURL        string         `json:"linkedinUrl"`
	PortfolioURL       string         `json:"portfolioUrl"`
	Grant              *GrantRef      `json:"grant"`
	// Renews: the applicant's earlier grant of this badge that this application renews
	// (null when it is a first application).
	Renews *GrantRef `json:"renews"`
	// PaymentWaived: approved with Grant Free, no payment completed (shown as "Waived").
	PaymentWaived bool `json:"paymentWaived"`
	// WaitingForEmail: approved, the grant waits for the applicant's e-mail confirmation.
	WaitingForEmail bool `json:"waitingForEmailVerification"`
	// Integrity: the flags on the quiz attempt behind a skill application (nil: none).
	Integrity *quiz.IntegrityAdmin `json:"integrity"`
}

// UserGrantJSON is one badge grant of a user (spec section 3, "Badge grant").
type UserGrantJSON struct {
	ID                   string     `json:"_id"`
	BadgeID              string     `json:"badgeId"`
	BadgeName            string     `json:"badgeName"`
	BadgeCategory        string     `json:"badgeCategory"`
	GrantedAt            time.Time  `json:"grantedAt"`
	ExpiresAt            *time.Time `json:"expiresAt"`
	VerificationID       string     `json:"verificationId"`
	PublicVerificationID string     `json:"publicVerificationId"`
	RevokedAt            *time.Time `json:"revokedAt"`
	RevocationReason     string     `json:"revocationReason"`
	// RenewsGrantID: the grant this one renews; RenewedByGrantID: the grant that renewed
	// this one (both among the user's grants; null when none).
	RenewsGrantID    *string `json:"renewsGrantId"`
	RenewedByGrantID *string `json:"renewedByGrantId"`
}

// UserJSON is one user in User Management.
type UserJSON struct {
	ID    string `json:"_id"`
	Name  string `json:"name"`
	Email string `json:"email"`
	// PendingEmail: a new address waiting for its owner's confirmation.
	PendingEmail  string          `json:"pendingEmail,omitempty"`
	Role          string          `json:"role"`
	Position      string          `json:"position"`
	LinkedIn      string          `json:"linkedin"`
	Portfolio     string          `json:"portfolio"`
	ProfilePicURL string          `json:"profilePicUrl"`
	CreatedAt     time.Time       `json:"createdAt"`
	UpdatedAt     time.Time       `json:"updatedAt"`
	BadgeGrants   []UserGrantJSON `json:"badgeGrants"`
}

func userJSON(u *model.User, grants []grantRow) UserJSON {
	out := UserJSON{ID: u.ID, Name: u.Name, Email: u.Email, PendingEmail: u.PendingEmail, Role: u.Role, Position: u.Position, LinkedIn: u.LinkedIn,
		Portfolio: u.Portfolio, ProfilePicURL: u.ProfilePicURL(), CreatedAt: u.CreatedAt.UTC(), UpdatedAt: u.UpdatedAt.UTC(),
		BadgeGrants: []UserGrantJSON{}}
	for _, g := range grants {
		out.BadgeGrants = append(out.BadgeGrants, UserGrantJSON{ID: g.ID, BadgeID: g.BadgeID, BadgeName: g.BadgeName,
			BadgeCategory: g.BadgeCategory, GrantedAt: g.GrantedAt.UTC(), ExpiresAt: utc(g.ExpiresAt),
			VerificationID: g.VerificationID, PublicVerificationID: g.PublicVerificationID, RevokedAt: utc(g.RevokedAt),
			RevocationReason: g.RevocationReason, RenewsGrantID: g.PreviousGrantID})
	}
	for i := range out.BadgeGrants {
		if prev := out.BadgeGrants[i].RenewsGrantID; prev != nil {
			for j := range out.BadgeGrants {
				if out.BadgeGrants[j].ID == *prev {
					id := out.BadgeGrants[i].ID
					out.BadgeGrants[j].RenewedByGrantID = &id
				}
			}
		}
	}
	return out
}

// PaymentJSON is one payment in the payments list.
type PaymentJSON struct {
	PaymentRef
	ApplicationID string    `json:"applicationId"`
	User          *Ref      `json:"user"`
	Badge         *BadgeRef `json:"badge"`
}

// AuditJSON is one audit log entry.
type AuditJSON struct {
	ID          string          `json:"_id"`
	Actor       *Ref            `json:"actor"`
	Action      string          `json:"action"`
	TargetType  string          `json:"targetType"`
	TargetID    string          `json:"targetId"`
	TargetLabel string          `json:"targetLabel"`
	Before      json.RawMessage `json:"before"`
	After       json.RawMessage `json:"after"`
	CreatedAt   time.Time       `json:"createdAt"`
}

// Day is one day of the dashboard chart.
type Day struct {
	Date         string  `json:"date"` // YYYY-MM-DD (UTC)
	Applications int64   `json:"applications"`
	Revenue      float64 `json:"revenue"`
}

// Summary is the dashboard's four cards and its chart.
type Summary struct {
	TotalApplications    int64   `json:"totalApplications"`
	PendingApplications  int64   `json:"pendingApplications"` // waiting for review: pending + awaiting payment
	PaidPending          int64   `json:"paidPending"`         // pending review with payment done
	AwaitingPayment      int64   `json:"awaitingPayment"`
	ApprovedApplications int64   `json:"approvedApplications"`
	RejectedApplications int64   `json:"rejectedApplications"`
	TotalUsers           int64   `json:"totalUsers"`
	TotalAdmins          int64   `json:"totalAdmins"`
	TotalBadges          int64   `json:"totalBadges"`
	ActiveBadges         int64   `json:"activeBadges"`
	BadgesGranted        int64   `json:"badgesGranted"`
	Revenue              float64 `json:"revenue"`
	CompletedPayments    int64   `json:"completedPayments"`
	Days                 []Day   `json:"days"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
