package badgeadmin

import (
	"testing"

	"meritmark/app/model"
)

func TestApplyDefaultsAndNormalises(t *testing.T) {
	b := NewBadge()
	name, cat := "  Go   Expert ", "Development"
	if msg := Apply(&b, Input{Name: &name, Category: &cat}); msg != "" {
		t.Fatal(msg)
	}
	if b.Name != "Go Expert" || b.Type != model.TypeSkill || b.Level != "beginner" || b.PriceCents != 0 || b.Icon != "Award" ||
		b.Color != "blue" || b.RequiresResume || b.IsActive || b.ValidDays != nil {
		t.Fatalf("defaults: %+v", b)
	}
}
