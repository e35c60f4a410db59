import Award from 'lucide-react/icons/award';
import LinkIcon from 'lucide-react/icons/link';
import { Island } from '../components/Island';
import { Card, CardContent, LinkButton } from '../components/ui';
import { LocalTime } from '../components/LocalTime';
import ClaimAward from '../islands/ClaimAward';

export type ClaimAwardPageProps = {
  token: string;
  state: 'ready' | 'signin' | 'wrong' | 'claimed' | 'withdrawn' | 'expired' | 'invalid' | string;
  badgeName: string;
  badgeId: string;
  maskedEmail: string;
  note: string;
  expiresAt: string | null;
  unconfirmed?: boolean;
  nameInCredentials?: boolean;
};

/** /claim/{token}: a badge awarded directly to an e-mail address. */
export default function ClaimAwardPage(p: ClaimAwardPageProps) {
  const next = p.token ? `/claim/${p.token}` : '/';
  const bad = p.state === 'invalid' || p.state === 'expired' || p.state === 'claimed' || p.state === 'withdrawn';
  return (
    <div className="mx-auto w-full max-w-md px-4 py-16 sm:py-24">
      <Card>
        <CardContent className="flex flex-col items-center pt-8 text-center">
          <span className={`flex h-12 w-12 items-center justify-center rounded-full ${bad ? 'bg-destructive/12 text-destructive' : 'bg-primary/10 text-primary'}`}>
            {bad ? <LinkIcon className="h-6 w-6" aria-hidden="true" /> : <Award className="h-6 w-6" aria-hidden="true" />}
          </span>
          {p.state === 'invalid' && (
            <>
              <h1 className="mt-4 text-2xl font-bold tracking-tight">Invalid Claim Link</h1>
              <p className="mt-2 text-muted-foreground">This claim link is not valid. Open the link from your award e-mail again.</p>
            </>
          )}
          {p.state !== 'invalid' && <h1 className="mt-4 text-2xl font-bold tracking-tight">You have been awarded the {p.badgeName} badge</h1>}
          {p.note && !bad && <p className="mt-3 rounded-md bg-muted px-3 py-2 text-sm">“{p.note}”</p>}
          {p.state === 'claimed' && <p className="mt-2 text-muted-foreground">This award has already been claimed.</p>}
          {p.state === 'withdrawn' && <p className="mt-2 text-muted-foreground">This award has been withdrawn by the issuer.</p>}
          {p.state === 'expired' && <p className="mt-2 text-muted-foreground">This claim link has expired. Ask the issuer to send the award again.</p>}
          {p.state === 'signin' && (
            <>
              <p className="mt-2 text-muted-foreground">
                Sign in or create an account with <strong>{p.maskedEmail}</strong> to claim it{p.expiresAt ? <> before <LocalTime iso={p.expiresAt} /></> : ''}.
              </p>
              <p className="mt-2 text-sm text-muted-foreground" data-testid="claim-confirm-note">
                A new account&apos;s address must be confirmed first: we e-mail you a link when you sign up.
              </p>
              <div className="mt-6 grid w-full gap-2">
                <LinkButton href={`/login?next=${encodeURIComponent(next)}`}>Sign in to claim</LinkButton>
                <LinkButton variant="outline" href={`/signup?next=${encodeURIComponent(next)}`}>Create an account</LinkButton>
              </div>
            </>
          )}
          {p.state === 'wrong' && (
            <p className="mt-2 text-muted-foreground">
              This award was sent to <strong>{p.maskedEmail}</strong>. Sign in with that address to claim it.
            </p>
          )}
          {p.state === 'ready' && p.unconfirmed && (
            <p className="mt-3 rounded-md border border-warning/60 bg-warning/10 px-3 py-2 text-sm" data-testid="claim-unconfirmed">
              Please confirm your e-mail address first (use the link we sent you, or send a new one from your profile), then claim the badge.
            </p>
          )}
          {p.state === 'ready' && (
            <div className="mt-6 w-full">
              <Island name="ClaimAward" component={ClaimAward} props={{ token: p.token, badgeName: p.badgeName, nameInCredentials: !!p.nameInCredentials }} />
            </div>
          )}
          {bad && (
            <LinkButton href="/badges" variant="outline" className="mt-6 w-full">
              Browse badges
            </LinkButton>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
