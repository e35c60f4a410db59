package user_test

import (
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/user"
)

func TestCleanNameDropsBidiAndZeroWidthCharacters(t *testing.T) {
	for in, want := range map[string]string{
		"Ada \u202eecalovol\u202c":             "Ada ecalovol", // right-to-left override and pop
		"\u2066Ada\u2069 \u200fLovelace\u200e": "Ada Lovelace", // isolates and marks
		"A\u200bd\u200ca\u200d \u2060L\ufeff":  "Ada L",        // zero-width space, joiners, word joiner, BOM
		"soft\u00adhyphen":                     "softhyphen",
		"  many \t\n spaces\u3000here ":        "many spaces here", // ideographic space is whitespace
		"Zoë Ñúñez 李小龍":                        "Zoë Ñúñez 李小龍",    // letters untouched
		"\u202e\u200b":                         "",
	} {
		if got := user.CleanName(in); got != want {
			t.Errorf("CleanName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Names reach public pages (Hall of Fame, credentials): the profile, sign-up and the
// admin's edit all store them cleaned.
func TestStoredNamesAreCleaned(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("pat@example.com")
	c.Post("/users/profile", map[string]any{"name": "Pat \u202eeoD\u202c\u200b", "position": "Dev\u2066ops\u2069"}).Expect(200)
	got := apptest.Row[model.User](e, u.ID)
	if got.Name != "Pat eoD" || got.Position != "Devops" {
		t.Fatalf("profile stored %q / %q", got.Name, got.Position)
	}
	// a name of invisible characters only is no name
	c.Post("/users/profile", map[string]any{"name": "\u202e\u200b\u200d"}).ExpectMsg(400, user.MsgNameRequired)

	_, admin := e.Admin("admin@example.com")
	admin.Put("/admin/users/"+u.ID, map[string]any{"name": "Evil\u202e Name"}).Expect(200)
	if got := apptest.Row[model.User](e, u.ID); got.Name != "Evil Name" {
		t.Fatalf("admin edit stored %q", got.Name)
	}

	e.Client().Post("/auth/register", map[string]any{"name": "New\u200b \u202eUser", "email": "new@example.com", "password": "a-good-passphrase-1"})
	var n model.User
	if err := e.DB.NewSelect().Model(&n).Where("email = ?", "new@example.com").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if n.Name != "New User" {
		t.Fatalf("sign-up stored %q", n.Name)
	}
}
