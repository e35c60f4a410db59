// The award register (issue 37): every award sent by e-mail or from a CSV (GET
// /admin/awards) as a dense table on wide screens (sortable columns, page size, server-side
// paging and search, Export CSV of the filter) or as cards (phones, or by choice), filtered
// by state and badge. A row opens the award in a side panel (recipient, badge, state, when
// it was sent and claimed, how long its link works, the credential's expiry, the note and
// the upload batch) with Resend and Withdraw; withdrawing asks first.
import { useCallback, useEffect, useRef, useState } from 'react';
import Ban from 'lucide-react/icons/ban';
import Inbox from 'lucide-react/icons/inbox';
import Loader2 from 'lucide-react/icons/loader-circle';
import Mail from 'lucide-react/icons/mail';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { EmptyState } from '../ui/empty-state';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { NativeSelect, toastFail, toastSuccess, type AdminBadge } from './BadgeAdminKit';
import { SearchBox, type PageInfo } from './list';
import { SidePanel } from './SidePanel';
import { Detail } from './applications/parts';
import { ExportLink, FilterChips, LayoutToggle, OpenRowButton, PageSizeSelect, SortHeader, TH as th, TablePager, rowOpener, useLayout, type SortState } from './table';
import { LocalTime } from '../LocalTime';

/** An award as the register answers it (never its token). */
export type RegisterAward = {
  _id: string;
  badgeId: string;
  badgeName: string;
  email: string;
  name: string;
  note: string;
  state: 'sent' | 'claimed' | 'expired' | 'withdrawn' | string;
  createdAt: string;
  /** the claim link works until then */
  expiresAt: string;
  /** the credential's expiry once claimed (null: the badge's own validity) */
  credentialExpiresAt: string | null;
  claimedAt: string | null;
  withdrawnAt: string | null;
  sentCount: number;
  lastSentAt: string | null;
  batchId: string | null;
};
type RegisterList = PageInfo & { awards: RegisterAward[]; sort: string };

const PAGE_SIZE = 25;
const LAYOUT_KEY = 'meritmark.admin.awards.view';
const STATES: [string, string][] = [
  ['all', 'All'],
  ['sent', 'Sent'],
  ['claimed', 'Claimed'],
  ['expired', 'Expired'],
  ['withdrawn', 'Withdrawn'],
];
const TONE: Record<string, 'success' | 'secondary' | 'warning' | 'destructive'> = { sent: 'secondary', claimed: 'success', expired: 'warning', withdrawn: 'destructive' };
const LABEL: Record<string, string> = { sent: 'Sent', claimed: 'Claimed', expired: 'Link expired', withdrawn: 'Withdrawn' };

/** Resend and Withdraw apply to an award not yet claimed nor withdrawn. */
const isOpen = (a: RegisterAward) => a.state === 'sent' || a.state === 'expired';

function StateChip({ a }: { a: RegisterAward }) {
  return <Chip tone={TONE[a.state] || 'secondary'} data-testid="award-state">{LABEL[a.state] || a.state}</Chip>;
}

type Acts = { busy: string | null; onResend: (a: RegisterAward) => void; onWithdraw: (a: RegisterAward) => void };

/** Resend and Withdraw (an open award only): labelled buttons (with icons unless plain: a
 * phone's card), or icons alone in a table row. */
function AwardActions({ a, busy, onResend, onWithdraw, size = 'sm', icons = false, plain = false, className }: Acts & { a: RegisterAward; size?: 'sm' | 'default'; icons?: boolean; plain?: boolean; className?: string }) {
  if (!isOpen(a)) return null;
  const working = busy === a._id;
  const resend = `Resend to ${a.email}`;
  const withdraw = `Withdraw the award to ${a.email}`;
  if (icons) {
    return (
      <div className={cn('flex items-center gap-1', className)}>
        <Button variant="ghost" size="icon" className="h-8 w-8" disabled={working} onClick={() => onResend(a)} aria-label={resend} title="Resend" data-testid="award-resend">
          {working ? <Loader2 className="animate-spin" /> : <Mail />}
        </Button>
        <Button variant="ghost" size="icon" className="h-8 w-8 text-destructive hover:text-destructive" disabled={working} onClick={() => onWithdraw(a)} aria-label={withdraw} title="Withdraw" data-testid="award-withdraw">
          <Ban />
        </Button>
      </div>
    );
  }
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      <Button size={size} variant="outline" disabled={working} onClick={() => onResend(a)} aria-label={resend} data-testid="award-resend">
        {working ? <Loader2 className="animate-spin" /> : !plain && <Mail />} Resend
      </Button>
      <Button size={size} variant="destructive" disabled={working} onClick={() => onWithdraw(a)} aria-label={withdraw} data-testid="award-withdraw">
        {!plain && <Ban />} Withdraw
      </Button>
    </div>
  );
}

const nowrap = cn(th, 'whitespace-nowrap');

/** The awards as a dense table: an address opens the side panel. */
function RegisterTable({ awards, sort, onSort, onOpen, ...acts }: Acts & { awards: RegisterAward[]; sort: SortState; onSort: (s: SortState) => void; onOpen: (a: RegisterAward) => void }) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full border-collapse text-sm" data-testid="award-register">
        <caption className="sr-only">Awards sent. Column headers sort; an address opens the award’s details.</caption>
        <thead className="bg-muted/50">
          <tr>
            <SortHeader label="E-mail" sortKey="email" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Name" sortKey="name" sort={sort} onSort={onSort} className={th} />
            <th scope="col" className={th}>Badge</th>
            <th scope="col" className={th}>State</th>
            <SortHeader label="Sent" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={nowrap} />
            <SortHeader label="Link valid until" sortKey="expiresAt" sort={sort} onSort={onSort} className={nowrap} />
            <th scope="col" className={th}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {awards.map((a) => (
            <tr key={a._id} onClick={rowOpener(() => onOpen(a))} className="cursor-pointer border-t hover:bg-accent/50" data-testid="award-row" data-email={a.email} data-award-id={a._id}>
              <td className="max-w-64 px-3 py-1.5">
                <OpenRowButton onOpen={() => onOpen(a)}>{a.email}</OpenRowButton>
              </td>
              <td className="max-w-40 truncate px-3 py-1.5">{a.name || <span className="text-muted-foreground">—</span>}</td>
              <td className="max-w-40 truncate px-3 py-1.5" title={a.badgeName}>{a.badgeName}</td>
              <td className="whitespace-nowrap px-3 py-1.5"><StateChip a={a} /></td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground">
                <LocalTime iso={a.createdAt} />
                {a.sentCount > 1 && (
                  <span className="ml-1.5 text-xs font-medium text-foreground" title={`Sent ${a.sentCount} times`} data-testid="award-sent-count">
                    <span aria-hidden="true">×{a.sentCount}</span>
                    <span className="sr-only">, sent {a.sentCount} times</span>
                  </span>
                )}
              </td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums">{isOpen(a) ? <LocalTime iso={a.expiresAt} /> : <span className="text-muted-foreground">—</span>}</td>
              <td className="h-10 whitespace-nowrap px-3 py-1">
                <AwardActions a={a} {...acts} icons className="justify-end" />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** One award as a card (phones, or the cards chosen). */
function AwardCard({ a, onOpen, ...acts }: Acts & { a: RegisterAward; onOpen: (a: RegisterAward) => void }) {
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="award-card" data-email={a.email}>
      <div className="flex items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="truncate font-medium">{a.name || a.email}</p>
          {a.name && <p className="break-all text-sm text-muted-foreground">{a.email}</p>}
        </div>
        <StateChip a={a} />
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Badge</dt>
        <dd className="text-right">{a.badgeName}</dd>
        <dt className="text-muted-foreground">Sent</dt>
        <dd className="text-right"><LocalTime iso={a.createdAt} />{a.sentCount > 1 && ` · ${a.sentCount} times`}</dd>
        {isOpen(a) && (
          <>
            <dt className="text-muted-foreground">Link valid until</dt>
            <dd className="text-right"><LocalTime iso={a.expiresAt} /></dd>
          </>
        )}
      </dl>
      <div className="mt-auto flex flex-wrap items-center gap-2 border-t pt-3">
        <Button size="sm" variant="outline" onClick={() => onOpen(a)} aria-label={`Details of the award to ${a.email}`} data-testid="award-details">
          Details
        </Button>
        <AwardActions a={a} {...acts} plain />
      </div>
    </Card>
  );
}

/** The side panel's body: everything the register knows of the award. */
function AwardDetails({ a, ...acts }: Acts & { a: RegisterAward }) {
  return (
    <div className="flex flex-col gap-6" data-testid="award-panel" data-email={a.email}>
      <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Detail label="Recipient">
          {a.name && <span className="block font-medium">{a.name}</span>}
          <span className="break-all">{a.email}</span>
        </Detail>
        <Detail label="Badge">{a.badgeName}</Detail>
        <Detail label="State"><StateChip a={a} /></Detail>
        <Detail label="Sent">
          <LocalTime iso={a.createdAt} withTime />
          {a.sentCount > 1 && a.lastSentAt && (
            <span className="block text-muted-foreground">
              {a.sentCount} times, last <LocalTime iso={a.lastSentAt} withTime />
            </span>
          )}
        </Detail>
        <Detail label="Claimed">{a.claimedAt ? <LocalTime iso={a.claimedAt} withTime /> : <span className="text-muted-foreground">Not yet</span>}</Detail>
        {a.withdrawnAt ? (
          <Detail label="Withdrawn"><LocalTime iso={a.withdrawnAt} withTime /></Detail>
        ) : (
          <Detail label="Link valid until">
            {a.claimedAt ? <span className="text-muted-foreground">Used</span> : <LocalTime iso={a.expiresAt} withTime />}
          </Detail>
        )}
        <Detail label="Credential expiry">{a.credentialExpiresAt ? <LocalTime iso={a.credentialExpiresAt} /> : <span className="text-muted-foreground">The badge’s own validity</span>}</Detail>
        <Detail label="Upload batch">
          {a.batchId ? <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs" data-testid="award-batch">{a.batchId}</code> : <span className="text-muted-foreground">Sent on its own, not from a CSV</span>}
        </Detail>
        <Detail label="Note" className="sm:col-span-2">
          {a.note ? <span className="whitespace-pre-line" data-testid="award-note">{a.note}</span> : <span className="text-muted-foreground">No note</span>}
        </Detail>
      </dl>
      {isOpen(a) ? (
        <div className="flex flex-col gap-2 border-t pt-4">
          <AwardActions a={a} {...acts} size="default" />
          <p className="text-xs text-muted-foreground">Resend mails a new link valid for 30 days; the earlier link stops working.</p>
        </div>
      ) : (
        <p className="border-t pt-4 text-sm text-muted-foreground">
          {a.state === 'claimed' ? 'This award has been claimed; revoke the badge from the user’s details instead.' : 'This award is withdrawn: its claim link no longer works.'}
        </p>
      )}
    </div>
  );
}

export function AwardRegister({ badges, refreshKey = 0 }: { badges: AdminBadge[]; refreshKey?: number }) {
  const [state, setState] = useState('all');
  const [badgeId, setBadgeId] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [sort, setSort] = useState<SortState>('');
  const [layout, chooseLayout] = useLayout(LAYOUT_KEY);
  const [list, setList] = useState<RegisterList | null>(null);
  const [loading, setLoading] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  const [withdrawing, setWithdrawing] = useState<RegisterAward | null>(null);
  // the award open in the side panel, and that award once the filter no longer shows it
  const [openId, setOpenId] = useState<string | null>(null);
  const [offPage, setOffPage] = useState<RegisterAward | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      let qs = `page=${page}&pageSize=${pageSize}`;
      if (state !== 'all') qs += `&state=${state}`;
      if (badgeId) qs += `&badgeId=${encodeURIComponent(badgeId)}`;
      if (query) qs += `&search=${encodeURIComponent(query)}`;
      if (sort) qs += `&sort=${sort}`;
      const res = await api<RegisterList>('/admin/awards?' + qs);
      if (mine !== seq.current) return;
      if (res.totalPages > 0 && page > res.totalPages) {
        setPage(res.totalPages); // the last page emptied (after a withdrawal): step back
        return;
      }
      setList(res);
    } catch (e) {
      if (mine === seq.current) toastFail(e, 'Failed to fetch awards');
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [state, badgeId, query, page, pageSize, sort]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const awards = list?.awards ?? [];
  const onPage = awards.find((a) => a._id === openId);
  const shown = onPage || (offPage && offPage._id === openId ? offPage : null);

  /** Reads award a again from the server (the filter may no longer show it): the register
   * searched for its address, on its badge. */
  const reread = async (a: RegisterAward) => {
    try {
      const res = await api<RegisterList>(`/admin/awards?badgeId=${encodeURIComponent(a.badgeId)}&search=${encodeURIComponent(a.email)}&pageSize=100`);
      const fresh = res.awards.find((x) => x._id === a._id);
      if (fresh) setOffPage(fresh);
    } catch {
      /* the panel keeps what it showed */
    }
  };

  async function act(a: RegisterAward, what: 'resend' | 'withdraw') {
    setBusy(a._id);
    try {
      const r = await api<{ msg: string }>(`/admin/awards/${a._id}/${what}`, { method: 'POST' });
      toastSuccess(r.msg);
      setWithdrawing(null);
      load();
      if (openId === a._id) reread(a);
    } catch (e) {
      toastFail(e, what === 'resend' ? 'Failed to resend the award' : 'Failed to withdraw the award');
    } finally {
      setBusy(null);
    }
  }

  // a new search, filter, sort or page size starts from the first page
  const again = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };
  const openAward = (a: RegisterAward) => {
    setOffPage(a);
    setOpenId(a._id);
  };
  const acts: Acts = { busy, onResend: (a) => act(a, 'resend'), onWithdraw: setWithdrawing };
  const table = layout === 'table' && awards.length > 0;
  const filtered = state !== 'all' || !!badgeId || !!query;

  return (
    <Card className="mt-6" data-testid="award-register-card">
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>Award register</CardTitle>
            <CardDescription className="mt-1.5">Every award sent by e-mail or from a CSV: who has claimed it, whose link has run out, and the ones withdrawn.</CardDescription>
          </div>
          <SearchBox label="Search awards" placeholder="Search by e-mail or name" onSearch={again(setQuery)} />
        </div>
        <div className="flex flex-col gap-3 lg:flex-row lg:flex-wrap lg:items-center lg:justify-between">
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
            <FilterChips label="State" testid="award-state-filter" options={STATES} value={state} onChange={again(setState)} />
            <NativeSelect aria-label="Badge" value={badgeId} onChange={(e) => again(setBadgeId)(e.target.value)} className="h-8 py-0 sm:w-56" data-testid="award-badge-filter">
              <option value="">All badges</option>
              {badges.map((b) => <option key={b._id} value={b._id}>{b.name}</option>)}
            </NativeSelect>
          </div>
          <div className="flex flex-wrap items-center gap-3">
            <div className="hidden lg:block" data-testid="table-toolbar">
              <LayoutToggle layout={layout} onChange={chooseLayout} />
            </div>
            <ExportLink path="/admin/awards" params={{ state: state === 'all' ? '' : state, badgeId, search: query, sort }} />
          </div>
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {table && (
          <div aria-busy={loading} className="hidden lg:block">
            <RegisterTable awards={awards} sort={sort} onSort={again(setSort)} onOpen={openAward} {...acts} />
          </div>
        )}
        <div aria-busy={loading} className={cn(table && 'lg:hidden')}>
          {loading && !list ? (
            <Skeleton className="h-40 w-full" />
          ) : awards.length === 0 ? (
            <EmptyState
              icon={Inbox}
              title={filtered ? 'No awards match' : 'No awards sent yet'}
              description={filtered ? 'Try another state, badge or search.' : 'Awards sent by e-mail or from a CSV appear here.'}
            />
          ) : (
            <div className="grid grid-cols-1 gap-3 md:grid-cols-2 lg:grid-cols-3" data-testid="award-cards">
              {awards.map((a) => <AwardCard key={a._id} a={a} onOpen={openAward} {...acts} />)}
            </div>
          )}
        </div>
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="awards-page-size" value={pageSize} onChange={again(setPageSize)} />
        </TablePager>
      </CardContent>

      <SidePanel item={shown} onClose={() => setOpenId(null)} id="award" title="Award details" description={(a) => `${a.name || a.email} · ${a.badgeName}`}>
        {(a) => <AwardDetails a={a} {...acts} />}
      </SidePanel>

      <Dialog open={!!withdrawing} onOpenChange={(o) => !o && !busy && setWithdrawing(null)}>
        {withdrawing && (
          <DialogContent data-testid="withdraw-dialog">
            <DialogHeader>
              <DialogTitle>Withdraw this award?</DialogTitle>
              <DialogDescription>The claim link sent to {withdrawing.email} stops working at once; they are not e-mailed. You can award the badge again later.</DialogDescription>
            </DialogHeader>
            <DialogFooter>
              <Button variant="outline" onClick={() => setWithdrawing(null)} disabled={!!busy}>Cancel</Button>
              <Button variant="destructive" onClick={() => act(withdrawing, 'withdraw')} disabled={!!busy} data-testid="withdraw-confirm">
                {busy === withdrawing._id && <Loader2 className="animate-spin" />} Withdraw
              </Button>
            </DialogFooter>
          </DialogContent>
        )}
      </Dialog>
    </Card>
  );
}
