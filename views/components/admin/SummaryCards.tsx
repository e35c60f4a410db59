// The dashboard's four summary cards (spec section 2: Total Applications with the pending
// count, Total Users, Total Badges, Revenue in dollars).
import type { ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import DollarSign from 'lucide-react/icons/dollar-sign';
import FileText from 'lucide-react/icons/file-text';
import Users from 'lucide-react/icons/users';
import { Card } from '../ui';
import { money, plural } from '../../lib/format';

export type SummaryDay = { date: string; applications: number; revenue: number };

export type Summary = {
  totalApplications: number;
  pendingApplications: number;
  paidPending: number;
  awaitingPayment: number;
  approvedApplications: number;
  rejectedApplications: number;
  totalUsers: number;
  totalAdmins: number;
  totalBadges: number;
  activeBadges: number;
  badgesGranted: number;
  revenue: number;
  completedPayments: number;
  days: SummaryDay[];
};

function StatCard({ label, value, icon, tone, children, testId }: { label: string; value: string; icon: ReactNode; tone: string; children: ReactNode; testId: string }) {
  return (
    <Card className="p-4 sm:p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <p className="mt-2 truncate text-2xl font-bold tracking-tight tabular-nums sm:text-3xl">{value}</p>
        </div>
        <span className={`hidden h-10 w-10 shrink-0 items-center justify-center rounded-lg sm:flex ${tone}`} aria-hidden="true">
          {icon}
        </span>
      </div>
      <div className="mt-3 text-xs text-muted-foreground">{children}</div>
    </Card>
  );
}

export function SummaryCards({ s }: { s: Summary }) {
  return (
    <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
      <StatCard label="Total Applications" value={String(s.totalApplications)} icon={<FileText className="h-5 w-5" />} tone="bg-primary/10 text-primary" testId="card-applications">
        <span className="font-semibold text-foreground">{s.pendingApplications} pending</span> review
        {s.awaitingPayment > 0 && <> ({s.awaitingPayment} awaiting payment)</>}
      </StatCard>
      <StatCard label="Total Users" value={String(s.totalUsers)} icon={<Users className="h-5 w-5" />} tone="bg-sky-500/10 text-sky-600 dark:text-sky-400" testId="card-users">
        {plural(s.totalAdmins, 'administrator', 'administrators')}
      </StatCard>
      <StatCard label="Total Badges" value={String(s.totalBadges)} icon={<Award className="h-5 w-5" />} tone="bg-warning/20 text-amber-700 dark:text-warning" testId="card-badges">
        {s.activeBadges} active · {plural(s.badgesGranted, 'grant', 'grants')} in force
      </StatCard>
      <StatCard label="Revenue" value={money(s.revenue)} icon={<DollarSign className="h-5 w-5" />} tone="bg-success/15 text-success" testId="card-revenue">
        from {plural(s.completedPayments, 'completed payment', 'completed payments')}
      </StatCard>
    </div>
  );
}
