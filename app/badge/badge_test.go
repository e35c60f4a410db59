package badge

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"meritmark/app/grant"
	"meritmark/app/model"
)

func TestNormalizeQueryAndCategory(t *testing.T) {
	if got := NormalizeQuery("  react \t  developer\n "); got != "react developer" {
		t.Errorf("NormalizeQuery = %q", got)
	}
	long := strings.Repeat("é", 150)
	if got := NormalizeQuery(long); len([]rune(got)) != MaxQueryLen {
		t.Errorf("long query kept %d runes", len([]rune(got)))
	}
	for in, want := range map[string]string{
		"Development": "Development", "development": "Development", " data science ": "Data Science",
		"DEVOPS": "DevOps", "": "", "All": "", "Nope": "", "Development'--": "",
	} {
		if got := NormalizeCategory(in); got != want {
			t.Errorf("NormalizeCategory(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestMatches(t *testing.T) {
	b := &Card{Name: "React Developer", Description: "Build production React applications.", Category: "Development"}
	cases := []struct {
		q, cat string
		want   bool
	}{
		{"", "", true},
		{"react", "", true},
		{"REACT", "Development", true},
		{"react production", "", true},
		{"react design", "", false},
		{"develop", "", true}, // category text
		{"react", "Design", false},
		{"", "Development", true},
		{"vue", "", false},
	}
	for _, c := range cases {
		if got := Matches(b, c.q, c.cat); got != c.want {
			t.Errorf("Matches(%q, %q) = %v, want %v", c.q, c.cat, got, c.want)
		}
	}
}

func held() *Grant { return &Grant{Standing: grant.Standing{State: grant.StateValid, Held: true}} }

func TestActionsFollowTheStartRules(t *testing.T) {
	skill := &Badge{ID: "aaaaaaaaaaaaaaaaaaaaaaaa", Type: model.TypeSkill}
	proof := &Badge{ID: "bbbbbbbbbbbbbbbbbbbbbbbb", Type: model.TypeProof}
	app := func(s string) *Mine { return &Mine{Application: &Application{Status: s}} }
	cases := []struct {
		name     string
		b        *Badge
		signedIn bool
		m        *Mine
		start    bool
		href     string
		label    string
		pay      string
		owned    bool
	}{
		{"visitor skill", skill, false, nil, true, "/login?next=%2Fquiz%2Faaaaaaaaaaaaaaaaaaaaaaaa", "Start Quiz", "", false},
		{"visitor proof", proof, false, nil, true, "/login?next=%2Fproof-upload%2Fbbbbbbbbbbbbbbbbbbbbbbbb", "Upload Proof", "", false},
		{"no application", skill, true, &Mine{}, true, "/quiz/aaaaaaaaaaaaaaaaaaaaaaaa", "Start Quiz", "", false},
		{"proof, none", proof, true, nil, true, "/proof-upload/bbbbbbbbbbbbbbbbbbbbbbbb", "Upload Proof", "", false},
		{"pending", skill, true, app(model.StatusPending), false, "/quiz/aaaaaaaaaaaaaaaaaaaaaaaa", "Start Quiz", "", false},
		{"awaiting payment", proof, true, app(model.StatusAwaitingPayment), false, "/proof-upload/bbbbbbbbbbbbbbbbbbbbbbbb", "Upload Proof", "/payment/bbbbbbbbbbbbbbbbbbbbbbbb", false},
		{"rejected", skill, true, app(model.StatusRejected), true, "/quiz/aaaaaaaaaaaaaaaaaaaaaaaa", "Start Quiz", "", false},
		{"approved and owned", skill, true, &Mine{Application: &Application{Status: model.StatusApproved}, Grant: held()}, false, "/quiz/aaaaaaaaaaaaaaaaaaaaaaaa", "Start Quiz", "", true},
		{"owned without application", proof, true, &Mine{Grant: held()}, true, "/proof-upload/bbbbbbbbbbbbbbbbbbbbbbbb", "Upload Proof", "", true},
	}
	for _, c := range cases {
		a := ActionsFor(c.b, c.signedIn, c.m)
		if a.CanStart != c.start || a.StartHref != c.href || a.StartLabel != c.label || a.ContinuePaymentHref != c.pay || a.Owned != c.owned || a.SignedIn != c.signedIn {
			t.Errorf("%s: got %+v", c.name, a)
		}
	}
}

func TestFoldKeepsLatestApplicationAndGrant(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	recs := []record{
		{Kind: "a", ID: "a2", BadgeID: "x", Status: model.StatusPending, At: t0.Add(time.Hour)},
		{Kind: "a", ID: "a1", BadgeID: "x", Status: model.StatusRejected, At: t0, Reason: "no"},
		{Kind: "g", ID: "g1", BadgeID: "y", At: t0, VerificationID: "v1", PublicVerifyID: "p1"},
		{Kind: "g", ID: "g2", BadgeID: "y", At: t0.Add(time.Minute), VerificationID: "v2", PublicVerifyID: "p2"},
		{Kind: "a", ID: "b2", BadgeID: "z", Status: model.StatusApproved, At: t0},
		{Kind: "a", ID: "b1", BadgeID: "z", Status: model.StatusRejected, At: t0},
	}
	m := fold(recs, t0)
	if m["x"].Application.ID != "a2" || m["x"].Grant != nil {
		t.Errorf("x: %+v", m["x"])
	}
	if m["y"].Grant.VerificationID != "v2" || m["y"].Application != nil {
		t.Errorf("y: %+v", m["y"])
	}
	if m["z"].Application.ID != "b2" {
		t.Errorf("z tie-break: %+v", m["z"].Application)
	}
}

func TestShareLinks(t *testing.T) {
	b := &Badge{ID: "aaaaaaaaaaaaaaaaaaaaaaaa", Name: "Docker & Containers"}
	g := &Grant{GrantedAt: time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC), VerificationID: "MM-PRIVATE", PublicVerificationID: "pub123"}
	s := ShareFor("https://meritmark.example/", b, g)
	if s.VerifyURL != "https://meritmark.example/verify/pub123" {
		t.Errorf("verify URL %q", s.VerifyURL)
	}
	if s.LinkedInShareURL != "https://www.linkedin.com/sharing/share-offsite/?url=https%3A%2F%2Fmeritmark.example%2Fverify%2Fpub123" {
		t.Errorf("linkedin share %q", s.LinkedInShareURL)
	}
	tw, _ := url.Parse(s.TwitterShareURL)
	if tw.Host != "twitter.com" || tw.Query().Get("url") != s.VerifyURL || !strings.Contains(tw.Query().Get("text"), "Docker & Containers") {
		t.Errorf("twitter %q", s.TwitterShareURL)
	}
	want := "https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&name=Docker+%26+Containers&organizationName=Meritmark&issueYear=2026&issueMonth=11&certUrl=https%3A%2F%2Fmeritmark.example%2Fverify%2Fpub123&certId=pub123"
	if s.LinkedInAddURL != want {
		t.Errorf("add to profile:\n got %s\nwant %s", s.LinkedInAddURL, want)
	}
	exp := time.Date(2028, 2, 1, 0, 0, 0, 0, time.UTC)
	g.ExpiresAt = &exp
	add, _ := url.Parse(ShareFor("https://meritmark.example", b, g).LinkedInAddURL)
	q := add.Query()
	if q.Get("expirationYear") != "2028" || q.Get("expirationMonth") != "2" || q.Get("issueMonth") != "11" || q.Get("name") != "Docker & Containers" {
		t.Errorf("expiry params: %v", q)
	}
	if strings.Contains(s.LinkedInAddURL, "MM-PRIVATE") {
		t.Error("the add-to-profile link leaks the private verification id")
	}
}

func TestJSONLDAndSummary(t *testing.T) {
	days := 365
	b := &Badge{ID: "aaaaaaaaaaaaaaaaaaaaaaaa", Name: "SQL Data Analyst", Description: strings.Repeat("word ", 60), Category: "Data Science",
		Type: model.TypeSkill, Level: "beginner", Price: 39, Criteria: "Pass the quiz.", validDays: &days}
	ld := JSONLD("https://m.example", b)
	if ld["@type"] != "EducationalOccupationalCredential" || ld["url"] != "https://m.example/badges/aaaaaaaaaaaaaaaaaaaaaaaa" || ld["validFor"] != "P365D" {
		t.Errorf("json-ld %v", ld)
	}
	if ld["offers"].(map[string]any)["price"] != "39.00" {
		t.Errorf("offer %v", ld["offers"])
	}
	if s := Summary(b); len([]rune(s)) > 160 || !strings.HasSuffix(s, "…") {
		t.Errorf("summary %q", s)
	}
	if TypeLabel(model.TypeSkill) != "Quiz Based" || TypeLabel(model.TypeProof) != "Proof Based" {
		t.Error("type labels")
	}
}

func TestLinkedInAddToProfileURL(t *testing.T) {
	b := &Badge{Name: "Kubernetes Ops"}
	exp := time.Date(2028, 3, 15, 0, 0, 0, 0, time.UTC)
	g := &Grant{GrantedAt: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC), VerificationID: "MM-SECRET", PublicVerificationID: "abcdefghijklmnopqrstuvwxyz234567", ExpiresAt: &exp}
	got := ShareWith("https://meritmark.example", "1337", b, g).LinkedInAddURL
	want := "https://www.linkedin.com/profile/add?startTask=CERTIFICATION_NAME&name=Kubernetes+Ops&organizationName=Meritmark&organizationId=1337" +
		"&issueYear=2026&issueMonth=11&expirationYear=2028&expirationMonth=3" +
		"&certUrl=https%3A%2F%2Fmeritmark.example%2Fverify%2Fabcdefghijklmnopqrstuvwxyz234567&certId=abcdefghijklmnopqrstuvwxyz234567"
	if got != want {
		t.Errorf("add to profile:\n got %s\nwant %s", got, want)
	}
	// without a configured organization the link carries no organizationId
	if u := ShareWith("https://meritmark.example", "", b, g).LinkedInAddURL; strings.Contains(u, "organizationId") {
		t.Errorf("unconfigured: %s", u)
	}
	if strings.Contains(got, "MM-SECRET") {
		t.Error("leaks the private verification id")
	}
}

// The holder's side: an expiring or expired badge offers Renew (not Start, not Share), a
// pass offers Continue application, a locked attempt hides the start.
func TestActionsForRenewalPassAndLock(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	skill := &Badge{ID: "aaaaaaaaaaaaaaaaaaaaaaaa", Type: model.TypeSkill, IsActive: true}
	proof := &Badge{ID: "bbbbbbbbbbbbbbbbbbbbbbbb", Type: model.TypeProof, IsActive: true}
	approved := &Application{Status: model.StatusApproved}
	withExpiry := func(d time.Duration, revoked bool) *Grant {
		exp := now.Add(d)
		g := &Grant{ExpiresAt: &exp}
		f := grant.Facts{ExpiresAt: &exp}
		if revoked {
			f.RevokedAt = &now
		}
		g.Standing = grant.StandingOf(f, now)
		return g
	}
	day := 24 * time.Hour
	lock := now.Add(5 * time.Hour)
	cases := []struct {
		name                     string
		b                        *Badge
		m                        *Mine
		owned, start, renewal    bool
		renew, cont, label, next string
	}{
		{"valid, far", proof, &Mine{Application: approved, Grant: withExpiry(90*day, false)}, true, false, false, "", "", "Upload Proof", ""},
		{"expiring proof", proof, &Mine{Application: approved, Grant: withExpiry(10*day, false)}, true, false, true, "/proof-upload/bbbbbbbbbbbbbbbbbbbbbbbb", "", "Upload Proof", ""},
		{"expired skill", skill, &Mine{Application: approved, Grant: withExpiry(-day, false)}, false, false, true, "/quiz/aaaaaaaaaaaaaaaaaaaaaaaa", "", "Start Quiz", ""},
		{"expired skill, passed again", skill, &Mine{Application: approved, Grant: withExpiry(-day, false), Passed: true}, false, false, true, "", "/resume-upload/aaaaaaaaaaaaaaaaaaaaaaaa", "Retake Quiz", ""},
		{"expired, renewal awaits payment", skill, &Mine{Application: &Application{Status: model.StatusAwaitingPayment}, Grant: withExpiry(-day, false)}, false, false, false, "", "", "Start Quiz", ""},
		{"revoked", proof, &Mine{Application: approved, Grant: withExpiry(90*day, true)}, false, false, false, "", "", "Upload Proof", ""},
		{"passed, never applied", skill, &Mine{Passed: true}, false, true, false, "", "/resume-upload/aaaaaaaaaaaaaaaaaaaaaaaa", "Retake Quiz", ""},
		{"passed, locked", skill, &Mine{Passed: true, NextAttemptAt: &lock}, false, false, false, "", "/resume-upload/aaaaaaaaaaaaaaaaaaaaaaaa", "Retake Quiz", lock.Format(time.RFC3339)},
		{"failed, locked", skill, &Mine{NextAttemptAt: &lock}, false, false, false, "", "", "Start Quiz", lock.Format(time.RFC3339)},
		{"expired skill, locked", skill, &Mine{Application: approved, Grant: withExpiry(-day, false), NextAttemptAt: &lock}, false, false, true, "", "", "Start Quiz", lock.Format(time.RFC3339)},
	}
	for _, c := range cases {
		a := ActionsFor(c.b, true, c.m)
		next := ""
		if a.NextAttemptAt != nil {
			next = a.NextAttemptAt.Format(time.RFC3339)
		}
		got := []any{a.Owned, a.CanStart, a.Renewal, a.RenewHref, a.ContinueHref, a.StartLabel, next, a.Renewal == (a.RenewalNeeds != "")}
		want := []any{c.owned, c.start, c.renewal, c.renew, c.cont, c.label, c.next, true}
		names := []string{"Owned", "CanStart", "Renewal", "RenewHref", "ContinueHref", "StartLabel", "NextAttemptAt", "RenewalNeeds said"}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s: %s = %v, want %v", c.name, names[i], got[i], want[i])
			}
		}
	}
}
