import ArrowLeft from 'lucide-react/icons/arrow-left';
import CircleX from 'lucide-react/icons/circle-x';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Container, LinkButton } from '../components/ui';
import { Actions, StateCard } from '../components/payment';
import { Island } from '../components/Island';
import PaymentRetry from '../islands/PaymentRetry';
import { RenewalNote, type Renewal } from '../components/RenewalNote';

type Props = { badge: { _id: string; name: string } | null; badgeId: string; applicationState?: string; renewal?: Renewal | null };

/** /payment-failed/:badgeId — the payment did not go through; for a badge never applied
 * for there was no payment, and the page says so. */
export default function PaymentFailedPage({ badge, badgeId, applicationState, renewal }: Props) {
  if (badge && applicationState === 'no-application') {
    return (
      <Container className="max-w-2xl py-16">
        <StateCard icon={<ShieldCheck className="h-7 w-7" />} tone="primary" title="No application for this badge" testid="failed-no-application" h1>
          <p>You have not applied for {badge.name}, so there is no payment to retry. Apply first: the payment step follows your application.</p>
          <Actions>
            <LinkButton href={`/badges/${badge._id}`}>Go to the badge</LinkButton>
            <LinkButton href="/badges" variant="outline">
              <ArrowLeft /> Back to Badges
            </LinkButton>
          </Actions>
        </StateCard>
      </Container>
    );
  }
  return (
    <Container className="max-w-2xl py-16 text-center">
      <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-destructive/15 text-destructive" aria-hidden="true">
        <CircleX className="h-8 w-8" />
      </span>
      <h1 className="mt-5 text-3xl font-bold tracking-tight sm:text-4xl" data-testid="failed-title">
        Payment Failed
      </h1>
      <p className="mx-auto mt-3 max-w-lg text-muted-foreground">
        {badge ? (
          <>
            Your payment for <span className="font-medium text-foreground">{badge.name}</span> did not go through.
          </>
        ) : (
          'Your payment did not go through.'
        )}{' '}
        Your application is saved and still waiting for payment: you can try again, or pay with another PayPal funding source.
      </p>
      {badge && renewal && <RenewalNote badgeName={badge.name} renewal={renewal} className="mx-auto mt-4 max-w-lg text-left" />}
      <Island name="PaymentRetry" component={PaymentRetry} props={{ badgeId: badge?._id || badgeId }} />
      <p className="mt-8 text-sm text-muted-foreground">
        Charged but not confirmed? Refunds for duplicate payments or technical errors can be requested within 7 days: see our{' '}
        <a href="/cancellationsandrefunds" className="font-medium text-primary underline-offset-4 hover:underline">
          refund policy
        </a>
        .
      </p>
    </Container>
  );
}
