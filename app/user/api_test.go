package user_test

import (
	"bytes"
	"html"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"meritmark/app/apptest"
	"meritmark/app/model"
	"meritmark/app/user"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

func addBadge(t *testing.T, e *apptest.Env, name, category string) *model.Badge {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: name, Category: category, Type: model.TypeProof, Level: "beginner", Icon: "Award", Color: "blue", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return b
}

func addGrant(t *testing.T, e *apptest.Env, u *model.User, b *model.Badge, pub string, at time.Time, revoked bool) *model.BadgeGrant {
	t.Helper()
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-" + pub, PublicVerificationID: pub, GrantedAt: at}
	if revoked {
		r := model.Now()
		g.RevokedAt = &r
		g.RevocationReason = "test"
	}
	if _, err := e.DB.NewInsert().Model(g).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return g
}

func reload(t *testing.T, e *apptest.Env, id string) *model.User {
	t.Helper()
	var u model.User
	if err := e.DB.NewSelect().Model(&u).Where("id = ?", id).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return &u
}

type earned struct {
	Badges []struct {
		ID             string    `json:"id"`
		Name           string    `json:"name"`
		Category       string    `json:"category"`
		EarnedDate     time.Time `json:"earnedDate"`
		VerificationID string    `json:"verificationId"`
	} `json:"badges"`
}

func TestUsersBadges(t *testing.T) {
	e := apptest.New(t)
	e.Client().Get("/users/badges").ExpectMsg(401, web.MsgLoginRequired)
	u, c := e.Member("holder@example.com")
	other, _ := e.Member("other@example.com")

	var empty earned
	r := c.Get("/users/badges").Expect(200)
	r.JSON(&empty)
	if empty.Badges == nil || len(empty.Badges) != 0 || !strings.Contains(r.Text(), `"badges":[]`) {
		t.Fatalf("no grants: %s", r.Text())
	}

	goB, design := addBadge(t, e, "Go Expert", "Development"), addBadge(t, e, "UI Craft", "Design")
	t0 := model.Now().Add(-48 * time.Hour)
	addGrant(t, e, u, goB, "pub-old", t0, false)
	addGrant(t, e, u, design, "pub-new", t0.Add(24*time.Hour), false)
	addGrant(t, e, u, design, "pub-revoked", t0.Add(36*time.Hour), true)
	addGrant(t, e, other, goB, "pub-other", t0, false)

	var got earned
	c.Get("/users/badges").Expect(200).JSON(&got)
	if len(got.Badges) != 2 {
		t.Fatalf("badges %+v", got.Badges)
	}
	// newest first; the verification id is the public one
	apptest.Expect(t, "badges", got.Badges,
		apptest.Eq("got.Badges[0].Name", got.Badges[0].Name, "UI Craft"),
		apptest.Eq("got.Badges[0].Category", got.Badges[0].Category, "Design"),
		apptest.Eq("got.Badges[0].VerificationID", got.Badges[0].VerificationID, "pub-new"),
		apptest.Eq("got.Badges[1].Name", got.Badges[1].Name, "Go Expert"),
		apptest.Eq("got.Badges[1].VerificationID", got.Badges[1].VerificationID, "pub-old"),
		apptest.True("got.Badges[1].EarnedDate.Equal(t0)", got.Badges[1].EarnedDate.Equal(t0)))
}

func TestUpdateProfile(t *testing.T) {
	e := apptest.New(t)
	e.Client().Post("/users/profile", map[string]any{"name": "X"}).ExpectMsg(401, web.MsgLoginRequired)
	u, c := e.Member("pro@example.com")
	var out struct {
		Msg  string `json:"msg"`
		User struct {
			ID, Name, Email, Role, Position, LinkedIn, Portfolio string
		} `json:"user"`
	}
	r := c.Post("/users/profile", map[string]any{
		"name": "  Pat  Doe ", "email": "PRO@example.com", "position": " Data Engineer ",
		"linkedin": "https://www.linkedin.com/in/pat", "portfolio": "http://pat.example.com/work", "role": "admin",
	}).Expect(200)
	r.JSON(&out)
	if out.Msg != user.MsgProfileUpdated || out.User.Name != "Pat Doe" || out.User.Position != "Data Engineer" ||
		out.User.LinkedIn != "https://www.linkedin.com/in/pat" || out.User.Portfolio != "http://pat.example.com/work" ||
		out.User.Email != "pro@example.com" || out.User.Role != "user" || !strings.Contains(r.Text(), `"_id":"`+u.ID+`"`) {
		t.Fatalf("update answered %s", r.Text())
	}
	got := reload(t, e, u.ID)
	apptest.Expect(t, "stored", got,
		apptest.Eq("got.Name", got.Name, "Pat Doe"),
		apptest.Eq("got.Position", got.Position, "Data Engineer"),
		apptest.Eq("got.Role", got.Role, model.RoleUser),
		apptest.Eq("got.Email", got.Email, "pro@example.com"),
		apptest.True("got.UpdatedAt.After(u.UpdatedAt)", got.UpdatedAt.After(u.UpdatedAt)))
	// optional fields can be cleared
	c.Post("/users/profile", map[string]any{"name": "Pat Doe"}).Expect(200)
	if got := reload(t, e, u.ID); got.Position != "" || got.LinkedIn != "" || got.Portfolio != "" {
		t.Fatalf("not cleared: %+v", got)
	}

	before := reload(t, e, u.ID)
	for _, tc := range []struct {
		body map[string]any
		msg  string
	}{
		{map[string]any{"position": "x"}, user.MsgNameRequired},
		{map[string]any{"name": " "}, user.MsgNameRequired},
		{map[string]any{"name": strings.Repeat("n", 101)}, user.MsgNameTooLong},
		{map[string]any{"name": "P", "position": strings.Repeat("p", 121)}, user.MsgPositionTooLong},
		{map[string]any{"name": "P", "linkedin": "javascript:alert(document.cookie)"}, user.MsgLinkedInInvalid},
		{map[string]any{"name": "P", "linkedin": "www.linkedin.com/in/pat"}, user.MsgLinkedInInvalid},
		{map[string]any{"name": "P", "portfolio": "data:text/html,hi"}, user.MsgPortfolioInvalid},
		{map[string]any{"name": "P", "email": "new@example.com"}, user.MsgEmailReadOnly},
	} {
		c.Post("/users/profile", tc.body).ExpectMsg(400, tc.msg)
	}
	c.Post("/users/profile", "").ExpectMsg(400, "The request body is empty; expected JSON.")
	after := reload(t, e, u.ID)
	apptest.Expect(t, "an invalid update changed the user", after,
		apptest.Eq("after.Name", after.Name, before.Name),
		apptest.Eq("after.Email", after.Email, before.Email),
		apptest.True("after.UpdatedAt.Equal(before.UpdatedAt)", after.UpdatedAt.Equal(before.UpdatedAt)))
}

func upload(c *apptest.Client, name, ctype string, data []byte) *apptest.Resp {
	return c.Multipart("POST", "/users/profile-pic", nil, apptest.File{Field: "profilePic", Name: name, ContentType: ctype, Data: data})
}

func TestProfilePictureUpload(t *testing.T) {
	e := apptest.New(t)
	upload(e.Client(), "a.png", "image/png", pngBytes(t, testImage(10, 10))).ExpectMsg(401, web.MsgLoginRequired)
	u, c := e.Member("pic@example.com")

	var out struct {
		Msg           string `json:"msg"`
		ProfilePicURL string `json:"profilePicUrl"`
	}
	// a JPEG named .png with metadata: decoded by content, re-encoded as a square PNG
	r := upload(c, "holiday.png", "image/png", withExif(jpegBytes(t, testImage(1200, 900)), "SECRET-EXIF"))
	r.Expect(200).JSON(&out)
	if out.Msg != user.MsgPictureUpdated || !strings.HasPrefix(out.ProfilePicURL, "/media/avatars/") || strings.Contains(out.ProfilePicURL, "holiday") {
		t.Fatalf("upload answered %s", r.Text())
	}
	key := strings.TrimPrefix(out.ProfilePicURL, "/media/")
	if got := reload(t, e, u.ID); got.ProfilePicKey != key {
		t.Fatalf("stored key %q, want %q", got.ProfilePicKey, key)
	}
	stored, err := os.ReadFile(filepath.Join(e.DataDir, "uploads", filepath.FromSlash(key)))
	if err != nil {
		t.Fatal(err)
	}
	b := decodePNG(t, stored).Bounds()
	apptest.Expect(t, "stored picture", b,
		apptest.Eq("b.Dx()", b.Dx(), 512),
		apptest.Eq("b.Dy()", b.Dy(), 512),
		apptest.True("!bytes.Contains(stored, []byte(\"SECRET-EXIF\"))", !bytes.Contains(stored, []byte("SECRET-EXIF"))))
	// served publicly, with the right headers
	v := e.Client()
	m := v.Abs("GET", out.ProfilePicURL, nil).Expect(200)
	apptest.Expect(t, "media headers", m.Header,
		apptest.Eq("m.Header.Get(\"Content-Type\")", m.Header.Get("Content-Type"), "image/png"),
		apptest.Eq("m.Header.Get(\"X-Content-Type-Options\")", m.Header.Get("X-Content-Type-Options"), "nosniff"),
		apptest.True("strings.Contains(m.Header.Get(\"Cache-Control\"), \"max-age=31536000\")", strings.Contains(m.Header.Get("Cache-Control"), "max-age=31536000")),
		apptest.True("bytes.Equal(m.Body, stored)", bytes.Equal(m.Body, stored)))
	// /auth/me and the shell know the new picture
	if me := c.Get("/auth/me").Expect(200).Map(); me["user"].(map[string]any)["profilePicUrl"] != out.ProfilePicURL {
		t.Fatalf("me %v", me)
	}

	// a second upload (WebP) replaces the first, whose file is deleted
	first := out.ProfilePicURL
	upload(c, "x.webp", "image/webp", tinyWebP).Expect(200).JSON(&out)
	if out.ProfilePicURL == first {
		t.Fatal("the new picture reuses the old key")
	}
	v.Abs("GET", first, nil).Expect(404)
	v.Abs("GET", out.ProfilePicURL, nil).Expect(200)
	keys, err := e.Deps.Storage.List(e.Ctx(), "avatars/")
	if err != nil || len(keys) != 1 || "/media/"+keys[0] != out.ProfilePicURL {
		t.Fatalf("stored pictures %v %v", keys, err)
	}
}

func TestProfilePictureRefusals(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("bad@example.com")
	var ok struct {
		ProfilePicURL string `json:"profilePicUrl"`
	}
	upload(c, "me.png", "image/png", pngBytes(t, testImage(64, 64))).Expect(200).JSON(&ok)

	upload(c, "me.png", "image/png", []byte("<?php system($_GET['c']); ?> definitely a png")).ExpectMsg(400, user.MsgPictureType)
	upload(c, "me.png", "image/png", []byte(`<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`)).ExpectMsg(400, user.MsgPictureType)
	good := pngBytes(t, testImage(64, 64))
	upload(c, "me.png", "image/png", good[:40]).ExpectMsg(400, user.MsgPictureBroken)
	upload(c, "huge.png", "image/png", hugePNG(30000, 30000)).ExpectMsg(400, user.MsgPictureHuge)
	upload(c, "empty.png", "image/png", nil).ExpectMsg(400, user.MsgPictureBroken)
	// oversize: one byte over 10 MB (a real PNG header, so only the size is wrong)
	big := make([]byte, user.MaxPictureBytes+1)
	copy(big, good)
	upload(c, "big.png", "image/png", big).ExpectMsg(413, user.MsgPictureTooLarge)
	// far over: refused from the headers, before the body is read. The server may close the
	// connection while the client is still sending, so the client sees either the 413 or a
	// reset; either way nothing is stored (checked below). app/abuse covers the 413 itself.
	if r, err := farOver(e, c); err == nil && r.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("12 MB picture: status %d", r.StatusCode)
	}
	// no file / wrong field / not multipart
	c.Multipart("POST", "/users/profile-pic", map[string]string{"profilePic": "text"}).ExpectMsg(400, user.MsgPictureMissing)
	c.Multipart("POST", "/users/profile-pic", nil, apptest.File{Field: "avatar", Name: "a.png", Data: good}).ExpectMsg(400, user.MsgPictureMissing)
	c.Post("/users/profile-pic", map[string]any{"profilePic": "x"}).ExpectMsg(400, user.MsgPictureMissing)
	// a cross-site upload
	c.Origin = "https://evil.example"
	upload(c, "me.png", "image/png", good).ExpectMsg(403, "Cross-site request refused.")

	// nothing changed: the first picture is still the only one
	if got := reload(t, e, u.ID); "/media/"+got.ProfilePicKey != ok.ProfilePicURL {
		t.Fatalf("picture changed to %q", got.ProfilePicKey)
	}
	if keys, _ := e.Deps.Storage.List(e.Ctx(), ""); len(keys) != 1 {
		t.Fatalf("stored files %v", keys)
	}
}

func TestMediaServesOnlyGeneratedKeys(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	// a file under another prefix exists in storage but is never served
	if err := e.Deps.Storage.Put(e.Ctx(), "applications/secret.pdf", strings.NewReader("%PDF-1.4 secret"), "application/pdf"); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/media/applications/secret.pdf", "/media/avatars/../applications/secret.pdf", "/media/avatars/%2e%2e/applications/secret.pdf",
		"/media/avatars/" + model.NewID() + ".png", "/media/avatars/nothex.png", "/media/", "/media/avatars/" + model.NewID() + ".png.exe"} {
		r := c.Raw("GET", p, nil, map[string]string{"Accept": "application/json"})
		if r.Status != 404 || strings.Contains(r.Text(), "secret") {
			t.Errorf("%s: %d %s", p, r.Status, r.Text())
		}
	}
}

func TestProfilePages(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("page@example.com")
	c.Post("/users/profile", map[string]any{"name": "Page Owner", "position": "Designer & <Lead>", "linkedin": "https://linkedin.com/in/po"}).Expect(200)
	var pic struct {
		ProfilePicURL string `json:"profilePicUrl"`
	}
	upload(c, "me.png", "image/png", pngBytes(t, testImage(64, 64))).Expect(200).JSON(&pic)
	b := addBadge(t, e, "Figma Pro", "Design")
	addGrant(t, e, u, b, "pubfigma", model.Now(), false)
	addGrant(t, e, u, addBadge(t, e, "Gone Badge", "Design"), "pubgone", model.Now(), true)

	// own profile
	r, props := c.Page("/profile")
	r.Expect(200)
	page := props["page"].(map[string]any)
	apptest.Expect(t, "profile page props", props,
		apptest.Eq("apptest.PageName(r)", apptest.PageName(r), "ProfilePage"))
	apptest.Expect(t, "profile page props", props,
		apptest.Eq[any]("page[\"user\"].(map[string]any)[\"_id\"]", page["user"].(map[string]any)["_id"], u.ID),
		apptest.Eq[any]("page[\"origin\"]", page["origin"], e.URL))
	apptest.Expect(t, "profile page props", props,
		apptest.Eq("len(page[\"badges\"].([]any))", len(page["badges"].([]any)), 2), // the revoked one, labelled
		apptest.Eq[any]("page[\"held\"]", page["held"], float64(1)),
		apptest.True("strings.Contains(r.Text(), `name=\"robots\" content=\"noindex\"`)", strings.Contains(r.Text(), `name="robots" content="noindex"`)))

	// public profile: anyone, no email, OG tags, JSON-LD, revoked badges left out
	v := e.Client()
	r, props = v.Page("/profile/" + u.ID)
	r.Expect(200)
	body := r.Text()
	if apptest.PageName(r) != "PublicProfilePage" || strings.Contains(body, "page@example.com") {
		t.Fatalf("public profile: %s", body)
	}
	p := props["page"].(map[string]any)["profile"].(map[string]any)
	apptest.Expect(t, "public profile props", p,
		apptest.Eq("p[\"name\"]", p["name"], "Page Owner"),
		apptest.Eq("p[\"position\"]", p["position"], "Designer & <Lead>"),
		apptest.Eq[any]("p[\"profilePicUrl\"]", p["profilePicUrl"], pic.ProfilePicURL))
	apptest.Expect(t, "public profile props", p,
		apptest.Eq("len(p[\"badges\"].([]any))", len(p["badges"].([]any)), 1))
	apptest.Expect(t, "public profile props", p,
		apptest.Eq("p[\"badges\"].([]any)[0].(map[string]any)[\"verificationId\"]", p["badges"].([]any)[0].(map[string]any)["verificationId"], "pubfigma"))
	apptest.Expect(t, "public profile props", p,
		apptest.Eq("props[\"page\"].(map[string]any)[\"isOwner\"]", props["page"].(map[string]any)["isOwner"], false))
	if _, has := p["email"]; has {
		t.Fatal("email in the public props")
	}
	for _, want := range []string{
		`<meta property="og:type" content="profile">`,
		`<meta property="og:title" content="Page Owner | Meritmark">`,
		`<meta property="og:image" content="` + e.URL + "/profile/" + u.ID + `/card.png?v=`,
		`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`,
		`<meta property="og:image:alt" content="Meritmark card of Page Owner&#39;s profile">`,
		`<link rel="canonical" href="` + e.URL + "/profile/" + u.ID + `">`,
		html.EscapeString("Page Owner, Designer & <Lead>, holds 1 verified badge on Meritmark."),
		`application/ld+json`, `"@type":"Person"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("public profile lacks %s", want)
		}
	}
	if strings.Contains(body, "<Lead>") {
		t.Error("unescaped position in the document")
	}
	// the owner is told it is theirs
	_, props = c.Page("/profile/" + u.ID)
	if props["page"].(map[string]any)["isOwner"] != true {
		t.Fatal("owner flag")
	}
	// unknown and malformed ids: the 404 page
	for _, id := range []string{model.NewID(), "nope", "../admin"} {
		r, _ := v.Page("/profile/" + id)
		if r.Status != 404 || apptest.PageName(r) != "NotFoundPage" {
			t.Errorf("/profile/%s: %d %s", id, r.Status, apptest.PageName(r))
		}
	}
}

func TestProfilePictureRateLimit(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Member("busy@example.com")
	pic := pngBytes(t, testImage(8, 8))
	for i := 0; i < 20; i++ {
		upload(c, "a.png", "image/png", pic).Expect(200)
	}
	upload(c, "a.png", "image/png", pic).ExpectMsg(429, user.MsgTooManyPictures)
	// another member is not affected
	_, other := e.Member("calm@example.com")
	upload(other, "a.png", "image/png", pic).Expect(200)
	// only the current pictures are kept
	if keys, _ := e.Deps.Storage.List(e.Ctx(), "avatars/"); len(keys) != 2 {
		t.Fatalf("%d stored pictures, want 2", len(keys))
	}
}

func farOver(e *apptest.Env, c *apptest.Client) (*http.Response, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	part, _ := w.CreateFormFile("profilePic", "bigger.png")
	_, _ = part.Write(make([]byte, 12<<20))
	_ = w.Close()
	req, _ := http.NewRequest("POST", e.URL+web.APIBase+"/users/profile-pic", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Origin", e.URL)
	res, err := c.HTTP.Do(req)
	if err == nil {
		res.Body.Close()
	}
	return res, err
}
