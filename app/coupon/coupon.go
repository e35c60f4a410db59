// Package coupon is the administrators' coupon management: list with computed status,
// stats, create, edit, delete, activate/deactivate and one-click free-grant coupons.
// Validating a coupon at checkout and pricing belong to the payments feature.
//
// Deleting: a coupon that has been redeemed (or is attached to a payment or an unfinished
// checkout) is never hard-deleted, because its redemptions are part of the payment records;
// DELETE answers 409 and the admin deactivates it instead.
package coupon

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"

	"meritmark/app/input"
	"meritmark/app/model"
)

// Discount types.
const (
	Percentage = "percentage"
	Fixed      = "fixed"
)

// Defaults of a new coupon (spec sections 5 and 9).
const (
	DefaultType     = Percentage
	DefaultValue    = 1000 // 10 %, in hundredths
	DefaultValidity = 30 * 24 * time.Hour
	MaxName         = 100
	MaxDescription  = 500
	MaxUsageLimit   = 1_000_000
)

// Messages.
const (
	MsgNotFound         = "Coupon not found"
	MsgCodeRequired     = "Coupon code is required."
	MsgCodeFormat       = "Coupon code must be 3 to 32 characters: letters, digits, - or _."
	MsgCodeTaken        = "A coupon with this code already exists."
	MsgType             = "Discount type must be percentage or fixed."
	MsgPercentRange     = "A percentage discount must be between 1 and 100."
	MsgFixedPositive    = "A fixed discount must be more than $0."
	MsgMaximumPositive  = "Maximum discount must be more than $0, or empty for no maximum."
	MsgUsageLimit       = "Usage limit must be a whole number of at least 1, or empty for unlimited."
	MsgUsageBelowUsed   = "Usage limit cannot be lower than the number of times the coupon has been used."
	MsgValidFrom        = "Valid from must be a date and time."
	MsgValidUntil       = "Valid until must be a date and time."
	MsgValidOrder       = "Valid until must be after valid from."
	MsgBadges           = "Applicable badges must be existing badges."
	MsgCategories       = "Applicable categories must be from: Development, Design, Management, Data Science, Marketing, DevOps."
	MsgNameLong         = "Coupon name must be at most 100 characters."
	MsgDescriptionLong  = "Description must be at most 500 characters."
	MsgStatusFilter     = "Status must be all, active, inactive or expired."
	MsgDeleteRedeemed   = "This coupon has already been used, so it cannot be deleted without losing payment history. Deactivate it instead."
	MsgFreeGrantCreated = "Free grant coupon %s created: 100%% off one badge, valid for 30 days."
)

var codeRe = regexp.MustCompile(`^[A-Z0-9_-]{3,32}$`)

// NormalizeCode trims and upper-cases a code.
func NormalizeCode(s string) string { return strings.ToUpper(strings.TrimSpace(s)) }

// ValidCode reports whether a normalised code has the allowed shape.
func ValidCode(s string) bool { return codeRe.MatchString(s) }

// Input is the coupon form (POST and PUT /coupons). Absent fields take the defaults on
// create and keep their value on edit; maximumDiscount and usageLimit are null when empty.
type Input struct {
	Code                 *string         `json:"code"`
	Name                 *string         `json:"name"`
	Description          *string         `json:"description"`
	DiscountType         *string         `json:"discountType"`
	DiscountValue        json.RawMessage `json:"discountValue"`
	MinimumAmount        json.RawMessage `json:"minimumAmount"`
	MaximumDiscount      json.RawMessage `json:"maximumDiscount"`
	UsageLimit           json.RawMessage `json:"usageLimit"`
	ValidFrom            json.RawMessage `json:"validFrom"`
	ValidUntil           json.RawMessage `json:"validUntil"`
	ApplicableBadges     json.RawMessage `json:"applicableBadges"`
	ApplicableCategories []string        `json:"applicableCategories"`
	IsActive             *bool           `json:"isActive"`
}

// NewCoupon is a coupon with the defaults: 10 % off, no minimum, valid from now for 30
// days, active, for every badge.
func NewCoupon(at time.Time) model.Coupon {
	return model.Coupon{DiscountType: DefaultType, DiscountValue: DefaultValue, ValidFrom: at, ValidUntil: at.Add(DefaultValidity),
		IsActive: true, ApplicableBadges: []string{}, ApplicableCategories: []string{}}
}

// fields names the form field each validation message is about (its JSON key).
var fields = map[string]string{
	MsgCodeRequired: "code", MsgCodeFormat: "code", MsgCodeTaken: "code", MsgType: "discountType",
	MsgPercentRange: "discountValue", MsgFixedPositive: "discountValue", MsgMaximumPositive: "maximumDiscount",
	MsgUsageLimit: "usageLimit", MsgUsageBelowUsed: "usageLimit", MsgValidFrom: "validFrom", MsgValidUntil: "validUntil",
	MsgValidOrder: "validUntil", MsgBadges: "applicableBadges", MsgCategories: "applicableCategories",
	MsgNameLong: "name", MsgDescriptionLong: "description",
}

// FieldOf is the form field a validation message is about ("" when none or unknown).
func FieldOf(msg string) string {
	if f, ok := fields[msg]; ok {
		return f
	}
	if strings.HasPrefix(msg, "Minimum") {
		return "minimumAmount"
	}
	if strings.HasPrefix(msg, "Maximum") {
		return "maximumDiscount"
	}
	if strings.HasPrefix(msg, "Discount") {
		return "discountValue"
	}
	return ""
}

// Apply copies the given fields of in onto c and validates the result, answering the first
// problem ("" when valid). Badge ids are checked for shape here and for existence by the
// caller (badgeIDs returns them).
func Apply(c *model.Coupon, in Input) (msg string, badgeIDs []string) {
	if in.Code != nil {
		c.Code = NormalizeCode(*in.Code)
	}
	if in.Name != nil {
		c.Name = strings.TrimSpace(*in.Name)
	}
	if in.Description != nil {
		c.Description = strings.TrimSpace(*in.Description)
	}
	if in.DiscountType != nil {
		c.DiscountType = strings.ToLower(strings.TrimSpace(*in.DiscountType))
	}
	if in.IsActive != nil {
		c.IsActive = *in.IsActive
	}
	switch {
	case c.Code == "":
		return MsgCodeRequired, nil
	case !ValidCode(c.Code):
		return MsgCodeFormat, nil
	case input.TooLong(c.Name, MaxName):
		return MsgNameLong, nil
	case input.TooLong(c.Description, MaxDescription):
		return MsgDescriptionLong, nil
	case c.DiscountType != Percentage && c.DiscountType != Fixed:
		return MsgType, nil
	}
	if in.DiscountValue != nil {
		v, empty, e := input.ParseHundredths(in.DiscountValue, input.MaxMoneyCents)
		if e != input.MoneyOK {
			if c.DiscountType == Percentage && (e == input.MoneyTooLarge || e == input.MoneyNegative) {
				return MsgPercentRange, nil
			}
			if c.DiscountType == Fixed && e == input.MoneyNegative {
				return MsgFixedPositive, nil
			}
			return input.MoneyMessage("Discount value", e, input.MaxMoneyCents), nil
		}
		if empty {
			v = 0
		}
		c.DiscountValue = v
	}
	if c.DiscountType == Percentage && (c.DiscountValue < 100 || c.DiscountValue > 10000) {
		return MsgPercentRange, nil
	}
	if c.DiscountType == Fixed && c.DiscountValue <= 0 {
		return MsgFixedPositive, nil
	}
	if in.MinimumAmount != nil {
		v, _, e := input.ParseHundredths(in.MinimumAmount, input.MaxMoneyCents)
		if e != input.MoneyOK {
			return input.MoneyMessage("Minimum amount", e, input.MaxMoneyCents), nil
		}
		c.MinimumCents = v
	}
	if in.MaximumDiscount != nil {
		v, empty, e := input.ParseHundredths(in.MaximumDiscount, input.MaxMoneyCents)
		switch {
		case e == input.MoneyNegative:
			return MsgMaximumPositive, nil
		case e != input.MoneyOK:
			return input.MoneyMessage("Maximum discount", e, input.MaxMoneyCents), nil
		case empty:
			c.MaximumDiscountCents = nil
		case v == 0:
			return MsgMaximumPositive, nil
		default:
			c.MaximumDiscountCents = &v
		}
	}
	if in.UsageLimit != nil {
		n, empty, ok := input.ParseInt(in.UsageLimit)
		switch {
		case empty:
			c.UsageLimit = nil
		case !ok || n < 1 || n > MaxUsageLimit:
			return MsgUsageLimit, nil
		default:
			l := int(n)
			c.UsageLimit = &l
		}
	}
	if c.UsageLimit != nil && *c.UsageLimit < c.UsedCount {
		return MsgUsageBelowUsed, nil
	}
	if in.ValidFrom != nil {
		t, ok := ParseTime(in.ValidFrom, false)
		if !ok {
			return MsgValidFrom, nil
		}
		c.ValidFrom = t
	}
	if in.ValidUntil != nil {
		t, ok := ParseTime(in.ValidUntil, true)
		if !ok {
			return MsgValidUntil, nil
		}
		c.ValidUntil = t
	}
	if !c.ValidFrom.Before(c.ValidUntil) {
		return MsgValidOrder, nil
	}
	if in.ApplicableBadges != nil {
		ids, ok := parseBadgeIDs(in.ApplicableBadges)
		if !ok {
			return MsgBadges, nil
		}
		c.ApplicableBadges = ids
		badgeIDs = ids
	}
	if in.ApplicableCategories != nil {
		cats := make([]string, 0, len(in.ApplicableCategories))
		seen := map[string]bool{}
		for _, cat := range in.ApplicableCategories {
			cat = strings.TrimSpace(cat)
			if !model.ValidCategory(cat) {
				return MsgCategories, nil
			}
			if !seen[cat] {
				seen[cat] = true
				cats = append(cats, cat)
			}
		}
		c.ApplicableCategories = cats
	}
	return "", badgeIDs
}

// ParseTime reads an ISO 8601 time: RFC 3339 (what the form sends, toISOString), or a
// zone-less date-time or a date, read as UTC. A bare date for the end of a validity window
// means the end of that day.
func ParseTime(raw json.RawMessage, endOfDay bool) (time.Time, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return time.Time{}, false
	}
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if t, err := time.Parse(layout, s); err == nil {
			return checkYear(t.UTC().Truncate(time.Microsecond))
		}
	}
	if t, err := time.Parse("2006-01-02", s); err == nil {
		if endOfDay {
			t = t.Add(24*time.Hour - time.Microsecond)
		}
		return checkYear(t)
	}
	return time.Time{}, false
}

func checkYear(t time.Time) (time.Time, bool) {
	if t.Year() < 2000 || t.Year() > 2999 {
		return time.Time{}, false
	}
	return t, true
}

// parseBadgeIDs reads a list of badge ids, given as strings or as badge objects {_id}.
func parseBadgeIDs(raw json.RawMessage) ([]string, bool) {
	if strings.TrimSpace(string(raw)) == "null" {
		return []string{}, true
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return nil, false
	}
	ids := make([]string, 0, len(items))
	seen := map[string]bool{}
	for _, it := range items {
		var id string
		if json.Unmarshal(it, &id) != nil {
			var obj struct {
				ID string `json:"_id"`
			}
			if json.Unmarshal(it, &obj) != nil {
				return nil, false
			}
			id = obj.ID
		}
		id = strings.TrimSpace(id)
		if !model.ValidID(id) {
			return nil, false
		}
		if !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	return ids, true
}

const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789" // no 0/O or 1/I look-alikes

// FreeGrantCodeLen is the random part of a generated code: 13 characters of a
// 32-letter alphabet, 65 random bits, so that guessing one (even at the quote endpoint's
// rate limit) is hopeless.
const FreeGrantCodeLen = 13

// FreeGrantCode makes a code like FREE-7KX2QHM4PZ9RT (FREE- and FreeGrantCodeLen random
// characters; 256 is a multiple of 32, so every character is uniform).
func FreeGrantCode() string {
	b := make([]byte, FreeGrantCodeLen)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return "FREE-" + string(b)
}

// FreeGrantMessage is the toast answered for a new free-grant coupon.
func FreeGrantMessage(code string) string { return fmt.Sprintf(MsgFreeGrantCreated, code) }
