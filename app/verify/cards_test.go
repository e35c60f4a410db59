package verify_test

import (
	"bytes"
	"html"
	"image/png"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"meritmark/app/model"
)

// metaContent is the content of <meta property|name="prop"> in a document.
func metaContent(t *testing.T, doc, prop string) string {
	t.Helper()
	m := regexp.MustCompile(`<meta (?:property|name)="` + regexp.QuoteMeta(prop) + `" content="([^"]*)">`).FindStringSubmatch(doc)
	if m == nil {
		return ""
	}
	return html.UnescapeString(m[1])
}

func TestBadgePageHasItsOwnCard(t *testing.T) {
	w := newWorld(t)
	other := w.newBadge(t, "Data Analyst", "Data", nil)
	c := w.e.Client()

	cardOf := func(b *model.Badge) (url string, body []byte) {
		t.Helper()
		res, _ := c.Page("/badges/" + b.ID)
		res.Expect(http.StatusOK)
		doc := res.Text()
		url = metaContent(t, doc, "og:image")
		prefix := w.e.URL + "/badges/" + b.ID + "/card.png?v="
		if !strings.HasPrefix(url, prefix) || len(url) == len(prefix) {
			t.Fatalf("og:image of %s is %q, want %s{version}", b.Name, url, prefix)
		}
		if metaContent(t, doc, "twitter:image") != url {
			t.Fatalf("twitter:image differs from og:image %q", url)
		}
		if wd, ht := metaContent(t, doc, "og:image:width"), metaContent(t, doc, "og:image:height"); wd != "1200" || ht != "630" {
			t.Fatalf("og:image size %sx%s, want 1200x630", wd, ht)
		}
		if alt := metaContent(t, doc, "og:image:alt"); !strings.Contains(alt, b.Name) {
			t.Fatalf("og:image:alt %q does not name the badge", alt)
		}
		img := c.Abs("GET", strings.TrimPrefix(url, w.e.URL), nil).Expect(http.StatusOK)
		if ct := img.Header.Get("Content-Type"); ct != "image/png" {
			t.Fatalf("card Content-Type %q", ct)
		}
		// the versioned URL never changes what it shows
		if cc := img.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
			t.Fatalf("versioned card Cache-Control %q, want immutable", cc)
		}
		// unfurlers and link checkers ask HEAD first
		if h := c.Abs("HEAD", strings.TrimPrefix(url, w.e.URL), nil); h.Status != http.StatusOK || h.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("HEAD %s: %d %q", url, h.Status, h.Header.Get("Content-Type"))
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(img.Body))
		if err != nil || cfg.Width != 1200 || cfg.Height != 630 {
			t.Fatalf("card: %v %dx%d", err, cfg.Width, cfg.Height)
		}
		return url, img.Body
	}
	ua, a := cardOf(w.badge)
	ub, b := cardOf(other)
	if ua == ub || bytes.Equal(a, b) {
		t.Fatal("two badges share one card")
	}

	// unversioned: a short cache; the ETag answers 304
	res := c.Abs("GET", "/badges/"+w.badge.ID+"/card.png", nil).Expect(http.StatusOK)
	if cc := res.Header.Get("Cache-Control"); strings.Contains(cc, "immutable") {
		t.Fatalf("unversioned card Cache-Control %q", cc)
	}
	if stale := c.Abs("GET", "/badges/"+w.badge.ID+"/card.png?v=0000", nil).Expect(http.StatusOK); strings.Contains(stale.Header.Get("Cache-Control"), "immutable") {
		t.Fatal("a stale version is cached as immutable")
	}
	tag := res.Header.Get("ETag")
	if r := c.Raw("GET", "/badges/"+w.badge.ID+"/card.png", nil, map[string]string{"If-None-Match": tag}); tag == "" || r.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match %q: %d", tag, r.Status)
	}

	// renaming the badge changes the card and its URL
	if _, err := w.e.DB.NewUpdate().Model((*model.Badge)(nil)).Set("name = ?", "Go Expert").Where("id = ?", w.badge.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	w.badge.Name = "Go Expert"
	if ua2, a2 := cardOf(w.badge); ua2 == ua || bytes.Equal(a2, a) {
		t.Fatal("renaming the badge kept its card")
	}

	// unknown and malformed ids: 404 with a message, never a 5xx
	for _, id := range []string{model.NewID(), "nope", "%00", strings.Repeat("z", 300)} {
		r := c.Abs("GET", "/badges/"+id+"/card.png", nil).Expect(http.StatusNotFound)
		if r.Msg() == "" {
			t.Fatalf("404 for %q has no msg: %s", id, r.Text())
		}
	}
}

func TestVerifyPageLinksTheHolderAndKnowsThem(t *testing.T) {
	w := newWorld(t)
	holder, g := w.grant(t, "Grace Hopper", "grace@example.com", w.badge)
	path := "/verify/" + g.PublicVerificationID

	holderOf := func(props map[string]any) (bool, string) {
		t.Helper()
		props = props["page"].(map[string]any)
		h, _ := props["holder"].(bool)
		u := props["result"].(map[string]any)["user"].(map[string]any)
		p, _ := u["profileUrl"].(string)
		return h, p
	}
	// a visitor: the profile link, no holder's actions
	_, props := w.e.Client().Page(path)
	if h, p := holderOf(props); h || p != "/profile/"+holder.ID {
		t.Fatalf("visitor: holder %v, profileUrl %q", h, p)
	}
	// another member is not the holder either
	_, other := w.e.Member("someone@example.com")
	if _, props = other.Page(path); func() bool { h, _ := holderOf(props); return h }() {
		t.Fatal("another member is taken for the holder")
	}
	// the holder is
	if _, props = w.e.LoginAs(holder).Page(path); func() bool { h, _ := holderOf(props); return !h }() {
		t.Fatal("the holder is not recognised")
	}
	// and a visitor's cached page does not say otherwise afterwards
	if _, props = w.e.Client().Page(path); func() bool { h, _ := holderOf(props); return h }() {
		t.Fatal("a visitor got the holder's page")
	}
	// the API answer links the profile too
	u := w.e.Client().Get("/verify/badge/" + g.VerificationID).Expect(http.StatusOK).Map()["user"].(map[string]any)
	if u["profileUrl"] != "/profile/"+holder.ID {
		t.Fatalf("API profileUrl %v", u["profileUrl"])
	}
	// a deleted account (its row a tombstone) has no profile to link
	gone, g2 := w.grant(t, "Ada Lovelace", "ada@example.com", w.badge)
	if _, err := w.e.DB.NewUpdate().Model((*model.User)(nil)).Set("deleted_at = ?", model.Now()).
		Set("email = ?", "deleted-"+gone.ID+"@deleted.invalid").Where("id = ?", gone.ID).Exec(w.e.Ctx()); err != nil {
		t.Fatal(err)
	}
	_, props = w.e.Client().Page("/verify/" + g2.PublicVerificationID)
	if _, p := holderOf(props); p != "" {
		t.Fatalf("a deleted holder is linked: %q", p)
	}
}
