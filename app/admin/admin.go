// Package admin is the administrators' back office: the dashboard summary, application
// review (approve, reject, grant free: the step that grants badges), user management and
// the audit log every admin action writes to.
//
// This file holds the pure rules: messages, list parameters, user edits and the role rules.
package admin

import (
	"net/mail"
	"strconv"
	"strings"
	"unicode/utf8"

	"meritmark/app/model"
	"meritmark/app/user"
)

// DefaultRejectionReason is stored when an admin rejects without a reason (spec section 4).
const DefaultRejectionReason = "Application did not meet requirements"

// Messages (success texts are the spec's toasts, section 8).
const (
	MsgApproved = "Application approved successfully"
	// MsgApprovedWaiting: approved, but the applicant has not confirmed their e-mail yet.
	MsgApprovedWaiting    = "Application approved. The badge is waiting for e-mail verification: it is granted when the applicant confirms their address."
	MsgRejected           = "Application rejected successfully"
	MsgUserUpdated        = "User updated successfully"
	MsgProfilePicUpdated  = "Profile picture updated successfully"
	MsgApplicationMissing = "Application not found."
	MsgUserMissing        = "User not found."
	MsgPaymentRequired    = "Payment must be completed before approval. Use Grant Free to approve without payment."
	MsgAlreadyHolds       = "This user already holds this badge through another application."
	MsgSelfDemotion       = "You cannot remove your own admin role."
	MsgLastAdmin          = "The last administrator cannot be demoted. Make another user an admin first."
	MsgEmailTaken         = "This email is already used by another account."
	MsgEmailInvalid       = "Please enter a valid email address."
	MsgEmailRequired      = "Email is required."
	MsgRoleInvalid        = "Role must be user or admin."
	MsgReasonTooLong      = "The rejection reason must be at most 1000 characters."
	MsgNothingToUpdate    = "Nothing to update: send at least one of name, email, position, linkedin, portfolio, role."
	MsgBadPage            = "page must be a whole number from 1."
	MsgBadLimit           = "limit must be a whole number from 1 to 100."
	MsgBadStatus          = "status must be pending, awaiting_payment, approved, rejected or review."
	MsgSearchTooLong      = "The search text must be at most 200 characters."
	MsgNameRequired       = "Name is required."
	MsgNameTooLong        = "The name must be at most 100 characters."
	MsgPositionTooLong    = "The position must be at most 120 characters."
	MsgLinkedInInvalid    = "LinkedIn must be a full http:// or https:// address."
	MsgPortfolioInvalid   = "Portfolio must be a full http:// or https:// address."
)

// Field limits (the same as a member's own profile, app/user).
const (
	MaxName     = 100
	MaxPosition = 120
)

// MsgRestorePrefix starts the answer to a re-approve that would restore a revoked grant
// without the admin's confirmation; RestoreConfirmMsg is that 409 answer, naming the
// reason: restoring must be confirmed knowing why the badge was revoked.
const MsgRestorePrefix = "This badge was revoked"

// RestoreConfirmMsg is the 409 answer to a re-approve of an application whose grant is
// revoked, sent without restoreRevoked.
func RestoreConfirmMsg(reason string) string {
	if strings.TrimSpace(reason) == "" {
		reason = "no reason given"
	}
	return MsgRestorePrefix + " (reason: " + reason + "). Re-approving restores it and e-mails the holder: confirm the restore to continue."
}

// MaxReason is the longest rejection reason kept.
const MaxReason = 1000

// Paging defaults.
const (
	DefaultLimit = 20
	MaxLimit     = 100
	MaxSearch    = 200
)

// Page is a validated page request.
type Page struct {
	Page, Limit int
	Sort        Sort // zero: the list's default order (newest first)
	noCount     bool // an export's page: the rows only
}

// Offset is the first row of the page.
func (p Page) Offset() int { return (p.Page - 1) * p.Limit }

// PageInfo is what a paginated answer says about itself.
type PageInfo struct {
	Page       int    `json:"page"`
	Limit      int    `json:"limit"`
	Total      int64  `json:"total"`
	TotalPages int64  `json:"totalPages"`
	Sort       string `json:"sort,omitempty"` // the sort applied, as sent ("-createdAt")
}

// Info builds the answer's page info for total rows.
func (p Page) Info(total int64) PageInfo {
	pages := (total + int64(p.Limit) - 1) / int64(p.Limit)
	info := PageInfo{Page: p.Page, Limit: p.Limit, Total: total, TotalPages: pages}
	if p.Sort.Col != "" {
		info.Sort = p.Sort.String()
	}
	return info
}

// ParsePage validates the page and limit query parameters ("" = default).
func ParsePage(page, limit string) (Page, string) {
	p := Page{Page: 1, Limit: DefaultLimit}
	if page != "" {
		n, err := strconv.Atoi(page)
		if err != nil || n < 1 || n > 1_000_000 {
			return p, MsgBadPage
		}
		p.Page = n
	}
	if limit != "" {
		n, err := strconv.Atoi(limit)
		if err != nil || n < 1 || n > MaxLimit {
			return p, MsgBadLimit
		}
		p.Limit = n
	}
	return p, ""
}

// ParseSearch trims the search text and checks its length.
func ParseSearch(q string) (string, string) {
	q = strings.TrimSpace(q)
	if utf8.RuneCountInString(q) > MaxSearch {
		return "", MsgSearchTooLong
	}
	return q, ""
}

// ReviewGroup is the status filter "review": what the Pending Review tab shows, the
// applications waiting for a decision (paid or not yet paid; an unpaid one can be granted
// free).
const ReviewGroup = "review"

// ParseStatuses turns the status filter into the statuses it means (nil = every status).
func ParseStatuses(s string) ([]string, string) {
	switch strings.TrimSpace(s) {
	case "", "all":
		return nil, ""
	case ReviewGroup:
		return []string{model.StatusPending, model.StatusAwaitingPayment}, ""
	case model.StatusPending, model.StatusAwaitingPayment, model.StatusApproved, model.StatusRejected:
		return []string{strings.TrimSpace(s)}, ""
	}
	return nil, MsgBadStatus
}

// LikePattern makes a case-insensitive LIKE pattern matching q anywhere (use with
// ESCAPE '\').
func LikePattern(q string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(q)) + "%"
}

// CleanReason trims the rejection reason; empty means the default.
func CleanReason(r string) (string, string) {
	r = strings.TrimSpace(r)
	if r == "" {
		return DefaultRejectionReason, ""
	}
	if utf8.RuneCountInString(r) > MaxReason {
		return "", MsgReasonTooLong
	}
	return r, ""
}

// UserEdit is the body of PUT /admin/users/{id}: every field optional, a field sent is
// set (an empty position, linkedin or portfolio clears it).
type UserEdit struct {
	Name      *string `json:"name"`
	Email     *string `json:"email"`
	Position  *string `json:"position"`
	LinkedIn  *string `json:"linkedin"`
	Portfolio *string `json:"portfolio"`
	Role      *string `json:"role"`
}

// Clean validates the edit and normalises its fields in place.
func (e *UserEdit) Clean() string {
	if e.Name == nil && e.Email == nil && e.Position == nil && e.LinkedIn == nil && e.Portfolio == nil && e.Role == nil {
		return MsgNothingToUpdate
	}
	if e.Name != nil {
		n := user.CleanName(*e.Name) // no bidi overrides or zero-width characters
		switch {
		case n == "":
			return MsgNameRequired
		case utf8.RuneCountInString(n) > MaxName:
			return MsgNameTooLong
		}
		e.Name = &n
	}
	if e.Email != nil {
		m := strings.ToLower(strings.TrimSpace(*e.Email))
		if m == "" {
			return MsgEmailRequired
		}
		if !ValidEmail(m) {
			return MsgEmailInvalid
		}
		e.Email = &m
	}
	if e.Position != nil {
		p := strings.Join(strings.Fields(*e.Position), " ")
		if utf8.RuneCountInString(p) > MaxPosition {
			return MsgPositionTooLong
		}
		e.Position = &p
	}
	if e.LinkedIn != nil {
		l := strings.TrimSpace(*e.LinkedIn)
		if l != "" && !user.ValidWebURL(l) {
			return MsgLinkedInInvalid
		}
		e.LinkedIn = &l
	}
	if e.Portfolio != nil {
		p := strings.TrimSpace(*e.Portfolio)
		if p != "" && !user.ValidWebURL(p) {
			return MsgPortfolioInvalid
		}
		e.Portfolio = &p
	}
	if e.Role != nil {
		r := strings.TrimSpace(*e.Role)
		if r != model.RoleUser && r != model.RoleAdmin {
			return MsgRoleInvalid
		}
		e.Role = &r
	}
	return ""
}

// ValidEmail reports a plain address (no display name) of at most 254 characters with a
// dotted domain.
func ValidEmail(s string) bool {
	if len(s) > 254 || strings.ContainsAny(s, " \t\r\n<>\"") {
		return false
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Address != s {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	return at > 0 && strings.Contains(domain, ".") && !strings.HasPrefix(domain, ".") && !strings.HasSuffix(domain, ".")
}

// RoleChangeRule checks a role change of target by actor: an admin cannot remove their own
// admin role, and the last admin cannot be demoted (admins is how many admins exist now,
// counted under lock). "" means allowed.
func RoleChangeRule(actorID string, target *model.User, newRole string, admins int) string {
	if target.Role != model.RoleAdmin || newRole == model.RoleAdmin {
		return ""
	}
	if target.ID == actorID {
		return MsgSelfDemotion
	}
	if admins <= 1 {
		return MsgLastAdmin
	}
	return ""
}

// Cents to dollars for JSON.
func dollars(cents int64) float64 { return float64(cents) / 100 }
