import type { ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import CircleCheckBig from 'lucide-react/icons/circle-check-big';
import CircleX from 'lucide-react/icons/circle-x';
import Hourglass from 'lucide-react/icons/hourglass';
import Mail from 'lucide-react/icons/mail';
import SearchX from 'lucide-react/icons/search-x';
import User from 'lucide-react/icons/user';
import { Card, CardContent, Chip, Container, LinkButton } from '../components/ui';
import { Actions, StateCard } from '../components/payment';
import { BadgeIcon } from '../components/badges';
import { cn } from '../lib/cn';
import { money } from '../lib/format';
import { LocalTime } from '../components/LocalTime';
import { RenewalNote, type Renewal } from '../components/RenewalNote';

type Result = {
  amount: number;
  originalAmount: number;
  discountAmount: number;
  minimumAdjustment: number;
  paymentId: string;
  applicationApproved: boolean;
  transactionId: string;
  status: 'completed' | 'pending' | 'failed' | string;
  applicationStatus: string;
  provider: 'paypal' | 'free-grant' | string;
  couponCode: string;
  currency: string;
  createdAt: string;
  completedAt: string | null;
  badge: { _id: string; name: string; category: string; icon: string; color: string } | null;
};

/** Without a payment: the payment page's state of the application (no-application,
 * ready, in-review, approved, ...), so a free application is not sent back to payment. */
type Props = { result: Result | null; badgeId: string; applicationState?: string; renewal?: Renewal | null };

/**
 * /payment-success/:badgeId — the result of the payment. It is rendered from the server's
 * record of the newest payment, so it is the same after a reload or a later visit.
 */
export default function PaymentSuccessPage({ result: r, badgeId, applicationState, renewal }: Props) {
  if (!r && (applicationState === 'in-review' || applicationState === 'approved')) {
    return (
      <Container className="py-16">
        <StateCard icon={<CircleCheckBig className="h-7 w-7" />} tone="success" title="No payment needed" testid="state-no-payment-needed">
          <p>
            {applicationState === 'approved'
              ? 'This badge had no fee to pay, and your application was approved.'
              : 'This badge has no fee, so there was nothing to pay. Our team reviews applications within 2-3 business days and e-mails you the result.'}
          </p>
          <Actions>
            <LinkButton href={`/badges/${badgeId}`}>View your application</LinkButton>
            <LinkButton href="/badges" variant="outline">
              Back to Badges
            </LinkButton>
          </Actions>
        </StateCard>
      </Container>
    );
  }
  if (!r) {
    return (
      <Container className="py-16">
        <StateCard icon={<SearchX className="h-7 w-7" />} tone="primary" title="No payment found" testid="state-no-payment">
          <p>We have no payment from you for this badge yet.</p>
          <Actions>
            <LinkButton href={`/payment/${badgeId}`}>Go to payment</LinkButton>
            <LinkButton href="/badges" variant="outline">
              Back to Badges
            </LinkButton>
          </Actions>
        </StateCard>
      </Container>
    );
  }
  if (r.status === 'failed') {
    return (
      <Container className="py-16">
        <StateCard icon={<CircleX className="h-7 w-7" />} tone="destructive" title="Payment not completed" testid="state-payment-failed">
          <p>PayPal did not complete your last payment, so your application is still waiting for payment.</p>
          <Actions>
            <LinkButton href={`/payment/${badgeId}`}>Try again</LinkButton>
            <LinkButton href="/badges" variant="outline">
              Back to Badges
            </LinkButton>
          </Actions>
        </StateCard>
      </Container>
    );
  }
  const approved = r.applicationApproved;
  const pending = r.status === 'pending';
  const title = approved ? 'Badge Granted!' : pending ? 'Payment Processing' : 'Payment Successful!';
  const free = r.provider === 'free-grant';
  return (
    <Container className="max-w-3xl py-10 sm:py-16">
      <div className="text-center">
        <span
          className={cn('mx-auto flex h-16 w-16 items-center justify-center rounded-full', pending ? 'bg-warning/20 text-foreground' : 'bg-success/15 text-success')}
          aria-hidden="true"
        >
          {approved ? <Award className="h-8 w-8" /> : pending ? <Hourglass className="h-8 w-8" /> : <CircleCheckBig className="h-8 w-8" />}
        </span>
        <h1 className="mt-5 text-3xl font-bold tracking-tight sm:text-4xl" data-testid="result-title">
          {title}
        </h1>
        <p className="mx-auto mt-2 max-w-xl text-muted-foreground">
          {approved
            ? 'Your application was approved and the badge is now yours.'
            : pending
              ? 'PayPal is still processing your payment. Your application moves to review as soon as it completes.'
              : free
                ? 'Your free grant coupon was applied and your application was sent for review.'
                : 'Thank you! Your payment was received and your application was sent for review.'}
        </p>
        {renewal && r.badge && <RenewalNote badgeName={r.badge.name} renewal={renewal} className="mx-auto mt-4 max-w-xl text-left" />}
      </div>

      <Card className="mt-8">
        {r.badge && (
          <div className="flex items-center gap-4 border-b p-6">
            <BadgeIcon icon={r.badge.icon} color={r.badge.color} />
            <div className="min-w-0">
              <p className="text-sm text-muted-foreground">Badge</p>
              <p className="break-words text-lg font-semibold" data-testid="result-badge">
                {r.badge.name}
              </p>
              <Chip tone="outline" className="mt-1">
                {r.badge.category}
              </Chip>
            </div>
          </div>
        )}
        <CardContent className="pt-6">
          <dl className="divide-y text-sm" data-testid="result-details">
            {r.originalAmount !== r.amount && <Row label="Original amount">{money(r.originalAmount)}</Row>}
            {r.discountAmount > 0 && (
              <Row label="Discount">
                <span className="text-success">-{money(r.discountAmount)}</span>
              </Row>
            )}
            {r.minimumAdjustment > 0 && <Row label="Minimum adjustment">+{money(r.minimumAdjustment)}</Row>}
            <Row label={pending ? 'Amount' : 'Amount paid'} strong testid="result-amount">
              {money(r.amount)} {r.currency}
            </Row>
            {r.couponCode && (
              <Row label="Coupon">
                <span className="font-mono">{r.couponCode}</span>
              </Row>
            )}
            <Row label="Payment method">{free ? 'Free grant coupon' : 'PayPal'}</Row>
            <Row label="Payment ID" testid="result-payment-id">
              <span className="font-mono text-xs">{r.paymentId}</span>
            </Row>
            {r.transactionId && (
              <Row label="Transaction ID">
                <span className="font-mono text-xs">{r.transactionId}</span>
              </Row>
            )}
            <Row label="Date"><LocalTime iso={r.completedAt || r.createdAt} withTime testid="result-date" /></Row>
            <Row label="Status" testid="result-status">
              <Chip tone={approved ? 'success' : 'warning'}>{approved ? 'Approved & Granted' : 'Processing'}</Chip>
            </Row>
          </dl>
        </CardContent>
      </Card>

      {!approved && (
        <div className="mt-6 flex items-start gap-3 rounded-xl border bg-muted/40 p-4 text-sm" data-testid="review-note">
          <Mail className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
          <p>
            <span className="font-medium">What happens next?</span> Our team reviews your application within 2-3 business days. You will receive an e-mail notification as soon as it is decided.
          </p>
        </div>
      )}

      <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
        <LinkButton href="/profile" size="lg">
          {approved ? <BadgeCheck /> : <User />} Go to Profile
        </LinkButton>
        <LinkButton href="/badges" size="lg" variant="outline">
          Browse Badges
        </LinkButton>
      </div>
    </Container>
  );
}

function Row({ label, strong, testid, children }: { label: string; strong?: boolean; testid?: string; children: ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-4 py-3">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className={cn('min-w-0 truncate text-right', strong && 'text-base font-semibold')} data-testid={testid}>
        {children}
      </dd>
    </div>
  );
}
