package model

import (
	"os"
	"reflect"
	"regexp"
	"testing"
)

// The pages take the badge categories from views/lib/categories.ts; the server validates
// against Categories. The two lists must be the same, in the same order.
func TestCategoriesMatchViews(t *testing.T) {
	src, err := os.ReadFile("../../views/lib/categories.ts")
	if err != nil {
		t.Fatal(err)
	}
	list := regexp.MustCompile(`(?s)export const CATEGORIES = \[(.*?)\] as const;`).FindSubmatch(src)
	if list == nil {
		t.Fatal("views/lib/categories.ts: no `export const CATEGORIES = [...] as const;`")
	}
	var views []string
	for _, m := range regexp.MustCompile(`'([^']*)'`).FindAllSubmatch(list[1], -1) {
		views = append(views, string(m[1]))
	}
	if !reflect.DeepEqual(views, Categories) {
		t.Fatalf("views/lib/categories.ts has %q, app/model Categories has %q", views, Categories)
	}
}
