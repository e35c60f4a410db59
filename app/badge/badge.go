// Package badge serves the public side of badges: the catalogue (with the signed-in
// user's ownership and application state), the badge detail with its start rules, and
// the share links of an owned badge.
package badge

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"meritmark/app/grant"
	"meritmark/app/model"
	"meritmark/app/web"
)

// MsgNotFound answers an unknown, malformed or hidden badge id (spec: 'Badge not found').
const MsgNotFound = "Badge not found"

// ErrNotFound is returned for a badge that does not exist or that the viewer may not see.
var ErrNotFound = errors.New("badge: not found")

// Organization is the issuer name LinkedIn shows on an added certification.
const Organization = web.SiteName

// Quiz is the public summary of a skill badge's quiz (spec section 3: quiz, present if
// it exists).
type Quiz struct {
	ID            string `json:"_id"`
	Title         string `json:"title"`
	PassingScore  int    `json:"passingScore"`
	TimeLimit     int    `json:"timeLimit"`
	QuestionCount int    `json:"questionCount"`
}

// Creator is who created a badge.
type Creator struct {
	Name string `json:"name"`
}

// Badge is the badge as the API and the pages show it (spec section 3).
type Badge struct {
	ID             string   `json:"_id"`
	Name           string   `json:"name"`
	Description    string   `json:"description"`
	Category       string   `json:"category"`
	Type           string   `json:"type"`
	Level          string   `json:"level"`
	Price          float64  `json:"price"` // dollars
	Icon           string   `json:"icon"`
	Color          string   `json:"color"`
	Criteria       string   `json:"criteria"`
	RequiresResume bool     `json:"requiresResume"`
	IsActive       bool     `json:"isActive"`
	Quiz           *Quiz    `json:"quiz,omitempty"`
	CreatedBy      *Creator `json:"createdBy"`

	validDays *int
}

// View converts a row; quiz and creator are optional.
func View(b *model.Badge, quiz *Quiz, creatorName *string) Badge {
	v := Badge{
		ID: b.ID, Name: b.Name, Description: b.Description, Category: b.Category, Type: b.Type, Level: b.Level,
		Price: Dollars(b.PriceCents), Icon: b.Icon, Color: b.Color, Criteria: b.Criteria,
		RequiresResume: b.RequiresResume, IsActive: b.IsActive, Quiz: quiz, validDays: b.ValidDays,
	}
	if creatorName != nil {
		v.CreatedBy = &Creator{Name: *creatorName}
	}
	return v
}

// Dollars converts integer cents to dollars for JSON.
func Dollars(cents int64) float64 { return float64(cents) / 100 }

// Owned is a catalogue entry for a signed-in user: the badge, whether the user holds it,
// and the status of the user's latest application for it (null when none).
type Owned struct {
	Badge
	Ownership
}

// Ownership is what a signed-in viewer has done about a badge, as the catalogue's entries
// and cards carry it.
type Ownership struct {
	IsOwned           bool    `json:"isOwned"`
	ApplicationStatus *string `json:"applicationStatus"`
	// PaymentProcessing: the application awaits payment but PayPal is still processing
	// a capture, so nothing more is owed (the payment page says the same).
	PaymentProcessing bool `json:"paymentProcessing"`
}

// ownership is what m says (nothing when m is nil).
func ownership(m *Mine) Ownership {
	var o Ownership
	if m == nil {
		return o
	}
	o.IsOwned = m.Grant != nil && m.Grant.Standing.Held
	if m.Application != nil {
		s := m.Application.Status
		o.ApplicationStatus = &s
		o.PaymentProcessing = m.Application.PaymentProcessing
	}
	return o
}

// Application is the user's latest application for a badge, as the detail shows it.
type Application struct {
	ID              string     `json:"_id"`
	Status          string     `json:"status"`
	CreatedAt       time.Time  `json:"createdAt"`
	ReviewedAt      *time.Time `json:"reviewedAt"`
	RejectionReason string     `json:"rejectionReason"`
	// PaymentProcessing: awaiting payment while PayPal still processes a capture.
	PaymentProcessing bool `json:"paymentProcessing"`
}

// Grant is the user's grant that stands for a badge (the latest unrevoked one, else the
// latest revoked one) with its state (app/grant StandingOf).
type Grant struct {
	ID                   string         `json:"id"` // the holder's own grant id (wallet offers)
	GrantedAt            time.Time      `json:"grantedAt"`
	VerificationID       string         `json:"verificationId"`
	PublicVerificationID string         `json:"publicVerificationId"`
	ExpiresAt            *time.Time     `json:"expiresAt"`
	Standing             grant.Standing `json:"standing"`

	revokedAt *time.Time
	renews    bool
}

// Mine is what one user has done about one badge.
type Mine struct {
	Application *Application // latest, or nil
	Grant       *Grant       // the grant that stands for the badge, or nil
	// Passed: a passed quiz attempt no application used yet (skill badges; the handler
	// fills it).
	Passed bool
	// NextAttemptAt: the next quiz attempt is locked until then (nil: may start).
	NextAttemptAt *time.Time
}

// record is one row of the user's applications and grants (store.userRecords).
type record struct {
	Kind           string     `bun:"kind"` // "a" application, "g" grant
	ID             string     `bun:"id"`
	BadgeID        string     `bun:"badge_id"`
	Status         string     `bun:"status"`
	At             time.Time  `bun:"at"`  // created_at / granted_at
	At2            *time.Time `bun:"at2"` // reviewed_at / expires_at
	Reason         string     `bun:"reason"`
	RevokedAt      *time.Time `bun:"at3"`  // the grant's revoked_at
	Renews         bool       `bun:"prev"` // the grant renews an earlier one
	VerificationID string     `bun:"vid"`
	PublicVerifyID string     `bun:"pvid"`
	Payment        string     `bun:"pay"` // the application's latest payment status ("" when none)
}

// fold groups a user's records by badge: the latest application and the grant that
// stands for the badge, with its state at now.
func fold(recs []record, now time.Time) map[string]*Mine {
	out := make(map[string]*Mine)
	for i := range recs {
		r := &recs[i]
		m := out[r.BadgeID]
		if m == nil {
			m = &Mine{}
			out[r.BadgeID] = m
		}
		switch r.Kind {
		case "a":
			if m.Application == nil || later(r.At, r.ID, m.Application.CreatedAt, m.Application.ID) {
				m.Application = &Application{ID: r.ID, Status: r.Status, CreatedAt: r.At.UTC(), ReviewedAt: utcPtr(r.At2), RejectionReason: r.Reason,
					PaymentProcessing: r.Status == model.StatusAwaitingPayment && r.Payment == model.PaymentPending}
			}
		case "g":
			g := &Grant{GrantedAt: r.At.UTC(), VerificationID: r.VerificationID, PublicVerificationID: r.PublicVerifyID, ExpiresAt: utcPtr(r.At2),
				ID: r.ID, revokedAt: r.RevokedAt, renews: r.Renews}
			if m.Grant == nil {
				m.Grant = g
				continue
			}
			cur := []grant.Entry{entry(m.Grant), entry(g)}
			if i, _ := grant.Current(cur, now); i == 1 {
				m.Grant = g
			}
		}
	}
	for _, m := range out {
		if g := m.Grant; g != nil {
			_, g.Standing = grant.Current([]grant.Entry{entry(g)}, now)
		}
	}
	return out
}

func entry(g *Grant) grant.Entry {
	e := grant.Entry{ID: g.ID, GrantedAt: g.GrantedAt, ExpiresAt: g.ExpiresAt, RevokedAt: g.revokedAt}
	if g.renews {
		e.PreviousGrantID = &g.ID // only its presence matters
	}
	return e
}

// later orders applications by creation time, then id (ids begin with their creation
// second, so the tie-break follows creation too).
func later(at time.Time, id string, than time.Time, thanID string) bool {
	if !at.Equal(than) {
		return at.After(than)
	}
	return id > thanID
}

func utcPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// Card is a badge as the catalogue page shows it (views/components/catalogue.tsx): the
// card's fields and, for a signed-in viewer, what the viewer has done about the badge.
// The description is searched (Matches) but not shown, so it stays out of the page's
// props; the quiz and the creator, which the card does not show, are not read at all.
type Card struct {
	ID          string  `json:"_id"`
	Name        string  `json:"name"`
	Description string  `json:"-"`
	Category    string  `json:"category"`
	Type        string  `json:"type"`
	Level       string  `json:"level"`
	Price       float64 `json:"price"` // dollars
	Icon        string  `json:"icon"`
	Color       string  `json:"color"`
	Criteria    string  `json:"criteria"`
	Ownership
}

// WithOwnership is the catalogue entry for a signed-in user.
func WithOwnership(b Badge, m *Mine) Owned { return Owned{Badge: b, Ownership: ownership(m)} }

// --- catalogue filters (the island in views/islands/BadgeCatalogue.tsx normalizes the
// search text the same way, views/lib/badges.ts normalizeQuery, and fetches the view the
// server filters) ---

// MaxQueryLen caps the search text (runes).
const MaxQueryLen = 100

// NormalizeQuery trims the search text, collapses inner whitespace and caps its length.
func NormalizeQuery(q string) string {
	q = strings.Join(strings.Fields(q), " ")
	if utf8.RuneCountInString(q) > MaxQueryLen {
		q = strings.TrimSpace(string([]rune(q)[:MaxQueryLen]))
	}
	return q
}

// NormalizeCategory returns the canonical category for c (case-insensitive), or "" (All)
// for an empty or unknown one.
func NormalizeCategory(c string) string {
	c = strings.TrimSpace(c)
	for _, k := range model.Categories {
		if strings.EqualFold(k, c) {
			return k
		}
	}
	return ""
}

// Matches reports whether b is shown for the search text q (every word must occur in the
// name, description or category, ignoring case) and category ("" = All).
func Matches(b *Card, q, category string) bool {
	if category != "" && b.Category != category {
		return false
	}
	if q == "" {
		return true
	}
	hay := strings.ToLower(b.Name + "\n" + b.Description + "\n" + b.Category)
	for _, w := range strings.Fields(strings.ToLower(q)) {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

// --- detail: what the viewer can do ---

// Actions is what the badge detail offers the viewer (spec section 2, Badge detail).
type Actions struct {
	SignedIn bool `json:"signedIn"`
	Owned    bool `json:"owned"`
	// CanStart: no application yet, or the latest was rejected.
	CanStart   bool   `json:"canStart"`
	StartLabel string `json:"startLabel"` // 'Start Quiz' (skill) or 'Upload Proof' (proof)
	// StartHref: the quiz or proof upload, or /login?next=… for a visitor.
	StartHref string `json:"startHref"`
	// ContinuePaymentHref is set when the latest application awaits payment (and no
	// capture is being processed).
	ContinuePaymentHref string `json:"continuePaymentHref"`
	// PaymentStatusHref is set instead while PayPal processes the payment: nothing is owed.
	PaymentStatusHref string `json:"paymentStatusHref"`
	// Renewal: the viewer's badge is expiring or expired and may be renewed (no open
	// application); RenewHref starts it (the quiz again, or current proof) and
	// RenewalNeeds says what it takes (app/grant RenewalNeeds: the mail says the same).
	Renewal      bool   `json:"renewal"`
	RenewHref    string `json:"renewHref"`
	RenewalNeeds string `json:"renewalNeeds"`
	// ContinueHref: after a pass, the application (/resume-upload/{id}, as the spec's
	// result screen); the start button then reads 'Retake Quiz' and the quiz asks first.
	ContinueHref string `json:"continueHref"`
	// NextAttemptAt: the next quiz attempt is locked until then: no start button.
	NextAttemptAt *time.Time `json:"nextAttemptAt"`
}

// StartPath is where starting an application for b leads.
func StartPath(b *Badge) string {
	if b.Type == model.TypeSkill {
		return "/quiz/" + b.ID
	}
	return "/proof-upload/" + b.ID
}

// StartLabel is the start button's text.
func StartLabel(b *Badge) string {
	if b.Type == model.TypeSkill {
		return "Start Quiz"
	}
	return "Upload Proof"
}

// CanStart is the spec's rule: a start button when no application exists or the last one
// was rejected.
func CanStart(latest *Application) bool {
	return latest == nil || latest.Status == model.StatusRejected
}

// ActionsFor computes the detail's buttons for a viewer (signedIn) with m (nil for a
// visitor or a user who has done nothing).
func ActionsFor(b *Badge, signedIn bool, m *Mine) Actions {
	if m == nil {
		m = &Mine{}
	}
	a := Actions{SignedIn: signedIn, Owned: m.Grant != nil && m.Grant.Standing.Held, CanStart: CanStart(m.Application), StartLabel: StartLabel(b)}
	a.StartHref = StartPath(b)
	if !signedIn {
		a.StartHref = "/login?next=" + url.QueryEscape(a.StartHref)
	}
	if m.Application != nil && m.Application.Status == model.StatusAwaitingPayment {
		if m.Application.PaymentProcessing {
			a.PaymentStatusHref = "/payment-success/" + b.ID
		} else {
			a.ContinuePaymentHref = "/payment/" + b.ID
		}
	}
	if !signedIn {
		return a
	}
	open := m.Application != nil && (m.Application.Status == model.StatusPending || m.Application.Status == model.StatusAwaitingPayment)
	renewable := m.Grant != nil && m.Grant.Standing.CanRenew && b.IsActive && !open
	if b.Type == model.TypeSkill && m.Passed && !open && (!a.Owned || renewable) {
		a.ContinueHref = "/resume-upload/" + b.ID
		a.StartLabel = "Retake Quiz"
	}
	if renewable {
		a.Renewal, a.RenewalNeeds = true, grant.RenewalNeeds(b.Type)
		a.CanStart = false // Renew (or Continue application) replaces the start button
		if a.ContinueHref == "" {
			a.RenewHref = grant.RenewPath(b.Type, b.ID)
		}
	} else if a.ContinueHref != "" {
		a.CanStart = true // a retake, which the quiz confirms first
	}
	if b.Type == model.TypeSkill && m.NextAttemptAt != nil && (a.CanStart || a.RenewHref != "") {
		at := m.NextAttemptAt.UTC()
		a.NextAttemptAt, a.CanStart, a.RenewHref = &at, false, ""
	}
	return a
}

// --- sharing ---

// Share holds the links of the share dialog for an owned badge.
type Share struct {
	VerifyURL        string `json:"verifyUrl"`
	LinkedInShareURL string `json:"linkedinShareUrl"`
	TwitterShareURL  string `json:"twitterShareUrl"`
	LinkedInAddURL   string `json:"linkedinAddUrl"`
}

// ShareFor builds the share links: the public verification URL
// {origin}/verify/{publicVerificationId}, LinkedIn and Twitter share intents, and
// LinkedIn's add-certification link (name, organization, issue and expiry month, URL, id).
func ShareFor(origin string, b *Badge, g *Grant) Share { return ShareWith(origin, "", b, g) }

// ShareWith is ShareFor with the issuer's LinkedIn company page id (orgID, digits; empty =
// none): LinkedIn then files the certification under that page (organizationId) instead of
// a free-text organization name.
func ShareWith(origin, orgID string, b *Badge, g *Grant) Share {
	verify := strings.TrimRight(origin, "/") + "/verify/" + url.PathEscape(g.PublicVerificationID)
	text := "I earned the " + b.Name + " badge on " + Organization + ". Verify it here:"
	add := []string{
		"startTask=CERTIFICATION_NAME",
		"name=" + url.QueryEscape(b.Name),
		"organizationName=" + url.QueryEscape(Organization),
	}
	if orgID != "" {
		add = append(add, "organizationId="+url.QueryEscape(orgID))
	}
	add = append(add,
		"issueYear="+strconv.Itoa(g.GrantedAt.UTC().Year()),
		"issueMonth="+strconv.Itoa(int(g.GrantedAt.UTC().Month())),
	)
	if g.ExpiresAt != nil {
		add = append(add,
			"expirationYear="+strconv.Itoa(g.ExpiresAt.UTC().Year()),
			"expirationMonth="+strconv.Itoa(int(g.ExpiresAt.UTC().Month())))
	}
	add = append(add, "certUrl="+url.QueryEscape(verify), "certId="+url.QueryEscape(g.PublicVerificationID))
	return Share{
		VerifyURL:        verify,
		LinkedInShareURL: "https://www.linkedin.com/sharing/share-offsite/?url=" + url.QueryEscape(verify),
		TwitterShareURL:  "https://twitter.com/intent/tweet?text=" + url.QueryEscape(text) + "&url=" + url.QueryEscape(verify),
		LinkedInAddURL:   "https://www.linkedin.com/profile/add?" + strings.Join(add, "&"),
	}
}

// --- structured data ---

// JSONLD describes a badge as a schema.org EducationalOccupationalCredential.
func JSONLD(origin string, b *Badge) map[string]any {
	origin = strings.TrimRight(origin, "/")
	ld := map[string]any{
		"@context":           "https://schema.org",
		"@type":              "EducationalOccupationalCredential",
		"@id":                origin + "/badges/" + b.ID,
		"url":                origin + "/badges/" + b.ID,
		"name":               b.Name,
		"description":        b.Description,
		"credentialCategory": "badge",
		"educationalLevel":   b.Level,
		"keywords":           []string{b.Category, TypeLabel(b.Type)},
		"competencyRequired": b.Criteria,
		"recognizedBy":       map[string]any{"@type": "Organization", "name": Organization, "url": origin + "/"},
		"offers": map[string]any{
			"@type": "Offer", "price": strconv.FormatFloat(b.Price, 'f', 2, 64), "priceCurrency": "USD",
			"url": origin + "/badges/" + b.ID, "availability": "https://schema.org/InStock",
		},
	}
	if b.validDays != nil && *b.validDays > 0 {
		ld["validFor"] = "P" + strconv.Itoa(*b.validDays) + "D"
	}
	return ld
}

// TypeLabel is how a badge type is named on screen.
func TypeLabel(t string) string {
	if t == model.TypeSkill {
		return "Quiz Based"
	}
	return "Proof Based"
}

// Summary is a one-line description for meta tags (at most about 160 characters).
func Summary(b *Badge) string {
	s := strings.Join(strings.Fields(b.Description), " ")
	if s == "" {
		s = b.Name + ": a verified " + strings.ToLower(b.Category) + " badge on " + Organization + "."
	}
	if utf8.RuneCountInString(s) > 160 {
		r := []rune(s)[:157]
		s = strings.TrimSpace(string(r)) + "…"
	}
	return s
}
