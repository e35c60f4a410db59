package grant_test

import (
	"os"
	"regexp"
	"testing"

	"meritmark/app/grant"
)

// The admin's revoke dialog takes the categories from views/components/admin/users/model.ts;
// the server validates against RevocationCategories. The two lists must be the same.
func TestRevocationCategoriesMatchViews(t *testing.T) {
	src, err := os.ReadFile("../../views/components/admin/users/model.ts")
	if err != nil {
		t.Fatal(err)
	}
	got := regexp.MustCompile(`\{ key: '([a-z_]+)', label: '([^']+)' \}`).FindAllStringSubmatch(string(src), -1)
	if len(got) != len(grant.RevocationCategories) {
		t.Fatalf("views list %d categories, the server %d", len(got), len(grant.RevocationCategories))
	}
	for i, c := range grant.RevocationCategories {
		if got[i][1] != c.Key || got[i][2] != c.Label {
			t.Errorf("category %d: views %q %q, server %q %q", i, got[i][1], got[i][2], c.Key, c.Label)
		}
	}
}
