package admin

import (
	"context"
	"time"

	"github.com/uptrace/bun"

	"meritmark/app/model"
)

// SummaryDays is how many days the chart covers (today included).
const SummaryDays = 30

// Summary computes the dashboard's cards and the last 30 days of applications and revenue.
func (s *Service) Summary(ctx context.Context, now time.Time) (*Summary, error) {
	var out Summary
	counts, err := s.st.statusCounts(ctx, s.DB, "")
	if err != nil {
		return nil, err
	}
	for _, n := range counts {
		out.TotalApplications += n
	}
	out.PaidPending = counts[model.StatusPending]
	out.AwaitingPayment = counts[model.StatusAwaitingPayment]
	out.PendingApplications = out.PaidPending + out.AwaitingPayment
	out.ApprovedApplications = counts[model.StatusApproved]
	out.RejectedApplications = counts[model.StatusRejected]
	count := func(dst *int64, q *bun.SelectQuery) {
		if err == nil {
			*dst, err = q.Count(ctx)
		}
	}
	count(&out.TotalUsers, s.DB.NewSelect().Model((*model.User)(nil)))
	count(&out.TotalAdmins, s.DB.NewSelect().Model((*model.User)(nil)).Where("role = ?", model.RoleAdmin))
	count(&out.TotalBadges, s.DB.NewSelect().Model((*model.Badge)(nil)))
	count(&out.ActiveBadges, s.DB.NewSelect().Model((*model.Badge)(nil)).Where("is_active = ?", true))
	count(&out.BadgesGranted, s.DB.NewSelect().Model((*model.BadgeGrant)(nil)).Where("revoked_at IS NULL"))
	count(&out.CompletedPayments, s.DB.NewSelect().Model((*model.Payment)(nil)).Where("status = ?", model.PaymentCompleted))
	if err != nil {
		return nil, err
	}
	var revenue int64
	if err := s.DB.NewSelect().Model((*model.Payment)(nil)).ColumnExpr("COALESCE(SUM(amount_cents), 0)").
		Where("status = ?", model.PaymentCompleted).Scan(ctx, &revenue); err != nil {
		return nil, err
	}
	out.Revenue = dollars(revenue)

	today := now.UTC().Truncate(24 * time.Hour)
	since := today.AddDate(0, 0, -(SummaryDays - 1))
	apps, err := s.st.applicationsPerDay(ctx, s.DB, since)
	if err != nil {
		return nil, err
	}
	rev, err := s.st.revenuePerDay(ctx, s.DB, since)
	if err != nil {
		return nil, err
	}
	out.Days = Series(since, SummaryDays, apps, rev)
	return &out, nil
}

// Series lays per-day counts over n consecutive days from since (missing days are 0).
func Series(since time.Time, n int, apps, revenueCents []dayCount) []Day {
	a := map[string]int64{}
	for _, r := range apps {
		a[r.Day] = r.N
	}
	rv := map[string]int64{}
	for _, r := range revenueCents {
		rv[r.Day] = r.N
	}
	days := make([]Day, n)
	for i := range days {
		d := since.AddDate(0, 0, i).Format("2006-01-02")
		days[i] = Day{Date: d, Applications: a[d], Revenue: dollars(rv[d])}
	}
	return days
}
