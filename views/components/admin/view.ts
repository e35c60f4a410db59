// The dashboard's deep link: the tab, the list's status, search and page, an opened
// application or user, and the audit log's action filter live in the address
// (/admin?tab=users&q=ada&user=<id>, /admin?tab=audit&action=coupon.*), so a reload
// or a shared link opens the same view. The server reads the same query (admin.ParseView)
// and renders the page the island hydrates.
export type DashboardView = { tab?: string; status?: string; q?: string; page?: number; app?: string; user?: string; action?: string };

export const TABS = ['applications', 'users', 'grants', 'badges', 'quizzes', 'coupons', 'payments', 'audit', 'webhooks'];
const STATUSES = ['pending', 'awaiting_payment', 'approved', 'rejected'];
const ID = /^[0-9a-f]{24}$/;
// an audit action or an area's "area.*" (as app/admin.ParseView)
const ACTION = /^[a-z][a-z_]{0,30}\.(\*|[a-z][a-z_.]{0,60})$/;

/** The view an address's query names (what is not valid is dropped, as the server does). */
export function parseView(search: string): DashboardView {
  const p = new URLSearchParams(search);
  const v: DashboardView = {};
  const tab = p.get('tab') || '';
  if (TABS.includes(tab) && tab !== 'applications') v.tab = tab;
  const q = (p.get('q') || '').trim();
  if (q && [...q].length <= 200) v.q = q;
  const page = Number(p.get('page'));
  if (Number.isInteger(page) && page > 1) v.page = page;
  if (!v.tab) {
    const st = p.get('status') || '';
    if (STATUSES.includes(st)) v.status = st;
    const app = p.get('app') || '';
    if (ID.test(app)) v.app = app;
  } else if (v.tab === 'users') {
    const user = p.get('user') || '';
    if (ID.test(user)) v.user = user;
  } else if (v.tab === 'audit') {
    const action = p.get('action') || '';
    if (ACTION.test(action)) v.action = action;
  } else {
    delete v.q;
    delete v.page;
  }
  return v;
}

/** The query string of a view ('' for the default view). */
export function viewQuery(v: DashboardView): string {
  const p = new URLSearchParams();
  if (v.tab && v.tab !== 'applications') p.set('tab', v.tab);
  if (v.status) p.set('status', v.status);
  if (v.q) p.set('q', v.q);
  if (v.page && v.page > 1) p.set('page', String(v.page));
  if (v.app) p.set('app', v.app);
  if (v.user) p.set('user', v.user);
  if (v.action) p.set('action', v.action);
  const s = p.toString();
  return s ? '?' + s : '';
}
