import ArrowLeft from 'lucide-react/icons/arrow-left';
import BadgeCheck from 'lucide-react/icons/badge-check';
import ChevronRight from 'lucide-react/icons/chevron-right';
import CircleCheckBig from 'lucide-react/icons/circle-check-big';
import FileSearch from 'lucide-react/icons/file-search';
import Hourglass from 'lucide-react/icons/hourglass';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import SearchX from 'lucide-react/icons/search-x';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Chip, Container, LinkButton } from '../components/ui';
import { Actions, StateCard } from '../components/payment';
import { Island } from '../components/Island';
import { BadgeIcon } from '../components/badges';
import PaymentCheckout, { type Provider, type Quote } from '../islands/PaymentCheckout';
import { LocalTime } from '../components/LocalTime';
import { RenewalNote, type Renewal } from '../components/RenewalNote';

type PageBadge = { _id: string; name: string; category: string; type: string; level: string; icon: string; color: string; price: number };

type Data = {
  state: 'ready' | 'processing' | 'no-application' | 'in-review' | 'approved' | 'rejected' | 'not-found' | string;
  badge: PageBadge | null;
  applicationId: string;
  applicationStatus: string;
  appliedAt: string | null;
  quote: Quote | null;
  lastPayment: { status: string; amount: number; transactionId: string } | null;
};

type Props = { data: Data; provider: Provider; badgeId: string; renewal?: Renewal | null };

/** /payment/:badgeId — pay the fee of the application awaiting payment (or apply a free grant). */
export default function PaymentPage({ data, provider, renewal }: Props) {
  const b = data.badge;
  if (data.state === 'not-found' || !b) return <BadgeNotFound />;
  const applyHref = `/badges/${b._id}`;
  // a badge without a fee has nothing to pay (its application goes straight to review); an
  // application awaiting payment is charged the price it was made at
  const free = data.quote ? data.quote.originalAmount <= 0 : b.price <= 0;
  return (
    <Container className="py-6 sm:py-10">
      <nav aria-label="Breadcrumb" className="mb-6 flex items-center gap-1 text-sm text-muted-foreground">
        <a href="/badges" className="hover:text-foreground">
          Badges
        </a>
        <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
        <a href={applyHref} className="truncate hover:text-foreground">
          {b.name}
        </a>
        <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="text-foreground">Payment</span>
      </nav>

      <div className="flex items-center gap-4 sm:gap-5">
        <BadgeIcon icon={b.icon} color={b.color} />
        <div className="min-w-0">
          <div className="flex flex-wrap gap-2">
            <Chip tone="outline">{b.category}</Chip>
            <Chip tone="secondary">{b.type === 'skill' ? 'Quiz Based' : 'Proof Based'}</Chip>
          </div>
          <h1 className="mt-2 text-2xl font-bold tracking-tight sm:text-3xl" data-testid="payment-title">
            {renewal ? (free ? 'Renewal: no payment needed' : 'Renewal: complete your payment') : free ? 'No payment needed' : 'Complete your payment'}
          </h1>
        </div>
      </div>
      {renewal && <RenewalNote badgeName={b.name} renewal={renewal} className="mt-4" />}

      <div className="mt-8">
        {data.state === 'ready' && data.quote ? (
          <div className="space-y-6">
            <div role="status" className="flex items-start gap-3 rounded-xl border border-success/40 bg-success/10 p-4" data-testid="verification-banner">
              <CircleCheckBig className="mt-0.5 h-5 w-5 shrink-0 text-success" aria-hidden="true" />
              <div>
                <p className="font-semibold">Verification Completed</p>
                <p className="mt-0.5 text-sm text-muted-foreground">
                  Your application for <span className="font-medium text-foreground">{b.name}</span>
                  {data.appliedAt ? <> (submitted <LocalTime iso={data.appliedAt} />)</> : ''} is saved. Pay the fee to send it to our review team.
                </p>
              </div>
            </div>
            <Island
              name="PaymentCheckout"
              component={PaymentCheckout}
              props={{
                badge: { _id: b._id, name: b.name, category: b.category },
                quote: data.quote,
                provider,
                lastPaymentFailed: data.lastPayment?.status === 'failed',
              }}
            />
          </div>
        ) : data.state === 'processing' ? (
          <StateCard icon={<Hourglass className="h-7 w-7" />} tone="warning" title="Your payment is being processed" testid="state-processing">
            <p>PayPal is still processing your payment. Your application moves to review as soon as PayPal completes it; there is nothing more to pay.</p>
            <Actions>
              <LinkButton href={`/payment-success/${b._id}`}>View payment status</LinkButton>
              <LinkButton href="/badges" variant="outline">
                Back to Badges
              </LinkButton>
            </Actions>
          </StateCard>
        ) : data.state === 'in-review' ? (
          <StateCard icon={<FileSearch className="h-7 w-7" />} tone="success" title="Nothing to pay: your application is in review" testid="state-in-review">
            <p>
              {data.lastPayment ? 'This application has been paid.' : 'This badge has no fee, so there was nothing to pay.'} Our team reviews applications within 2-3 business days and e-mails you the result.
            </p>
            <Actions>
              {data.lastPayment ? (
                <LinkButton href={`/payment-success/${b._id}`}>View payment details</LinkButton>
              ) : (
                <LinkButton href={applyHref}>View your application</LinkButton>
              )}
              <LinkButton href="/badges" variant="outline">
                Back to Badges
              </LinkButton>
            </Actions>
          </StateCard>
        ) : data.state === 'approved' ? (
          <StateCard icon={<BadgeCheck className="h-7 w-7" />} tone="success" title="You already own this badge!" testid="state-approved">
            <p>Your application was approved and the badge is yours. Share it from your profile.</p>
            <Actions>
              <LinkButton href="/profile">Go to your profile</LinkButton>
              <LinkButton href="/badges" variant="outline">
                Back to Badges
              </LinkButton>
            </Actions>
          </StateCard>
        ) : data.state === 'rejected' ? (
          <StateCard icon={<RotateCcw className="h-7 w-7" />} tone="primary" title="No payment is due" testid="state-rejected">
            <p>Your last application for this badge was not approved. You can apply again from the badge page; the payment comes after your new application.</p>
            <Actions>
              <LinkButton href={applyHref}>Apply again</LinkButton>
              <LinkButton href="/badges" variant="outline">
                Back to Badges
              </LinkButton>
            </Actions>
          </StateCard>
        ) : (
          <StateCard icon={<ShieldCheck className="h-7 w-7" />} tone="primary" title="No application awaiting payment" testid="state-no-application">
            <p>You have no application for {b.name} waiting for payment. Apply first: the payment step follows your application.</p>
            <Actions>
              <LinkButton href={applyHref}>Go to the badge</LinkButton>
              <LinkButton href="/badges" variant="outline">
                Back to Badges
              </LinkButton>
            </Actions>
          </StateCard>
        )}
      </div>
    </Container>
  );
}

function BadgeNotFound() {
  return (
    <Container className="py-16">
      <StateCard icon={<SearchX className="h-7 w-7" />} tone="primary" title="Badge not found" testid="state-not-found">
        <p>This badge does not exist or is no longer offered.</p>
        <Actions>
          <LinkButton href="/badges" variant="outline">
            <ArrowLeft /> Back to Badges
          </LinkButton>
        </Actions>
      </StateCard>
    </Container>
  );
}
