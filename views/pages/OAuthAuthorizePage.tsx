import AppWindow from 'lucide-react/icons/app-window';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Check from 'lucide-react/icons/check';
import ExternalLink from 'lucide-react/icons/external-link';
import LinkIcon from 'lucide-react/icons/link';
import UserRound from 'lucide-react/icons/user-round';
import X from 'lucide-react/icons/x';
import { Button, Card, CardContent, LinkButton } from '../components/ui';
import { useShell } from '../lib/shell';

type Scope = { uri: string; title: string; description: string };

export type OAuthAuthorizePageProps = {
  client?: { id: string; name: string; uri: string; policyUri: string; tosUri: string };
  scopes: Scope[];
  /** The authorization request's parameters, posted back with the decision. */
  fields: [string, string][];
  redirectHost: string;
  error?: string;
  /** The heading of the error (default: the link is not valid). */
  errorTitle?: string;
  errorDescription?: string;
};

const scopeIcon = (uri: string) => (uri.endsWith('profile.readonly') ? UserRound : BadgeCheck);

/** /oauth/authorize: a wallet asks the signed-in member to let it read their badges
 * through the Open Badges API. A plain form: Allow and Deny work without JavaScript. */
export default function OAuthAuthorizePage(p: OAuthAuthorizePageProps) {
  const { user } = useShell();
  if (!p.client || p.error) {
    return (
      <div className="mx-auto w-full max-w-md px-4 py-16 sm:py-24">
        <Card>
          <CardContent className="flex flex-col items-center pt-8 text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-destructive/12 text-destructive">
              <LinkIcon className="h-6 w-6" aria-hidden="true" />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight">{p.errorTitle || 'This app link is not valid'}</h1>
            <p className="mt-2 text-muted-foreground" data-testid="oauth-error">
              {p.errorDescription || 'The app that sent you here made a request Meritmark cannot accept.'}
            </p>
            <p className="mt-2 text-sm text-muted-foreground">Nothing was shared. Go back to the app and try connecting again.</p>
            <LinkButton href="/profile" variant="outline" className="mt-6 w-full">
              Go to your profile
            </LinkButton>
          </CardContent>
        </Card>
      </div>
    );
  }
  const c = p.client;
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      <Card>
        <CardContent className="pt-8">
          <div className="flex flex-col items-center text-center">
            <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
              <AppWindow className="h-6 w-6" aria-hidden="true" />
            </span>
            <h1 className="mt-4 text-2xl font-bold tracking-tight" data-testid="oauth-client-name">
              {c.name} wants to access your Meritmark account
            </h1>
            {c.uri && (
              <a href={c.uri} rel="noopener noreferrer" target="_blank" className="mt-2 inline-flex items-center gap-1 break-all text-sm font-medium text-primary hover:underline" data-testid="oauth-client-uri">
                {c.uri} <ExternalLink className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
              </a>
            )}
            {user && (
              <p className="mt-3 text-sm text-muted-foreground">
                Signed in as <span className="font-medium text-foreground">{user.email}</span>
              </p>
            )}
          </div>

          <h2 className="mt-8 text-sm font-semibold">If you allow it, {c.name} will be able to:</h2>
          <ul className="mt-3 space-y-3" data-testid="oauth-scopes">
            {p.scopes.map((s) => {
              const Icon = scopeIcon(s.uri);
              return (
                <li key={s.uri} className="flex gap-3 rounded-lg border p-3">
                  <Icon className="mt-0.5 h-5 w-5 shrink-0 text-primary" aria-hidden="true" />
                  <div>
                    <p className="font-medium">{s.title}</p>
                    <p className="text-sm text-muted-foreground">{s.description}</p>
                  </div>
                </li>
              );
            })}
          </ul>
          <p className="mt-4 text-xs text-muted-foreground">
            It cannot change your badges or your profile. You can revoke its access at any time under Connected Apps on your profile. After
            you decide, you are sent back to <span className="font-medium text-foreground">{p.redirectHost}</span>.
          </p>
          {(c.policyUri || c.tosUri) && (
            <p className="mt-2 text-xs text-muted-foreground">
              {c.policyUri && (
                <a href={c.policyUri} rel="noopener noreferrer" target="_blank" className="underline underline-offset-2">
                  {c.name}'s privacy policy
                </a>
              )}
              {c.policyUri && c.tosUri && ' · '}
              {c.tosUri && (
                <a href={c.tosUri} rel="noopener noreferrer" target="_blank" className="underline underline-offset-2">
                  terms of service
                </a>
              )}
            </p>
          )}

          <form method="post" action="/oauth/authorize" className="mt-6 grid grid-cols-2 gap-3" data-testid="oauth-consent-form">
            {p.fields.map(([k, v], i) => (
              <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
            ))}
            <Button type="submit" name="decision" value="deny" variant="outline" data-testid="oauth-deny">
              <X aria-hidden="true" /> Deny
            </Button>
            <Button type="submit" name="decision" value="allow" data-testid="oauth-allow">
              <Check aria-hidden="true" /> Allow
            </Button>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
