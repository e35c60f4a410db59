// Small pieces of the applications tab: a labelled value, a profile link, the quiz score
// chip, the confirmation dialog and the empty list.
import { type ReactNode } from 'react';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Link2 from 'lucide-react/icons/link-2';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Chip } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../dialog';
import { cn } from '../../../lib/cn';
import { externalHref } from '../../../lib/url';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { Group, PAY_FILTER_EMPTY, paymentState, paymentTone, type Application, type PayFilter } from './model';
import { capitalize } from '../../../lib/format';

import { scoreTone } from '../../../lib/format';
import { LocalTime } from '../../LocalTime';
/** A labelled value in a definition list (dt + dd); the form field is BadgeAdminKit Field. */
export function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs font-medium uppercase tracking-wide text-muted-foreground">{label}</dt>
      <dd className="mt-1 break-words text-sm">{children}</dd>
    </div>
  );
}

export function ExternalLink({ href }: { href: string }) {
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

export function ScoreChip({ score }: { score: number | null }) {
  if (score === null || score === undefined) return <span className="text-muted-foreground">—</span>;
  return (
    <Chip tone={scoreTone(score)} data-testid="quiz-score" data-tone={scoreTone(score)}>
      {score.toFixed(1)}%
    </Chip>
  );
}

export function ConfirmDialog({ open, title, confirm, destructive, busy, testid, onClose, onConfirm, children }: {
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

/** The payment chip: Completed (green), Pending (yellow), Failed (red), Waived (Grant Free). */
export function PaymentChip({ a }: { a: Application }) {
  const s = paymentState(a);
  return (
    <Chip tone={paymentTone(s)} data-testid="payment-chip">
      {capitalize(s)}
    </Chip>
  );
}

/** Says an application renews a badge, and which grant. */
export function RenewalNote({ a, className }: { a: Application; className?: string }) {
  if (!a.renews) return null;
  const g = a.renews;
  return (
    <p className={cn('flex items-center gap-1.5 text-xs text-muted-foreground', className)} data-testid="renewal-note">
      <RefreshCw className="h-3.5 w-3.5 shrink-0 text-primary" aria-hidden="true" />
      <span>
        <span className="font-medium text-foreground">Renewal</span> of <code className="rounded bg-muted px-1">{g.verificationId}</code>
        {g.expiresAt && <>, valid until <LocalTime iso={g.expiresAt} /></>}
      </span>
    </p>
  );
}

export function Empty({ group, query, payFilter = 'review' }: { group: Group; query: string; payFilter?: PayFilter }) {
  if (query) {
    return (
      <div className="rounded-lg border border-dashed py-12 text-center">
        <p className="font-medium">No applications match “{query}”</p>
        <p className="mt-1 text-sm text-muted-foreground">Try a name, an email, a badge or a transaction ID.</p>
      </div>
    );
  }
  const text: Record<Group, [string, string]> = {
    review: PAY_FILTER_EMPTY[payFilter],
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
