// Package badgeadmin is the administrators' badge management: list (with inactive badges
// and each badge's quiz), stats, create, edit, delete and activate/deactivate. It also holds
// the input and audit helpers the quiz and coupon administration share.
package badgeadmin

import (
	"encoding/json"
	"strings"

	"meritmark/app/input"
	"meritmark/app/model"
)

// Icons and Colors a badge can name (app/model/badge-style.json, the one list the
// views and the build read too).
var (
	Icons  = model.BadgeIcons
	Colors = model.BadgeColors
)

// Defaults of the badge form (spec section 5).
const (
	DefaultType  = model.TypeSkill
	DefaultLevel = "beginner"
	DefaultIcon  = "Award"
	DefaultColor = "blue"
)

// Field limits.
const (
	MaxName        = 100
	MaxDescription = 2000
	MaxCriteria    = 5000
	MaxValidDays   = 3650
	MaxValidMonths = 120
)

// Messages.
const (
	MsgNotFound          = "Badge not found"
	MsgNameRequired      = "Badge name is required."
	MsgNameTooLong       = "Badge name must be at most 100 characters."
	MsgDuplicateName     = "A badge with this name already exists."
	MsgCategory          = "Category must be one of: Development, Design, Management, Data Science, Marketing, DevOps."
	MsgType              = "Type must be skill or proof."
	MsgLevel             = "Level must be beginner, intermediate or advanced."
	MsgIcon              = "Icon must be one of the available badge icons."
	MsgColor             = "Color must be one of the available badge colors."
	MsgDescriptionLong   = "Description must be at most 2000 characters."
	MsgCriteriaLong      = "Criteria must be at most 5000 characters."
	MsgValidDays         = "Validity must be a whole number of days from 1 to 3650, or empty for badges that never expire."
	MsgValidMonths       = "The validity period must be a whole number of months from 1 to 120, or empty for badges that never expire."
	MsgTypeLocked        = "The type of a badge that has been applied for or granted cannot be changed."
	MsgTypeHasQuiz       = "This badge has a quiz, so it cannot become a proof badge."
	MsgActivateNeedsQuiz = "Add an active quiz with at least one question before activating this skill badge."
	MsgDeleteInUse       = "This badge cannot be deleted because it has been granted or applied for. Deactivate it instead to hide it from the catalogue."
)

// Input is the badge form (POST and PUT /badge-management/badges). Absent fields take the
// form's defaults on create and keep their value on edit.
type Input struct {
	Name           *string         `json:"name"`
	Description    *string         `json:"description"`
	Category       *string         `json:"category"`
	Type           *string         `json:"type"`
	Level          *string         `json:"level"`
	Price          json.RawMessage `json:"price"`
	Icon           *string         `json:"icon"`
	Color          *string         `json:"color"`
	Criteria       *string         `json:"criteria"`
	RequiresResume *bool           `json:"requiresResume"`
	ValidDays      json.RawMessage `json:"validDays"`
	ValidMonths    json.RawMessage `json:"validMonths"`
	IsActive       *bool           `json:"isActive"` // create only; edits use the toggle
}

// NewBadge is a badge with the form's defaults (spec section 5): skill, beginner, price 0,
// icon Award, color blue, no resume; new badges start inactive (a draft) unless asked.
func NewBadge() model.Badge {
	return model.Badge{Type: DefaultType, Level: DefaultLevel, Icon: DefaultIcon, Color: DefaultColor}
}

// fields names the form field each validation message is about (its JSON key).
var fields = map[string]string{
	MsgNameRequired: "name", MsgNameTooLong: "name", MsgDuplicateName: "name", MsgCategory: "category", MsgType: "type",
	MsgLevel: "level", MsgIcon: "icon", MsgColor: "color", MsgDescriptionLong: "description", MsgCriteriaLong: "criteria",
	MsgValidDays: "validDays", MsgValidMonths: "validMonths", MsgTypeLocked: "type", MsgTypeHasQuiz: "type",
}

// FieldOf is the form field a validation message is about ("" when none or unknown).
func FieldOf(msg string) string {
	if f, ok := fields[msg]; ok {
		return f
	}
	if strings.HasPrefix(msg, "Price") {
		return "price"
	}
	return ""
}

// Apply copies the given fields of in onto b and validates the result; it answers the
// first problem's message ("" when b is valid).
func Apply(b *model.Badge, in Input) string {
	if in.Name != nil {
		b.Name = strings.Join(strings.Fields(*in.Name), " ")
	}
	if in.Description != nil {
		b.Description = strings.TrimSpace(*in.Description)
	}
	if in.Category != nil {
		b.Category = strings.TrimSpace(*in.Category)
	}
	if in.Type != nil {
		b.Type = strings.ToLower(strings.TrimSpace(*in.Type))
	}
	if in.Level != nil {
		b.Level = strings.ToLower(strings.TrimSpace(*in.Level))
	}
	if in.Icon != nil {
		b.Icon = strings.TrimSpace(*in.Icon)
	}
	if in.Color != nil {
		b.Color = strings.ToLower(strings.TrimSpace(*in.Color))
	}
	if in.Criteria != nil {
		b.Criteria = strings.TrimSpace(*in.Criteria)
	}
	if in.RequiresResume != nil {
		b.RequiresResume = *in.RequiresResume
	}
	switch {
	case b.Name == "":
		return MsgNameRequired
	case input.TooLong(b.Name, MaxName):
		return MsgNameTooLong
	case !model.ValidCategory(b.Category):
		return MsgCategory
	case b.Type != model.TypeSkill && b.Type != model.TypeProof:
		return MsgType
	case !model.ValidLevel(b.Level):
		return MsgLevel
	}
	if in.Price != nil {
		cents, empty, e := input.ParseHundredths(in.Price, input.MaxMoneyCents)
		if e != input.MoneyOK {
			return input.MoneyMessage("Price", e, input.MaxMoneyCents)
		}
		if empty {
			cents = 0
		}
		b.PriceCents = cents
	}
	switch {
	case !contains(Icons, b.Icon):
		return MsgIcon
	case !contains(Colors, b.Color):
		return MsgColor
	case input.TooLong(b.Description, MaxDescription):
		return MsgDescriptionLong
	case input.TooLong(b.Criteria, MaxCriteria):
		return MsgCriteriaLong
	}
	if in.ValidDays != nil {
		n, empty, ok := input.ParseInt(in.ValidDays)
		switch {
		case empty:
			b.ValidDays = nil
		case !ok || n < 1 || n > MaxValidDays:
			return MsgValidDays
		default:
			d := int(n)
			b.ValidDays = &d
		}
	}
	if in.ValidMonths != nil {
		n, empty, ok := input.ParseInt(in.ValidMonths)
		switch {
		case empty:
			b.ValidMonths = nil
		case !ok || n < 1 || n > MaxValidMonths:
			return MsgValidMonths
		default:
			m := int(n)
			b.ValidMonths = &m
		}
	}
	return ""
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
