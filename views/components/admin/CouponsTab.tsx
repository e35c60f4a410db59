// Coupons tab: stats, search, status filter, refresh, copy code, activate/deactivate, edit,
// delete (with confirmation), 'New Coupon' and 'Create Free Grant Coupon'. The server pages
// and sorts the list: a dense table on wide screens (sortable columns, page size, Export
// CSV of the filter) whose row opens the coupon in a side panel, cards on phones or by
// choice.
import { useCallback, useEffect, useRef, useState } from 'react';
import Check from 'lucide-react/icons/check';
import CircleCheck from 'lucide-react/icons/circle-check';
import Copy from 'lucide-react/icons/copy';
import Flame from 'lucide-react/icons/flame';
import Gift from 'lucide-react/icons/gift';
import Hourglass from 'lucide-react/icons/hourglass';
import Pencil from 'lucide-react/icons/pencil';
import Plus from 'lucide-react/icons/plus';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Ticket from 'lucide-react/icons/ticket';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button, Card, Chip } from '../ui';
import { api } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { money, plural } from '../../lib/format';
import { cn } from '../../lib/cn';
import { CardActions, CardsSkeleton, NativeSelect, SearchInput, SectionHeader, StatCard, toastFail, toastSuccess, type AdminBadge, type AdminCoupon, type CouponStats } from './BadgeAdminKit';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState } from '../ui/empty-state';
import { CouponFormDialog } from './CouponFormDialog';
import { LocalTime } from '../LocalTime';
import { Switch } from '../ui/switch';
import { SidePanel } from './SidePanel';
import type { PageInfo } from './list';
import { ExportLink, LayoutToggle, OpenRowButton, PageSizeSelect, SortHeader, TH as th, TablePager, rowOpener, useLayout, type SortState } from './table';

/** Copy feedback lasts 2 seconds (spec section 9). */
const COPY_FEEDBACK_MS = 2000;

const statusTone = { active: 'success', inactive: 'secondary', expired: 'destructive' } as const;

const PAGE_SIZE = 25;
const LAYOUT_KEY = 'meritmark.admin.coupons.view';

type CouponList = PageInfo & { coupons: AdminCoupon[]; pageSize: number };

/** Switched on but at its usage limit: the server counts it inactive, while its switch
 * (isActive) still reads On; say why rather than a bare 'Inactive'. */
function usedUp(c: { isActive: boolean; status: string; usageLimit: number | null; usedCount: number }) {
  return c.isActive && c.status === 'inactive' && c.usageLimit != null && c.usedCount >= c.usageLimit;
}

function StatusChip({ c }: { c: AdminCoupon }) {
  return (
    <Chip tone={statusTone[c.status]} data-testid="coupon-status" title={usedUp(c) ? 'Switched on, but its usage limit is reached: nobody can redeem it.' : undefined}>
      {usedUp(c) ? 'Used up' : c.status[0].toUpperCase() + c.status.slice(1)}
    </Chip>
  );
}

function discountLabel(c: AdminCoupon) {
  return c.discountType === 'percentage' ? `${c.discountValue}% off` : `${money(c.discountValue)} off`;
}

function CopyButton({ code }: { code: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
      toast({ title: 'Copied!', description: code });
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
    } catch {
      toastError('Failed to copy to clipboard');
    }
  };
  return (
    <Button variant="ghost" size="icon" className="h-8 w-8" onClick={copy} aria-label={copied ? `Copied ${code}` : `Copy ${code}`} data-testid="copy-code">
      {copied ? <Check className="text-success" /> : <Copy />}
    </Button>
  );
}

/** What a coupon card and the side panel show: code, status, discount, terms and usage
 * (the panel, full, with the whole description and the coupon's dates). */
function CouponBody({ c, full = false }: { c: AdminCoupon; full?: boolean }) {
  return (
    <div className="flex-1">
      <div className="flex items-start justify-between gap-2">
        <div className="flex min-w-0 items-center gap-1">
          <span className="truncate rounded-md border border-dashed bg-muted/50 px-2 py-0.5 font-mono text-sm font-semibold tracking-wide">{c.code}</span>
          <CopyButton code={c.code} />
        </div>
        <StatusChip c={c} />
      </div>
      <p className="mt-3 text-2xl font-bold tracking-tight">{discountLabel(c)}</p>
      {(c.name || c.description) && (
        <p className={cn('mt-1 text-sm text-muted-foreground', full ? 'whitespace-pre-line break-words' : 'line-clamp-2')}>{[c.name, c.description].filter(Boolean).join(' — ')}</p>
      )}
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs">
        <dt className="text-muted-foreground">Minimum order</dt>
        <dd className="text-right">{c.minimumAmount > 0 ? money(c.minimumAmount) : 'None'}</dd>
        <dt className="text-muted-foreground">Maximum discount</dt>
        <dd className="text-right">{c.maximumDiscount != null ? money(c.maximumDiscount) : 'None'}</dd>
        <dt className="text-muted-foreground">Valid</dt>
        <dd className="text-right">
          <LocalTime iso={c.validFrom} /> – <LocalTime iso={c.validUntil} />
        </dd>
        <dt className="text-muted-foreground">Applies to</dt>
        <dd className="text-right">
          {c.applicableBadges.length || c.applicableCategories.length
            ? [...c.applicableCategories, ...c.applicableBadges.map((b) => b.name)].join(', ')
            : 'All badges'}
        </dd>
        {full && (
          <>
            <dt className="text-muted-foreground">Created</dt>
            <dd className="text-right"><LocalTime iso={c.createdAt} withTime /></dd>
            <dt className="text-muted-foreground">Last changed</dt>
            <dd className="text-right"><LocalTime iso={c.updatedAt} withTime /></dd>
          </>
        )}
      </dl>
      <div className="mt-3">
        <div className="flex justify-between text-xs text-muted-foreground">
          <span>Used</span>
          <span className="tabular-nums">
            {c.usedCount} / {c.usageLimit ?? '∞'}
          </span>
        </div>
        {c.usageLimit != null && (
          <div className="mt-1 h-1.5 overflow-hidden rounded-full bg-muted">
            <div className="h-full rounded-full bg-primary" style={{ width: `${Math.min(100, (c.usedCount / c.usageLimit) * 100)}%` }} />
          </div>
        )}
      </div>
    </div>
  );
}

type RowActions = {
  toggling: string | null;
  onToggle: (c: AdminCoupon) => void;
  onEdit: (c: AdminCoupon) => void;
  onDelete: (c: AdminCoupon) => void;
};

/** The coupons as a dense table: a code opens the side panel; the switch, Edit and Delete
 * act on the row. */
function CouponsTable({ coupons, sort, onSort, onOpen, toggling, onToggle, onEdit, onDelete }: RowActions & {
  coupons: AdminCoupon[];
  sort: SortState;
  onSort: (s: SortState) => void;
  onOpen: (c: AdminCoupon) => void;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full border-collapse text-sm" data-testid="coupons-table">
        <caption className="sr-only">Coupons. Column headers sort; a code opens the coupon’s details.</caption>
        <thead className="bg-muted/50">
          <tr>
            <SortHeader label="Code" sortKey="code" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Name" sortKey="name" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Discount" sortKey="discountValue" sort={sort} onSort={onSort} className={th} />
            <th scope="col" className={th}>Status</th>
            <SortHeader label="Used" sortKey="usedCount" sort={sort} onSort={onSort} className={cn(th, 'text-right')} />
            <SortHeader label="Valid until" sortKey="validUntil" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="Created" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={th} />
            <th scope="col" className={th}><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody>
          {coupons.map((c) => (
            <tr key={c._id} onClick={rowOpener(() => onOpen(c))} className="cursor-pointer border-t hover:bg-accent/50" data-testid="coupon-row" data-code={c.code}>
              <td className="whitespace-nowrap px-3 py-1">
                <div className="flex items-center gap-1">
                  <OpenRowButton onOpen={() => onOpen(c)} className="font-mono font-semibold tracking-wide">{c.code}</OpenRowButton>
                  <CopyButton code={c.code} />
                </div>
              </td>
              <td className="max-w-56 truncate px-3 py-1.5" title={c.description || undefined}>{c.name || '—'}</td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums">{discountLabel(c)}</td>
              <td className="whitespace-nowrap px-3 py-1.5"><StatusChip c={c} /></td>
              <td className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums">{c.usedCount} / {c.usageLimit ?? '∞'}</td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums"><LocalTime iso={c.validUntil} /></td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums text-muted-foreground"><LocalTime iso={c.createdAt} /></td>
              <td className="whitespace-nowrap px-3 py-1">
                <div className="flex items-center justify-end gap-1">
                  <Switch checked={c.isActive} onCheckedChange={() => onToggle(c)} disabled={toggling === c._id} label={`${c.isActive ? 'Deactivate' : 'Activate'} ${c.code}`} testId="coupon-row-toggle" />
                  <Button variant="ghost" size="icon" className="h-8 w-8" aria-label={`Edit ${c.code}`} onClick={() => onEdit(c)}>
                    <Pencil />
                  </Button>
                  <Button variant="ghost" size="icon" className="h-8 w-8 text-destructive hover:text-destructive" aria-label={`Delete ${c.code}`} onClick={() => onDelete(c)}>
                    <Trash2 />
                  </Button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function CouponsTab() {
  const [list, setList] = useState<CouponList | null>(null);
  const [stats, setStats] = useState<CouponStats | null>(null);
  const [badges, setBadges] = useState<AdminBadge[]>([]);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [sort, setSort] = useState<SortState>('');
  const [layout, chooseLayout] = useLayout(LAYOUT_KEY);
  const [openId, setOpenId] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [editing, setEditing] = useState<AdminCoupon | null>(null);
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<AdminCoupon | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [toggling, setToggling] = useState<string | null>(null);
  const [granting, setGranting] = useState(false);
  const seq = useRef(0);

  const loadStats = useCallback(() => {
    api<CouponStats>('/coupons/stats').then(setStats, () => {}); // stats failures are silent
  }, []);
  const load = useCallback(async () => {
    const n = ++seq.current;
    setLoading(true);
    try {
      let q = `status=${status}&page=${page}&pageSize=${pageSize}`;
      if (search.trim()) q += `&search=${encodeURIComponent(search.trim())}`;
      if (sort) q += `&sort=${sort}`;
      const res = await api<CouponList>(`/coupons?${q}`);
      if (n === seq.current) {
        setList(res);
        // the last page emptied (its last coupon deleted): step back to the new last page
        if (res.coupons.length === 0 && res.total > 0 && page > 1) setPage(res.totalPages);
      }
    } catch (e) {
      if (n === seq.current) {
        toastFail(e, 'Failed to fetch coupons');
        setList((l) => l ?? { coupons: [], page: 1, limit: pageSize, pageSize, total: 0, totalPages: 0 });
      }
    } finally {
      if (n === seq.current) setLoading(false);
    }
    loadStats();
  }, [search, status, page, pageSize, sort, loadStats]);

  // first load, and the badges the form offers
  useEffect(() => {
    api<AdminBadge[]>('/badge-management/badges').then(setBadges, (e) => toastFail(e, 'Failed to fetch badges'));
  }, []);
  // the list follows the filters, the page and the sort (the search debounced)
  const typed = useRef(search);
  useEffect(() => {
    const wait = search !== typed.current ? 250 : 0;
    typed.current = search;
    const t = setTimeout(load, wait);
    return () => clearTimeout(t);
  }, [load, search]);

  const refresh = () => load();
  // a new search, filter, sort or page size starts from the first page
  const again = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPage(1);
  };

  const replace = (c: AdminCoupon) => setList((l) => (l ? { ...l, coupons: l.coupons.map((x) => (x._id === c._id ? c : x)) } : l));

  // undo (on the toast, for a few seconds) switches it back; an undo offers no undo
  const toggle = async (c: AdminCoupon, undoable = true): Promise<void> => {
    setToggling(c._id);
    try {
      const res = await api<{ coupon: AdminCoupon }>(`/coupons/${c._id}/toggle`, { method: 'PATCH' });
      replace(res.coupon);
      loadStats();
      toastSuccess('Coupon status updated successfully', undoable ? () => toggle(res.coupon, false) : undefined);
    } catch (e) {
      toastFail(e, 'Failed to update coupon status');
    } finally {
      setToggling(null);
    }
  };

  const remove = async () => {
    if (!toDelete) return;
    setDeleting(true);
    try {
      await api(`/coupons/${toDelete._id}`, { method: 'DELETE' });
      setList((l) => (l ? { ...l, coupons: l.coupons.filter((x) => x._id !== toDelete._id) } : l));
      toastSuccess('Coupon deleted successfully');
      setToDelete(null);
      load(); // the page's total and the next coupon up
    } catch (e) {
      toastFail(e, 'Failed to delete coupon');
    } finally {
      setDeleting(false);
    }
  };

  const freeGrant = async () => {
    setGranting(true);
    try {
      const res = await api<{ msg: string; coupon: AdminCoupon }>('/coupons/free-grant', { method: 'POST' });
      toast({ title: 'Free Grant Coupon', description: res.msg, variant: 'success' });
      load();
    } catch (e) {
      toastFail(e, 'Failed to create free grant coupon');
    } finally {
      setGranting(false);
    }
  };

  const coupons = list?.coupons ?? null;
  const shown = coupons?.find((c) => c._id === openId) ?? null;
  const table = layout === 'table' && !!coupons && coupons.length > 0;
  const top = stats?.topUsedCoupons ?? [];
  const used = toDelete ? toDelete.usedCount > 0 : false;
  const actions = { toggling, onToggle: (c: AdminCoupon) => toggle(c), onEdit: setEditing, onDelete: setToDelete };

  // a coupon's toggle, edit and delete: on its card and in its side panel
  const couponActions = (c: AdminCoupon, toggleTestId: string) => (
    <CardActions
      name={c.code}
      active={c.isActive}
      activeText="On"
      inactiveText="Off"
      busy={toggling === c._id}
      onToggle={() => toggle(c)}
      onEdit={() => setEditing(c)}
      onDelete={() => setToDelete(c)}
      toggleTestId={toggleTestId}
    />
  );

  return (
    <div className="grid grid-cols-1 gap-6" data-testid="coupons-tab">
      <SectionHeader
        title="Coupons"
        description="Discount codes people enter at checkout."
        actions={
          <>
            <Button variant="outline" onClick={refresh} disabled={loading} aria-label="Refresh coupons">
              <RefreshCw className={cn(loading && 'animate-spin')} /> Refresh
            </Button>
            <Button variant="outline" onClick={freeGrant} disabled={granting} data-testid="free-grant">
              <Gift /> {granting ? 'Creating…' : 'Create Free Grant Coupon'}
            </Button>
            <Button onClick={() => setCreating(true)} data-testid="new-coupon">
              <Plus /> New Coupon
            </Button>
          </>
        }
      />

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4 sm:gap-4">
        <StatCard label="Total Coupons" value={stats?.totalCoupons ?? '–'} icon={Ticket} />
        <StatCard label="Active" value={stats?.activeCoupons ?? '–'} icon={CircleCheck} tone="success" />
        <StatCard label="Expired" value={stats?.expiredCoupons ?? '–'} icon={Hourglass} tone="destructive" />
        <StatCard
          label="Most Used"
          value={top[0]?.code ?? '–'}
          icon={Flame}
          tone="warning"
          hint={top.length ? top.slice(0, 3).map((t) => `${t.code} ×${t.usedCount}`).join(' · ') : 'No redemptions yet'}
        />
      </div>

      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
        <SearchInput value={search} onChange={again(setSearch)} placeholder="Search by code, name or description" label="Search coupons" className="sm:min-w-64 sm:flex-1" />
        <NativeSelect aria-label="Status" value={status} onChange={(e) => again(setStatus)(e.target.value)} className="sm:w-44" data-testid="coupon-status-filter">
          <option value="all">All statuses</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
          <option value="expired">Expired</option>
        </NativeSelect>
        <div className="flex flex-wrap items-center gap-3">
          <div className="hidden lg:block" data-testid="table-toolbar">
            <LayoutToggle layout={layout} onChange={chooseLayout} />
          </div>
          <ExportLink path="/coupons" params={{ status: status === 'all' ? '' : status, search: search.trim(), sort }} />
        </div>
      </div>

      <div className="space-y-3">
        {table && (
          <div aria-busy={loading} className="hidden lg:block">
            <CouponsTable coupons={coupons} sort={sort} onSort={again(setSort)} onOpen={(c) => setOpenId(c._id)} {...actions} />
          </div>
        )}
        <div aria-busy={loading} className={cn(table && 'lg:hidden')}>
          {coupons === null ? (
            <CardsSkeleton />
          ) : coupons.length === 0 ? (
            <EmptyState icon={Ticket} title="No coupons found" description={search || status !== 'all' ? 'Try another search or status.' : 'Create the first coupon.'} />
          ) : (
            <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="coupon-list">
              {coupons.map((c) => (
                <Card key={c._id} className="flex flex-col p-5" data-testid="coupon" data-code={c.code}>
                  <CouponBody c={c} />
                  {couponActions(c, 'coupon-active-toggle')}
                </Card>
              ))}
            </div>
          )}
        </div>
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="coupons-page-size" value={pageSize} onChange={again(setPageSize)} />
        </TablePager>
      </div>

      <SidePanel
        item={shown}
        onClose={() => setOpenId(null)}
        id="coupon"
        title="Coupon details"
        description={(c) => `${c.code}${c.name ? ` · ${c.name}` : ''}`}
      >
        {(c) => (
          <div className="flex flex-col" data-testid="coupon-panel" data-code={c.code}>
            <CouponBody c={c} full />
            {couponActions(c, 'coupon-panel-toggle')}
          </div>
        )}
      </SidePanel>

      <CouponFormDialog open={creating} onOpenChange={setCreating} coupon={null} badges={badges} onSaved={refresh} />
      <CouponFormDialog open={!!editing} onOpenChange={(o) => !o && setEditing(null)} coupon={editing} badges={badges} onSaved={refresh} />

      {toDelete && used ? (
        <ConfirmDialog
          open
          onOpenChange={(o) => !o && setToDelete(null)}
          title="This coupon cannot be deleted"
          description={`${toDelete.code} has been used ${plural(toDelete.usedCount, 'time')}; its redemptions are part of payment records. ${
            toDelete.isActive ? 'Deactivate it instead so nobody can use it again.' : 'It is already inactive, so nobody can use it again.'
          }`}
          confirmLabel={toDelete.isActive ? 'Deactivate Instead' : 'OK'}
          destructive={false}
          busy={toggling === toDelete._id}
          onConfirm={async () => {
            if (toDelete.isActive) await toggle(toDelete);
            setToDelete(null);
          }}
        />
      ) : (
        <ConfirmDialog
          open={!!toDelete}
          onOpenChange={(o) => !o && setToDelete(null)}
          title={`Delete coupon ${toDelete?.code ?? ''}?`}
          description="The code stops working at once. This cannot be undone."
          confirmLabel="Delete Coupon"
          busy={deleting}
          onConfirm={remove}
        />
      )}
    </div>
  );
}
