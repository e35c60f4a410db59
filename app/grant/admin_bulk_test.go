package grant_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/apptest"
	"meritmark/app/bulk"
	"meritmark/app/grant"
	"meritmark/app/model"
)

const grantsBulk = "/admin/grants/bulk"

// directGrants issues n grants of a new badge to new members.
func directGrants(t *testing.T, e *apptest.Env, n int) []*model.BadgeGrant {
	t.Helper()
	now := model.Now()
	b := &model.Badge{ID: model.NewID(), Name: "Bulk Badge", Description: "d", Category: "Development", Type: model.TypeProof,
		Level: "beginner", Icon: "Award", Color: "blue", Criteria: "c", IsActive: true, CreatedAt: now, UpdatedAt: now}
	if _, err := e.DB.NewInsert().Model(b).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	var out []*model.BadgeGrant
	for i := 0; i < n; i++ {
		u, _ := e.Member(fmt.Sprintf("holder%d@x.io", i))
		err := e.Deps.Events.RunInTx(e.Ctx(), e.DB, func(ctx context.Context, tx bun.Tx) error {
			g, err := grant.IssueDirect(ctx, tx, grant.DirectInput{Issuer: e.Deps.Issuer, UserID: u.ID, Badge: b, Now: now, Origin: e.URL})
			out = append(out, g)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

func grantsAnswer(t *testing.T, c *apptest.Client, body map[string]any) bulk.Answer {
	t.Helper()
	var ans bulk.Answer
	c.Post(grantsBulk, body).Expect(http.StatusOK).JSON(&ans)
	return ans
}

func TestGrantsBulkRefusesBadInput(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	gs := directGrants(t, e, 1)
	id := []string{gs[0].ID}
	ac.Post(grantsBulk, map[string]any{"ids": id, "action": "revoke", "category": "bored"}).ExpectMsg(400, grant.MsgCategoryInvalid)
	ac.Post(grantsBulk, map[string]any{"ids": id, "action": "revoke", "category": "other"}).ExpectMsg(400, grant.MsgOtherNeedsDetail)
	ac.Post(grantsBulk, map[string]any{"ids": id, "action": "set_expiry"}).ExpectMsg(400, grant.MsgExpiryRequired)
	ac.Post(grantsBulk, map[string]any{"ids": id, "action": "set_expiry", "expiresAt": "soon"}).ExpectMsg(400, grant.MsgExpiryInvalid)
	ac.Post(grantsBulk, map[string]any{"ids": id, "action": "burn"}).ExpectMsg(400, "action must be one of: revoke, set_expiry, clear_expiry.")
	ac.Post(grantsBulk, map[string]any{"ids": []string{}, "action": "clear_expiry"}).ExpectMsg(400, "Select at least one of the grants.")
	ac.Post(grantsBulk, map[string]any{"filter": map[string]any{"state": "weird"}, "action": "clear_expiry"}).ExpectMsg(400, "state must be active, revoked, expired or all.")
	g := apptest.Row[model.BadgeGrant](e, gs[0].ID)
	if g.RevokedAt != nil || g.ExpiresAt != nil {
		t.Fatalf("refused calls changed the grant: %+v", g)
	}
}

func TestGrantsBulkRevokePreviewRunRetry(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	gs := directGrants(t, e, 3)
	ids := []string{gs[0].ID, gs[1].ID, gs[2].ID}
	body := map[string]any{"ids": ids, "action": "revoke", "category": "issued_in_error", "reason": "  wrong   cohort ", "preview": true}
	pre := grantsAnswer(t, ac, body)
	if pre.Counts.OK != 3 || pre.Counts.Emailed != 3 || pre.Results[0].Msg != "Will be revoked (the credential stops verifying)." ||
		pre.Results[0].Label != "holder0 — Bulk Badge" || pre.Results[0].Emailed[0] != "holder0@x.io" {
		t.Fatalf("preview %+v", pre)
	}
	for _, g := range gs {
		if got := apptest.Row[model.BadgeGrant](e, g.ID); got.RevokedAt != nil {
			t.Fatal("the preview revoked a grant")
		}
	}
	if n, _ := e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Count(e.Ctx()); n != 0 {
		t.Fatalf("the preview wrote %d audit entries", n)
	}
	body["preview"] = false
	run := grantsAnswer(t, ac, body)
	if run.Counts.OK != 3 || run.BatchID == "" {
		t.Fatalf("run %+v", run)
	}
	for _, g := range gs {
		got := apptest.Row[model.BadgeGrant](e, g.ID)
		var es []model.AuditEntry
		if err := e.DB.NewSelect().Model(&es).Where("target_id = ?", g.ID).Scan(e.Ctx()); err != nil {
			t.Fatal(err)
		}
		if got.RevokedAt == nil || got.RevocationReason != "Issued in error: wrong cohort" || len(es) != 1 || es[0].BatchID == nil || *es[0].BatchID != run.BatchID {
			t.Fatalf("after the run: %+v audit %+v", got, es)
		}
	}
	again := grantsAnswer(t, ac, body)
	if again.Counts.Unchanged != 3 || again.Results[1].Msg != grant.MsgBulkAlreadyRevoke {
		t.Fatalf("retry %+v", again)
	}
	if n, _ := e.DB.NewSelect().Model((*model.AuditEntry)(nil)).Count(e.Ctx()); n != 3 {
		t.Fatalf("the retry wrote audit entries: %d", n)
	}
}

func TestGrantsBulkExpiry(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	gs := directGrants(t, e, 2)
	ids := []string{gs[0].ID, gs[1].ID}
	day := time.Now().UTC().AddDate(1, 0, 0).Format("2006-01-02")
	run := grantsAnswer(t, ac, map[string]any{"ids": ids, "action": "set_expiry", "expiresAt": day})
	if run.Counts.OK != 2 || run.Counts.Emailed != 0 {
		t.Fatalf("run %+v", run)
	}
	want, _ := grant.ParseExpiry(day)
	for _, g := range gs {
		got := apptest.Row[model.BadgeGrant](e, g.ID)
		if got.ExpiresAt == nil || !got.ExpiresAt.Equal(want) || got.CredentialJWT == g.CredentialJWT {
			t.Fatalf("expiry not set (or credential not signed again): %+v", got.ExpiresAt)
		}
	}
	again := grantsAnswer(t, ac, map[string]any{"ids": ids, "action": "set_expiry", "expiresAt": day})
	if again.Counts.Unchanged != 2 {
		t.Fatalf("retry %+v", again.Counts)
	}
	clr := grantsAnswer(t, ac, map[string]any{"filter": map[string]any{"badgeId": gs[0].BadgeID, "state": "active"}, "action": "clear_expiry"})
	if clr.Counts.OK != 2 || clr.Counts.Unchanged != 0 {
		t.Fatalf("clear %+v", clr)
	}
	for _, g := range gs {
		if got := apptest.Row[model.BadgeGrant](e, g.ID); got.ExpiresAt != nil {
			t.Fatalf("expiry not cleared: %v", got.ExpiresAt)
		}
	}
}
