package badgeadmin_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"meritmark/app/apptest"
	"meritmark/app/badgeadmin"
	"meritmark/app/model"
)

func TestMain(m *testing.M) { apptest.Main(m) }

type badgeJSON struct {
	ID             string  `json:"_id"`
	Name           string  `json:"name"`
	Description    string  `json:"description"`
	Category       string  `json:"category"`
	Type           string  `json:"type"`
	Level          string  `json:"level"`
	Price          float64 `json:"price"`
	Icon           string  `json:"icon"`
	Color          string  `json:"color"`
	Criteria       string  `json:"criteria"`
	RequiresResume bool    `json:"requiresResume"`
	IsActive       bool    `json:"isActive"`
	ValidDays      *int    `json:"validDays"`
	CreatedBy      *struct {
		Name string `json:"name"`
	} `json:"createdBy"`
	Quiz *struct {
		ID            string `json:"_id"`
		Title         string `json:"title"`
		QuestionCount int    `json:"questionCount"`
	} `json:"quiz"`
	GrantCount           int `json:"grantCount"`
	ApplicationCount     int `json:"applicationCount"`
	OpenApplicationCount int `json:"openApplicationCount"`
}

func createBadge(t *testing.T, c *apptest.Client, body map[string]any) badgeJSON {
	t.Helper()
	var out struct {
		Msg   string    `json:"msg"`
		Badge badgeJSON `json:"badge"`
	}
	c.Post("/badge-management/badges", body).Expect(201).JSON(&out)
	if out.Msg != "Badge created successfully" {
		t.Fatalf("msg %q", out.Msg)
	}
	return out.Badge
}

func row(t *testing.T, e *apptest.Env, id string) *model.Badge {
	return apptest.Row[model.Badge](e, id)
}

func count(t *testing.T, e *apptest.Env, m any, where string, args ...any) int {
	t.Helper()
	n, err := e.DB.NewSelect().Model(m).Where(where, args...).Count(e.Ctx())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

func audits(t *testing.T, e *apptest.Env, targetID string) []model.AuditEntry {
	t.Helper()
	var es []model.AuditEntry
	if err := e.DB.NewSelect().Model(&es).Where("target_id = ?", targetID).OrderExpr("created_at, id").Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	return es
}

// addQuiz gives a badge a quiz with n questions, straight in the database.
func addQuiz(t *testing.T, e *apptest.Env, badgeID string, n int) *model.Quiz {
	t.Helper()
	q := &model.Quiz{ID: model.NewID(), BadgeID: badgeID, Title: "Quiz", PassingScore: 70, TimeLimit: 15, IsActive: true, CreatedAt: model.Now()}
	if _, err := e.DB.NewInsert().Model(q).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		qq := &model.Question{ID: model.NewID(), Text: fmt.Sprintf("Q%d", i), Options: []string{"a", "b"}, CorrectIndex: 0,
			Difficulty: "medium", Category: "General", CreatedAt: model.Now()}
		if _, err := e.DB.NewInsert().Model(qq).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.NewInsert().Model(&model.QuizQuestion{QuizID: q.ID, QuestionID: qq.ID, Position: i}).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	return q
}

func TestCreateBadgeDefaultsAndAudit(t *testing.T) {
	e := apptest.New(t)
	admin, c := e.Admin("admin@x.io")
	b := createBadge(t, c, map[string]any{"name": "Go Expert", "category": "Development"})
	apptest.Expect(t, "defaults not applied", b,
		apptest.Eq("b.Type", b.Type, "skill"),
		apptest.Eq("b.Level", b.Level, "beginner"),
		apptest.Eq("b.Price", b.Price, 0),
		apptest.Eq("b.Icon", b.Icon, "Award"),
		apptest.Eq("b.Color", b.Color, "blue"),
		apptest.True("!b.RequiresResume", !b.RequiresResume),
		apptest.True("!b.IsActive", !b.IsActive))
	apptest.Expect(t, "createdBy/quiz", b,
		apptest.True("b.CreatedBy != nil", b.CreatedBy != nil))
	apptest.Expect(t, "createdBy/quiz", b,
		apptest.Eq("b.CreatedBy.Name", b.CreatedBy.Name, admin.Name),
		apptest.True("b.Quiz == nil", b.Quiz == nil))
	r := row(t, e, b.ID)
	apptest.Expect(t, "row", r,
		apptest.Eq("r.PriceCents", r.PriceCents, 0),
		apptest.True("!r.IsActive", !r.IsActive),
		apptest.Eq("r.Type", r.Type, "skill"),
		apptest.Eq("*r.CreatedBy", *r.CreatedBy, admin.ID))
	as := audits(t, e, b.ID)
	apptest.Expect(t, "audit", as,
		apptest.Eq("len(as)", len(as), 1))
	apptest.Expect(t, "audit", as,
		apptest.Eq("as[0].Action", as[0].Action, "badge.create"),
		apptest.Eq("as[0].TargetType", as[0].TargetType, "badge"),
		apptest.True("as[0].ActorID != nil", as[0].ActorID != nil))
	apptest.Expect(t, "audit", as,
		apptest.Eq("*as[0].ActorID", *as[0].ActorID, admin.ID),
		apptest.Eq("as[0].ActorEmail", as[0].ActorEmail, "admin@x.io"),
		apptest.Eq("as[0].Before", as[0].Before, "null"))
	var after map[string]any
	if err := json.Unmarshal([]byte(as[0].After), &after); err != nil || after["name"] != "Go Expert" {
		t.Fatalf("audit after %s", as[0].After)
	}

	// every field given; dollars with cents; a proof badge may start active
	p := createBadge(t, c, map[string]any{"name": "Portfolio Pro", "description": "d", "category": "Design", "type": "proof",
		"level": "advanced", "price": 49.99, "icon": "Palette", "color": "pink", "criteria": "c", "requiresResume": true,
		"validDays": 365, "isActive": true})
	apptest.Expect(t, "proof badge", p,
		apptest.Eq("p.Price", p.Price, 49.99),
		apptest.True("p.IsActive", p.IsActive),
		apptest.Eq("p.Type", p.Type, "proof"),
		apptest.Eq("p.Level", p.Level, "advanced"),
		apptest.True("p.RequiresResume", p.RequiresResume),
		apptest.True("p.ValidDays != nil", p.ValidDays != nil))
	apptest.Expect(t, "proof badge", p,
		apptest.Eq("*p.ValidDays", *p.ValidDays, 365))
	if r := row(t, e, p.ID); r.PriceCents != 4999 {
		t.Fatalf("price cents %d", r.PriceCents)
	}
	// a price typed as a string
	s := createBadge(t, c, map[string]any{"name": "Strings", "category": "Design", "type": "proof", "price": "12.5"})
	if row(t, e, s.ID).PriceCents != 1250 {
		t.Fatal("string price")
	}
}

func TestCreateBadgeValidation(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	createBadge(t, c, map[string]any{"name": "Taken Name", "category": "Design"})
	base := func(kv ...any) map[string]any {
		m := map[string]any{"name": "New Badge", "category": "Development"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	long := make([]byte, 101)
	for i := range long {
		long[i] = 'a'
	}
	cases := []struct {
		body   map[string]any
		status int
		msg    string
	}{
		{base("name", ""), 400, "Badge name is required."},
		{base("name", "   "), 400, "Badge name is required."},
		{map[string]any{"category": "Design"}, 400, "Badge name is required."},
		{base("name", string(long)), 400, "Badge name must be at most 100 characters."},
		{base("category", "Cooking"), 400, badgeadmin.MsgCategory},
		{base("category", ""), 400, badgeadmin.MsgCategory},
		{base("type", "exam"), 400, "Type must be skill or proof."},
		{base("level", "expert"), 400, "Level must be beginner, intermediate or advanced."},
		{base("price", -1), 400, "Price cannot be negative."},
		{base("price", "NaN"), 400, "Price must be a number."},
		{base("price", "abc"), 400, "Price must be a number."},
		{base("price", true), 400, "Price must be a number."},
		{base("price", 1.234), 400, "Price can have at most 2 decimal places."},
		{base("price", 10000.01), 400, "Price cannot be more than $10,000.00."},
		{base("price", 1e12), 400, "Price cannot be more than $10,000.00."},
		{base("icon", "Skull"), 400, "Icon must be one of the available badge icons."},
		{base("color", "chartreuse"), 400, "Color must be one of the available badge colors."},
		{base("validDays", 0), 400, badgeadmin.MsgValidDays},
		{base("validDays", 1.5), 400, badgeadmin.MsgValidDays},
		{base("name", "Taken Name"), 409, "A badge with this name already exists."},
		{base("name", "  taken   NAME "), 409, "A badge with this name already exists."},
		// a skill badge cannot go live before its quiz exists
		{base("isActive", true), 422, "Add an active quiz with at least one question before activating this skill badge."},
	}
	for _, tc := range cases {
		c.Post("/badge-management/badges", tc.body).ExpectMsg(tc.status, tc.msg)
	}
	c.Post("/badge-management/badges", "{not json").ExpectMsg(400, "The request body is not valid JSON.")
	if n := count(t, e, (*model.Badge)(nil), "1 = 1"); n != 1 {
		t.Fatalf("%d badges after refused creates", n)
	}
	// boundaries that pass
	createBadge(t, c, base("name", "Max Price", "price", 10000))
	createBadge(t, c, base("name", "Empty Price", "price", ""))
}

func TestUpdateBadge(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	b := createBadge(t, c, map[string]any{"name": "Go Expert", "category": "Development", "price": 10, "criteria": "Know Go"})
	createBadge(t, c, map[string]any{"name": "Other", "category": "Design"})

	var out struct {
		Msg   string    `json:"msg"`
		Badge badgeJSON `json:"badge"`
	}
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"price": "19.90", "level": "advanced", "color": "teal"}).Expect(200).JSON(&out)
	apptest.Expect(t, "update", out,
		apptest.Eq("out.Msg", out.Msg, "Badge updated successfully"),
		apptest.Eq("out.Badge.Price", out.Badge.Price, 19.9),
		apptest.Eq("out.Badge.Level", out.Badge.Level, "advanced"),
		apptest.Eq("out.Badge.Color", out.Badge.Color, "teal"),
		apptest.Eq("out.Badge.Criteria", out.Badge.Criteria, "Know Go"),
		apptest.Eq("out.Badge.Name", out.Badge.Name, "Go Expert"))
	// the whole form, as the edit dialog sends it
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"name": "Go Expert II", "description": "new", "category": "DevOps", "type": "skill",
		"level": "beginner", "price": 0, "icon": "Server", "color": "blue", "criteria": "", "requiresResume": true}).Expect(200)
	r := row(t, e, b.ID)
	apptest.Expect(t, "row", r,
		apptest.Eq("r.Name", r.Name, "Go Expert II"),
		apptest.Eq("r.Category", r.Category, "DevOps"),
		apptest.Eq("r.PriceCents", r.PriceCents, 0),
		apptest.Eq("r.Icon", r.Icon, "Server"),
		apptest.True("r.RequiresResume", r.RequiresResume),
		apptest.Eq("r.Criteria", r.Criteria, ""))
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"name": "other"}).ExpectMsg(409, "A badge with this name already exists.")
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"price": -5}).ExpectMsg(400, "Price cannot be negative.")
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"category": "Cooking"}).ExpectMsg(400, badgeadmin.MsgCategory)
	c.Put("/badge-management/badges/"+model.NewID(), map[string]any{"name": "x"}).ExpectMsg(404, "Badge not found")
	c.Put("/badge-management/badges/not-an-id", map[string]any{"name": "x"}).ExpectMsg(404, "Badge not found")
	// renaming to a case variant of itself is fine
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"name": "GO EXPERT II"}).Expect(200)

	// a skill badge with a quiz cannot become a proof badge
	addQuiz(t, e, b.ID, 1)
	c.Put("/badge-management/badges/"+b.ID, map[string]any{"type": "proof"}).ExpectMsg(409, "This badge has a quiz, so it cannot become a proof badge.")

	as := audits(t, e, b.ID)
	if len(as) != 4 || as[1].Action != "badge.update" || as[1].Before == "null" || as[1].After == "null" {
		t.Fatalf("audit entries %d %+v", len(as), as)
	}
}

func TestToggleAndStats(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	skill := createBadge(t, c, map[string]any{"name": "Skill", "category": "Development"})
	proof := createBadge(t, c, map[string]any{"name": "Proof", "category": "Design", "type": "proof"})

	toggle := func(id string) badgeJSON {
		var out struct {
			Msg   string    `json:"msg"`
			Badge badgeJSON `json:"badge"`
		}
		c.Patch("/badge-management/badges/"+id+"/toggle", nil).Expect(200).JSON(&out)
		if out.Msg != "Badge status updated successfully" {
			t.Fatalf("msg %q", out.Msg)
		}
		return out.Badge
	}
	if !toggle(proof.ID).IsActive || toggle(proof.ID).IsActive {
		t.Fatal("proof toggle")
	}
	msg := "Add an active quiz with at least one question before activating this skill badge."
	c.Patch("/badge-management/badges/"+skill.ID+"/toggle", nil).ExpectMsg(422, msg)
	q := addQuiz(t, e, skill.ID, 0)
	c.Patch("/badge-management/badges/"+skill.ID+"/toggle", nil).ExpectMsg(422, msg)
	e.DB.NewDelete().Model((*model.Quiz)(nil)).Where("id = ?", q.ID).Exec(e.Ctx())
	addQuiz(t, e, skill.ID, 3)
	b := toggle(skill.ID)
	apptest.Expect(t, "skill toggle", b,
		apptest.True("b.IsActive", b.IsActive),
		apptest.True("b.Quiz != nil", b.Quiz != nil))
	apptest.Expect(t, "skill toggle", b,
		apptest.Eq("b.Quiz.QuestionCount", b.Quiz.QuestionCount, 3))
	if !row(t, e, skill.ID).IsActive {
		t.Fatal("not stored")
	}
	c.Patch("/badge-management/badges/"+model.NewID()+"/toggle", nil).ExpectMsg(404, "Badge not found")

	var st badgeadmin.Stats
	c.Get("/badge-management/stats").Expect(200).JSON(&st)
	if st != (badgeadmin.Stats{TotalBadges: 2, ActiveBadges: 1, SkillBadges: 1, ProofBadges: 1}) {
		t.Fatalf("stats %+v", st)
	}
	if n := len(audits(t, e, skill.ID)); n != 2 { // create + one successful toggle
		t.Fatalf("%d audit entries", n)
	}
}

func TestListIncludesInactiveWithQuizAndUsage(t *testing.T) {
	e := apptest.New(t)
	_, c := e.Admin("admin@x.io")
	a := createBadge(t, c, map[string]any{"name": "Alpha", "category": "Development"})
	createBadge(t, c, map[string]any{"name": "Beta", "category": "Design", "type": "proof", "isActive": true})
	addQuiz(t, e, a.ID, 2)
	u, _ := e.Member("m@x.io")
	app := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: a.ID, Type: "skill", Status: model.StatusPending,
		PaymentStatus: model.PaymentCompleted, CreatedAt: model.Now(), UpdatedAt: model.Now()}
	if _, err := e.DB.NewInsert().Model(app).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/badge-management/badges", "/admin/badges"} {
		var list []badgeJSON
		c.Get(path).Expect(200).JSON(&list)
		if len(list) != 2 {
			t.Fatalf("%s: %d badges", path, len(list))
		}
		var alpha *badgeJSON
		for i := range list {
			if list[i].ID == a.ID {
				alpha = &list[i]
			}
		}
		apptest.Expect(t, fmt.Sprintf("%s: alpha", path), alpha,
			apptest.True("alpha != nil", alpha != nil))
		apptest.Expect(t, fmt.Sprintf("%s: alpha", path), alpha,
			apptest.True("!alpha.IsActive", !alpha.IsActive),
			apptest.True("alpha.Quiz != nil", alpha.Quiz != nil))
		apptest.Expect(t, fmt.Sprintf("%s: alpha", path), alpha,
			apptest.Eq("alpha.Quiz.QuestionCount", alpha.Quiz.QuestionCount, 2),
			apptest.Eq("alpha.ApplicationCount", alpha.ApplicationCount, 1),
			apptest.Eq("alpha.OpenApplicationCount", alpha.OpenApplicationCount, 1))
	}
}

func TestDeleteBadge(t *testing.T) {
	e := apptest.New(t)
	admin, c := e.Admin("admin@x.io")
	u, _ := e.Member("m@x.io")

	// granted: refused with 409, nothing removed
	granted := createBadge(t, c, map[string]any{"name": "Granted", "category": "Development", "type": "proof"})
	g := &model.BadgeGrant{ID: model.NewID(), UserID: u.ID, BadgeID: granted.ID, VerificationID: model.NewID(), PublicVerificationID: model.NewID(),
		GrantedAt: model.Now(), GrantedBy: &admin.ID}
	if _, err := e.DB.NewInsert().Model(g).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Delete("/badge-management/badges/"+granted.ID).ExpectMsg(409, badgeadmin.MsgDeleteInUse)
	if count(t, e, (*model.Badge)(nil), "id = ?", granted.ID) != 1 {
		t.Fatal("granted badge deleted")
	}

	// an open application: refused too
	applied := createBadge(t, c, map[string]any{"name": "Applied", "category": "Development", "type": "proof"})
	app := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: applied.ID, Type: "proof", Status: model.StatusAwaitingPayment,
		PaymentStatus: model.PaymentPending, CreatedAt: model.Now(), UpdatedAt: model.Now()}
	if _, err := e.DB.NewInsert().Model(app).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	c.Delete("/badge-management/badges/"+applied.ID).ExpectMsg(409, "This badge cannot be deleted because it has been granted or applied for. Deactivate it instead to hide it from the catalogue.")
	// ... and deactivation is the way out
	c.Patch("/badge-management/badges/"+applied.ID+"/toggle", nil).Expect(200)

	// an unused badge with a quiz: deleted with its quiz and links; questions stay in the bank
	free := createBadge(t, c, map[string]any{"name": "Unused", "category": "Development"})
	q := addQuiz(t, e, free.ID, 2)
	other := createBadge(t, c, map[string]any{"name": "Other", "category": "Design", "type": "proof"})
	only := &model.Coupon{ID: model.NewID(), Code: "ONLYUNUSED", DiscountType: "percentage", DiscountValue: 1000, ValidFrom: model.Now(),
		ValidUntil: model.Now().AddDate(0, 1, 0), IsActive: true, ApplicableBadges: []string{free.ID}, ApplicableCategories: []string{},
		CreatedAt: model.Now(), UpdatedAt: model.Now()}
	both := &model.Coupon{ID: model.NewID(), Code: "BOTH", DiscountType: "percentage", DiscountValue: 1000, ValidFrom: model.Now(),
		ValidUntil: model.Now().AddDate(0, 1, 0), IsActive: true, ApplicableBadges: []string{free.ID, other.ID}, ApplicableCategories: []string{},
		CreatedAt: model.Now(), UpdatedAt: model.Now()}
	for _, cp := range []*model.Coupon{only, both} {
		if _, err := e.DB.NewInsert().Model(cp).Exec(e.Ctx()); err != nil {
			t.Fatal(err)
		}
	}
	c.Delete("/badge-management/badges/"+free.ID).ExpectMsg(200, "Badge deleted successfully")
	if count(t, e, (*model.Badge)(nil), "id = ?", free.ID) != 0 || count(t, e, (*model.Quiz)(nil), "id = ?", q.ID) != 0 ||
		count(t, e, (*model.QuizQuestion)(nil), "quiz_id = ?", q.ID) != 0 {
		t.Fatal("badge, quiz or links left behind")
	}
	if count(t, e, (*model.Question)(nil), "1 = 1") != 2 {
		t.Fatal("bank questions were deleted")
	}
	var got []model.Coupon
	e.DB.NewSelect().Model(&got).Order("code").Scan(e.Ctx())
	apptest.Expect(t, "coupons after delete", got,
		apptest.Eq("len(got)", len(got), 2))
	apptest.Expect(t, "coupons after delete", got,
		apptest.Eq("got[0].Code", got[0].Code, "BOTH"),
		apptest.Eq("len(got[0].ApplicableBadges)", len(got[0].ApplicableBadges), 1))
	apptest.Expect(t, "coupons after delete", got,
		apptest.Eq("got[0].ApplicableBadges[0]", got[0].ApplicableBadges[0], other.ID),
		apptest.True("got[0].IsActive", got[0].IsActive),
		apptest.Eq("len(got[1].ApplicableBadges)", len(got[1].ApplicableBadges), 0),
		apptest.True("!got[1].IsActive", !got[1].IsActive))
	as := audits(t, e, free.ID)
	last := as[len(as)-1]
	apptest.Expect(t, "delete audit", last,
		apptest.Eq("last.Action", last.Action, "badge.delete"),
		apptest.Eq("last.After", last.After, "null"),
		apptest.True("last.Before != \"null\"", last.Before != "null"))
	c.Delete("/badge-management/badges/"+free.ID).ExpectMsg(404, "Badge not found")
}

func TestBadgeAdminAccess(t *testing.T) {
	e := apptest.New(t)
	_, member := e.Member("m@x.io")
	visitor := e.Client()
	id := model.NewID()
	for _, r := range []struct{ method, path string }{
		{"GET", "/badge-management/badges"}, {"GET", "/badge-management/stats"}, {"POST", "/badge-management/badges"},
		{"PUT", "/badge-management/badges/" + id}, {"DELETE", "/badge-management/badges/" + id},
		{"PATCH", "/badge-management/badges/" + id + "/toggle"}, {"GET", "/admin/badges"},
	} {
		visitor.Do(r.method, r.path, map[string]any{"name": "x"}).ExpectMsg(401, "Please log in to continue.")
		member.Do(r.method, r.path, map[string]any{"name": "x"}).ExpectMsg(403, "Access Denied: You need admin privileges to access this page.")
	}
	if count(t, e, (*model.Badge)(nil), "1 = 1") != 0 {
		t.Fatal("a refused request created a badge")
	}
}
