package model

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/db"
)

// Application statuses (one state machine: app/application).
const (
	StatusAwaitingPayment = "awaiting_payment"
	StatusPending         = "pending"
	StatusApproved        = "approved"
	StatusRejected        = "rejected"
)

// Payment statuses.
const (
	PaymentPending   = "pending"
	PaymentCompleted = "completed"
	PaymentFailed    = "failed"
)

// QuizAttempt is one user's try at a quiz. Layout is the per-attempt question and option
// order (JSON); Answers maps question id to the chosen original option index.
type QuizAttempt struct {
	bun.BaseModel `bun:"table:quiz_attempts"`

	ID            string         `bun:"id,pk"`
	UserID        string         `bun:"user_id"`
	QuizID        string         `bun:"quiz_id"`
	BadgeID       string         `bun:"badge_id"`
	Layout        []AttemptItem  `bun:"layout,type:text"`
	Answers       map[string]int `bun:"answers,type:text"`
	StartedAt     time.Time      `bun:"started_at"`
	Deadline      time.Time      `bun:"deadline"`
	SubmittedAt   *time.Time     `bun:"submitted_at"`
	CorrectCount  int            `bun:"correct_count"`
	Total         int            `bun:"total"`
	Score         float64        `bun:"score"`
	PassingScore  int            `bun:"passing_score"`
	Passed        bool           `bun:"passed"`
	ApplicationID *string        `bun:"application_id"`
	// Integrity review (app/quiz integrity.go): IntegrityStatus is "" (not flagged),
	// IntegrityFlagged (a pass under review), IntegrityCleared or IntegrityVoided.
	IntegrityStatus    string          `bun:"integrity_status"`
	IntegrityFlags     []IntegrityFlag `bun:"integrity_flags,type:text"`
	Appeal             string          `bun:"appeal"`
	AppealAt           *time.Time      `bun:"appeal_at"`
	IntegrityDecidedAt *time.Time      `bun:"integrity_decided_at"`
	IntegrityDecidedBy *string         `bun:"integrity_decided_by"`
}

// Integrity review states of a quiz attempt.
const (
	IntegrityFlagged = "flagged"
	IntegrityCleared = "cleared"
	IntegrityVoided  = "voided"
)

// IntegrityFlag is one reason an attempt was flagged (never which answers were right).
type IntegrityFlag struct {
	Code   string `json:"code"` // "speed", "person-fit", "similarity"
	Reason string `json:"reason"`
}

// AttemptItem is one question as this attempt shows it: OptionOrder[i] is the original
// index of the option shown at position i.
type AttemptItem struct {
	QuestionID  string `json:"q"`
	OptionOrder []int  `json:"o"`
}

// Application is a request for a badge.
type Application struct {
	bun.BaseModel `bun:"table:applications"`

	ID                 string     `bun:"id,pk"`
	UserID             string     `bun:"user_id"`
	BadgeID            string     `bun:"badge_id"`
	Type               string     `bun:"type"`
	Status             string     `bun:"status"`
	PaymentStatus      string     `bun:"payment_status"`
	FullName           string     `bun:"full_name"`
	Email              string     `bun:"email"`
	Position           string     `bun:"position"`
	LinkedIn           string     `bun:"linkedin"`
	Portfolio          string     `bun:"portfolio"`
	Description        string     `bun:"description"`
	QuizAttemptID      *string    `bun:"quiz_attempt_id"`
	QuizScore          *float64   `bun:"quiz_score"`
	PriceCents         int64      `bun:"price_cents"`
	PaymentID          *string    `bun:"payment_id"`
	PaymentCompletedAt *time.Time `bun:"payment_completed_at"`
	ReviewedAt         *time.Time `bun:"reviewed_at"`
	ReviewedBy         *string    `bun:"reviewed_by"`
	RejectionReason    string     `bun:"rejection_reason"`
	// UndoStatus and UndoMailID: while a rejection from review may be undone, the status it
	// replaced and its mail (waiting in the outbox); empty otherwise.
	UndoStatus string    `bun:"undo_status"`
	UndoMailID string    `bun:"undo_mail_id"`
	CreatedAt  time.Time `bun:"created_at"`
	UpdatedAt  time.Time `bun:"updated_at"`
}

// ApplicationFile is an uploaded file kept in storage under a generated key.
type ApplicationFile struct {
	bun.BaseModel `bun:"table:application_files"`

	ID            string    `bun:"id,pk"`
	ApplicationID string    `bun:"application_id"`
	Kind          string    `bun:"kind"` // resume, profilePic, proof
	StorageKey    string    `bun:"storage_key"`
	OriginalName  string    `bun:"original_name"`
	ContentType   string    `bun:"content_type"`
	Size          int64     `bun:"size"`
	CreatedAt     time.Time `bun:"created_at"`
}

// Coupon discounts a badge fee. DiscountValue is in hundredths: percent x 100 for
// percentage coupons (1000 = 10%), cents for fixed ones.
type Coupon struct {
	bun.BaseModel `bun:"table:coupons"`

	ID                   string    `bun:"id,pk"`
	Code                 string    `bun:"code"`
	Name                 string    `bun:"name"`
	Description          string    `bun:"description"`
	DiscountType         string    `bun:"discount_type"` // percentage, fixed
	DiscountValue        int64     `bun:"discount_value"`
	MinimumCents         int64     `bun:"minimum_cents"`
	MaximumDiscountCents *int64    `bun:"maximum_discount_cents"`
	UsageLimit           *int      `bun:"usage_limit"`
	UsedCount            int       `bun:"used_count"`
	ValidFrom            time.Time `bun:"valid_from"`
	ValidUntil           time.Time `bun:"valid_until"`
	IsActive             bool      `bun:"is_active"`
	ApplicableBadges     []string  `bun:"applicable_badges,type:text"`
	ApplicableCategories []string  `bun:"applicable_categories,type:text"`
	CreatedBy            *string   `bun:"created_by"`
	CreatedAt            time.Time `bun:"created_at"`
	UpdatedAt            time.Time `bun:"updated_at"`
}

// CouponRedemption records one use of a coupon (unique per coupon, user, application).
type CouponRedemption struct {
	bun.BaseModel `bun:"table:coupon_redemptions"`

	ID            string    `bun:"id,pk"`
	CouponID      string    `bun:"coupon_id"`
	UserID        string    `bun:"user_id"`
	ApplicationID string    `bun:"application_id"`
	PaymentID     *string   `bun:"payment_id"`
	CreatedAt     time.Time `bun:"created_at"`
}

// PaymentOrder is a provider order the server priced and created for an application.
type PaymentOrder struct {
	bun.BaseModel `bun:"table:payment_orders"`

	OrderID       string    `bun:"order_id,pk"`
	UserID        string    `bun:"user_id"`
	ApplicationID string    `bun:"application_id"`
	BadgeID       string    `bun:"badge_id"`
	AmountCents   int64     `bun:"amount_cents"`
	OriginalCents int64     `bun:"original_cents"`
	DiscountCents int64     `bun:"discount_cents"`
	Currency      string    `bun:"currency"`
	CouponID      *string   `bun:"coupon_id"`
	CouponCode    string    `bun:"coupon_code"`
	Status        string    `bun:"status"` // created, captured, failed
	RequestID     string    `bun:"request_id"`
	CreatedAt     time.Time `bun:"created_at"`
	UpdatedAt     time.Time `bun:"updated_at"`
}

// Payment is money received (or a free grant) for an application.
type Payment struct {
	bun.BaseModel `bun:"table:payments"`

	ID            string     `bun:"id,pk"`
	UserID        string     `bun:"user_id"`
	ApplicationID string     `bun:"application_id"`
	BadgeID       string     `bun:"badge_id"`
	Provider      string     `bun:"provider"` // paypal, free-grant
	OrderID       *string    `bun:"order_id"`
	CaptureID     *string    `bun:"capture_id"`
	TransactionID string     `bun:"transaction_id"`
	Status        string     `bun:"status"`
	AmountCents   int64      `bun:"amount_cents"`
	OriginalCents int64      `bun:"original_cents"`
	DiscountCents int64      `bun:"discount_cents"`
	Currency      string     `bun:"currency"`
	CouponID      *string    `bun:"coupon_id"`
	CouponCode    string     `bun:"coupon_code"`
	CreatedAt     time.Time  `bun:"created_at"`
	CompletedAt   *time.Time `bun:"completed_at"`
}

// BadgeGrant is an earned badge: the credential behind the verify pages.
type BadgeGrant struct {
	bun.BaseModel `bun:"table:badge_grants"`

	ID                   string     `bun:"id,pk"`
	UserID               string     `bun:"user_id"`
	BadgeID              string     `bun:"badge_id"`
	ApplicationID        *string    `bun:"application_id"`
	VerificationID       string     `bun:"verification_id"`
	PublicVerificationID string     `bun:"public_verification_id"`
	StatusIndex          int        `bun:"status_index"`
	GrantedAt            time.Time  `bun:"granted_at"`
	ExpiresAt            *time.Time `bun:"expires_at"`
	RevokedAt            *time.Time `bun:"revoked_at"`
	RevocationReason     string     `bun:"revocation_reason"`
	// RevocationCategory is the key of the category the administrator chose (app/grant
	// RevocationCategories): the public verification shows its label, never the reason.
	RevocationCategory string  `bun:"revocation_category"`
	CredentialJWT      string  `bun:"credential_jwt"`
	CredentialOrigin   string  `bun:"credential_origin"` // the origin the credential's ids were built with
	GrantedBy          *string `bun:"granted_by"`
	PreviousGrantID    *string `bun:"previous_grant_id"` // the grant this one renews
	// ExpiryInStatus: the expiry was set or brought forward after the credential was first
	// signed; once it passes, the status lists mark the credential (app/verify/expirystatus.go).
	ExpiryInStatus bool `bun:"expiry_in_status"`
	// HideScore: the holder keeps the score off the public verify page (the signed
	// credential still carries it).
	HideScore bool `bun:"hide_score"`
}

// AuditEntry records one admin action.
type AuditEntry struct {
	bun.BaseModel `bun:"table:audit_log"`

	ID         string    `bun:"id,pk"`
	ActorID    *string   `bun:"actor_id"`
	ActorEmail string    `bun:"actor_email"`
	Action     string    `bun:"action"`
	TargetType string    `bun:"target_type"`
	TargetID   string    `bun:"target_id"`
	Before     string    `bun:"before"`
	After      string    `bun:"after"`
	CreatedAt  time.Time `bun:"created_at"`
	BatchID    *string   `bun:"batch_id"` // the bulk action the entry is part of
}

// PasswordReset is a one-hour, single-use reset token; ID is the SHA-256 of the token.
type PasswordReset struct {
	bun.BaseModel `bun:"table:password_resets"`

	ID        string     `bun:"id,pk"`
	UserID    string     `bun:"user_id"`
	ExpiresAt time.Time  `bun:"expires_at"`
	UsedAt    *time.Time `bun:"used_at"`
	CreatedAt time.Time  `bun:"created_at"`
}

// OutboxMessage is an e-mail waiting to be sent (or sent).
type OutboxMessage struct {
	bun.BaseModel `bun:"table:outbox"`

	ID       string `bun:"id,pk"`
	To       string `bun:"to_addr"`
	Subject  string `bun:"subject"`
	BodyText string `bun:"body_text"`
	BodyHTML string `bun:"body_html"`
	Status   string `bun:"status"` // pending, sending (claimed until LeaseUntil), sent, failed
	Attempts int    `bun:"attempts"`
	// LeaseUntil is when a claim ('sending') lapses and the message may be claimed again.
	LeaseUntil *time.Time `bun:"lease_until"`
	LastError  string     `bun:"last_error"`
	CreatedAt  time.Time  `bun:"created_at"`
	SentAt     *time.Time `bun:"sent_at"`
	// NotBefore: the message is not sent before then (nil: at once).
	NotBefore *time.Time `bun:"not_before"`
}

// Coupon statuses as the admin list filters them.
const (
	CouponActive   = "active"
	CouponInactive = "inactive"
	CouponExpired  = "expired"
)

// Status is the coupon's status at now (spec section 4): expired when now is past
// validUntil; active when isActive, now within [validFrom, validUntil] and the usage
// limit is unset or not reached; inactive otherwise.
func (c *Coupon) Status(now time.Time) string {
	if now.After(c.ValidUntil) {
		return CouponExpired
	}
	if c.IsActive && !now.Before(c.ValidFrom) && (c.UsageLimit == nil || c.UsedCount < *c.UsageLimit) {
		return CouponActive
	}
	return CouponInactive
}

// DollarsOrPercent is DiscountValue as shown: percent for percentage coupons, dollars for
// fixed ones.
func (c *Coupon) DollarsOrPercent() float64 { return float64(c.DiscountValue) / 100 }

// LockApplication reads application id inside tx, locking its row until tx ends (a row
// lock on PostgreSQL; SQLite transactions are one writer at a time): the approval, the
// payment capture and the member's withdrawal of one application run one after another.
// A missing row is sql.ErrNoRows.
func LockApplication(ctx context.Context, tx bun.IDB, id string) (*Application, error) {
	a := new(Application)
	if err := db.ForUpdate(tx, tx.NewSelect().Model(a).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, err
	}
	return a, nil
}
