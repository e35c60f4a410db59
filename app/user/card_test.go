package user_test

import (
	"bytes"
	"html"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/user"
)

// profileCardURL is the og:image of the public profile of id (its path, without the origin).
func profileCardURL(t *testing.T, e *apptest.Env, id string) string {
	t.Helper()
	r, _ := e.Client().Page("/profile/" + id)
	r.Expect(200)
	doc := r.Text()
	m := regexp.MustCompile(`<meta property="og:image" content="([^"]*)">`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("no og:image")
	}
	url := html.UnescapeString(m[1])
	if !strings.HasPrefix(url, e.URL+"/profile/"+id+"/card.png?v=") {
		t.Fatalf("og:image %q", url)
	}
	if tw := regexp.MustCompile(`<meta name="twitter:image" content="([^"]*)">`).FindStringSubmatch(doc); tw == nil || html.UnescapeString(tw[1]) != url {
		t.Fatalf("twitter:image %v, og:image %q", tw, url)
	}
	for _, want := range []string{`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`} {
		if !strings.Contains(doc, want) {
			t.Fatalf("profile lacks %s", want)
		}
	}
	return strings.TrimPrefix(url, e.URL)
}

func fetchCard(t *testing.T, e *apptest.Env, path string) *apptest.Resp {
	t.Helper()
	r := e.Client().Abs("GET", path, nil).Expect(http.StatusOK)
	if ct := r.Header.Get("Content-Type"); ct != "image/png" {
		t.Fatalf("%s: Content-Type %q", path, ct)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(r.Body))
	if err != nil || cfg.Width != 1200 || cfg.Height != 630 {
		t.Fatalf("%s: %v %dx%d, want a 1200x630 PNG", path, err, cfg.Width, cfg.Height)
	}
	return r
}

func TestPublicProfileCard(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("card@example.com")
	c.Post("/users/profile", map[string]any{"name": "Card Holder", "position": "Platform Engineer"}).Expect(200)
	addGrant(t, e, u, addBadge(t, e, "Figma Pro", "Design"), "cardfigma", model.Now(), false)

	// without a picture: the initials
	plain := profileCardURL(t, e, u.ID)
	r := fetchCard(t, e, plain)
	if cc := r.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
		t.Fatalf("versioned card Cache-Control %q", cc)
	}
	tag := r.Header.Get("ETag")
	if got := e.Client().Raw("GET", plain, nil, map[string]string{"If-None-Match": tag}); tag == "" || got.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match %q: %d", tag, got.Status)
	}

	// with a photo: a new version, a different card
	upload(c, "me.png", "image/png", pngBytes(t, testImage(64, 64))).Expect(200)
	withPic := profileCardURL(t, e, u.ID)
	if withPic == plain {
		t.Fatal("a new picture kept the card URL")
	}
	if r2 := fetchCard(t, e, withPic); bytes.Equal(r2.Body, r.Body) {
		t.Fatal("the card with a photo is the one without")
	}
	// the old version's URL still answers, but briefly cached
	if old := fetchCard(t, e, plain); strings.Contains(old.Header.Get("Cache-Control"), "immutable") {
		t.Fatal("a stale card version is cached as immutable")
	}

	// unknown and malformed ids, a deleted account: 404 with a message
	gone, _ := e.Member("gone@example.com")
	if _, err := e.DB.NewUpdate().Model((*model.User)(nil)).Set("deleted_at = ?", model.Now()).Where("id = ?", gone.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{model.NewID(), "nope", "%2e%2e", gone.ID} {
		res := e.Client().Abs("GET", "/profile/"+id+"/card.png", nil)
		if res.Status != http.StatusNotFound || res.Msg() != user.MsgProfileNotFound {
			t.Errorf("/profile/%s/card.png: %d %s", id, res.Status, res.Text())
		}
	}
}
