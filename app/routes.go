package app

import (
	"net/url"

	"meritmark/app/account"
	"meritmark/app/admin"
	"meritmark/app/angoff"
	"meritmark/app/application"
	"meritmark/app/auth"
	"meritmark/app/award"
	"meritmark/app/badge"
	"meritmark/app/badgeadmin"
	"meritmark/app/coupon"
	"meritmark/app/grant"
	"meritmark/app/halloffame"
	"meritmark/app/obapi"
	"meritmark/app/oid4vci"
	"meritmark/app/pages"
	"meritmark/app/payment"
	"meritmark/app/quiz"
	"meritmark/app/quizadmin"
	"meritmark/app/user"
	"meritmark/app/verify"
	"meritmark/app/web"
	"meritmark/app/webhook"
)

// routeTable is the one route table: every route the application serves, with its access.
// Each feature declares its rows beside its handlers (Routes()); this is where they are
// assembled, registered by New and walked by the permission tests.
func (a *App) routeTable() []web.Route {
	d := a.Deps
	if d.Site.LinkedInOrganizationID == "" && d.Config != nil {
		d.Site.LinkedInOrganizationID = d.Config.LinkedInOrganizationID
	}
	var rs []web.Route
	rs = append(rs, pages.New(d.Site, d.DB).Routes()...)
	awards := award.New(d.DB, d.Site, d.Issuer, d.Mailer, d.Events)
	rs = append(rs, auth.New(d.DB, d.Site, d.Sessions, d.Limiter, d.Mailer).WithIssuer(d.Issuer).WithPolicy(d.Policy).WithEvents(d.Events).WithSecretKey(d.Config).WithMetrics(d.Metrics).
		WithSignupPrefill(awards.SignupPrefill).Routes()...)
	rs = append(rs, user.New(d.DB, d.Site, d.Storage, d.Limiter, d.Events).Routes()...)
	rs = append(rs, badge.New(d.DB, d.Site).Routes()...)
	rs = append(rs, quiz.New(d.DB, d.Site, d.Limiter).Routes()...)
	rs = append(rs, application.New(d.DB, d.Site, d.Storage, d.Limiter, d.Events).Routes()...)
	rs = append(rs, admin.New(d.DB, d.Site, d.Storage, d.Issuer, d.Mailer, d.Events).WithAttempts(&quizadmin.Service{DB: d.DB, Events: d.Events}).Routes()...)
	rs = append(rs, badgeadmin.New(d.DB, d.Events).Routes()...)
	rs = append(rs, quizadmin.New(d.DB, d.Events).Routes()...)
	rs = append(rs, angoff.New(d.DB, d.Site, d.Mailer, d.Events, d.Limiter).Routes()...)
	rs = append(rs, coupon.New(d.DB, d.Clock).Routes()...)
	rs = append(rs, payment.New(payment.Deps{DB: d.DB, Site: d.Site, Gateway: paymentGateway(d), Mailer: d.Mailer, Limiter: d.Limiter, Events: d.Events}).Routes()...)
	rs = append(rs, verify.New(d.DB, d.Site, d.Config, d.Issuer, d.Mailer).Routes()...)
	rs = append(rs, grant.NewAdmin(d.DB, d.Site, d.Issuer, d.Mailer, d.Events).Routes()...)
	rs = append(rs, verify.NewBulk(d.DB, d.Site, d.Config, d.Issuer, d.Limiter).Routes()...)
	rs = append(rs, awards.Routes()...)
	rs = append(rs, halloffame.New(d.DB, d.Site, d.Issuer).Routes()...)
	rs = append(rs, account.New(account.Deps{DB: d.DB, Site: d.Site, Config: d.Config, Storage: d.Storage, Limiter: d.Limiter, Mailer: d.Mailer, Sessions: d.Sessions, Events: d.Events, Issuer: d.Issuer}).Routes()...)
	rs = append(rs, obapi.New(d.DB, d.Site, d.Config, d.Issuer, d.Limiter).Routes()...)
	rs = append(rs, oid4vci.New(d.DB, d.Site, d.Issuer, d.Limiter).Routes()...)
	rs = append(rs, webhook.NewHandler(a.Webhooks).Routes()...)
	return rs
}

// paymentGateway chooses where payments go: the PayPal of the configuration, or with no
// MERITMARK_PAYPAL_BASE_URL the built-in sandbox simulator (serve refuses the simulator on
// an https origin unless MERITMARK_PAYPAL_SIMULATOR=1; see config.ServeProblem).
func paymentGateway(d *Deps) payment.Gateway {
	cfg := d.Config
	if cfg.Simulated() {
		return payment.Simulator(cfg, d.DB)
	}
	return payment.PayPal(cfg.PayPalBaseURL, cfg.PayPalClientID, cfg.PayPalSecret, cfg.PayPalWebhookID)
}

func urlQueryEscape(s string) string { return url.QueryEscape(s) }
