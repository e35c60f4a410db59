// The quiz page when there is nothing to take (the server's app/quiz StateForPage): the
// badge is owned ('Badge Already Owned - You already own this badge!'), the application
// awaits payment, or it is being reviewed; each with its next step, never Try Again.
import ArrowLeft from 'lucide-react/icons/arrow-left';
import ArrowRight from 'lucide-react/icons/arrow-right';
import BadgeCheck from 'lucide-react/icons/badge-check';
import CreditCard from 'lucide-react/icons/credit-card';
import Hourglass from 'lucide-react/icons/hourglass';
import { Card, LinkButton } from '../ui';

export type PageState = {
  blocked: '' | 'owned' | 'payment' | 'pending' | string;
  title: string;
  message: string;
  nextHref: string;
  nextLabel: string;
  continueHref?: string;
  renewal?: boolean;
  renewalLabel?: string;
  renewalNeeds?: string;
};

/** The spec's words when the badge is owned. */
export const OWNED_MSG = 'You already own this badge!';

export function Blocked({ state, badgeId }: { state: PageState; badgeId: string }) {
  const Icon = state.blocked === 'owned' ? BadgeCheck : state.blocked === 'payment' ? CreditCard : Hourglass;
  const NextIcon = state.blocked === 'payment' ? CreditCard : ArrowRight;
  return (
    <Card className="mx-auto w-full max-w-xl text-center" data-testid="quiz-blocked" data-state={state.blocked}>
      <div className="flex flex-col items-center p-8 sm:p-10">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-primary/10 text-primary">
          <Icon className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight">{state.title}</h1>
        <p className="mt-2 text-muted-foreground" role="status" data-testid="quiz-blocked-message">
          {state.message}
        </p>
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-center">
          <LinkButton href="/badges" variant="outline">
            <ArrowLeft /> Back to Badges
          </LinkButton>
          {state.nextHref && (
            <LinkButton href={state.nextHref} data-testid="quiz-blocked-next">
              <NextIcon /> {state.nextLabel}
            </LinkButton>
          )}
          {state.blocked === 'owned' && badgeId && (
            <LinkButton href="/profile" variant="ghost">
              Your profile
            </LinkButton>
          )}
        </div>
      </div>
    </Card>
  );
}
