// One application in the list and its review buttons (approve, grant free, reject, details).
import AlertTriangle from 'lucide-react/icons/triangle-alert';
import Check from 'lucide-react/icons/check';
import Eye from 'lucide-react/icons/eye';
import Gift from 'lucide-react/icons/gift';
import Loader2 from 'lucide-react/icons/loader-circle';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import X from 'lucide-react/icons/x';
import { Button, Chip } from '../../ui';
import { Avatar } from '../../avatar';
import { money } from '../../../lib/format';
import { cn } from '../../../lib/cn';
import { Actions, Application, DEFAULT_REASON, STATUS_LABEL, STATUS_TONE, canApprove, paid, reviewed, revokedApproval, typeLabel } from './model';
import { Detail, RenewalNote, ScoreChip } from './parts';
import { PaymentChip } from './model';
import { LocalTime } from '../../LocalTime';

export function ApplicationCard({ a, actions }: { a: Application; actions: Actions }) {
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
      <RenewalNote a={a} className="mt-1" />
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-3 sm:grid-cols-3 lg:grid-cols-5">
        <Detail label="Price">
          <span className="font-medium tabular-nums">{money(amount)}</span>
          {a.paymentId && a.paymentId.discountAmount > 0 && (
            <span className="block text-xs text-muted-foreground">
              <span className="line-through">{money(a.paymentId.originalAmount)}</span>
              {a.paymentId.couponCode && <> · {a.paymentId.couponCode}</>}
            </span>
          )}
        </Detail>
        <Detail label="Payment">
          <PaymentChip a={a} />
        </Detail>
        <Detail label="Transaction">
          {tx ? (
            <code className="rounded bg-muted px-1.5 py-0.5 text-xs" title={tx} data-testid="transaction-id">
              …{tx.slice(-8)}
            </code>
          ) : (
            <span className="text-muted-foreground">—</span>
          )}
        </Detail>
        <Detail label="Quiz score">
          <ScoreChip score={a.quizScore} />
        </Detail>
        <Detail label="Submitted"><LocalTime iso={a.createdAt} /></Detail>
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
          <span className="font-medium text-destructive">Badge revoked <LocalTime iso={a.grant.revokedAt} />:</span> {a.grant.revocationReason || 'no reason given'}
        </p>
      )}
      {a.status === 'approved' && a.grant && (
        <p className="mt-3 text-sm text-muted-foreground">
          Verification ID <code className="rounded bg-muted px-1.5 py-0.5 text-xs text-foreground">{a.grant.verificationId}</code>
          {a.reviewedAt && <> · approved <LocalTime iso={a.reviewedAt} /></>}
        </p>
      )}
      <ReviewButtons a={a} actions={actions} className="mt-4 border-t pt-4" withDetails />
    </article>
  );
}

export function ReviewButtons({ a, actions, className, withDetails }: { a: Application; actions: Actions; className?: string; withDetails?: boolean }) {
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
