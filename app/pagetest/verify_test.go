package pagetest

import (
	"context"
	"fmt"
	stdhtml "html"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/grant"
	"meritmark/app/model"
)

// verifyGrantFixture makes badges and members and grants through grant.Issue (the approval's
// grant function, which signs the credential): names[i] earns counts[i] badges.
func verifyGrantFixture(t *testing.T, e *apptest.Env, names []string, counts []int) [][]*model.BadgeGrant {
	t.Helper()
	ctx := context.Background()
	adm := e.CreateUser("admin-"+model.NewID()+"@x.io", "password123", model.RoleAdmin)
	var badges []*model.Badge
	for i := 0; i < 5; i++ {
		now := model.Now()
		b := &model.Badge{ID: model.NewID(), Name: fmt.Sprintf("Cloud Architect %d", i), Description: "Designs resilient cloud systems.",
			Category: model.Categories[i], Type: model.TypeProof, Level: "advanced", Icon: "Cloud", Color: "sky", Criteria: "Show a system you designed.",
			IsActive: true, CreatedAt: now, UpdatedAt: now}
		if _, err := e.DB.NewInsert().Model(b).Exec(ctx); err != nil {
			t.Fatal(err)
		}
		badges = append(badges, b)
	}
	out := make([][]*model.BadgeGrant, len(names))
	for i, name := range names {
		u := e.CreateUser(strings.ToLower(strings.ReplaceAll(name, " ", "."))+"@example.com", "password123", model.RoleUser)
		u.Name, u.Position, u.LinkedIn = name, "Architect", "https://linkedin.com/in/"+u.ID
		if _, err := e.DB.NewUpdate().Model(u).Column("name", "position", "linkedin").WherePK().Exec(ctx); err != nil {
			t.Fatal(err)
		}
		for j := 0; j < counts[i]; j++ {
			now := model.Now()
			a := &model.Application{ID: model.NewID(), UserID: u.ID, BadgeID: badges[j].ID, Type: model.TypeProof, Status: model.StatusApproved,
				PaymentStatus: model.PaymentCompleted, CreatedAt: now, UpdatedAt: now}
			err := e.Deps.Events.RunInTx(ctx, e.DB, func(ctx context.Context, tx bun.Tx) error {
				if _, err := tx.NewInsert().Model(a).Exec(ctx); err != nil {
					return err
				}
				r, err := grant.Issue(ctx, tx, grant.Input{Issuer: e.Deps.Issuer, Application: a, Badge: badges[j], GrantedBy: adm.ID, Now: now.Add(time.Duration(i*10+j) * time.Second), Origin: e.URL})
				if err == nil {
					out[i] = append(out[i], r.Grant)
				}
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

func verifyPageHas(t *testing.T, page, body string, want ...string) {
	t.Helper()
	text := stdhtml.UnescapeString(body)
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: %q not in the page", page, w)
		}
	}
}

// TestVerifyPagesRendered renders the verify pages with V8: the result is in the HTML for
// a shared link, for ?id= and for an id typed as a verification id; Badge Not Found with
// the spec's reasons; a revoked badge with its reason; visitors get one cached page
// (ETag, 304).
func TestVerifyPagesRendered(t *testing.T) {
	e := New(t)
	g := verifyGrantFixture(t, e, []string{"Ada Lovelace", "Grace Hopper"}, []int{1, 1})
	ada, grace := g[0][0], g[1][0]
	c := e.Client()

	r := c.Raw("GET", "/verify/"+ada.PublicVerificationID, nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "shared link", r.Text(), "Verified Badge", "Cloud Architect 0", "Ada Lovelace", "a***@example.com", "Signature valid",
		"Issued by Meritmark", "Not revoked", "Not expired", "Badge image", "Does not expire",
		`href="/profile/`+ada.UserID+`"`, `href="/badges/`+ada.BadgeID+`"`, `src="/achievements/`+ada.BadgeID+`/image.png"`, `alt="Medallion of the Cloud Architect 0 badge"`,
		`<meta property="og:image" content="`+e.URL+`/credentials/`+ada.PublicVerificationID+`/card.png">`,
		`<meta property="og:image:width" content="1200">`, `<meta property="og:image:height" content="630">`,
		`<meta property="og:image:alt" content="Meritmark card of the Cloud Architect 0 badge held by Ada Lovelace">`,
		`<link rel="canonical" href="`+e.URL+`/verify/`+ada.PublicVerificationID+`">`, `data-island="VerifyBadge"`)
	if strings.Contains(r.Text(), "Badge Not Found") {
		t.Error("a valid badge page says Badge Not Found")
	}
	if strings.Contains(r.Text(), "Add to LinkedIn") {
		t.Error("a visitor is offered Add to LinkedIn (it adds to the viewer's own profile)")
	}
	// the holder is offered it
	var holder model.User
	if err := e.DB.NewSelect().Model(&holder).Where("id = ?", ada.UserID).Scan(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	hr := e.LoginAs(&holder).Raw("GET", "/verify/"+ada.PublicVerificationID, nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "holder's view", hr.Text(), "Add to LinkedIn")
	tag := r.Header.Get("ETag")
	if tag == "" {
		t.Fatal("no ETag on the verify page")
	}
	if again := c.Raw("GET", "/verify/"+ada.PublicVerificationID, nil, map[string]string{"Accept": "text/html", "If-None-Match": tag}); again.Status != http.StatusNotModified {
		t.Fatalf("If-None-Match: %d", again.Status)
	}

	r = c.Raw("GET", "/verify-badge?id="+strings.ToLower(grace.VerificationID), nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "?id=", r.Text(), "Verified Badge", "Grace Hopper", grace.VerificationID)

	r = c.Raw("GET", "/verify-badge?id=MM-0000-0000-0000", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusNotFound)
	verifyPageHas(t, "unknown id", r.Text(), "Badge Not Found", "This badge could not be verified.", "The badge was not issued by Meritmark",
		"The badge has been revoked or has expired", "The verification ID is in an invalid format", `<meta name="robots" content="noindex">`)

	r = c.Raw("GET", "/verify-badge", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "empty", r.Text(), "Verify a Badge", "How verification works", "Verification ID",
		"a JWT signed with ES256", "eddsa-rdfc-2022 Data Integrity proof by our did:web")
	if strings.Contains(r.Text(), "Ed25519 signature") {
		t.Error("the verify page still says credentials carry an Ed25519 signature only")
	}

	_, admin := e.Admin("boss@x.io")
	admin.Put("/admin/grants/"+grace.ID+"/revoke", map[string]any{"category": "issued_in_error", "reason": "Issued to the wrong person"}).Expect(http.StatusOK)
	r = c.Raw("GET", "/verify/"+grace.PublicVerificationID, nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "revoked", r.Text(), "Badge Revoked", "Reason: Issued in error")
	if strings.Contains(r.Text(), "wrong person") {
		t.Error("the verify page shows the administrator's note, not only the category")
	}
	if strings.Contains(r.Text(), "Add to LinkedIn") {
		t.Error("a revoked badge offers Add to LinkedIn")
	}
}

// TestHallOfFameRendered renders the Hall of Fame with V8: stats, Top Performers with #1,
// All Badge Earners with joined dates, a filtered view from the address, both empty states.
func TestHallOfFameRendered(t *testing.T) {
	e := New(t)
	c := e.Client()
	r := c.Raw("GET", "/hall-of-fame", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "empty", r.Text(), "Hall of Fame", "No one has earned a badge yet", "Discover Badges")

	verifyGrantFixture(t, e, []string{"Ada Lovelace", "Grace Hopper", "Alan Turing", "Edsger Dijkstra", "Barbara Liskov"}, []int{5, 3, 2, 1, 1})
	r = c.Raw("GET", "/hall-of-fame", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "list", r.Text(), "Badge Earners", "Badges Earned", "Categories", "Top Performers", "#1", "All Badge Earners",
		"Ada Lovelace", "Barbara Liskov", "Joined ", "LinkedIn", "Most Badges", "Recent Activity", "Name A-Z", `data-island="HallOfFameBoard"`)
	if i, j := strings.Index(r.Text(), "Ada Lovelace"), strings.Index(r.Text(), "Grace Hopper"); i < 0 || j < i {
		t.Error("Ada (5 badges) is not ranked before Grace (3)")
	}
	r = c.Raw("GET", "/hall-of-fame?search=dijkstra&sort=name", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "search", r.Text(), "Edsger Dijkstra")
	if strings.Contains(r.Text(), "Ada Lovelace") {
		t.Error("the search did not filter")
	}
	r = c.Raw("GET", "/hall-of-fame?search=nobody-here", nil, map[string]string{"Accept": "text/html"}).Expect(http.StatusOK)
	verifyPageHas(t, "no match", r.Text(), "No badge earners match your filters", "Clear filters")
}
