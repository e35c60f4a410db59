import { useState, type FormEvent } from 'react';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import UserPlus from 'lucide-react/icons/user-plus';
import { api, ApiError } from '../lib/api';
import { toastError } from '../lib/toast';
import { Button, Card, CardContent, Input, Label } from '../components/ui';
import { FormError, PasswordInput, safeNext } from '../components/account';

const MSG_CHECK_INBOX = 'Check your inbox: if this address already has an account, we have emailed its owner. Log in instead, or use Forgot Password.';

/** error, name and email come back from a plain form post (JavaScript off) that failed;
 * from a claim link, email is the address the award was sent to and claimBadge its badge. */
export type SignupFormProps = { next: string; error?: string; name?: string; email?: string; claimBadge?: string };

/** Full name, email, password and confirmation; signs the new member in. */
export default function SignupForm({ next, error, name, email, claimBadge }: SignupFormProps) {
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const d = new FormData(e.currentTarget);
    const v = (k: string) => String(d.get(k) || '');
    if (v('password') !== v('confirmPassword')) {
      toastError('Please make sure your passwords match.', "Passwords don't match");
      return;
    }
    setBusy(true);
    try {
      // register answers the same whether or not the address has an account (the owner
      // of an existing one is mailed instead); signing in comes next, as the spec says
      await api('/auth/register', { method: 'POST', body: { name: v('name'), email: v('email'), password: v('password') } });
      try {
        await api('/auth/login', { method: 'POST', body: { email: v('email'), password: v('password') } });
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          // the address already had an account (with another password): its owner was mailed
          toastError(MSG_CHECK_INBOX, 'Signup Failed');
          setBusy(false);
          return;
        }
        throw err;
      }
      window.location.assign(safeNext(next));
    } catch (err) {
      // a reason the member can act on (email taken, invalid field, rate limit) is shown;
      // anything else gets the spec's 'Please try again'
      const known = err instanceof ApiError && [400, 429].includes(err.status);
      toastError(known ? (err as ApiError).message : 'Please try again', 'Signup Failed');
      setBusy(false);
    }
  };

  const loginHref = next && next !== '/' ? `/login?next=${encodeURIComponent(next)}` : '/login';
  return (
    <Card>
      <CardContent className="pt-6">
        {error && <FormError message={error} />}
        {claimBadge && (
          <div role="note" className="mb-4 rounded-lg border border-primary/30 bg-primary/5 px-4 py-3 text-sm [overflow-wrap:anywhere]" data-testid="signup-claim-note">
            <p className="font-medium">The {claimBadge} badge was awarded to {email}.</p>
            <p className="mt-1 text-muted-foreground">
              Create your account with this address, then confirm it with the link we e-mail you: the badge can be claimed once the address is confirmed.
            </p>
          </div>
        )}
        {/* without JavaScript the browser posts this form to /signup (urlencoded) */}
        <form method="post" action="/signup" onSubmit={submit} className="space-y-4" aria-busy={busy}>
          <input type="hidden" name="next" value={next} />
          <div className="space-y-2">
            <Label htmlFor="signup-name">Full name</Label>
            <Input id="signup-name" name="name" autoComplete="name" required maxLength={100} placeholder="Jane Doe" defaultValue={name} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="signup-email">Email</Label>
            <Input id="signup-email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" defaultValue={email} />
          </div>
          <div className="space-y-2">
            <Label htmlFor="signup-password">Password</Label>
            <PasswordInput id="signup-password" name="password" autoComplete="new-password" required minLength={8} maxLength={128} aria-describedby="signup-password-hint" placeholder="At least 8 characters" />
            <p id="signup-password-hint" className="text-xs text-muted-foreground">
              8 to 128 characters. Common or easy-to-guess passwords are refused. A few unrelated words work well.
            </p>
          </div>
          <div className="space-y-2">
            <Label htmlFor="signup-confirm">Confirm password</Label>
            <PasswordInput id="signup-confirm" name="confirmPassword" autoComplete="new-password" required maxLength={128} placeholder="Repeat your password" />
          </div>
          <Button type="submit" className="w-full" disabled={busy} data-testid="signup-submit">
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <UserPlus aria-hidden="true" />}
            {busy ? 'Creating account...' : 'Create account'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Already have an account?{' '}
          <a href={loginHref} className="font-medium text-primary hover:underline">
            Log in
          </a>
        </p>
      </CardContent>
    </Card>
  );
}
