// The badge detail's state and buttons: ownership (grant date, verification ID, share
// dialog), the latest application's status, and the start / continue-payment buttons under
// the spec's rules (computed by the server: app/badge ActionsFor). Every button that
// navigates is a plain link, so it works before (or without) hydration.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import ArrowRight from 'lucide-react/icons/arrow-right';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Check from 'lucide-react/icons/check';
import CircleX from 'lucide-react/icons/circle-x';
import Copy from 'lucide-react/icons/copy';
import CreditCard from 'lucide-react/icons/credit-card';
import Hourglass from 'lucide-react/icons/hourglass';
import Linkedin from 'lucide-react/icons/linkedin';
import ListChecks from 'lucide-react/icons/list-checks';
import Plus from 'lucide-react/icons/plus';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Share2 from 'lucide-react/icons/share-2';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Twitter from 'lucide-react/icons/twitter';
import Upload from 'lucide-react/icons/upload';
import { Button, Chip, Input, LinkButton, buttonClass } from '../components/ui';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../components/dialog';
import { statusLabel, type BadgeApplication, type BadgeGrant } from '../lib/badges';
import { GrantStanding } from '../components/GrantStanding';
import { toast, toastError } from '../lib/toast';
import { cn } from '../lib/cn';
import { AddToWallet } from '../components/wallet/AddToWallet';
import { LocalTime } from '../components/LocalTime';

export type BadgeActionsProps = {
  badgeId: string;
  badgeName: string;
  type: string;
  actions: {
    signedIn: boolean;
    owned: boolean;
    canStart: boolean;
    startLabel: string;
    startHref: string;
    continuePaymentHref: string;
    paymentStatusHref?: string;
    renewal?: boolean;
    renewHref?: string;
    renewalNeeds?: string;
    continueHref?: string;
    nextAttemptAt?: string | null;
  };
  application: BadgeApplication | null;
  grant: BadgeGrant | null;
  share: { verifyUrl: string; linkedinShareUrl: string; twitterShareUrl: string; linkedinAddUrl: string } | null;
};

export const COPY_FEEDBACK_MS = 2000;

const statusTone = {
  pending: 'warning',
  awaiting_payment: 'warning',
  approved: 'success',
  rejected: 'destructive',
} as const;

export default function BadgeActions({ badgeId, badgeName, type, actions, application, grant, share }: BadgeActionsProps) {
  const [shareOpen, setShareOpen] = useState(false);
  const StartIcon = type === 'skill' ? ListChecks : Upload;
  const status = application?.status || '';

  const alreadyOwned = () => toast({ title: 'Badge Already Owned', description: 'You already own this badge!' });

  return (
    <div className="space-y-4" data-testid="badge-actions" data-badge-id={badgeId}>
      {grant && grant.standing && !grant.standing.held && <NotHeld grant={grant} />}

      {actions.owned && grant && (
        <div className="rounded-lg border border-success/30 bg-success/10 p-4" data-testid="ownership">
          <p className="flex items-center gap-2 font-semibold text-success">
            <BadgeCheck className="h-5 w-5" aria-hidden="true" />
            You own this badge
          </p>
          <dl className="mt-3 grid gap-2 text-sm">
            <div className="flex flex-wrap justify-between gap-x-3">
              <dt className="text-muted-foreground">Granted</dt>
              <dd className="font-medium" data-testid="granted-at"><LocalTime iso={grant.grantedAt} /></dd>
            </div>
            <div>
              <dt className="sr-only">State</dt>
              <dd>
                <GrantStanding s={grant.standing} />
              </dd>
            </div>
            <div>
              <dt className="text-muted-foreground">Verification ID</dt>
              <dd className="mt-0.5 break-all font-mono text-xs font-medium" data-testid="verification-id">{grant.verificationId}</dd>
            </div>
          </dl>
          <div className="mt-4 grid gap-2">
            {share && (
              <Button onClick={() => setShareOpen(true)} data-testid="share-open">
                <Share2 /> Share Badge
              </Button>
            )}
            <LinkButton href={`/verify/${encodeURIComponent(grant.publicVerificationId)}`} variant="outline">
              <ShieldCheck /> View Credential
            </LinkButton>
            <AddToWallet grantId={grant.id} badgeName={badgeName} />
          </div>
        </div>
      )}

      {application && (
        <div className="rounded-lg border p-4" data-testid="application-status" data-status={status}>
          <div className="flex items-center justify-between gap-3">
            <p className="text-sm font-medium">Your application</p>
            <Chip tone={statusTone[status as keyof typeof statusTone] || 'secondary'}>{statusLabel(status, application.paymentProcessing)}</Chip>
          </div>
          <p className="mt-2 text-sm text-muted-foreground">
            Submitted <LocalTime iso={application.createdAt} />
            {application.reviewedAt && <> · Reviewed <LocalTime iso={application.reviewedAt} /></>}
          </p>
          {status === 'pending' && (
            <p className="mt-3 flex gap-2 text-sm">
              <Hourglass className="mt-0.5 h-4 w-4 shrink-0 text-amber-600 dark:text-amber-400" aria-hidden="true" />
              <span>Your application is in process. Our team reviews applications within 2-3 business days and e-mails you the result.</span>
            </p>
          )}
          {status === 'awaiting_payment' && !application.paymentProcessing && (
            <p className="mt-3 text-sm">Your application is saved. Complete the payment to send it for review.</p>
          )}
          {status === 'awaiting_payment' && application.paymentProcessing && (
            <p className="mt-3 text-sm" data-testid="payment-processing">
              PayPal is still processing your payment. Your application moves to review as soon as PayPal completes it; there is nothing more to pay.
            </p>
          )}
          {status === 'rejected' && (
            <div className="mt-3 rounded-md border border-destructive/30 bg-destructive/10 p-3 text-sm" data-testid="rejection">
              <p className="flex items-center gap-1.5 font-medium text-destructive">
                <CircleX className="h-4 w-4" aria-hidden="true" /> Reason
              </p>
              <p className="mt-1" data-testid="rejection-reason">{application.rejectionReason || 'Application did not meet requirements'}</p>
              <p className="mt-2 text-muted-foreground">You can apply again.</p>
            </div>
          )}
        </div>
      )}

      {actions.continuePaymentHref && (
        <LinkButton href={actions.continuePaymentHref} size="lg" className="w-full" data-testid="continue-payment">
          <CreditCard /> Continue Payment
        </LinkButton>
      )}

      {actions.paymentStatusHref && (
        <LinkButton href={actions.paymentStatusHref} size="lg" variant="outline" className="w-full" data-testid="payment-status">
          <Hourglass /> View payment status
        </LinkButton>
      )}

      {actions.renewal && (
        <div className="rounded-lg border border-warning/40 bg-warning/10 p-4 text-sm" data-testid="renewal-offer">
          <p className="font-semibold">Renew this badge</p>
          <p className="mt-1 text-muted-foreground" data-testid="renewal-needs">{actions.renewalNeeds}.</p>
          {actions.renewHref && (
            <LinkButton href={actions.renewHref} size="lg" className="mt-3 w-full" data-testid="renew">
              <RotateCcw /> Renew
            </LinkButton>
          )}
        </div>
      )}

      {actions.continueHref && (
        <div className="space-y-2">
          <p className="text-sm" data-testid="passed-note">You passed the quiz. Continue your application to have it reviewed.</p>
          <LinkButton href={actions.continueHref} size="lg" className="w-full" data-testid="continue-application">
            Continue application <ArrowRight />
          </LinkButton>
        </div>
      )}

      {actions.nextAttemptAt && (
        <p className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="start-locked">
          Your next quiz attempt opens <LocalTime iso={actions.nextAttemptAt} withTime />.
        </p>
      )}

      {actions.canStart &&
        (actions.owned ? (
          <Button size="lg" className="w-full" onClick={alreadyOwned} data-testid="start">
            <StartIcon /> {actions.startLabel}
          </Button>
        ) : (
          <LinkButton href={actions.startHref} size="lg" variant={actions.continueHref ? 'outline' : 'default'} className="w-full" data-testid="start">
            <StartIcon /> {actions.startLabel}
          </LinkButton>
        ))}
      {actions.canStart && !actions.signedIn && <p className="text-center text-xs text-muted-foreground">You will be asked to log in first.</p>}

      {share && <ShareDialog open={shareOpen} onOpenChange={setShareOpen} badgeName={badgeName} share={share} />}
    </div>
  );
}

/** An expired or revoked badge: its state, never "You own this badge" or Share. */
function NotHeld({ grant }: { grant: BadgeGrant }) {
  const revoked = grant.standing?.state === 'revoked';
  return (
    <div className="rounded-lg border border-destructive/30 bg-destructive/5 p-4" data-testid="ownership-lapsed" data-state={grant.standing?.state}>
      <p className="flex items-center gap-2 font-semibold">
        <CircleX className="h-5 w-5 text-destructive" aria-hidden="true" />
        {revoked ? 'This badge was revoked' : 'This badge has expired'}
      </p>
      <p className="mt-2 text-sm">
        <GrantStanding s={grant.standing} />
      </p>
      <p className="mt-2 text-sm text-muted-foreground">
        {revoked ? 'Verifiers see it as revoked.' : 'Verifiers see it as expired. Renew it to get a new credential that links to this one.'}
      </p>
      <LinkButton href={`/verify/${encodeURIComponent(grant.publicVerificationId)}`} variant="outline" className="mt-3 w-full">
        <ShieldCheck /> View Credential
      </LinkButton>
    </div>
  );
}

function popup(e: MouseEvent<HTMLAnchorElement>) {
  e.preventDefault();
  const url = e.currentTarget.href;
  const w = 600;
  const h = 400;
  const left = Math.max(0, Math.round((window.screenX || 0) + ((window.outerWidth || w) - w) / 2));
  const top = Math.max(0, Math.round((window.screenY || 0) + ((window.outerHeight || h) - h) / 2));
  // one window per network: with a single shared name the second button only navigated
  // the first popup (often hidden behind this page) and seemed to do nothing
  const name = 'share-' + (e.currentTarget.dataset.network || 'link');
  const win = window.open(url, name, `width=${w},height=${h},left=${left},top=${top},resizable=yes,scrollbars=yes`);
  if (win) {
    try {
      win.focus();
    } catch {
      /* ignore */
    }
    try {
      win.opener = null;
    } catch {
      /* cross-origin */
    }
  } else {
    window.location.assign(url); // popups blocked: go there instead
  }
}

function ShareDialog({ open, onOpenChange, badgeName, share }: { open: boolean; onOpenChange: (o: boolean) => void; badgeName: string; share: NonNullable<BadgeActionsProps['share']> }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const copy = async () => {
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(share.verifyUrl);
      } else {
        document.querySelector<HTMLInputElement>('[data-testid="share-url"]')?.select();
        if (!document.execCommand('copy')) throw new Error('copy refused');
      }
    } catch {
      toastError('Failed to copy to clipboard');
      return;
    }
    setCopied(true);
    toast({ title: 'Badge verification link copied!' });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS);
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="share-dialog">
        <DialogHeader>
          <DialogTitle>Share your badge</DialogTitle>
          <DialogDescription>Anyone with this link can verify your {badgeName} badge. No account needed.</DialogDescription>
        </DialogHeader>
        <div className="flex gap-2">
          <Input readOnly value={share.verifyUrl} aria-label="Verification link" onFocus={(e) => e.currentTarget.select()} data-testid="share-url" className="font-mono text-xs" />
          <Button variant="outline" onClick={copy} className="w-28 shrink-0" data-testid="share-copy" aria-live="polite">
            {copied ? (
              <>
                <Check className="text-success" /> Copied
              </>
            ) : (
              <>
                <Copy /> Copy
              </>
            )}
          </Button>
        </div>
        <div className="grid gap-2 sm:grid-cols-2">
          <a href={share.linkedinShareUrl} onClick={popup} target="_blank" rel="noopener noreferrer" className={buttonClass('outline')} data-testid="share-linkedin" data-network="linkedin">
            <Linkedin className="text-[#0a66c2]" /> Share on LinkedIn
          </a>
          <a href={share.twitterShareUrl} onClick={popup} target="_blank" rel="noopener noreferrer" className={buttonClass('outline')} data-testid="share-twitter" data-network="twitter">
            <Twitter className="text-sky-500" /> Share on Twitter
          </a>
        </div>
        <a
          href={share.linkedinAddUrl}
          target="_blank"
          rel="noopener noreferrer"
          className={cn(buttonClass('default'), 'bg-[#0a66c2]! text-white! hover:bg-[#004182]!')}
          data-testid="share-linkedin-add"
        >
          <Plus /> Add to LinkedIn profile
        </a>
      </DialogContent>
    </Dialog>
  );
}
