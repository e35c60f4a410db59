package auth_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"meritmark/app"
	"meritmark/app/apptest"
	"meritmark/app/auth"
	"meritmark/app/mail"
	"meritmark/app/mail/mailtest"
	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/web"
)

func TestMain(m *testing.M) { apptest.Main(m) }

// withSMTP replaces the mailer with one delivering to the in-process SMTP server.
func withSMTP(srv *mailtest.Server) apptest.Option {
	return func(d *app.Deps) { d.Mailer = mail.NewWorker(d.DB, srv.Sender(), d.Config.MailFrom) }
}

func cookie(t *testing.T, e *apptest.Env, c *apptest.Client) string {
	t.Helper()
	u, _ := url.Parse(e.URL)
	for _, ck := range c.HTTP.Jar.Cookies(u) {
		if ck.Name == session.CookieName {
			return ck.Value
		}
	}
	return ""
}

func setCookieHeader(r *apptest.Resp) string {
	for _, h := range r.Header.Values("Set-Cookie") {
		if strings.HasPrefix(h, session.CookieName+"=") || strings.HasPrefix(h, session.SecureCookieName+"=") { // __Host- on https
			return h
		}
	}
	return ""
}

func countRows(t *testing.T, e *apptest.Env, table, where string, args ...any) int {
	t.Helper()
	q := e.DB.NewSelect().Table(table)
	if where != "" {
		q = q.Where(where, args...)
	}
	n, err := q.Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func userByEmail(t *testing.T, e *apptest.Env, email string) *model.User {
	t.Helper()
	var u model.User
	if err := e.DB.NewSelect().Model(&u).Where("email = ?", email).Scan(e.Ctx()); err != nil {
		t.Fatalf("user %s: %v", email, err)
	}
	return &u
}

type userOut struct {
	Msg  string `json:"msg"`
	User struct {
		ID            string    `json:"_id"`
		Name          string    `json:"name"`
		Email         string    `json:"email"`
		Role          string    `json:"role"`
		Position      string    `json:"position"`
		LinkedIn      string    `json:"linkedin"`
		Portfolio     string    `json:"portfolio"`
		ProfilePicURL string    `json:"profilePicUrl"`
		CreatedAt     time.Time `json:"createdAt"`
		BadgeGrants   []struct {
			ID                   string `json:"id"`
			BadgeName            string `json:"badgeName"`
			BadgeCategory        string `json:"badgeCategory"`
			VerificationID       string `json:"verificationId"`
			PublicVerificationID string `json:"publicVerificationId"`
		} `json:"badgeGrants"`
	} `json:"user"`
}

func TestRegisterCreatesMemberThenLoginSignsIn(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	r := c.Post("/auth/register", map[string]any{"name": "  Ann \t Lee ", "email": "  Ann.Lee@Example.COM ", "password": "s3cret-pass", "role": "admin"}).Expect(201)
	if r.Text() != `{"msg":"`+auth.MsgRegistered+`"}` || setCookieHeader(r) != "" {
		t.Fatalf("register answered %s (Set-Cookie %q)", r.Text(), setCookieHeader(r))
	}
	// signing in comes next, as the spec's client does
	r = c.Post("/auth/login", map[string]any{"email": "ann.lee@example.com", "password": "s3cret-pass"}).Expect(200)
	var out userOut
	r.JSON(&out)
	if out.User.Name != "Ann Lee" || out.User.Email != "ann.lee@example.com" || out.User.Role != "user" ||
		!model.ValidID(out.User.ID) || out.User.BadgeGrants == nil || len(out.User.BadgeGrants) != 0 || out.User.CreatedAt.IsZero() {
		t.Fatalf("login answered %s", r.Text())
	}
	if v, ok := r.Map()["user"].(map[string]any)["emailVerified"]; v != false || !ok {
		t.Fatalf("emailVerified %v in %s", v, r.Text())
	}
	// the cookie: HttpOnly, SameSite=Lax, path /
	sc := strings.ToLower(setCookieHeader(r))
	for _, want := range []string{"httponly", "samesite=lax", "path=/"} {
		if !strings.Contains(sc, want) {
			t.Errorf("Set-Cookie %q lacks %s", sc, want)
		}
	}
	if strings.Contains(sc, "secure") {
		t.Errorf("Set-Cookie %q is Secure without an https base URL", sc)
	}
	// stored: argon2id hash, lower-cased email, role user, not verified; the session only as its hash
	u := userByEmail(t, e, "ann.lee@example.com")
	apptest.Expect(t, "stored user", u,
		apptest.True("strings.HasPrefix(u.PasswordHash, \"$argon2id$\")", strings.HasPrefix(u.PasswordHash, "$argon2id$")),
		apptest.True("!strings.Contains(u.PasswordHash, \"s3cret-pass\")", !strings.Contains(u.PasswordHash, "s3cret-pass")),
		apptest.Eq("u.Role", u.Role, model.RoleUser),
		apptest.True("u.EmailVerifiedAt == nil", u.EmailVerifiedAt == nil))
	tok := cookie(t, e, c)
	if len(tok) < 22 || countRows(t, e, "sessions", "id = ? AND user_id = ?", session.Hash(tok), u.ID) != 1 || countRows(t, e, "sessions", "id = ?", tok) != 0 {
		t.Fatalf("session for token %q not stored as its hash", tok)
	}
	// signed in: /auth/me answers the same user
	var me userOut
	c.Get("/auth/me").Expect(200).JSON(&me)
	apptest.Expect(t, "me =", me.User,
		apptest.Eq("me.User.ID", me.User.ID, u.ID),
		apptest.Eq("me.User.Email", me.User.Email, u.Email))
}

func TestRegisterValidation(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	ok := map[string]any{"name": "Ann", "email": "ann@example.com", "password": "8chars!!"}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for kk, vv := range ok {
			m[kk] = vv
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	for _, tc := range []struct {
		name string
		body any
		msg  string
	}{
		{"missing name", with("name", nil), auth.MsgNameRequired},
		{"blank name", with("name", "   "), auth.MsgNameRequired},
		{"long name", with("name", strings.Repeat("n", 101)), auth.MsgNameTooLong},
		{"missing email", with("email", nil), auth.MsgEmailRequired},
		{"bad email", with("email", "ann@example"), auth.MsgEmailInvalid},
		{"email with display name", with("email", "Ann <ann@example.com>"), auth.MsgEmailInvalid},
		{"missing password", with("password", nil), auth.MsgPasswordRequired},
		{"short password", with("password", "1234567"), auth.MsgPasswordShort},
		{"too-long password", with("password", strings.Repeat("p", 129)), auth.MsgPasswordLong},
		{"eight spaces", with("password", "        "), auth.MsgPasswordShort},
		{"common password", with("password", "password"), auth.MsgPasswordCommon},
		{"digits", with("password", "12345678"), auth.MsgPasswordCommon},
		{"the email", with("password", "ann@example.com"), auth.MsgPasswordPersonal},
		{"empty body", "", "The request body is empty; expected JSON."},
		{"malformed JSON", "{name:", web.MsgInvalidJSON},
		{"wrong types", map[string]any{"name": 1, "email": true, "password": []int{1}}, web.MsgInvalidJSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.Post("/auth/register", tc.body).ExpectMsg(400, tc.msg)
		})
	}
	if n := countRows(t, e, "users", ""); n != 0 {
		t.Fatalf("%d users after invalid sign-ups", n)
	}
	if cookie(t, e, c) != "" {
		t.Fatal("a failed sign-up set a session cookie")
	}
	// the bounds themselves are accepted
	c.Post("/auth/register", with("password", strings.Repeat("pq7", 42)+"xy")).Expect(201)
	e.Client().Post("/auth/register", map[string]any{"name": "Bo", "email": "bo@example.com", "password": "8chars!!"}).Expect(201)
}

func TestRegisterAnswersTheSameForAnExistingAddress(t *testing.T) {
	e := apptest.New(t)
	first := e.Client().Post("/auth/register", map[string]any{"name": "Ann", "email": "ann@example.com", "password": "kettle-lamp-91"}).Expect(201)
	c := e.Client()
	again := c.Post("/auth/register", map[string]any{"name": "Other Ann", "email": "  ANN@example.com", "password": "kettle-lamp-92"}).Expect(201)
	if again.Text() != first.Text() || setCookieHeader(again) != "" || setCookieHeader(first) != "" {
		t.Fatalf("new address %s, existing address %s", first.Text(), again.Text())
	}
	if n := countRows(t, e, "users", ""); n != 1 {
		t.Fatalf("%d users", n)
	}
	// the owner is told instead, and only one confirmation link exists
	if countRows(t, e, "outbox", "to_addr = ? AND subject = ?", "ann@example.com", "You already have a Meritmark account") != 1 ||
		countRows(t, e, "outbox", "to_addr = ? AND subject = ?", "ann@example.com", "Confirm your Meritmark email address") != 1 {
		t.Fatal("mails after a sign-up for an existing address are not as expected")
	}
	// the first account's password is untouched
	e.Client().Post("/auth/login", map[string]any{"email": "ann@example.com", "password": "kettle-lamp-91"}).Expect(200)
	e.Client().Post("/auth/login", map[string]any{"email": "ann@example.com", "password": "kettle-lamp-92"}).ExpectMsg(401, auth.MsgBadCredentials)

	// racing sign-ups for one new email: all answer the same, exactly one account exists
	statuses := make([]int, 4)
	apptest.Parallel(4, func(i int) {
		statuses[i] = e.Client().Post("/auth/register", map[string]any{"name": "Racer", "email": "race@example.com", "password": "kettle-lamp-9" + strconv.Itoa(i)}).Status
	})
	for _, s := range statuses {
		if s != 201 {
			t.Fatalf("racing sign-ups: %v", statuses)
		}
	}
	if countRows(t, e, "users", "email = ?", "race@example.com") != 1 {
		t.Fatalf("racing sign-ups: %v", statuses)
	}
}

func TestLogin(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("kim@example.com", "right-password", model.RoleUser)
	c := e.Client()
	c.Post("/auth/login", map[string]any{"email": "kim@example.com", "password": "wrong-password"}).ExpectMsg(401, auth.MsgBadCredentials)
	// an unknown email answers exactly the same
	r1 := c.Post("/auth/login", map[string]any{"email": "nobody@example.com", "password": "wrong-password"}).ExpectMsg(401, auth.MsgBadCredentials)
	r2 := c.Post("/auth/login", map[string]any{"email": "kim@example.com", "password": "wrong-password"})
	if r1.Text() != r2.Text() || r1.Status != r2.Status {
		t.Fatalf("unknown email %d %s vs wrong password %d %s", r1.Status, r1.Text(), r2.Status, r2.Text())
	}
	c.Post("/auth/login", map[string]any{"email": "", "password": "x"}).ExpectMsg(400, auth.MsgLoginFields)
	c.Post("/auth/login", map[string]any{"email": "kim@example.com"}).ExpectMsg(400, auth.MsgLoginFields)
	c.Post("/auth/login", map[string]any{"email": "kim-at-example.com", "password": "right-password"}).ExpectMsg(400, auth.MsgEmailInvalid)
	c.Post("/auth/login", map[string]any{"email": "kim@example.com", "password": strings.Repeat("x", 4000)}).ExpectMsg(401, auth.MsgBadCredentials)
	if cookie(t, e, c) != "" || countRows(t, e, "sessions", "") != 0 {
		t.Fatal("a failed login started a session")
	}
	c.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)

	// emails match whatever their case and spacing
	var out userOut
	r := c.Post("/auth/login", map[string]any{"email": "  KIM@Example.com ", "password": "right-password"}).Expect(200)
	r.JSON(&out)
	if out.Msg != auth.MsgLoggedIn || out.User.ID != u.ID || out.User.Email != "kim@example.com" {
		t.Fatalf("login answered %s", r.Text())
	}
	if strings.Contains(r.Text(), "password") {
		t.Fatalf("login answer mentions the password: %s", r.Text())
	}
	c.Get("/auth/me").Expect(200)
}

func TestLoginRotatesTheSession(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("rot@example.com", "right-password", model.RoleUser)
	c := e.LoginAs(u) // a session that existed before signing in (e.g. planted)
	before := cookie(t, e, c)
	c.Post("/auth/login", map[string]any{"email": "rot@example.com", "password": "right-password"}).Expect(200)
	after := cookie(t, e, c)
	if after == "" || after == before {
		t.Fatalf("session not rotated: %q -> %q", before, after)
	}
	if countRows(t, e, "sessions", "id = ?", session.Hash(before)) != 0 {
		t.Fatal("the previous session still exists")
	}
	// the old token no longer signs anyone in
	old := e.Client()
	base, _ := url.Parse(e.URL)
	old.HTTP.Jar.SetCookies(base, []*http.Cookie{{Name: session.CookieName, Value: before, Path: "/"}})
	old.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	c.Get("/auth/me").Expect(200)
}

func TestLogout(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("out@example.com")
	tok := cookie(t, e, c)
	r := c.Post("/auth/logout", map[string]any{}).ExpectMsg(200, auth.MsgLoggedOut)
	if sc := setCookieHeader(r); !strings.Contains(strings.ToLower(sc), "max-age=0") && !strings.Contains(sc, "expires=") && !strings.Contains(sc, "Max-Age=-1") {
		t.Errorf("logout did not clear the cookie: %q", sc)
	}
	if countRows(t, e, "sessions", "user_id = ?", u.ID) != 0 || countRows(t, e, "sessions", "id = ?", session.Hash(tok)) != 0 {
		t.Fatal("session survives logout")
	}
	c.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	// logging out without a session is fine too; an empty body as well
	e.Client().Post("/auth/logout", nil).ExpectMsg(200, auth.MsgLoggedOut)
}

func TestMeListsActiveGrants(t *testing.T) {
	e := apptest.New(t)
	e.Client().Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	u, c := e.Member("me@example.com")
	other, _ := e.Member("other@example.com")
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Go Expert", Category: "Development", Type: model.TypeSkill, Level: "advanced", Icon: "Award", Color: "blue", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	revoked := now
	for _, g := range []*model.BadgeGrant{
		{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-LIVE", PublicVerificationID: "pub-live", GrantedAt: now},
		{ID: model.NewID(), UserID: u.ID, BadgeID: b.ID, VerificationID: "MM-GONE", PublicVerificationID: "pub-gone", GrantedAt: now, RevokedAt: &revoked},
		{ID: model.NewID(), UserID: other.ID, BadgeID: b.ID, VerificationID: "MM-OTHER", PublicVerificationID: "pub-other", GrantedAt: now},
	} {
		if _, err := e.DB.NewInsert().Model(g).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	var me userOut
	r := c.Get("/auth/me").Expect(200)
	r.JSON(&me)
	if me.User.ID != u.ID || len(me.User.BadgeGrants) != 1 {
		t.Fatalf("me = %s", r.Text())
	}
	g := me.User.BadgeGrants[0]
	apptest.Expect(t, "grant =", g,
		apptest.Eq("g.BadgeName", g.BadgeName, "Go Expert"),
		apptest.Eq("g.BadgeCategory", g.BadgeCategory, "Development"),
		apptest.Eq("g.VerificationID", g.VerificationID, "MM-LIVE"),
		apptest.Eq("g.PublicVerificationID", g.PublicVerificationID, "pub-live"))
	if strings.Contains(r.Text(), "password") || strings.Contains(r.Text(), "$argon2id$") {
		t.Fatalf("me leaks the password hash: %s", r.Text())
	}
	if cc := r.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("me Cache-Control %q", cc)
	}
}

func TestSessionExpiry(t *testing.T) {
	e := apptest.New(t)
	u, c := e.Member("idle@example.com")
	c.Get("/auth/me").Expect(200)
	// idle for longer than the idle limit (7 days by default)
	if _, err := e.DB.NewUpdate().Model((*model.Session)(nil)).Set("last_seen_at = ?", model.Now().Add(-e.Deps.Config.SessionIdle-time.Minute)).
		Where("user_id = ?", u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	if countRows(t, e, "sessions", "user_id = ?", u.ID) != 0 {
		t.Fatal("the idle session was not deleted")
	}

	// past the absolute expiry even though it was used a moment ago
	c2 := e.LoginAs(u)
	c2.Get("/auth/me").Expect(200)
	if _, err := e.DB.NewUpdate().Model((*model.Session)(nil)).Set("expires_at = ?", model.Now().Add(-time.Second)).
		Where("user_id = ?", u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	r := c2.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	if sc := setCookieHeader(r); sc == "" {
		t.Error("the expired cookie was not cleared")
	}
	// a member page sends the expired visitor to the login screen
	r, _ = c2.Page("/profile")
	if r.Status != http.StatusSeeOther && r.Status != http.StatusFound {
		t.Fatalf("expired session on /profile: %d", r.Status)
	}
	if loc := r.Header.Get("Location"); loc != "/login?next=%2Fprofile" {
		t.Fatalf("redirected to %q", loc)
	}
}

func TestCrossSitePostsAreRefused(t *testing.T) {
	e := apptest.New(t)
	u := e.CreateUser("csrf@example.com", "right-password", model.RoleUser)
	victim := e.LoginAs(u)
	victim.Origin = "https://evil.example"
	for path, body := range map[string]any{
		"/auth/register":        map[string]any{"name": "Eve", "email": "eve@example.com", "password": "kettle-lamp-91"},
		"/auth/login":           map[string]any{"email": "csrf@example.com", "password": "right-password"},
		"/auth/logout":          map[string]any{},
		"/auth/forgot-password": map[string]any{"email": "csrf@example.com"},
		"/auth/reset-password":  map[string]any{"email": "csrf@example.com", "token": "x", "newPassword": "kettle-lamp-92"},
		"/users/profile":        map[string]any{"name": "Pwned"},
	} {
		victim.Post(path, body).ExpectMsg(403, "Cross-site request refused.")
	}
	// the browser's own fetch metadata is honoured as well
	victim.Origin = ""
	victim.Raw("POST", web.APIBase+"/auth/logout", strings.NewReader("{}"), map[string]string{"Sec-Fetch-Site": "cross-site", "Content-Type": "application/json"}).Expect(403)
	if countRows(t, e, "users", "") != 1 || countRows(t, e, "password_resets", "") != 0 || countRows(t, e, "sessions", "user_id = ?", u.ID) != 1 ||
		userByEmail(t, e, "csrf@example.com").Name != u.Name {
		t.Fatal("a cross-site request changed something")
	}
}

func TestLoginRateLimits(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("target@example.com", "right-password", model.RoleUser)
	c := e.Client()
	// per account from a new client: 10 failures, then a wait
	for i := 0; i < 10; i++ {
		c.Post("/auth/login", map[string]any{"email": "target@example.com", "password": "guess-" + strconv.Itoa(i)}).ExpectMsg(401, auth.MsgBadCredentials)
	}
	r := c.Post("/auth/login", map[string]any{"email": "Target@example.com", "password": "right-password"}).ExpectMsg(429, auth.MsgTooManyLogins)
	if ra, err := strconv.Atoi(r.Header.Get("Retry-After")); err != nil || ra < 1 || ra > 15*60+1 {
		t.Errorf("Retry-After %q", r.Header.Get("Retry-After"))
	}
	if cookie(t, e, c) != "" {
		t.Fatal("a rate-limited login signed in")
	}
	// an unknown email is limited the same way (nothing tells the two apart)
	for i := 0; i < 10; i++ {
		c.Post("/auth/login", map[string]any{"email": "ghost@example.com", "password": "guess"}).Expect(401)
	}
	c.Post("/auth/login", map[string]any{"email": "ghost@example.com", "password": "guess"}).ExpectMsg(429, auth.MsgTooManyLogins)

	// per address: 50 failures whatever the emails (20 counted above: refused ones are not)
	for i := 20; i < 50; i++ {
		c.Post("/auth/login", map[string]any{"email": "spray" + strconv.Itoa(i) + "@example.com", "password": "guess"}).Expect(401)
	}
	c.Post("/auth/login", map[string]any{"email": "fresh@example.com", "password": "guess"}).ExpectMsg(429, auth.MsgTooManyLogins)
}

func TestRegisterRateLimits(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	// per email: 5 attempts an hour
	c.Post("/auth/register", map[string]any{"name": "A", "email": "same@example.com", "password": "kettle-lamp-91"}).Expect(201)
	for i := 0; i < 4; i++ {
		e.Client().Post("/auth/register", map[string]any{"name": "A", "email": "same@example.com", "password": "kettle-lamp-91"}).Expect(201)
	}
	e.Client().Post("/auth/register", map[string]any{"name": "A", "email": "same@example.com", "password": "kettle-lamp-91"}).ExpectMsg(429, auth.MsgTooManySignups)
	// per IP: 10 an hour (6 used above)
	for i := 0; i < 4; i++ {
		e.Client().Post("/auth/register", map[string]any{"name": "A", "email": "new" + strconv.Itoa(i) + "@example.com", "password": "kettle-lamp-91"}).Expect(201)
	}
	e.Client().Post("/auth/register", map[string]any{"name": "A", "email": "one-more@example.com", "password": "kettle-lamp-91"}).ExpectMsg(429, auth.MsgTooManySignups)
	if countRows(t, e, "users", "email = ?", "one-more@example.com") != 0 {
		t.Fatal("a rate-limited sign-up created the account")
	}
}

var linkRe = regexp.MustCompile(`https?://[^\s"<>]+/reset-password\?[^\s"<>]+`)

// resetLink reads the reset link from the last message to addr.
func resetLink(t *testing.T, srv *mailtest.Server, addr string) (*url.URL, mailtest.Message) {
	t.Helper()
	msg := srv.WaitFor(t, addr)
	m := linkRe.FindString(msg.Text())
	if m == "" {
		t.Fatalf("no reset link in %q", msg.Text())
	}
	u, err := url.Parse(m)
	if err != nil {
		t.Fatal(err)
	}
	return u, msg
}

func flush(t *testing.T, e *apptest.Env) int {
	t.Helper()
	n, err := e.Deps.Mailer.Flush(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func TestPasswordResetThroughRealSMTP(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv))
	u := e.CreateUser("reset@example.com", "old-password", model.RoleUser)
	// two signed-in browsers that the reset must end
	s1, s2 := e.LoginAs(u), e.LoginAs(u)
	s1.Get("/auth/me").Expect(200)

	c := e.Client()
	known := c.Post("/auth/forgot-password", map[string]any{"email": "  RESET@example.com "}).ExpectMsg(200, auth.MsgResetSent)
	unknown := c.Post("/auth/forgot-password", map[string]any{"email": "nobody@example.com"}).ExpectMsg(200, auth.MsgResetSent)
	if known.Text() != unknown.Text() {
		t.Fatalf("known and unknown emails answer differently: %s vs %s", known.Text(), unknown.Text())
	}
	if countRows(t, e, "outbox", "") != 1 {
		t.Fatal("want exactly one queued message (none for the unknown email)")
	}
	if n := flush(t, e); n != 1 {
		t.Fatalf("flushed %d messages", n)
	}
	link, msg := resetLink(t, srv, "reset@example.com")
	if len(srv.To("nobody@example.com")) != 0 {
		t.Fatal("mail sent to an unknown address")
	}
	if msg.Subject() != "Reset your Meritmark password" || !strings.Contains(msg.HTML(), "Reset my password") || msg.From != "no-reply@meritmark.example" {
		t.Fatalf("message: subject %q from %q", msg.Subject(), msg.From)
	}
	// {origin}/reset-password?email=…&token=…, origin = the request's (no base URL set)
	if link.Scheme+"://"+link.Host != e.URL || link.Path != "/reset-password" || link.Query().Get("email") != "reset@example.com" {
		t.Fatalf("link %s", link)
	}
	tok := link.Query().Get("token")
	// the token is stored only as its SHA-256, expires in one hour
	var pr model.PasswordReset
	if err := e.DB.NewSelect().Model(&pr).Where("user_id = ?", u.ID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	if pr.ID != auth.HashToken(tok) || countRows(t, e, "password_resets", "id = ?", tok) != 0 {
		t.Fatal("token not stored as its hash")
	}
	if d := time.Until(pr.ExpiresAt); d < 59*time.Minute || d > 61*time.Minute {
		t.Fatalf("token expires in %s", d)
	}

	// the reset page gets the parameters
	r, props := c.Page(link.RequestURI())
	r.Expect(200)
	apptest.Expect(t, "reset page props", props,
		apptest.Eq("apptest.PageName(r)", apptest.PageName(r), "ResetPasswordPage"))
	apptest.Expect(t, "reset page props", props,
		apptest.Eq[any]("props[\"page\"].(map[string]any)[\"token\"]", props["page"].(map[string]any)["token"], tok))
	if r.Header.Get("Referrer-Policy") != "no-referrer" || !strings.Contains(r.Text(), `name="robots" content="noindex"`) {
		t.Error("the reset page leaks its token through the referrer or is indexable")
	}

	c.Post("/auth/reset-password", map[string]any{"email": "reset@example.com", "token": tok, "newPassword": "new-password"}).ExpectMsg(200, auth.MsgResetDone)
	// every session of the user has ended
	if countRows(t, e, "sessions", "user_id = ?", u.ID) != 0 {
		t.Fatal("sessions survive the reset")
	}
	s1.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	s2.Get("/auth/me").ExpectMsg(401, web.MsgLoginRequired)
	// the token is used up
	c.Post("/auth/reset-password", map[string]any{"email": "reset@example.com", "token": tok, "newPassword": "another-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	// the new password works, the old one does not
	e.Client().Post("/auth/login", map[string]any{"email": "reset@example.com", "password": "old-password"}).ExpectMsg(401, auth.MsgBadCredentials)
	e.Client().Post("/auth/login", map[string]any{"email": "reset@example.com", "password": "new-password"}).Expect(200)
	// and the holder is told about the change
	flush(t, e)
	got := srv.To("reset@example.com")
	if len(got) != 2 || got[1].Subject() != "Your Meritmark password was changed" {
		t.Fatalf("after the reset: %d messages", len(got))
	}
}

func TestResetPasswordFailures(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv))
	u := e.CreateUser("fail@example.com", "old-password", model.RoleUser)
	e.CreateUser("someone@example.com", "their-password", model.RoleUser)
	c := e.Client()
	c.Post("/auth/forgot-password", map[string]any{"email": "fail@example.com"}).Expect(200)
	flush(t, e)
	link, _ := resetLink(t, srv, "fail@example.com")
	tok := link.Query().Get("token")
	hashBefore := userByEmail(t, e, "fail@example.com").PasswordHash

	post := func(body map[string]any) *apptest.Resp { return c.Post("/auth/reset-password", body) }
	post(map[string]any{"token": tok, "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetFields)
	post(map[string]any{"email": "fail@example.com", "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetFields)
	post(map[string]any{"email": "fail@example.com", "token": tok}).ExpectMsg(400, auth.MsgNewPassword)
	post(map[string]any{"email": "fail@example.com", "token": tok, "newPassword": "short"}).ExpectMsg(400, auth.MsgPasswordShort)
	post(map[string]any{"email": "fail@example.com", "token": tok, "newPassword": strings.Repeat("x", 129)}).ExpectMsg(400, auth.MsgPasswordLong)
	// forged: a made-up token, a token one character off, the hash instead of the token
	post(map[string]any{"email": "fail@example.com", "token": auth.NewToken(), "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	post(map[string]any{"email": "fail@example.com", "token": tok[:len(tok)-1] + flip(tok[len(tok)-1]), "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	post(map[string]any{"email": "fail@example.com", "token": auth.HashToken(tok), "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	// the right token for another account's email
	post(map[string]any{"email": "someone@example.com", "token": tok, "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	e.Client().Post("/auth/login", map[string]any{"email": "someone@example.com", "password": "their-password"}).Expect(200)
	// expired: an hour has passed
	if _, err := e.DB.NewUpdate().Model((*model.PasswordReset)(nil)).Set("expires_at = ?", model.Now().Add(-time.Second)).
		Where("user_id = ?", u.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	post(map[string]any{"email": "fail@example.com", "token": tok, "newPassword": "new-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	if userByEmail(t, e, "fail@example.com").PasswordHash != hashBefore || countRows(t, e, "password_resets", "used_at IS NOT NULL") != 0 {
		t.Fatal("a failed reset changed state")
	}

	// a newer link works; using it also retires the older, still-valid ones
	c2 := e.Client()
	c2.Post("/auth/forgot-password", map[string]any{"email": "fail@example.com"}).Expect(200)
	flush(t, e)
	first, _ := resetLink(t, srv, "fail@example.com")
	c2.Post("/auth/forgot-password", map[string]any{"email": "fail@example.com"}).Expect(200)
	flush(t, e)
	second, _ := resetLink(t, srv, "fail@example.com")
	if first.Query().Get("token") == second.Query().Get("token") {
		t.Fatal("two requests mailed the same token")
	}
	post(map[string]any{"email": "FAIL@example.com", "token": second.Query().Get("token"), "newPassword": "new-password"}).ExpectMsg(200, auth.MsgResetDone)
	post(map[string]any{"email": "fail@example.com", "token": first.Query().Get("token"), "newPassword": "newer-password"}).ExpectMsg(400, auth.MsgResetInvalid)
	e.Client().Post("/auth/login", map[string]any{"email": "fail@example.com", "password": "new-password"}).Expect(200)
}

func flip(b byte) string {
	if b == 'A' {
		return "B"
	}
	return "A"
}

func TestResetTokenIsSingleUseUnderRace(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv))
	e.CreateUser("race@example.com", "old-password", model.RoleUser)
	e.Client().Post("/auth/forgot-password", map[string]any{"email": "race@example.com"}).Expect(200)
	flush(t, e)
	link, _ := resetLink(t, srv, "race@example.com")
	statuses := make([]int, 4)
	apptest.Parallel(4, func(i int) {
		statuses[i] = e.Client().Post("/auth/reset-password", map[string]any{"email": "race@example.com", "token": link.Query().Get("token"), "newPassword": "kettle-lamp-9" + strconv.Itoa(i)}).Status
	})
	ok := 0
	for _, s := range statuses {
		if s == 200 {
			ok++
		} else if s != 400 {
			t.Fatalf("racing reset answered %d", s)
		}
	}
	if ok != 1 {
		t.Fatalf("the token was used %d times: %v", ok, statuses)
	}
}

func TestForgotPasswordValidationAndRateLimits(t *testing.T) {
	e := apptest.New(t)
	e.CreateUser("known@example.com", "kettle-lamp-91", model.RoleUser)
	c := e.Client()
	c.Post("/auth/forgot-password", map[string]any{}).ExpectMsg(400, auth.MsgEmailRequired)
	c.Post("/auth/forgot-password", map[string]any{"email": "   "}).ExpectMsg(400, auth.MsgEmailRequired)
	c.Post("/auth/forgot-password", map[string]any{"email": "not-an-email"}).ExpectMsg(400, auth.MsgEmailInvalid)
	// per email: 3 an hour, known and unknown alike
	for _, email := range []string{"known@example.com", "unknown@example.com"} {
		for i := 0; i < 3; i++ {
			c.Post("/auth/forgot-password", map[string]any{"email": email}).ExpectMsg(200, auth.MsgResetSent)
		}
		c.Post("/auth/forgot-password", map[string]any{"email": email}).ExpectMsg(429, auth.MsgTooManyResets)
	}
	if n := countRows(t, e, "password_resets", ""); n != 3 {
		t.Fatalf("%d reset tokens (want 3: the limit stops the fourth)", n)
	}
	// per IP: 10 an hour (8 counted above)
	c.Post("/auth/forgot-password", map[string]any{"email": "a@example.com"}).Expect(200)
	c.Post("/auth/forgot-password", map[string]any{"email": "b@example.com"}).Expect(200)
	c.Post("/auth/forgot-password", map[string]any{"email": "c@example.com"}).ExpectMsg(429, auth.MsgTooManyResets)
}

func TestResetPasswordRateLimit(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	for i := 0; i < 20; i++ {
		c.Post("/auth/reset-password", map[string]any{"email": "x@example.com", "token": auth.NewToken(), "newPassword": "kettle-lamp-91"}).ExpectMsg(400, auth.MsgResetInvalid)
	}
	c.Post("/auth/reset-password", map[string]any{"email": "x@example.com", "token": auth.NewToken(), "newPassword": "kettle-lamp-91"}).ExpectMsg(429, auth.MsgTooManyResetTries)
}

func TestResetLinkUsesTheConfiguredBaseURL(t *testing.T) {
	srv := mailtest.Start(t)
	e := apptest.New(t, withSMTP(srv), func(d *app.Deps) { d.Site.BaseURL = "https://badges.example" })
	e.CreateUser("base@example.com", "kettle-lamp-91", model.RoleUser)
	// a forged Host header does not steer the link elsewhere
	e.Client().Raw("POST", web.APIBase+"/auth/forgot-password", strings.NewReader(`{"email":"base@example.com"}`),
		map[string]string{"Content-Type": "application/json", "Host": "evil.example"}).Expect(200)
	flush(t, e)
	link, _ := resetLink(t, srv, "base@example.com")
	if link.Scheme != "https" || link.Host != "badges.example" {
		t.Fatalf("link %s", link)
	}
}

func TestAuthPages(t *testing.T) {
	e := apptest.New(t)
	c := e.Client()
	r, props := c.Page("/login?next=%2Fprofile%3Ftab%3D1")
	r.Expect(200)
	apptest.Expect(t, "login page", props,
		apptest.Eq("apptest.PageName(r)", apptest.PageName(r), "LoginPage"))
	apptest.Expect(t, "login page", props,
		apptest.Eq("props[\"page\"].(map[string]any)[\"next\"]", props["page"].(map[string]any)["next"], "/profile?tab=1"))
	_, props = c.Page("/login?next=https%3A%2F%2Fevil.example")
	if props["page"].(map[string]any)["next"] != "/" {
		t.Fatalf("foreign next kept: %v", props)
	}
	_, props = c.Page("/login?reset=1")
	if props["page"].(map[string]any)["reset"] != true {
		t.Fatalf("reset flag: %v", props)
	}
	r, _ = c.Page("/signup")
	if r.Expect(200); apptest.PageName(r) != "SignupPage" {
		t.Fatal("signup page")
	}
	r, props = c.Page("/reset-password")
	if r.Expect(200); apptest.PageName(r) != "ResetPasswordPage" || props["page"].(map[string]any)["token"] != "" {
		t.Fatalf("reset page without parameters: %v", props)
	}
	// member pages send visitors to /login and back
	r, _ = c.Page("/profile")
	if loc := r.Header.Get("Location"); loc != "/login?next=%2Fprofile" {
		t.Fatalf("visitor on /profile redirected to %q (%d)", loc, r.Status)
	}

	// signed-in users skip the sign-in screens
	_, m := e.Member("in@example.com")
	for path, want := range map[string]string{"/login": "/", "/signup": "/", "/login?next=%2Fprofile": "/profile", "/login?next=%2F%2Fevil.example": "/"} {
		r, _ := m.Page(path)
		if r.Status < 300 || r.Status > 399 || r.Header.Get("Location") != want {
			t.Errorf("%s for a member: %d -> %q, want %q", path, r.Status, r.Header.Get("Location"), want)
		}
	}
}

func TestCookieIsSecureBehindHTTPS(t *testing.T) {
	e := apptest.New(t, func(d *app.Deps) { d.Sessions.Secure = true })
	c := e.Client()
	c.Post("/auth/register", map[string]any{"name": "Sec", "email": "sec@example.com", "password": "kettle-lamp-91"}).Expect(201)
	r := c.Post("/auth/login", map[string]any{"email": "sec@example.com", "password": "kettle-lamp-91"}).Expect(200)
	if sc := strings.ToLower(setCookieHeader(r)); !strings.Contains(sc, "; secure") || !strings.Contains(sc, "httponly") {
		t.Fatalf("Set-Cookie %q", sc)
	}
}
