import { useState } from 'react';
import BadgeCheck from 'lucide-react/icons/badge-check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import MailCheck from 'lucide-react/icons/mail-check';
import MailX from 'lucide-react/icons/mail-x';
import { api, errorMessage } from '../lib/api';
import { Button, Card, CardContent, LinkButton } from '../components/ui';

/** member: who is signed in on this browser (from the page; null when nobody is). */
export type VerifyEmailCardProps = { token: string; member: { name: string; email: string } | null };

type State = { kind: 'ready' } | { kind: 'busy' } | { kind: 'done'; grants: number } | { kind: 'failed'; msg: string };

/** One button that confirms the address of the link's token. */
export default function VerifyEmailCard({ token, member }: VerifyEmailCardProps) {
  const user = member;
  const [state, setState] = useState<State>(token ? { kind: 'ready' } : { kind: 'failed', msg: 'This confirmation link is incomplete. Open the link from your email again.' });

  const confirm = async () => {
    setState({ kind: 'busy' });
    try {
      const r = await api<{ msg: string; grantsIssued: number }>('/auth/verify-email', { method: 'POST', body: { token } });
      setState({ kind: 'done', grants: r.grantsIssued });
    } catch (err) {
      setState({ kind: 'failed', msg: errorMessage(err, 'Could not confirm your email.') });
    }
  };

  return (
    <Card>
      <CardContent className="flex flex-col items-center pt-8 text-center" data-testid="verify-email-card">
        {state.kind === 'done' ? (
          <>
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-emerald-500/12 text-emerald-600 dark:text-emerald-400">
              <BadgeCheck className="h-6 w-6" aria-hidden="true" />
            </span>
            <h2 className="mt-4 text-xl font-semibold" data-testid="verify-email-done">Your email address is confirmed.</h2>
            <p className="mt-2 text-muted-foreground">
              {state.grants > 0
                ? `${state.grants === 1 ? 'One approved badge was' : `${state.grants} approved badges were`} waiting for it and ${state.grants === 1 ? 'is' : 'are'} now on your profile.`
                : 'Badges you earn are now issued to this address.'}
            </p>
            <LinkButton href={user ? '/profile' : '/login'} className="mt-6 w-full">
              {user ? 'Go to my profile' : 'Log in'}
            </LinkButton>
          </>
        ) : state.kind === 'failed' ? (
          <>
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-destructive/12 text-destructive">
              <MailX className="h-6 w-6" aria-hidden="true" />
            </span>
            <h2 className="mt-4 text-xl font-semibold">Link not valid</h2>
            <p className="mt-2 text-muted-foreground" role="alert">{state.msg}</p>
            <LinkButton href={user ? '/profile' : '/login'} className="mt-6 w-full">
              {user ? 'Go to my profile' : 'Log in'}
            </LinkButton>
          </>
        ) : (
          <>
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/12 text-primary">
              <MailCheck className="h-6 w-6" aria-hidden="true" />
            </span>
            <p className="mt-4 text-muted-foreground">Confirm that this address is yours to receive the badges you earn.</p>
            {user && (
              <p className="mt-2 text-sm text-muted-foreground" data-testid="verify-email-member">
                You are signed in as <span className="font-medium text-foreground">{user.name}</span> ({user.email}).
              </p>
            )}
            <Button onClick={confirm} disabled={state.kind === 'busy'} className="mt-6 w-full" data-testid="verify-email-submit">
              {state.kind === 'busy' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <MailCheck aria-hidden="true" />}
              {state.kind === 'busy' ? 'Confirming...' : 'Confirm my email'}
            </Button>
          </>
        )}
      </CardContent>
    </Card>
  );
}
