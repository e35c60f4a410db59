// The audit log view: every admin action (who, what, when, before and after), newest
// first, paginated, sorted, filtered and searched on the server; a dense table on wide
// screens whose row opens the entry in a side panel, a list on phones; Export CSV.
import { useCallback, useEffect, useRef, useState } from 'react';
import History from 'lucide-react/icons/history';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { SidePanel } from './SidePanel';
import { SearchBox, type PageInfo } from './list';
import { ExportLink, OpenRowButton, PageSizeSelect, SortHeader, TH as th, TablePager, rowOpener, type SortState } from './table';
import { Detail } from './applications/parts';
import { LocalTime } from '../LocalTime';
import type { DashboardView } from './view';

export type AuditEntry = {
  _id: string;
  actor: { _id: string; name: string; email: string } | null;
  action: string;
  targetType: string;
  targetId: string;
  targetLabel: string;
  before: unknown;
  after: unknown;
  createdAt: string;
};
type AuditList = PageInfo & { entries: AuditEntry[] };

const LABELS: Record<string, string> = {
  'application.approve': 'Approved application',
  'application.grant_free': 'Granted free',
  'application.reject': 'Rejected application',
  'application.reject_undo': 'Undid a rejection',
  'user.email_change_requested': 'Asked to change an e-mail',
  'user.email_change_confirmed': 'Confirmed a new e-mail',
  'user.update': 'Updated user',
  'user.role_change': 'Changed role',
  'user.profile_pic': 'Changed profile picture',
  'badge.create': 'Created badge',
  'badge.update': 'Updated badge',
  'badge.toggle': 'Toggled badge',
  'badge.delete': 'Deleted badge',
  'quiz.create': 'Created quiz',
  'quiz.toggle': 'Toggled quiz',
  'quiz.add_question': 'Added question to quiz',
  'quiz.remove_question': 'Removed question from quiz',
  'question.create': 'Created question',
  'question.update': 'Updated question',
  'question.delete': 'Deleted question',
  'coupon.create': 'Created coupon',
  'coupon.update': 'Updated coupon',
  'coupon.toggle': 'Toggled coupon',
  'coupon.delete': 'Deleted coupon',
  'coupon.free_grant': 'Created free grant coupon',
  'grant.revoke': 'Revoked badge',
  'grant.expiry': 'Set badge expiry',
  'user.delete': 'Deleted account',
  'user.export': 'Exported account data',
  'user.password_reset_by_operator': 'Reset password (operator)',
  'user.2fa_reset_by_operator': 'Reset two-step sign-in (operator)',
  'user.disabled_by_operator': 'Disabled account (operator)',
  'user.enabled_by_operator': 'Enabled account (operator)',
  'sessions.flushed_by_operator': 'Signed out everywhere (operator)',
  'quiz.update': 'Updated quiz',
  'quiz.grant_attempt': 'Granted an extra quiz attempt',
  'question.retire': 'Retired question',
  'question.restore': 'Restored question',
  'award.create': 'Awarded badge by e-mail',
  'webhook.create': 'Created webhook',
  'webhook.update': 'Updated webhook',
  'webhook.delete': 'Deleted webhook',
  'webhook.resend': 'Resent webhook delivery',
  'webhook.rotate_secret': 'Rotated webhook secret',
};

export function actionLabel(a: string) {
  if (LABELS[a]) return LABELS[a];
  const s = a.replace(/[._]/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function tone(a: string): 'success' | 'destructive' | 'secondary' | 'warning' {
  if (/approve|grant_free|create/.test(a)) return 'success';
  if (/reject|delete|remove/.test(a)) return 'destructive';
  if (/role/.test(a)) return 'warning';
  return 'secondary';
}

function show(v: unknown): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') return v.length > 60 ? v.slice(0, 60) + '…' : v;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if ('verificationId' in o) return `${o.verificationId}${o.revokedAt ? ' (revoked)' : ''}`;
    const s = JSON.stringify(v);
    return s.length > 60 ? s.slice(0, 60) + '…' : s;
  }
  return String(v);
}

/** What changed between two audit snapshots, one line per changed field. */
export function AuditChanges({ before, after, className }: { before: unknown; after: unknown; className?: string }) {
  const b = (before && typeof before === 'object' ? before : {}) as Record<string, unknown>;
  const a = (after && typeof after === 'object' ? after : {}) as Record<string, unknown>;
  const keys = Array.from(new Set([...Object.keys(b), ...Object.keys(a)])).filter(
    (k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]) && !/^(reviewedAt|reviewedBy|updatedAt|createdAt|id|_id)$/.test(k),
  );
  if (before === null && after !== null) return <p className={cn('mt-1 text-xs text-muted-foreground', className)}>Created</p>;
  if (after === null && before !== null) return <p className={cn('mt-1 text-xs text-muted-foreground', className)}>Deleted</p>;
  if (keys.length === 0) return <p className={cn('mt-1 text-xs text-muted-foreground', className)}>No field changed</p>;
  return (
    <ul className={cn('mt-1 space-y-0.5 text-xs', className)}>
      {keys.slice(0, 8).map((k) => (
        <li key={k} className="break-words">
          <span className="font-medium">{k}</span>: <span className="text-muted-foreground line-through decoration-muted-foreground/50">{show(b[k])}</span> → <span>{show(a[k])}</span>
        </li>
      ))}
    </ul>
  );
}

/** The filter offers every kind of action the dashboard records, by area; "area.*"
 * selects the whole area (the server matches the prefix). */
const ACTION_GROUPS: [string, string, string[]][] = [
  ['application', 'Applications', ['application.approve', 'application.grant_free', 'application.reject', 'application.reject_undo']],
  ['grant', 'Badge grants', ['grant.revoke', 'grant.expiry']],
  ['user', 'Users', ['user.update', 'user.email_change_requested', 'user.email_change_confirmed', 'user.role_change', 'user.profile_pic']],
  ['badge', 'Badges', ['badge.create', 'badge.update', 'badge.toggle', 'badge.delete']],
  ['quiz', 'Quizzes', ['quiz.create', 'quiz.toggle', 'quiz.add_question', 'quiz.remove_question']],
  ['question', 'Questions', ['question.create', 'question.update', 'question.delete']],
  ['coupon', 'Coupons', ['coupon.create', 'coupon.update', 'coupon.toggle', 'coupon.delete', 'coupon.free_grant']],
];

const AREA_LABELS: Record<string, string> = Object.fromEntries(ACTION_GROUPS.map(([area, label]) => [area, label]));
Object.assign(AREA_LABELS, { sessions: 'Sessions', award: 'Awards', webhook: 'Webhooks' });

/** The filter's groups for the actions the server lists (every known action and any the
 * log holds), by area in ACTION_GROUPS order, then the rest. */
export function groupActions(actions: string[]): [string, string, string[]][] {
  const by = new Map<string, string[]>();
  for (const [area] of ACTION_GROUPS) by.set(area, []);
  for (const a of actions) {
    const area = a.split('.')[0];
    if (!by.has(area)) by.set(area, []);
    by.get(area)!.push(a);
  }
  return Array.from(by.entries())
    .filter(([, list]) => list.length > 0)
    .map(([area, list]) => [area, AREA_LABELS[area] || area.charAt(0).toUpperCase() + area.slice(1), list]);
}

type Props = { refreshKey?: number; view?: DashboardView; onView?: (v: DashboardView) => void };

export function AuditLog({ refreshKey = 0, view = {}, onView }: Props) {
  const [groups, setGroups] = useState(ACTION_GROUPS);
  useEffect(() => {
    let live = true;
    api<{ actions: string[] }>('/admin/audit/actions')
      .then((r) => live && setGroups(groupActions(r.actions)))
      .catch(() => {}); // the built-in list stays
    return () => {
      live = false;
    };
  }, []);
  // the deep link's filter, search and page (/admin?tab=audit&action=coupon.*&q=spring)
  const [action, setAction] = useState(view.action || '');
  const [query, setQuery] = useState(view.q || '');
  const [page, setPage] = useState(view.page || 1);
  useEffect(() => {
    onView?.({ action: action || undefined, q: query || undefined, page: page > 1 ? page : undefined });
  }, [action, query, page]); // eslint-disable-line react-hooks/exhaustive-deps -- onView is a new function each render
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<SortState>('');
  const [viewing, setViewing] = useState<AuditEntry | null>(null);
  const [list, setList] = useState<AuditList | null>(null);
  const [loading, setLoading] = useState(true);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      let qs = `page=${page}&pageSize=${pageSize}`;
      if (action) qs += `&action=${encodeURIComponent(action)}`;
      if (query) qs += `&search=${encodeURIComponent(query)}`;
      if (sort) qs += `&sort=${sort}`;
      const res = await api<AuditList>('/admin/audit?' + qs);
      if (mine === seq.current) setList(res);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch the audit log'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [action, page, pageSize, query, sort]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const entries = list?.entries || [];
  const actor = (e: AuditEntry) => (e.actor ? e.actor.name || e.actor.email : 'system');
  const target = (e: AuditEntry) => e.targetLabel || `${e.targetType} ${e.targetId}`;
  const onSort = (v: SortState) => {
    setSort(v);
    setPage(1);
  };

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>Audit Log</CardTitle>
            <CardDescription className="mt-1.5">Every administrator action, who made it and what it changed.</CardDescription>
          </div>
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:min-w-[28rem] sm:flex-row">
            <select
              aria-label="Filter by action"
              value={action}
              onChange={(e) => {
                setAction(e.target.value);
                setPage(1);
              }}
              className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              <option value="">All actions</option>
              {groups.map(([area, label, actions]) => (
                <optgroup key={area} label={label}>
                  <option value={`${area}.*`}>All {label.toLowerCase()} actions</option>
                  {actions.map((a) => (
                    <option key={a} value={a}>
                      {actionLabel(a)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            <SearchBox
              initial={view.q}
              label="Search the audit log"
              placeholder="Search names, codes, badges or IDs"
              onSearch={(q) => {
                setQuery(q);
                setPage(1);
              }}
            />
          </div>
        </div>
        <div className="flex justify-end">
          <ExportLink path="/admin/audit" params={{ action, search: query, sort }} />
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {loading && !list ? (
          [0, 1, 2, 3].map((i) => <Skeleton key={i} className="h-14 w-full" />)
        ) : entries.length === 0 ? (
          <div className="rounded-lg border border-dashed py-12 text-center">
            <History className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
            <p className="mt-3 font-medium">No entries</p>
            <p className="mt-1 text-sm text-muted-foreground">{query || action ? 'Nothing matches these filters.' : 'Admin actions will be recorded here.'}</p>
          </div>
        ) : (
          <>
          <div className="hidden relative overflow-x-auto rounded-lg border lg:block" aria-busy={loading}>
            <table className="w-full border-collapse text-sm" data-testid="audit-entries">
              <caption className="sr-only">Audit log. Column headers sort; a target opens the entry.</caption>
              <thead className="bg-muted/50">
                <tr>
                  <SortHeader label="Time" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={th} />
                  <SortHeader label="Action" sortKey="action" sort={sort} onSort={onSort} className={th} />
                  <SortHeader label="Target" sortKey="targetType" sort={sort} onSort={onSort} className={th} />
                  <th scope="col" className={th}>By</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr key={e._id} onClick={rowOpener(() => setViewing(e))} className="cursor-pointer border-t hover:bg-accent/50" data-testid="audit-row">
                    <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground">
                      <time dateTime={e.createdAt}><LocalTime iso={e.createdAt} withTime /></time>
                    </td>
                    <td className="whitespace-nowrap px-3 py-1.5"><Chip tone={tone(e.action)}>{actionLabel(e.action)}</Chip></td>
                    <td className="max-w-96 px-3 py-1.5">
                      <OpenRowButton onOpen={() => setViewing(e)}>{target(e)}</OpenRowButton>
                    </td>
                    <td className="max-w-56 truncate px-3 py-1.5 text-muted-foreground">{actor(e)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ol className="divide-y rounded-lg border lg:hidden" aria-busy={loading} data-testid="audit-list">
            {entries.map((e) => (
              <li key={e._id} className="grid gap-1 px-4 py-3 sm:grid-cols-[11rem_1fr] sm:gap-4">
                <time dateTime={e.createdAt} className="text-xs text-muted-foreground tabular-nums sm:pt-0.5">
                  <LocalTime iso={e.createdAt} withTime />
                </time>
                <div className="min-w-0">
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                    <Chip tone={tone(e.action)}>{actionLabel(e.action)}</Chip>
                    <span className="min-w-0 break-words font-medium">{e.targetLabel || `${e.targetType} ${e.targetId}`}</span>
                  </p>
                  <p className="mt-1 text-xs text-muted-foreground">by {e.actor ? e.actor.name || e.actor.email : 'system'}{e.actor?.email && e.actor.name ? ` <${e.actor.email}>` : ''}</p>
                  <AuditChanges before={e.before} after={e.after} />
                </div>
              </li>
            ))}
          </ol>
          </>
        )}
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="audit-page-size" value={pageSize} onChange={(n) => { setPageSize(n); setPage(1); }} />
        </TablePager>
      </CardContent>
      <SidePanel
        item={viewing}
        onClose={() => setViewing(null)}
        id="audit"
        title="Audit entry"
        description={(v) => (
          <>
            {actionLabel(v.action)} · <LocalTime iso={v.createdAt} withTime />
          </>
        )}
      >
        {(v) => (
          <>
            <dl className="grid gap-4 sm:grid-cols-2" data-testid="audit-details">
              <Detail label="Action"><Chip tone={tone(v.action)}>{actionLabel(v.action)}</Chip> <code className="text-xs">{v.action}</code></Detail>
              <Detail label="By">{actor(v)}{v.actor?.email && v.actor.name ? ` <${v.actor.email}>` : ''}</Detail>
              <Detail label="Target">{target(v)}</Detail>
              <Detail label="Target ID"><span className="break-all font-mono text-xs">{v.targetType} {v.targetId}</span></Detail>
            </dl>
            <section>
              <h3 className="text-sm font-semibold">What changed</h3>
              <AuditChanges before={v.before} after={v.after} className="text-sm" />
            </section>
          </>
        )}
      </SidePanel>
    </Card>
  );
}
