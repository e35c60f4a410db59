package auth

import (
	"context"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"meritmark/app/mail"
	"meritmark/app/model"
	"meritmark/app/obapi"
)

// Why an account's connected apps (wallet grants, app/obapi) were disconnected: the
// account changed hands or first proved its address, so an app connected before may
// belong to someone else (someone who signed up with the address first, or who knew
// the old password).
const (
	walletsEndedByReset   = "the password of your account was reset with a link sent to this address"
	walletsEndedByChange  = "the password of your account was changed from your profile"
	walletsEndedByConfirm = "this address was confirmed for the first time, and an app connected before that may have been connected by someone else who signed up with your address"
)

// MailAppsDisconnected is the subject of the mail that says connected apps were disconnected.
const MailAppsDisconnected = "Your connected apps were disconnected from Meritmark"

// endWallets ends every wallet grant of u in tx and, when an app was connected, queues
// the mail that tells u which and why.
func endWallets(ctx context.Context, tx bun.IDB, u *model.User, why string) error {
	apps, err := obapi.EndGrants(ctx, tx, u.ID)
	if err != nil || len(apps) == 0 {
		return err
	}
	return mail.Queue(ctx, tx, appsDisconnectedMail(u, apps, why))
}

func appsDisconnectedMail(u *model.User, apps []string, why string) mail.Message {
	list := make([]string, len(apps))
	for i, a := range apps {
		list[i] = "  - " + a
	}
	text := fmt.Sprintf(`Hello %s,

Every app connected to your Meritmark account (%s) was disconnected, because
%s. The apps can no longer read your badges or your profile:

%s

If you use one of these apps, connect it again from the app: Meritmark will ask you
to allow it. If you do not know one of them, you need not do anything: it has lost
its access.

The Meritmark team
`, u.Name, u.Email, why, strings.Join(list, "\n"))
	return mail.Message{To: u.Email, Subject: MailAppsDisconnected, Text: text}
}
