package app_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// What follows a change (the cached public pages, the Hall of Fame, the credential cache,
// webhooks) follows from the domain events writers record (app/events), in one place:
// app/subscribers.go. A write that bumped page versions or refreshed the Hall of Fame by
// itself would change a public page without recording an event, so no file but the
// subscribers calls those; this test fails on such a call anywhere else.
func TestPublicPagesFollowOnlyFromEvents(t *testing.T) {
	forbidden := map[string]bool{"pagecache.Bump": true, "halloffame.Refresh": true, "Issuer.Changed": true}
	allowed := map[string]bool{"subscribers.go": true}
	fset := token.NewFileSet()
	var bad []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || allowed[p] {
			return err
		}
		// the packages that define them, and the tools that write rows behind the app's back
		if strings.HasPrefix(p, "pagecache/") || strings.HasPrefix(p, "halloffame/") || strings.HasPrefix(p, "credential/") ||
			strings.HasPrefix(p, "apptest/") || strings.HasPrefix(p, "seed/") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && forbidden[x.Name+"."+sel.Sel.Name] {
					bad = append(bad, fset.Position(n.Pos()).String()+": "+x.Name+"."+sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) > 0 {
		t.Fatalf("record a domain event instead (app/events; subscribers in app/subscribers.go):\n%s", strings.Join(bad, "\n"))
	}
}
