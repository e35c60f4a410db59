// Applications tab of the admin dashboard: 'Badge Applications Management' with the
// Pending Review / Approved / Rejected sub-tabs, the review actions (approve, re-approve,
// grant free, reject with an optional reason, re-reject, quick reject) and the View Details
// dialog. Lists are paginated and searched on the server.
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import {
  AlertTriangle, BadgeCheck, Check, ChevronLeft, ChevronRight, Download, Eye, FileText, Gift, Info, Link2, Loader2, RotateCcw, Search, X,
} from 'lucide-react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Label, Skeleton, Textarea } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Tabs, TabsList, TabsTrigger } from '../tabs';
import { Avatar } from '../account';
import { api, errorMessage } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { date, dateTime, money } from '../../lib/format';
import { cn } from '../../lib/cn';
import { externalHref } from '../../lib/url';
import { AuditChanges, actionLabel, type AuditEntry } from './AuditLog';
import { QuizAttemptHistory } from './QuizAttemptHistory';

export type AppUser = {
  _id: string;
  name: string;
  email: string;
  role: string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  avatar: string;
  phone: string;
  bio: string;
  location: string;
  company: string;
  experience: number;
  education: string;
  skills: string[];
  createdAt: string;
};
export type AppBadge = { _id: string; name: string; type: string; price: number; category: string; level: string };
export type AppPayment = {
  _id: string;
  amount: number;
  originalAmount: number;
  discountAmount: number;
  currency: string;
  transactionId: string;
  provider: string;
  status: string;
  couponCode: string;
  createdAt: string;
  completedAt: string | null;
};
export type AppFile = { _id: string; originalName: string; kind: string; contentType: string; size: number; downloadUrl: string };
export type AppGrant = {
  _id: string;
  verificationId: string;
  publicVerificationId: string;
  grantedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  revocationReason: string;
};
export type Application = {
  _id: string;
  user: AppUser | null;
  badge: AppBadge | null;
  type: string;
  status: 'pending' | 'awaiting_payment' | 'approved' | 'rejected' | string;
  paymentStatus: string;
  paymentId: AppPayment | null;
  paymentCompletedAt: string | null;
  price: number;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  reviewedBy: { _id: string; name: string; email: string } | null;
  rejectionReason: string;
  quizScore: number | null;
  proofFiles: AppFile[];
  description: string;
  fullName: string;
  email: string;
  position: string;
  linkedinUrl: string;
  portfolioUrl: string;
  grant: AppGrant | null;
  waitingForEmailVerification?: boolean;
};
export type PageInfo = { page: number; limit: number; total: number; totalPages: number };
export type AppList = PageInfo & { applications: Application[]; counts: Record<string, number> };

type Group = 'review' | 'approved' | 'rejected';
const LIMIT = 20;
export const DEFAULT_REASON = 'Application did not meet requirements';

// ---- small shared pieces (also used by the users and audit views) ----

/** Score colour (spec section 4): green at 90 or more, yellow at 70 or more, red below. */
export function scoreTone(score: number): 'success' | 'warning' | 'destructive' {
  return score >= 90 ? 'success' : score >= 70 ? 'warning' : 'destructive';
}

export function paymentTone(status: string): 'success' | 'warning' | 'destructive' {
  return status === 'completed' ? 'success' : status === 'failed' ? 'destructive' : 'warning';
}

const STATUS_LABEL: Record<string, string> = {
  pending: 'Pending review',
  awaiting_payment: 'Awaiting payment',
  approved: 'Approved',
  rejected: 'Rejected',
};
const STATUS_TONE: Record<string, 'warning' | 'secondary' | 'success' | 'destructive'> = {
  pending: 'warning',
  awaiting_payment: 'secondary',
  approved: 'success',
  rejected: 'destructive',
};

function cap(s: string) {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

export function fileSize(n: number) {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** Previous / next page buttons with "Page x of y". */
export function Pager({ info, onPage, busy }: { info: PageInfo | null; onPage: (p: number) => void; busy?: boolean }) {
  if (!info || info.totalPages <= 1) return null;
  return (
    <nav className="flex items-center justify-between gap-3 pt-2 text-sm" aria-label="Pagination">
      <span className="text-muted-foreground">
        Page {info.page} of {info.totalPages} · {info.total} in all
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={busy || info.page <= 1} onClick={() => onPage(info.page - 1)}>
          <ChevronLeft /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={busy || info.page >= info.totalPages} onClick={() => onPage(info.page + 1)}>
          Next <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}

/** A search box that reports its (trimmed) value 300 ms after typing stops. */
export function SearchBox({ placeholder, onSearch, label }: { placeholder: string; onSearch: (q: string) => void; label: string }) {
  const [v, setV] = useState('');
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => onSearch(v.trim()), 300);
    return () => clearTimeout(t);
  }, [v]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="relative w-full sm:max-w-sm">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" value={v} onChange={(e) => setV(e.target.value)} placeholder={placeholder} aria-label={label} className="pl-9" />
    </div>
  );
}

function Field({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 break-words text-sm">{children}</dd>
    </div>
  );
}

function ExternalLink({ href }: { href: string }) {
  if (!href) return <span className="text-muted-foreground">—</span>;
  const safe = externalHref(href);
  return safe ? (
    <a href={safe} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex max-w-full items-center gap-1 break-all text-primary hover:underline">
      <Link2 className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
      {href.replace(/^https?:\/\/(www\.)?/i, '')}
    </a>
  ) : (
    <span className="break-all">{href}</span>
  );
}

function ScoreChip({ score }: { score: number | null }) {
  if (score === null || score === undefined) return <span className="text-muted-foreground">—</span>;
  return (
    <Chip tone={scoreTone(score)} data-testid="quiz-score" data-tone={scoreTone(score)}>
      {score.toFixed(1)}%
    </Chip>
  );
}

/** Approved, but the grant was revoked since (User Management's Revoke). */
function revokedApproval(a: Application) {
  return a.status === 'approved' && !!a.grant?.revokedAt;
}

type PayFilter = 'review' | 'pending' | 'awaiting_payment';
const PAY_FILTERS: [PayFilter, string][] = [
  ['review', 'All'],
  ['pending', 'Paid, ready to review'],
  ['awaiting_payment', 'Awaiting payment'],
];

function ConfirmDialog({ open, title, confirm, destructive, busy, testid, onClose, onConfirm, children }: {
  open: boolean;
  title: string;
  confirm: string;
  destructive?: boolean;
  busy: boolean;
  testid: string;
  onClose: () => void;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()}>
      {open && (
        <DialogContent data-testid={testid}>
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>{children}</DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button variant={destructive ? 'destructive' : 'default'} disabled={busy} onClick={onConfirm}>
              {busy && <Loader2 className="animate-spin" />} {confirm}
            </Button>
          </DialogFooter>
        </DialogContent>
      )}
    </Dialog>
  );
}

function paid(a: Application) {
  return a.paymentStatus === 'completed';
}
function canApprove(a: Application) {
  return paid(a) || a.status === 'approved';
}
function reviewed(a: Application) {
  return a.status === 'approved' || a.status === 'rejected';
}
function typeLabel(t: string | undefined) {
  return t === 'skill' ? 'Quiz Based' : 'Proof Based';
}

// ---- the tab ----

type Actions = {
  busy: string | null;
  approve: (a: Application, grantFree?: boolean, restore?: boolean) => void;
  askReject: (a: Application) => void;
  quickReject: (a: Application) => void;
  details: (a: Application) => void;
};

export function ApplicationsTab({ initial, refreshKey = 0, onChanged }: { initial?: AppList; refreshKey?: number; onChanged?: () => void }) {
  const [group, setGroup] = useState<Group>('review');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<AppList | null>(initial || null);
  const [counts, setCounts] = useState<Record<string, number>>(initial?.counts || {});
  const [loading, setLoading] = useState(!initial);
  const [busy, setBusy] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Application | null>(null);
  const [viewing, setViewing] = useState<Application | null>(null);
  // a revoked grant is restored only after a confirmation naming the revocation reason
  const [restoring, setRestoring] = useState<{ a: Application; grantFree: boolean } | null>(null);
  // the one-click reject asks first (it cannot be undone: the applicant is e-mailed)
  const [quickRejecting, setQuickRejecting] = useState<Application | null>(null);
  // Pending Review: all, paid (ready to approve) or awaiting payment
  const [payFilter, setPayFilter] = useState<PayFilter>('review');
  const skipFirst = useRef(!!initial);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const qs = new URLSearchParams({ status: group === 'review' ? payFilter : group, page: String(page), limit: String(LIMIT) });
      if (query) qs.set('search', query);
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
  }, [group, page, query, payFilter]);

  useEffect(() => {
    if (skipFirst.current) {
      skipFirst.current = false;
      return;
    }
    load();
  }, [load, refreshKey]);

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
      const res = await api<{ msg: string; application: Application }>(`/admin/applications/${a._id}/reject`, { method: 'PUT', body: { reason } });
      toast({ title: 'Application rejected successfully', variant: 'success' });
      setRejecting(null);
      setQuickRejecting(null);
      after(a, res.application);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to reject application'));
    } finally {
      setBusy(null);
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
  const n = (k: string) => counts[k] ?? 0;

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
            placeholder="Search applicant, badge or transaction"
            onSearch={(q) => {
              setQuery(q);
              setPage(1);
            }}
          />
        </div>
        <Tabs
          value={group}
          onValueChange={(v) => {
            setGroup(v as Group);
            setPage(1);
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
          <p className="flex items-start gap-2 rounded-lg border border-primary/20 bg-primary/5 px-3 py-2.5 text-sm" data-testid="payment-note">
            <Info className="mt-0.5 h-4 w-4 shrink-0 text-primary" aria-hidden="true" />
            <span>
              Payment must be completed before an application can be approved. Use <strong>Grant Free</strong> to approve one without payment.
            </span>
          </p>
        )}
        <div aria-busy={loading} className="space-y-3">
          {loading && !list ? (
            [0, 1, 2].map((i) => <Skeleton key={i} className="h-40 w-full" />)
          ) : apps.length === 0 ? (
            <Empty group={group} query={query} />
          ) : (
            apps.map((a) => <ApplicationCard key={a._id} a={a} actions={actions} />)
          )}
        </div>
        <Pager info={list} busy={loading} onPage={setPage} />
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
            {restoring.a.grant.revokedAt && <> on {date(restoring.a.grant.revokedAt)}</>}, reason: “{restoring.a.grant.revocationReason || 'no reason given'}” Re-approving
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
    </Card>
  );
}

function Empty({ group, query }: { group: Group; query: string }) {
  if (query) {
    return (
      <div className="rounded-lg border border-dashed py-12 text-center">
        <p className="font-medium">No applications match “{query}”</p>
        <p className="mt-1 text-sm text-muted-foreground">Try a name, an email, a badge or a transaction ID.</p>
      </div>
    );
  }
  const text: Record<Group, [string, string]> = {
    review: ['No pending applications', 'All applications have been reviewed.'],
    approved: ['No approved applications', 'Approved applications will appear here.'],
    rejected: ['No rejected applications', 'Rejected applications will appear here.'],
  };
  return (
    <div className="rounded-lg border border-dashed py-12 text-center" data-testid="empty-applications">
      <BadgeCheck className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
      <p className="mt-3 font-medium">{text[group][0]}</p>
      <p className="mt-1 text-sm text-muted-foreground">{text[group][1]}</p>
    </div>
  );
}

function ApplicationCard({ a, actions }: { a: Application; actions: Actions }) {
  if (!a.user || !a.badge) {
    return (
      <div className="flex items-start gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4" data-testid="incomplete-application">
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-destructive" aria-hidden="true" />
        <div className="min-w-0">
          <p className="font-medium">Incomplete application data</p>
          <p className="mt-1 break-all text-sm text-muted-foreground">ID: {a._id}</p>
        </div>
      </div>
    );
  }
  const amount = a.paymentId ? a.paymentId.amount : a.price;
  const tx = a.paymentId?.transactionId || '';
  return (
    <article className="rounded-lg border bg-card p-4 shadow-xs transition-colors hover:border-primary/30" data-testid="application-card" data-application-id={a._id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-center gap-3">
          <Avatar name={a.user.name} url={a.user.profilePicUrl} className="h-11 w-11 shrink-0" textClassName="text-sm" />
          <div className="min-w-0">
            <p className="truncate font-semibold">{a.user.name}</p>
            <p className="truncate text-sm text-muted-foreground">{a.user.email}</p>
          </div>
        </div>
        <Chip tone={revokedApproval(a) ? 'destructive' : STATUS_TONE[a.status] || 'secondary'}>{revokedApproval(a) ? 'Approved · badge revoked' : STATUS_LABEL[a.status] || a.status}</Chip>
      </div>
      <p className="mt-3 text-sm">
        <span className="font-medium">{a.badge.name}</span>
        <span className="text-muted-foreground"> · {typeLabel(a.badge.type)} · {a.badge.category}</span>
      </p>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 lg:grid-cols-5">
        <Field label="Price">
          <span className="font-medium tabular-nums">{money(amount)}</span>
          {a.paymentId && a.paymentId.discountAmount > 0 && (
            <span className="block text-xs text-muted-foreground">
              <span className="line-through">{money(a.paymentId.originalAmount)}</span>
              {a.paymentId.couponCode && <> · {a.paymentId.couponCode}</>}
            </span>
          )}
        </Field>
        <Field label="Payment">
          <Chip tone={paymentTone(a.paymentStatus)}>{cap(a.paymentStatus)}</Chip>
        </Field>
        <Field label="Transaction">
          {tx ? (
            <code className="rounded bg-muted px-1.5 py-0.5 text-xs" title={tx} data-testid="transaction-id">
              …{tx.slice(-8)}
            </code>
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </Field>
        <Field label="Quiz score">
          <ScoreChip score={a.quizScore} />
        </Field>
        <Field label="Submitted">{date(a.createdAt)}</Field>
      </dl>
      {a.status === 'rejected' && a.rejectionReason && (
        <p className="mt-3 rounded-md bg-destructive/5 px-3 py-2 text-sm">
          <span className="font-medium text-destructive">Reason:</span> {a.rejectionReason}
        </p>
      )}
      {a.status === 'approved' && a.waitingForEmailVerification && (
        <p className="mt-3 rounded-md bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-300" data-testid="grant-waiting">
          Waiting for e-mail verification: the badge is granted when the applicant confirms their address.
        </p>
      )}
      {a.grant?.revokedAt && (
        <p className="mt-3 rounded-md bg-destructive/5 px-3 py-2 text-sm" data-testid="grant-revoked">
          <span className="font-medium text-destructive">Badge revoked {date(a.grant.revokedAt)}:</span> {a.grant.revocationReason || 'no reason given'}
        </p>
      )}
      {a.status === 'approved' && a.grant && (
        <p className="mt-3 text-sm text-muted-foreground">
          Verification ID <code className="rounded bg-muted px-1.5 py-0.5 text-xs text-foreground">{a.grant.verificationId}</code>
          {a.reviewedAt && <> · approved {date(a.reviewedAt)}</>}
        </p>
      )}
      <ReviewButtons a={a} actions={actions} className="mt-4 border-t pt-4" withDetails />
    </article>
  );
}

function ReviewButtons({ a, actions, className, withDetails }: { a: Application; actions: Actions; className?: string; withDetails?: boolean }) {
  const busy = actions.busy === a._id;
  const again = reviewed(a);
  const approvable = canApprove(a);
  return (
    <div className={cn('flex flex-wrap items-center gap-2', className)}>
      {withDetails && (
        <Button variant="outline" size="sm" onClick={() => actions.details(a)}>
          <Eye /> View Details
        </Button>
      )}
      <div className="ml-auto flex flex-wrap items-center gap-2">
        {!paid(a) && a.status !== 'approved' && (
          <Button variant="outline" size="sm" disabled={!!actions.busy} onClick={() => actions.approve(a, true)} title="Approve without payment">
            <Gift /> Grant Free
          </Button>
        )}
        <Button
          variant="success"
          size="sm"
          disabled={!approvable || !!actions.busy}
          onClick={() => actions.approve(a)}
          title={approvable ? undefined : 'Payment must be completed before approval'}
        >
          {busy ? <Loader2 className="animate-spin" /> : again ? <RotateCcw /> : <Check />} {again ? 'Re-approve' : 'Approve'}
        </Button>
        <Button variant="destructive" size="sm" disabled={!!actions.busy} onClick={() => actions.askReject(a)}>
          <X /> {again ? 'Re-reject' : 'Reject'}
        </Button>
        {!reviewed(a) && withDetails && (
          <Button
            variant="ghost"
            size="icon"
            className="h-9 w-9 text-destructive hover:bg-destructive/10 hover:text-destructive"
            disabled={!!actions.busy}
            onClick={() => actions.quickReject(a)}
            aria-label="Quick reject"
            title={`Quick reject: ${DEFAULT_REASON}`}
          >
            <X />
          </Button>
        )}
      </div>
    </div>
  );
}

function RejectDialog({ app, busy, onClose, onReject }: { app: Application | null; busy: boolean; onClose: () => void; onReject: (a: Application, reason: string) => void }) {
  const [reason, setReason] = useState('');
  // a fresh reason for each application opened (adjusted during render, not in an effect)
  const [shown, setShown] = useState(app);
  if (app !== shown) {
    setShown(app);
    if (app) setReason('');
  }
  const again = app ? reviewed(app) : false;
  return (
    <Dialog open={!!app} onOpenChange={(o) => !o && onClose()}>
      {app && (
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{again ? 'Re-reject application' : 'Reject application'}</DialogTitle>
            <DialogDescription>
              {app.user?.name || 'The applicant'} · {app.badge?.name || 'badge'}.
              {app.status === 'approved' && ' The badge already granted will be revoked.'} The applicant is told by e-mail.
            </DialogDescription>
          </DialogHeader>
          <form
            className="grid gap-4"
            onSubmit={(e) => {
              e.preventDefault();
              onReject(app, reason);
            }}
          >
            <div className="grid gap-2">
              <Label htmlFor="reject-reason">Reason (optional)</Label>
              <Textarea id="reject-reason" value={reason} maxLength={1000} onChange={(e) => setReason(e.target.value)} placeholder={DEFAULT_REASON} rows={4} />
              <p className="text-xs text-muted-foreground">Left empty, the reason is “{DEFAULT_REASON}”.</p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={busy}>
                {busy && <Loader2 className="animate-spin" />} {again ? 'Re-reject' : 'Reject'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-3">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

function DetailsDialog({ app, actions, onClose }: { app: Application | null; actions: Actions; onClose: () => void }) {
  const [history, setHistory] = useState<AuditEntry[] | null>(null);
  const [shownId, setShownId] = useState(app?._id);
  if (app?._id !== shownId) {
    setShownId(app?._id);
    setHistory(null);
  }
  useEffect(() => {
    if (!app) return;
    let live = true;
    api<{ history: AuditEntry[] }>(`/admin/applications/${app._id}`)
      .then((r) => live && setHistory(r.history))
      .catch(() => live && setHistory([]));
    return () => {
      live = false;
    };
  }, [app?._id, app?.status, app?.reviewedAt]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <Dialog open={!!app} onOpenChange={(o) => !o && onClose()}>
      {app && app.user && app.badge && (
        <DialogContent className="sm:max-w-2xl lg:max-w-3xl" aria-describedby={undefined}>
          <DialogHeader>
            <DialogTitle>Application details</DialogTitle>
            <p className="text-sm text-muted-foreground">
              {app.badge.name} · <Chip tone={STATUS_TONE[app.status] || 'secondary'}>{STATUS_LABEL[app.status] || app.status}</Chip>
            </p>
          </DialogHeader>
          <div className="grid gap-6">
            <Section title="Applicant">
              <div className="flex items-center gap-3">
                <Avatar name={app.user.name} url={app.user.profilePicUrl} className="h-14 w-14" textClassName="text-lg" />
                <div className="min-w-0">
                  <p className="font-semibold">{app.user.name}</p>
                  <p className="text-sm text-muted-foreground">{app.user.email}</p>
                  {app.user.bio && <p className="mt-1 text-sm">{app.user.bio}</p>}
                </div>
              </div>
              <dl className="grid gap-4 sm:grid-cols-2">
                <Field label="Name on application">{app.fullName || app.user.name}</Field>
                <Field label="Email on application">{app.email || app.user.email}</Field>
                <Field label="Position">{app.position || app.user.position || '—'}</Field>
                {app.user.company && <Field label="Company">{app.user.company}</Field>}
                {app.user.location && <Field label="Location">{app.user.location}</Field>}
                {app.user.phone && <Field label="Phone">{app.user.phone}</Field>}
                {app.user.experience > 0 && <Field label="Experience">{app.user.experience} years</Field>}
                {app.user.education && <Field label="Education">{app.user.education}</Field>}
                <Field label="LinkedIn">
                  <ExternalLink href={app.linkedinUrl || app.user.linkedin} />
                </Field>
                <Field label="Portfolio">
                  <ExternalLink href={app.portfolioUrl || app.user.portfolio} />
                </Field>
                {app.user.skills?.length > 0 && (
                  <Field label="Skills" className="sm:col-span-2">
                    <span className="flex flex-wrap gap-1.5">
                      {app.user.skills.map((s) => (
                        <Chip key={s} tone="secondary">{s}</Chip>
                      ))}
                    </span>
                  </Field>
                )}
              </dl>
            </Section>

            <Section title="Application">
              <dl className="grid gap-4 sm:grid-cols-3">
                <Field label="Badge">{app.badge.name}</Field>
                <Field label="Type">{typeLabel(app.badge.type)}</Field>
                <Field label="Category">{app.badge.category}</Field>
                <Field label="Submitted">{dateTime(app.createdAt)}</Field>
                <Field label="Reviewed">{app.reviewedAt ? `${dateTime(app.reviewedAt)}${app.reviewedBy ? ' by ' + app.reviewedBy.name : ''}` : '—'}</Field>
                <Field label="Quiz score">
                  <ScoreChip score={app.quizScore} />
                </Field>
                {app.rejectionReason && (
                  <Field label="Rejection reason" className="sm:col-span-3">
                    {app.rejectionReason}
                  </Field>
                )}
                {app.description && (
                  <Field label="Description" className="sm:col-span-3">
                    <span className="whitespace-pre-line">{app.description}</span>
                  </Field>
                )}
              </dl>
            </Section>

            {app.badge.type === 'skill' && (
              <Section title="Quiz attempts">
                <QuizAttemptHistory userId={app.user._id} badgeId={app.badge._id} />
              </Section>
            )}

            <Section title={`Files (${app.proofFiles.length})`}>
              {app.proofFiles.length === 0 ? (
                <p className="text-sm text-muted-foreground">No files were uploaded.</p>
              ) : (
                <ul className="divide-y rounded-lg border">
                  {app.proofFiles.map((f) => (
                    <li key={f._id} className="flex items-center gap-3 px-3 py-2.5">
                      <FileText className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                      <div className="min-w-0 flex-1">
                        <p className="truncate text-sm font-medium">{f.originalName}</p>
                        <p className="text-xs text-muted-foreground">
                          {f.kind === 'profilePic' ? 'Profile picture' : cap(f.kind)} · {fileSize(f.size)}
                        </p>
                      </div>
                      <a href={f.downloadUrl} download className="inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-primary hover:bg-accent" aria-label={`Download ${f.originalName}`}>
                        <Download className="h-4 w-4" aria-hidden="true" /> Download
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </Section>

            <Section title="Payment">
              <dl className="grid gap-4 sm:grid-cols-3">
                <Field label="Status">
                  <Chip tone={paymentTone(app.paymentStatus)}>{cap(app.paymentStatus)}</Chip>
                </Field>
                <Field label="Amount">{money(app.paymentId ? app.paymentId.amount : app.price)}</Field>
                <Field label="Completed">{app.paymentCompletedAt ? dateTime(app.paymentCompletedAt) : '—'}</Field>
                {app.paymentId && (
                  <>
                    {app.paymentId.discountAmount > 0 && (
                      <Field label="Discount">
                        {money(app.paymentId.discountAmount)} of {money(app.paymentId.originalAmount)}
                        {app.paymentId.couponCode && <> ({app.paymentId.couponCode})</>}
                      </Field>
                    )}
                    <Field label="Provider">{app.paymentId.provider === 'free-grant' ? 'Free grant coupon' : cap(app.paymentId.provider)}</Field>
                    <Field label="Transaction ID" className="sm:col-span-2">
                      <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{app.paymentId.transactionId || '—'}</code>
                    </Field>
                  </>
                )}
              </dl>
            </Section>

            {app.grant && (
              <Section title="Badge grant">
                <dl className="grid gap-4 sm:grid-cols-2">
                  <Field label="Verification ID">
                    <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{app.grant.verificationId}</code>
                  </Field>
                  <Field label="Public verification ID">
                    <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs">{app.grant.publicVerificationId}</code>
                  </Field>
                  <Field label="Granted">{dateTime(app.grant.grantedAt)}</Field>
                  <Field label="State">
                    {app.grant.revokedAt ? <Chip tone="destructive">Revoked {date(app.grant.revokedAt)}</Chip> : <Chip tone="success">In force</Chip>}
                  </Field>
                </dl>
              </Section>
            )}

            <Section title="Review history">
              {history === null ? (
                <Skeleton className="h-10 w-full" />
              ) : history.length === 0 ? (
                <p className="text-sm text-muted-foreground">No review actions yet.</p>
              ) : (
                <ol className="space-y-2">
                  {history.map((h) => (
                    <li key={h._id} className="rounded-md border px-3 py-2 text-sm">
                      <p>
                        <span className="font-medium">{actionLabel(h.action)}</span>
                        <span className="text-muted-foreground"> · {h.actor?.name || h.actor?.email || 'system'} · {dateTime(h.createdAt)}</span>
                      </p>
                      <AuditChanges before={h.before} after={h.after} />
                    </li>
                  ))}
                </ol>
              )}
            </Section>
          </div>
          <ReviewButtons a={app} actions={actions} className="sticky -bottom-6 z-10 -mx-6 -mb-6 border-t bg-background px-6 py-4" />
        </DialogContent>
      )}
    </Dialog>
  );
}
