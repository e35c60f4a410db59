// The admin dashboard island (/admin). Owned by the admin-review work; the badge, quiz
// and coupon tabs live in views/components/admin/ and are owned by the catalogue-admin work.
import { useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import ClipboardList from 'lucide-react/icons/clipboard-list';
import CreditCard from 'lucide-react/icons/credit-card';
import History from 'lucide-react/icons/history';
import Loader2 from 'lucide-react/icons/loader-circle';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Settings2 from 'lucide-react/icons/settings-2';
import Tag from 'lucide-react/icons/tag';
import Users from 'lucide-react/icons/users';
import Webhook from 'lucide-react/icons/webhook';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/tabs';
import { ApplicationsTab, type AppList } from '../components/admin/ApplicationsTab';
import type { Summary } from '../components/admin/SummaryCards';
import { Button, Container } from '../components/ui';
import { api } from '../lib/api';
import { toast } from '../lib/toast';
import { parseView, viewQuery, type DashboardView } from '../components/admin/view';
import { deferred } from '../lib/deferred';

// The other tabs' code is fetched when a tab is first shown (each is its own chunk); the
// server renders a tab the address opens (/admin?tab=users), and hydration keeps that HTML
// until the tab's code is here. The chart below the queue is fetched beside React.
const tabLoading = (
  <p className="flex items-center gap-2 py-10 text-sm text-muted-foreground" data-testid="tab-loading">
    <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Loading…
  </p>
);
function tabPart<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = tabLoading) {
  return deferred(load, { onDemand: true, fallback });
}
// the summary cards only show numbers: their code comes beside React, and until it is
// here the server's cards stay as they are
const SummaryCards = deferred(() => import('../components/admin/SummaryCards').then((m) => m.SummaryCards));
const SummaryChart = deferred(() => import('../components/admin/SummaryChart').then((m) => m.SummaryChart));
const UsersTab = tabPart(() => import('../components/admin/UsersTab').then((m) => m.UsersTab));
const BadgesTab = tabPart(() => import('../components/admin/BadgesTab').then((m) => m.BadgesTab));
const QuizTab = tabPart(() => import('../components/admin/QuizTab').then((m) => m.QuizTab));
const CouponsTab = tabPart(() => import('../components/admin/CouponsTab').then((m) => m.CouponsTab));
const WebhooksTab = tabPart(() => import('../components/admin/WebhooksTab').then((m) => m.WebhooksTab));
const GrantsTab = tabPart(() => import('../components/admin/GrantsTab').then((m) => m.GrantsTab));
const PaymentsTab = tabPart(() => import('../components/admin/PaymentsTab').then((m) => m.PaymentsTab));
const AwardByEmail = tabPart(() => import('../components/admin/AwardByEmail').then((m) => m.AwardByEmail), null);
const AuditLog = tabPart(() => import('../components/admin/AuditLog').then((m) => m.AuditLog));
const AwardsCsv = tabPart(() => import('../components/admin/AwardsCsv').then((m) => m.AwardsCsv), null);

export type AdminDashboardProps = { adminName: string; adminId: string; summary: Summary; applications: AppList; view?: DashboardView };

/** Each list tab's part of the view (what the address holds while that tab is open). */
type TabViews = { applications: DashboardView; users: DashboardView; audit: DashboardView };
const LIST_TABS: (keyof TabViews)[] = ['applications', 'users', 'audit'];
const isListTab = (t: string): t is keyof TabViews => (LIST_TABS as string[]).includes(t);
const split = (v: DashboardView): [string, TabViews] => {
  const { tab = 'applications', ...rest } = v;
  return [tab, { applications: tab === 'applications' ? rest : {}, users: tab === 'users' ? rest : {}, audit: tab === 'audit' ? rest : {} }];
};

export default function AdminDashboard({ adminName, adminId, summary: initialSummary, applications, view = {} }: AdminDashboardProps) {
  const [summary, setSummary] = useState<Summary>(initialSummary);
  const [refreshKey, setRefreshKey] = useState(0);
  const [refreshing, setRefreshing] = useState(false);
  // the deep link: the server rendered this view; back and forward restore an earlier one
  // (the list tabs start again from it: navKey remounts them)
  const [tab, setTab] = useState(() => split(view)[0]);
  const [views, setViews] = useState<TabViews>(() => split(view)[1]);
  const [navKey, setNavKey] = useState(0);
  const shown = useRef<DashboardView>(view);

  // the address follows the view: a new entry for a tab, filter, page or dialog; the
  // search typed replaces the current one
  useEffect(() => {
    const v: DashboardView = { tab, ...(isListTab(tab) ? views[tab] : {}) };
    const qs = viewQuery(v);
    if (qs === window.location.search || (qs === '' && window.location.search === '')) return;
    const prev = shown.current;
    shown.current = v;
    const onlySearch = (prev.tab || 'applications') === tab && prev.status === v.status && prev.page === v.page && prev.app === v.app && prev.user === v.user && prev.action === v.action;
    const url = window.location.pathname + qs + window.location.hash;
    if (onlySearch) window.history.replaceState(null, '', url);
    else window.history.pushState(null, '', url);
  }, [tab, views]);
  useEffect(() => {
    const onPop = () => {
      const v = parseView(window.location.search);
      shown.current = v;
      const [t, tv] = split(v);
      setTab(t);
      setViews(tv);
      setNavKey((k) => k + 1);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  const onView = (t: keyof TabViews) => (v: DashboardView) =>
    setViews((all) => (viewQuery(all[t]) === viewQuery(v) ? all : { ...all, [t]: v }));

  // Stats fetch failures are silent (spec section 8).
  const loadSummary = async () => {
    try {
      setSummary(await api<Summary>('/admin/summary'));
      return true;
    } catch {
      return false;
    }
  };

  const refresh = async () => {
    setRefreshing(true);
    setRefreshKey((k) => k + 1); // every tab reloads what it shows
    await loadSummary();
    setRefreshing(false);
    toast({ title: 'Data refreshed successfully', variant: 'success' });
  };

  return (
    <Container className="py-6 sm:py-8">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <p className="text-sm font-medium text-primary">Admin Dashboard</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">
            Welcome back, <span data-testid="admin-name">{adminName}</span>
          </h1>
          <p className="mt-1 text-muted-foreground">Review applications, manage users and keep the catalogue in shape.</p>
        </div>
        <Button variant="outline" onClick={refresh} disabled={refreshing} className="self-start sm:self-auto">
          {refreshing ? <Loader2 className="animate-spin" /> : <RefreshCw />} Refresh Data
        </Button>
      </div>

      <div className="mt-6">
        <SummaryCards s={summary} />
      </div>

      {/* the review queue comes before the chart: on the first screen at 1280x800 */}
      <Tabs value={tab} onValueChange={setTab} className="mt-6">
        <div className="-mx-4 relative overflow-x-auto px-4 pb-1 sm:mx-0 sm:px-0">
          <TabsList className="h-auto w-max flex-nowrap justify-start">
            <TabsTrigger value="applications">
              <ClipboardList className="h-4 w-4" aria-hidden="true" /> Applications
            </TabsTrigger>
            <TabsTrigger value="users">
              <Users className="h-4 w-4" aria-hidden="true" /> User Management
            </TabsTrigger>
            <TabsTrigger value="grants">
              <BadgeCheck className="h-4 w-4" aria-hidden="true" /> Grants
            </TabsTrigger>
            <TabsTrigger value="badges">
              <Award className="h-4 w-4" aria-hidden="true" /> Badge Management
            </TabsTrigger>
            <TabsTrigger value="quizzes">
              <Settings2 className="h-4 w-4" aria-hidden="true" /> Quiz Management
            </TabsTrigger>
            <TabsTrigger value="coupons">
              <Tag className="h-4 w-4" aria-hidden="true" /> Coupons
            </TabsTrigger>
            <TabsTrigger value="payments">
              <CreditCard className="h-4 w-4" aria-hidden="true" /> Payments
            </TabsTrigger>
            <TabsTrigger value="audit">
              <History className="h-4 w-4" aria-hidden="true" /> Audit Log
            </TabsTrigger>
            <TabsTrigger value="webhooks">
              <Webhook className="h-4 w-4" aria-hidden="true" /> Webhooks
            </TabsTrigger>
          </TabsList>
        </div>
        {/* kept mounted: its sub-tab, page and search survive a visit to another tab */}
        <TabsContent value="applications" forceMount className="data-[state=inactive]:hidden">
          <ApplicationsTab
            key={navKey}
            initial={navKey === 0 ? applications : undefined}
            view={views.applications}
            active={tab === 'applications'}
            onView={onView('applications')}
            refreshKey={refreshKey}
            onChanged={loadSummary}
          />
        </TabsContent>
        <TabsContent value="users">
          <UsersTab key={navKey} view={views.users} onView={onView('users')} currentUserId={adminId} refreshKey={refreshKey} onChanged={loadSummary} />
        </TabsContent>
        <TabsContent value="grants">
          <GrantsTab refreshKey={refreshKey} />
        </TabsContent>
        <TabsContent value="badges">
          <BadgesTab key={refreshKey} /><AwardByEmail /><AwardsCsv />
        </TabsContent>
        <TabsContent value="quizzes">
          <QuizTab key={refreshKey} />
        </TabsContent>
        <TabsContent value="coupons">
          <CouponsTab key={refreshKey} />
        </TabsContent>
        <TabsContent value="payments">
          <PaymentsTab refreshKey={refreshKey} />
        </TabsContent>
        <TabsContent value="audit">
          <AuditLog key={navKey} view={views.audit} onView={onView('audit')} refreshKey={refreshKey} />
        </TabsContent>
        <TabsContent value="webhooks">
          <WebhooksTab key={refreshKey} />
        </TabsContent>
      </Tabs>
      <div className="mt-8">
        <SummaryChart days={summary.days} />
      </div>
    </Container>
  );
}
