package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/auth"
	"meritmark/app/model"
	"meritmark/app/seed"
	"meritmark/app/session"
	"meritmark/db"
)

// member is a signed-in account of the load (pre-created or signed up during the run).
type member struct {
	id    string
	n     string // short unique suffix
	name  string
	email string
	token string
}

// badgeInfo is a badge of the catalogue as the tool needs it.
type badgeInfo struct {
	ID    string  `json:"_id"`
	Name  string  `json:"name"`
	Type  string  `json:"type"`
	Price float64 `json:"price"`
}

// world is what the mix draws from: badges, members, verification ids, and which of the
// optional routes exist.
type world struct {
	badges  []badgeInfo
	skill   []badgeInfo
	proof   []badgeInfo
	members []*member
	admin   string // admin session token
	verify  []string
	taken   ownedSet // (member, badge) pairs granted during setup
	// optional routes (features that may not be built yet)
	hasVerifyPage, hasVerifyAPI, hasHoFPage, hasHoFAPI bool
}

const memberPassword = "load-member-password-1"

// createMembers inserts n members with a session each straight into the database (the
// sign-up API's argon2 hashing and per-address limit would make seeding slow; sign-ups
// themselves are part of the mix).
func createMembers(ctx context.Context, t *target, n int) ([]*member, error) {
	d, err := db.Open(ctx, t.dbURL, t.dataDir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	hash, err := auth.HashPassword(memberPassword)
	if err != nil {
		return nil, err
	}
	now := model.Now()
	members := make([]*member, 0, n)
	const batch = 200
	for start := 0; start < n; start += batch {
		end := min(start+batch, n)
		users := make([]model.User, 0, end-start)
		sessions := make([]model.Session, 0, end-start)
		for i := start; i < end; i++ {
			id := model.NewID()
			num := strconv.Itoa(i + 1)
			m := &member{id: id, n: "m" + num, name: "Load Member " + num, email: "load-member-" + num + "@load.test", token: session.NewToken()}
			members = append(members, m)
			users = append(users, model.User{
				ID: id, Name: m.name, Email: m.email, PasswordHash: hash, Role: model.RoleUser,
				Position: "Software Engineer", LinkedIn: "https://linkedin.com/in/load-member-" + num, Company: "Load Co",
				Skills: []string{}, CreatedAt: now.Add(-time.Duration(n-i) * time.Minute), UpdatedAt: now,
				EmailVerifiedAt: &now, // an approval issues a grant only to a confirmed address
			})
			sessions = append(sessions, model.Session{
				ID: session.Hash(m.token), UserID: id, CreatedAt: now, LastSeenAt: now,
				ExpiresAt: now.Add(30 * 24 * time.Hour), IP: "127.0.0.1", UserAgent: userAgent,
			})
		}
		err := d.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			if _, err := tx.NewInsert().Model(&users).Exec(ctx); err != nil {
				return err
			}
			_, err := tx.NewInsert().Model(&sessions).Exec(ctx)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("insert members: %w", err)
		}
	}
	return members, nil
}

// prepare signs the admin in, reads the catalogue, grants badges to some members through
// the real API (apply, then approve) and finds which optional routes exist.
func prepare(ctx context.Context, b *browser, t *target, w *world, grantMembers int) error {
	// the admin signs in like a browser
	r, err := b.must(ctx, call{method: "POST", path: apiBase + "/auth/login", kind: kindAPI,
		body: jsonBody(map[string]string{"email": seed.DemoAdminEmail, "password": t.adminPW}), ctype: "application/json"}, "admin login")
	if err != nil {
		return err
	}
	if w.admin = sessionCookie(r); w.admin == "" {
		return fmt.Errorf("admin login set no session cookie")
	}
	// the seeded admin's password is known, so it must choose a new one before the API opens
	if _, err := b.must(ctx, call{method: "POST", path: apiBase + "/auth/change-password", kind: kindAPI, token: w.admin,
		body: jsonBody(map[string]string{"currentPassword": t.adminPW, "newPassword": t.adminPW + "-renewed"}), ctype: "application/json"}, "admin password change"); err != nil {
		return err
	}

	r, err = b.must(ctx, call{method: "GET", path: apiBase + "/badges/with-ownership", kind: kindAPI}, "catalogue")
	if err != nil {
		return err
	}
	var cat struct {
		Badges []badgeInfo `json:"badges"`
	}
	if err := json.Unmarshal(r.body, &cat); err != nil {
		return fmt.Errorf("catalogue: %w", err)
	}
	w.badges = cat.Badges
	for _, bd := range cat.Badges {
		switch bd.Type {
		case model.TypeSkill:
			w.skill = append(w.skill, bd)
		case model.TypeProof:
			w.proof = append(w.proof, bd)
		}
	}
	if len(w.skill) == 0 || len(w.proof) == 0 {
		return fmt.Errorf("the demo content has %d skill and %d proof badges; both are needed", len(w.skill), len(w.proof))
	}

	// grants: the first grantMembers members apply for one to three proof badges each and
	// the admin approves them (as a free grant: payment is not what is measured here)
	grantMembers = min(grantMembers, len(w.members))
	var mu sync.Mutex
	var firstErr error
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := 0; i < grantMembers; i++ {
		m := w.members[i]
		k := 1 + i%3
		for j := 0; j < k; j++ {
			bd := w.proof[(i+j)%len(w.proof)]
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer wg.Done()
				defer func() { <-sem }()
				vid, err := grantOne(ctx, b, w.admin, m, bd)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					return
				}
				w.verify = append(w.verify, vid...)
				w.taken.add(m.id, bd.ID)
			}()
		}
	}
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("granting badges: %w", firstErr)
	}

	// optional routes: in the mix when they answer
	if len(w.verify) > 0 {
		v := w.verify[0]
		w.hasVerifyPage = probe(ctx, b, kindPage, "/verify/"+v)
		w.hasVerifyAPI = probe(ctx, b, kindAPI, apiBase+"/verify/badge/"+v)
	}
	w.hasHoFPage = probe(ctx, b, kindPage, "/hall-of-fame")
	w.hasHoFAPI = probe(ctx, b, kindAPI, apiBase+"/hall-of-fame")
	return nil
}

// grantOne applies for a proof badge as m and approves it as the admin; it returns the
// grant's verification ids (the short one and the public one).
func grantOne(ctx context.Context, b *browser, admin string, m *member, bd badgeInfo) ([]string, error) {
	body, ctype := applicationForm(bd.ID, m.name, m.n)
	r, err := b.must(ctx, call{method: "POST", path: apiBase + "/applications", kind: kindAPI, token: m.token, body: body, ctype: ctype}, "apply for "+bd.Name)
	if err != nil {
		return nil, err
	}
	var app struct {
		Application struct {
			ID string `json:"_id"`
		} `json:"application"`
	}
	if err := json.Unmarshal(r.body, &app); err != nil || app.Application.ID == "" {
		return nil, fmt.Errorf("apply: no application id in %s", truncate(string(r.body), 200))
	}
	if _, err := b.must(ctx, call{method: "PUT", path: apiBase + "/admin/applications/" + app.Application.ID + "/approve", kind: kindAPI,
		token: admin, body: jsonBody(map[string]bool{"grantFree": true}), ctype: "application/json"}, "approve"); err != nil {
		return nil, err
	}
	r, err = b.must(ctx, call{method: "GET", path: apiBase + "/badges/" + bd.ID, kind: kindAPI, token: m.token}, "badge detail after grant")
	if err != nil {
		return nil, err
	}
	var det struct {
		Grant *struct {
			VerificationID       string `json:"verificationId"`
			PublicVerificationID string `json:"publicVerificationId"`
		} `json:"grant"`
	}
	if err := json.Unmarshal(r.body, &det); err != nil || det.Grant == nil || det.Grant.VerificationID == "" {
		return nil, fmt.Errorf("no grant after approval: %s", truncate(string(r.body), 200))
	}
	out := []string{det.Grant.VerificationID}
	if det.Grant.PublicVerificationID != "" {
		out = append(out, det.Grant.PublicVerificationID)
	}
	return out, nil
}

func probe(ctx context.Context, b *browser, k kind, path string) bool {
	r, err := b.do(ctx, call{method: "GET", path: path, kind: k})
	return err == nil && r.status == http.StatusOK
}

// ownedSet remembers which (member, badge) pairs are taken (granted or applied for).
type ownedSet struct {
	mu sync.Mutex
	m  map[string]bool
}

func (o *ownedSet) add(userID, badgeID string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.m == nil {
		o.m = map[string]bool{}
	}
	o.m[userID+"/"+badgeID] = true
}

func (o *ownedSet) has(userID, badgeID string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.m[userID+"/"+badgeID]
}
