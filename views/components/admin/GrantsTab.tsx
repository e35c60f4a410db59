// Grants tab of the admin dashboard (issue 37): every badge grant (GET /admin/grants) as a
// dense table, filtered by state and searched on the server, sorted, paged, exported as
// CSV; a row opens the grant's details in a side panel.
import { useCallback, useEffect, useRef, useState, type MouseEvent } from 'react';
import BadgeCheck from 'lucide-react/icons/badge-check';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { EmptyState } from '../ui/empty-state';
import { SidePanel } from './SidePanel';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { SearchBox, type PageInfo } from './list';
import { ExportLink, FilterChips, PageSizeSelect, SortHeader, TablePager, type SortState } from './table';
import { Detail } from './applications/parts';
import { LocalTime } from '../LocalTime';

export type AdminGrant = {
  _id: string;
  verificationId: string;
  publicVerificationId: string;
  status: 'active' | 'revoked' | 'expired' | string;
  holder: { _id: string; name: string; email: string } | null;
  badge: { _id: string; name: string } | null;
  applicationId: string | null;
  grantedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  revocationReason: string;
};
type GrantList = PageInfo & { grants: AdminGrant[] };

const STATES: [string, string][] = [
  ['all', 'All'],
  ['active', 'Active'],
  ['revoked', 'Revoked'],
  ['expired', 'Expired'],
];
const TONE: Record<string, 'success' | 'destructive' | 'secondary'> = { active: 'success', revoked: 'destructive', expired: 'secondary' };
const LABEL: Record<string, string> = { active: 'Active', revoked: 'Revoked', expired: 'Expired' };

export function GrantsTab({ refreshKey = 0 }: { refreshKey?: number }) {
  const [status, setStatus] = useState('all');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(25);
  const [sort, setSort] = useState<SortState>('');
  const [list, setList] = useState<GrantList | null>(null);
  const [loading, setLoading] = useState(true);
  const [viewing, setViewing] = useState<AdminGrant | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      let qs = `status=${status}&page=${page}&pageSize=${pageSize}`;
      if (query) qs += `&search=${encodeURIComponent(query)}`;
      if (sort) qs += `&sort=${sort}`;
      const res = await api<GrantList>('/admin/grants?' + qs);
      if (mine === seq.current) setList(res);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch grants'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [status, page, pageSize, query, sort]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const grants = list?.grants || [];
  const th = 'px-3 py-2 text-left text-xs font-medium text-muted-foreground';
  const open = (g: AdminGrant) => (e: MouseEvent) => {
    if ((e.target as HTMLElement).closest('button, a')) return;
    setViewing(g);
  };
  const onSort = (s: SortState) => {
    setSort(s);
    setPage(1);
  };

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle as="h2">Badge Grants</CardTitle>
            <CardDescription className="mt-1.5">Every badge issued: its holder, state and verification IDs.</CardDescription>
          </div>
          <SearchBox
            label="Search grants"
            placeholder="Search holder, badge or verification ID"
            onSearch={(q) => {
              setQuery(q);
              setPage(1);
            }}
          />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3">
          <FilterChips
            label="State"
            testid="grant-filter"
            options={STATES}
            value={status}
            onChange={(v) => {
              setStatus(v);
              setPage(1);
            }}
          />
          <ExportLink path="/admin/grants" params={{ status, search: query, sort }} />
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {loading && !list ? (
          <Skeleton className="h-64 w-full" />
        ) : grants.length === 0 ? (
          <EmptyState
            icon={BadgeCheck}
            title={query ? `No grants match “${query}”` : 'No grants here yet'}
            description={query ? 'Try a holder’s name or e-mail, a badge or a verification ID.' : 'Grants appear here as badges are issued.'}
          />
        ) : (
          <div className="relative overflow-x-auto rounded-lg border" aria-busy={loading}>
            <table className="w-full border-collapse text-sm" data-testid="grants-table">
              <caption className="sr-only">Badge grants. Column headers sort; a verification ID opens the grant.</caption>
              <thead className="bg-muted/50">
                <tr>
                  <SortHeader label="Verification ID" sortKey="verificationId" sort={sort} onSort={onSort} className={th} />
                  <th scope="col" className={th}>Holder</th>
                  <th scope="col" className={th}>Badge</th>
                  <th scope="col" className={th}>State</th>
                  <SortHeader label="Issued" sortKey="grantedAt" sort={sort} onSort={onSort} firstDesc className={th} />
                  <th scope="col" className={th}>Expires</th>
                </tr>
              </thead>
              <tbody>
                {grants.map((g) => (
                  <tr key={g._id} onClick={open(g)} className="cursor-pointer border-t hover:bg-accent/50" data-testid="grant-row">
                    <td className="whitespace-nowrap px-3 py-1.5">
                      <button type="button" onClick={() => setViewing(g)} className="rounded font-mono text-xs font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
                        {g.verificationId}
                      </button>
                    </td>
                    <td className="max-w-56 truncate px-3 py-1.5">{g.holder ? `${g.holder.name} · ${g.holder.email}` : '—'}</td>
                    <td className="max-w-48 truncate px-3 py-1.5">{g.badge?.name || '—'}</td>
                    <td className="px-3 py-1.5"><Chip tone={TONE[g.status] || 'secondary'} className={g.status === 'revoked' ? 'text-red-800 dark:text-red-300' : undefined}>{LABEL[g.status] || g.status}</Chip></td>
                    <td className="whitespace-nowrap px-3 py-1.5 tabular-nums"><LocalTime iso={g.grantedAt} /></td>
                    <td className="whitespace-nowrap px-3 py-1.5 tabular-nums">{g.expiresAt ? <LocalTime iso={g.expiresAt} /> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="grants-page-size" value={pageSize} onChange={(n) => { setPageSize(n); setPage(1); }} />
        </TablePager>
      </CardContent>
      <SidePanel
        item={viewing}
        onClose={() => setViewing(null)}
        id="grant"
        title="Grant details"
        description={(g) => `${g.verificationId}${g.badge ? ` · ${g.badge.name}` : ''}`}
      >
        {(g) => (
          <dl className="grid gap-4 sm:grid-cols-2" data-testid="grant-details">
            <Detail label="Verification ID"><span className="font-mono">{g.verificationId}</span></Detail>
            <Detail label="State"><Chip tone={TONE[g.status] || 'secondary'}>{LABEL[g.status] || g.status}</Chip></Detail>
            <Detail label="Holder">{g.holder ? `${g.holder.name} (${g.holder.email})` : '—'}</Detail>
            <Detail label="Badge">{g.badge?.name || '—'}</Detail>
            <Detail label="Issued"><LocalTime iso={g.grantedAt} withTime /></Detail>
            <Detail label="Expires">{g.expiresAt ? <LocalTime iso={g.expiresAt} withTime /> : 'Never'}</Detail>
            {g.revokedAt && <Detail label="Revoked"><LocalTime iso={g.revokedAt} withTime />: {g.revocationReason}</Detail>}
            <Detail label="Public page">
              <a className="text-primary underline-offset-4 hover:underline" href={`/verify/${g.publicVerificationId}`}>Open the verification page</a>
            </Detail>
          </dl>
        )}
      </SidePanel>
    </Card>
  );
}
