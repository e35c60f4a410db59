// Coupons tab: stats, search, status filter, refresh, copy code, activate/deactivate, edit,
// delete (with confirmation), 'New Coupon' and 'Create Free Grant Coupon'.
import { useCallback, useEffect, useRef, useState } from 'react';
import Check from 'lucide-react/icons/check';
import CircleCheck from 'lucide-react/icons/circle-check';
import Copy from 'lucide-react/icons/copy';
import Flame from 'lucide-react/icons/flame';
import Gift from 'lucide-react/icons/gift';
import Hourglass from 'lucide-react/icons/hourglass';
import Plus from 'lucide-react/icons/plus';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Ticket from 'lucide-react/icons/ticket';
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

/** Copy feedback lasts 2 seconds (spec section 9). */
const COPY_FEEDBACK_MS = 2000;

const statusTone = { active: 'success', inactive: 'secondary', expired: 'destructive' } as const;

/** Switched on but at its usage limit: the server counts it inactive, while its switch
 * (isActive) still reads On; say why rather than a bare 'Inactive'. */
function usedUp(c: { isActive: boolean; status: string; usageLimit: number | null; usedCount: number }) {
  return c.isActive && c.status === 'inactive' && c.usageLimit != null && c.usedCount >= c.usageLimit;
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

export function CouponsTab() {
  const [coupons, setCoupons] = useState<AdminCoupon[] | null>(null);
  const [stats, setStats] = useState<CouponStats | null>(null);
  const [badges, setBadges] = useState<AdminBadge[]>([]);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('all');
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
  const load = useCallback(
    async (s = search, st = status) => {
      const n = ++seq.current;
      setLoading(true);
      try {
        const q = new URLSearchParams({ status: st });
        if (s.trim()) q.set('search', s.trim());
        const list = await api<AdminCoupon[]>(`/coupons?${q}`);
        if (n === seq.current) setCoupons(list);
      } catch (e) {
        if (n === seq.current) {
          toastFail(e, 'Failed to fetch coupons');
          setCoupons((c) => c ?? []);
        }
      } finally {
        if (n === seq.current) setLoading(false);
      }
      loadStats();
    },
    [search, status, loadStats],
  );

  // first load, and the badges the form offers
  useEffect(() => {
    api<AdminBadge[]>('/badge-management/badges').then(setBadges, (e) => toastFail(e, 'Failed to fetch badges'));
  }, []);
  // the list follows the filters (search debounced)
  useEffect(() => {
    const t = setTimeout(() => load(search, status), search ? 250 : 0);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload when the filters change; load itself is recreated each render
  }, [search, status]);

  const refresh = () => load();

  // undo (on the toast, for a few seconds) switches it back; an undo offers no undo
  const toggle = async (c: AdminCoupon, undoable = true): Promise<void> => {
    setToggling(c._id);
    try {
      const res = await api<{ coupon: AdminCoupon }>(`/coupons/${c._id}/toggle`, { method: 'PATCH' });
      setCoupons((l) => (l ?? []).map((x) => (x._id === c._id ? res.coupon : x)));
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
      setCoupons((l) => (l ?? []).filter((x) => x._id !== toDelete._id));
      loadStats();
      toastSuccess('Coupon deleted successfully');
      setToDelete(null);
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

  const top = stats?.topUsedCoupons ?? [];
  const used = toDelete ? toDelete.usedCount > 0 : false;
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

      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchInput value={search} onChange={setSearch} placeholder="Search by code, name or description" label="Search coupons" className="sm:flex-1" />
        <NativeSelect aria-label="Status" value={status} onChange={(e) => setStatus(e.target.value)} className="sm:w-44" data-testid="coupon-status-filter">
          <option value="all">All statuses</option>
          <option value="active">Active</option>
          <option value="inactive">Inactive</option>
          <option value="expired">Expired</option>
        </NativeSelect>
      </div>

      {coupons === null ? (
        <CardsSkeleton />
      ) : coupons.length === 0 ? (
        <EmptyState icon={Ticket} title="No coupons found" description={search || status !== 'all' ? 'Try another search or status.' : 'Create the first coupon.'} />
      ) : (
        <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" data-testid="coupon-list">
          {coupons.map((c) => (
            <Card key={c._id} className="flex flex-col p-5" data-testid="coupon" data-code={c.code}>
              <div className="flex-1">
                <div className="flex items-start justify-between gap-2">
                  <div className="flex min-w-0 items-center gap-1">
                    <span className="truncate rounded-md border border-dashed bg-muted/50 px-2 py-0.5 font-mono text-sm font-semibold tracking-wide">{c.code}</span>
                    <CopyButton code={c.code} />
                  </div>
                  <Chip tone={statusTone[c.status]} data-testid="coupon-status" title={usedUp(c) ? 'Switched on, but its usage limit is reached: nobody can redeem it.' : undefined}>
                    {usedUp(c) ? 'Used up' : c.status[0].toUpperCase() + c.status.slice(1)}
                  </Chip>
                </div>
                <p className="mt-3 text-2xl font-bold tracking-tight">{discountLabel(c)}</p>
                {(c.name || c.description) && (
                  <p className="mt-1 line-clamp-2 text-sm text-muted-foreground">{[c.name, c.description].filter(Boolean).join(' — ')}</p>
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
              <CardActions
                name={c.code}
                active={c.isActive}
                activeText="On"
                inactiveText="Off"
                busy={toggling === c._id}
                onToggle={() => toggle(c)}
                onEdit={() => setEditing(c)}
                onDelete={() => setToDelete(c)}
                toggleTestId="coupon-active-toggle"
              />
            </Card>
          ))}
        </div>
      )}

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
