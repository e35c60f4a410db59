// Applications tab of the admin dashboard: 'Badge Applications Management' with the
// Pending Review / Approved / Rejected sub-tabs, the review actions (approve, re-approve,
// grant free, reject with an optional reason, re-reject, quick reject) and View Details,
// a side panel (?app=ID in the address). Lists are paginated and searched on the server.
import { useCallback, useEffect, useRef, useState } from 'react';
import Info from 'lucide-react/icons/info';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Skeleton } from '../ui';
import { Tabs, TabsList, TabsTrigger } from '../tabs';
import { api, errorMessage } from '../../lib/api';
import { toast, toastError, toastUndo } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { SearchBox } from './list';
import { ExportLink, LayoutToggle, PageSizeSelect, TablePager, useLayout, type SortState } from './table';
import { ApplicationsTable } from './applications/ApplicationsTable';
import { Actions, AppList, Application, DEFAULT_REASON, Group, PAY_FILTERS, PayFilter, canApprove } from './applications/model';
import { Empty } from './applications/empty';
import type { BulkSelection } from './bulk/BulkBar';
import { useReviewShortcuts } from './applications/shortcuts';
import type { DashboardView } from './view';
import { LocalTime } from '../LocalTime';
import { deferred } from '../../lib/deferred';

export type { AppList };

// What a click opens (the details, the reject and help dialogs, the bulk bar once rows are
// selected) is fetched beside React, apart from the queue's own code.
const DetailsDialog = deferred(() => import('./applications/dialogs').then((m) => m.DetailsDialog));
const RejectDialog = deferred(() => import('./applications/dialogs').then((m) => m.RejectDialog));
const BulkBar = deferred(() => import('./bulk/BulkBar').then((m) => m.BulkBar));
const ConfirmDialog = deferred(() => import('./applications/confirm').then((m) => m.ConfirmDialog));
const ShortcutsDialog = deferred(() => import('./applications/shortcuts-dialog').then((m) => m.ShortcutsDialog));
// the cards are what phones (and admins who chose them) see; at 1280 px the table shows and
// the cards are hidden, so their code comes beside React rather than in the island
const ApplicationCard = deferred(() => import('./applications/ApplicationCard').then((m) => m.ApplicationCard));

const LIMIT = 25;
const LAYOUT_KEY = 'meritmark.admin.applications.view';

type Props = { initial?: AppList; refreshKey?: number; onChanged?: () => void; view?: DashboardView; onView?: (v: DashboardView) => void; active?: boolean };

export function ApplicationsTab({ initial, refreshKey = 0, onChanged, view = {}, onView, active = true }: Props) {
  // the deep link's status: a sub-tab (approved, rejected) or a payment filter of Pending Review
  const [group, setGroup] = useState<Group>(view.status === 'approved' || view.status === 'rejected' ? view.status : 'review');
  const [query, setQuery] = useState(view.q || '');
  const [page, setPage] = useState(view.page || 1);
  const [pageSize, setPageSize] = useState(LIMIT);
  const [sort, setSort] = useState<SortState>('');
  // wide screens show a table, phones the cards; an admin may keep the cards everywhere
  const [layout, chooseLayout] = useLayout(LAYOUT_KEY);
  const [list, setList] = useState<AppList | null>(initial || null);
  const [counts, setCounts] = useState<Record<string, number>>(initial?.counts || {});
  const [loading, setLoading] = useState(!initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Application | null>(null);
  const [viewing, setViewing] = useState<Application | null>(null);
  // a deep link's application, until its details have loaded
  const [linked, setLinked] = useState(view.app);
  // a revoked grant is restored only after a confirmation naming the revocation reason
  const [restoring, setRestoring] = useState<{ a: Application; grantFree: boolean } | null>(null);
  // the one-click reject asks first (it cannot be undone: the applicant is e-mailed)
  const [quickRejecting, setQuickRejecting] = useState<Application | null>(null);
  // the keyboard's approve asks first; ? lists the shortcuts
  const [keyApproving, setKeyApproving] = useState<Application | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);
  // Pending Review: all, paid (ready to approve) or awaiting payment
  const [payFilter, setPayFilter] = useState<PayFilter>(view.status === 'pending' || view.status === 'awaiting_payment' ? view.status : 'review');
  // bulk selection: ids on this page, or every application matching the filter
  const [selected, setSelected] = useState<string[]>([]);
  const [allMatching, setAllMatching] = useState(false);
  const skipFirst = useRef(!!initial && initial.limit === LIMIT);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const qs = new URLSearchParams({ status: group === 'review' ? payFilter : group, page: String(page), pageSize: String(pageSize) });
      if (query) qs.set('search', query);
      if (sort) qs.set('sort', sort);
      const res = await api<AppList>('/admin/applications?' + qs.toString());
      if (mine !== seq.current) return;
      if (res.totalPages > 0 && page > res.totalPages) {
        setPage(res.totalPages); // the last page emptied (after a review): step back
        return;
      }
      setList(res);
      setCounts(res.counts);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch applications'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [group, page, query, payFilter, pageSize, sort]);


  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false;
      return;
    }
    load();
  }, [load, refreshKey]);

  // the address follows the sub-tab, filter, search, page and the opened application
  const status = group === 'review' ? payFilter : group;
  useEffect(() => {
    onView?.({ status: status === 'review' ? undefined : status, q: query || undefined, page: page > 1 ? page : undefined, app: viewing?._id ?? linked });
  }, [status, query, page, viewing?._id, linked]); // eslint-disable-line react-hooks/exhaustive-deps -- onView is a new function each render
  // a deep link to an application opens its details once the island runs
  useEffect(() => {
    if (!view.app) return;
    api<{ application: Application }>(`/admin/applications/${view.app}`)
      .then((r) => setViewing(r.application))
      .catch((e) => toastError(errorMessage(e, 'Failed to fetch applications')))
      .finally(() => setLinked(undefined));
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- the link is read once, as the tab mounts

  const after = (a: Application, updated?: Application) => {
    load();
    onChanged?.();
    if (viewing && viewing._id === a._id) setViewing(updated || null);
  };

  const approve = async (a: Application, grantFree = false, restore = false) => {
    if (a.grant?.revokedAt && !restore) {
      setRestoring({ a, grantFree });
      return;
    }
    setBusy(a._id);
    try {
      const body: Record<string, boolean> = {};
      if (grantFree) body.grantFree = true;
      if (restore) body.restoreRevoked = true;
      const res = await api<{ msg: string; application: Application; waitingForEmailVerification?: boolean }>(`/admin/applications/${a._id}/approve`, { method: 'PUT', body });
      toast(res.waitingForEmailVerification ? { title: 'Application approved successfully', description: res.msg } : { title: 'Application approved successfully', variant: 'success' });
      setRestoring(null);
      after(a, res.application);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to approve application'));
    } finally {
      setBusy(null);
    }
  };

  const reject = async (a: Application, reason: string) => {
    setBusy(a._id);
    try {
      const res = await api<{ msg: string; application: Application; undoUntil?: string }>(`/admin/applications/${a._id}/reject`, { method: 'PUT', body: { reason } });
      // a rejection from review waits a few seconds before its mail goes: Undo takes it back
      if (res.undoUntil) toastUndo('Application rejected successfully', undefined, () => undoReject(a));
      else toast({ title: 'Application rejected successfully', variant: 'success' });
      setRejecting(null);
      setQuickRejecting(null);
      after(a, res.application);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to reject application'));
    } finally {
      setBusy(null);
    }
  };

  const undoReject = async (a: Application) => {
    try {
      const res = await api<{ msg: string; application: Application }>(`/admin/applications/${a._id}/reject/undo`, { method: 'PUT' });
      toast({ title: res.msg, variant: 'success' });
      after(a, res.application);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to undo the rejection'));
    }
  };

  const actions: Actions = {
    busy,
    approve,
    askReject: (a) => setRejecting(a),
    quickReject: (a) => setQuickRejecting(a),
    details: (a) => setViewing(a),
  };

  const apps = list?.applications || [];
  const byId = (id: string) => apps.find((x) => x._id === id);
  useReviewShortcuts({
    active,
    panelId: 'applications-panel',
    onHelp: () => setHelpOpen(true),
    onReject: (id) => {
      const a = byId(id);
      if (a && !busy) setRejecting(a);
    },
    onApprove: (id) => {
      const a = byId(id);
      if (!a || busy) return;
      if (!canApprove(a)) toastError('Payment must be completed before approval');
      else setKeyApproving(a);
    },
  });
  const n = (k: string) => counts[k] ?? 0;
  const selection: BulkSelection | null = allMatching
    ? { filter: { status, search: query }, count: list?.total ?? 0 }
    : selected.length ? { ids: selected } : null;
  const pageIds = apps.map((a) => a._id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.includes(id));
  const clearSelection = () => {
    setSelected([]);
    setAllMatching(false);
  };
  const toggle = (id: string) => {
    setAllMatching(false);
    setSelected((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));
  };

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>Badge Applications Management</CardTitle>
            <CardDescription className="mt-1.5">Review submissions, check payments and proof, and grant badges.</CardDescription>
          </div>
          <SearchBox
            label="Search applications"
            initial={view.q}
            placeholder="Search applicant, badge or transaction"
            onSearch={(q) => {
              setQuery(q);
              setPage(1);
              clearSelection();
            }}
          />
        </div>
        <Tabs
          value={group}
          onValueChange={(v) => {
            setGroup(v as Group);
            setPage(1);
              clearSelection();
          }}
        >
          <TabsList className="h-auto w-full justify-start sm:w-auto">
            {/* one tab panel below serves the three tabs: point every tab at it */}
            <TabsTrigger value="review" id="app-tab-review" aria-controls="applications-panel" data-testid="tab-review">Pending Review ({n('review')})</TabsTrigger>
            <TabsTrigger value="approved" id="app-tab-approved" aria-controls="applications-panel" data-testid="tab-approved">Approved ({n('approved')})</TabsTrigger>
            <TabsTrigger value="rejected" id="app-tab-rejected" aria-controls="applications-panel" data-testid="tab-rejected">Rejected ({n('rejected')})</TabsTrigger>
          </TabsList>
        </Tabs>
      </CardHeader>
      <CardContent className="space-y-4" id="applications-panel" role="tabpanel" aria-labelledby={`app-tab-${group}`}>
        {group === 'review' && (
          <div role="group" aria-label="Payment" className="flex flex-wrap gap-2" data-testid="pay-filter">
            {PAY_FILTERS.map(([value, label]) => (
              <button
                key={value}
                type="button"
                aria-pressed={payFilter === value}
                onClick={() => {
                  setPayFilter(value);
                  setPage(1);
              clearSelection();
                }}
                className={cn(
                  'rounded-full border px-3 py-1 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                  payFilter === value ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-accent',
                )}
              >
                {label} ({n(value)})
              </button>
            ))}
          </div>
        )}
        {group === 'review' && (
          <p className="flex items-start gap-2 rounded-lg border border-primary/20 bg-primary/5 px-3 py-2.5 text-sm lg:py-1.5" data-testid="payment-note">
            <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
            <span>
              Payment must be completed before an application can be approved. Use <strong>Grant Free</strong> to approve one without payment.
            </span>
          </p>
        )}
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {apps.length > 0 && (
            <div className="flex flex-wrap items-center gap-3 text-sm" data-testid="bulk-select">
              <label className="flex items-center gap-2">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-primary"
                  checked={allOnPage || allMatching}
                  onChange={() => {
                    setAllMatching(false);
                    setSelected(allOnPage ? [] : pageIds);
                  }}
                  data-testid="select-page"
                />
                Select all on this page
              </label>
              {allOnPage && (list?.total ?? 0) > apps.length && !allMatching && (
                <button type="button" className="font-medium text-primary underline-offset-4 hover:underline" onClick={() => setAllMatching(true)} data-testid="select-matching">
                  Select all {list?.total} that match
                </button>
              )}
            </div>
          )}
          <div className="ml-auto hidden flex-wrap items-center gap-3 lg:flex" data-testid="table-toolbar">
            <LayoutToggle layout={layout} onChange={chooseLayout} />
            <ExportLink path="/admin/applications" params={{ status, search: query, sort }} />
          </div>
        </div>
        <BulkBar selection={selection} onClear={clearSelection} onDone={() => { load(); onChanged?.(); }} />
        {layout === 'table' && apps.length > 0 && (
          <div aria-busy={loading} className="hidden lg:block">
            <ApplicationsTable apps={apps} actions={actions} sort={sort} onSort={(v) => { setSort(v); setPage(1); }} selected={selected} allMatching={allMatching} onToggle={toggle} />
          </div>
        )}
        <div aria-busy={loading} className={cn('space-y-3', layout === 'table' && apps.length > 0 && 'lg:hidden')}>
          {loading && !list ? (
            [0, 1, 2].map((i) => <Skeleton key={i} className="h-40 w-full" />)
          ) : apps.length === 0 ? (
            <Empty group={group} query={query} payFilter={payFilter} />
          ) : (
            apps.map((a) => (
              <div key={a._id} className="flex items-start gap-2">
                <input
                  type="checkbox"
                  className="mt-5 h-4 w-4 shrink-0 accent-primary"
                  aria-label={`Select ${a.user?.name || 'application'} · ${a.badge?.name || ''}`}
                  checked={allMatching || selected.includes(a._id)}
                  onChange={() => toggle(a._id)}
                  data-testid="select-application"
                />
                <div className="min-w-0 flex-1"><ApplicationCard a={a} actions={actions} /></div>
              </div>
            ))
          )}
        </div>
        <TablePager info={list} busy={loading} onPage={setPage}>
          <PageSizeSelect id="applications-page-size" value={pageSize} onChange={(n) => { setPageSize(n); setPage(1); }} />
        </TablePager>
      </CardContent>
      <RejectDialog app={rejecting} busy={!!busy} onClose={() => setRejecting(null)} onReject={reject} />
      <ConfirmDialog
        open={!!restoring}
        title="Restore a revoked badge?"
        confirm="Restore badge"
        busy={!!busy}
        testid="restore-dialog"
        onClose={() => setRestoring(null)}
        onConfirm={() => restoring && approve(restoring.a, restoring.grantFree, true)}
      >
        {restoring?.a.grant && (
          <>
            {restoring.a.user?.name || 'The applicant'}’s {restoring.a.badge?.name || 'badge'} badge was revoked
            {restoring.a.grant.revokedAt && <> on <LocalTime iso={restoring.a.grant.revokedAt} /></>}, reason: “{restoring.a.grant.revocationReason || 'no reason given'}” Re-approving
            restores the same verification ID and e-mails the holder.
          </>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={!!quickRejecting}
        title="Reject this application?"
        confirm="Reject"
        destructive
        busy={!!busy}
        testid="quick-reject-dialog"
        onClose={() => setQuickRejecting(null)}
        onConfirm={() => quickRejecting && reject(quickRejecting, '')}
      >
        {quickRejecting && (
          <>
            {quickRejecting.user?.name || 'The applicant'} · {quickRejecting.badge?.name || 'badge'}. The reason will be “{DEFAULT_REASON}” and the applicant is told by e-mail.
          </>
        )}
      </ConfirmDialog>
      <DetailsDialog app={viewing} actions={actions} onClose={() => setViewing(null)} />
      <ConfirmDialog
        open={!!keyApproving}
        title={keyApproving && keyApproving.status === 'approved' ? 'Re-approve this application?' : 'Approve this application?'}
        confirm={keyApproving && keyApproving.status === 'approved' ? 'Re-approve' : 'Approve'}
        busy={!!busy}
        testid="key-approve-dialog"
        onClose={() => setKeyApproving(null)}
        onConfirm={async () => {
          const a = keyApproving;
          if (!a) return;
          await approve(a);
          setKeyApproving(null);
        }}
      >
        {keyApproving && <>{keyApproving.user?.name || 'The applicant'} · {keyApproving.badge?.name || 'badge'}. The applicant is told by e-mail.</>}
      </ConfirmDialog>
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </Card>
  );
}
