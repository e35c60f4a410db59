package admin_test

import (
	"testing"
	"time"

	"meritmark/app/admin"
	"meritmark/app/apptest"
	"meritmark/app/model"
)

type renewalList struct {
	Applications []struct {
		ID            string `json:"_id"`
		PaymentStatus string `json:"paymentStatus"`
		PaymentWaived bool   `json:"paymentWaived"`
		Grant         *struct {
			ID string `json:"_id"`
		} `json:"grant"`
		Renews *struct {
			ID             string `json:"_id"`
			VerificationID string `json:"verificationId"`
		} `json:"renews"`
	} `json:"applications"`
}

// A renewal names the grant it renews in the review list (before and after approval), and
// User Management links the two grants; Grant Free shows as a waived payment.
func TestRenewalNamesItsGrantAndGrantFreeIsWaived(t *testing.T) {
	e := apptest.New(t)
	_, ac := e.Admin("boss@x.io")
	u, _ := e.Member("ann@x.io")
	b := newBadge(t, e, "Renewable", 5000)

	first := paidApplication(t, e, u, b)
	ac.Put("/admin/applications/"+first.ID+"/approve", map[string]any{}).ExpectMsg(200, admin.MsgApproved)
	g1 := grantsOf(t, e, first.ID)[0]
	// the grant expires in 10 days: its holder applies again to renew it
	exp := model.Now().Add(10 * 24 * time.Hour)
	if _, err := e.DB.NewUpdate().Model((*model.BadgeGrant)(nil)).Set("expires_at = ?", exp).Where("id = ?", g1.ID).Exec(e.Ctx()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(5 * time.Millisecond)
	second := newApplication(t, e, u, b, model.StatusAwaitingPayment)

	find := func(status, id string) (out struct {
		PaymentWaived bool
		Renews        string
		RenewsVID     string
	}) {
		var l renewalList
		ac.Get("/admin/applications?status=" + status).Expect(200).JSON(&l)
		for _, a := range l.Applications {
			if a.ID == id {
				out.PaymentWaived = a.PaymentWaived
				if a.Renews != nil {
					out.Renews, out.RenewsVID = a.Renews.ID, a.Renews.VerificationID
				}
				return out
			}
		}
		t.Fatalf("application %s not in the %s list", id, status)
		return out
	}
	got := find("awaiting_payment", second.ID)
	apptest.Expect(t, "renewal in the queue", got,
		apptest.Eq("Renews", got.Renews, g1.ID),
		apptest.Eq("RenewsVID", got.RenewsVID, g1.VerificationID),
		apptest.Eq("PaymentWaived", got.PaymentWaived, false))
	if f := find("approved", first.ID); f.Renews != "" || f.PaymentWaived {
		t.Fatalf("a paid first application: %+v", f)
	}

	// Grant Free: approved without payment, the payment shows as waived
	ac.Put("/admin/applications/"+second.ID+"/approve", map[string]any{"grantFree": true}).ExpectMsg(200, admin.MsgApproved)
	got = find("approved", second.ID)
	apptest.Expect(t, "renewal approved free", got,
		apptest.Eq("Renews", got.Renews, g1.ID),
		apptest.Eq("PaymentWaived", got.PaymentWaived, true))
	g2 := grantsOf(t, e, second.ID)[0]

	var users struct {
		Users []struct {
			ID          string `json:"_id"`
			BadgeGrants []struct {
				ID        string  `json:"_id"`
				Renews    *string `json:"renewsGrantId"`
				RenewedBy *string `json:"renewedByGrantId"`
			} `json:"badgeGrants"`
		} `json:"users"`
	}
	ac.Get("/admin/users?search=ann@x.io").Expect(200).JSON(&users)
	links := map[string][2]string{}
	for _, us := range users.Users {
		for _, g := range us.BadgeGrants {
			var r, rb string
			if g.Renews != nil {
				r = *g.Renews
			}
			if g.RenewedBy != nil {
				rb = *g.RenewedBy
			}
			links[g.ID] = [2]string{r, rb}
		}
	}
	apptest.Expect(t, "user management links", links,
		apptest.Eq("g2 renews", links[g2.ID][0], g1.ID),
		apptest.Eq("g1 renewed by", links[g1.ID][1], g2.ID),
		apptest.Eq("g1 renews", links[g1.ID][0], ""))
}
