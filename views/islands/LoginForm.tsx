import { useState, type FormEvent } from 'react';
import CircleCheck from 'lucide-react/icons/circle-check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import LogIn from 'lucide-react/icons/log-in';
import Mail from 'lucide-react/icons/mail';
import { api, ApiError, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';
import { useFormSubmit } from '../lib/hooks/useFormSubmit';
import { useHydrated } from '../lib/hooks/useHydrated';
import { Button, Card, CardContent, Input, Label } from '../components/ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../components/dialog';
import { FormError, PasswordInput, safeNext } from '../components/account';

/** error and email come back from a plain form post (JavaScript off) that failed. */
export type LoginFormProps = { next: string; reset: boolean; error?: string; email?: string; forgot?: boolean; forgotError?: string; notice?: string };

/** Email and password, Sign in, the Forgot Password dialog and a link to sign up. Without
 * JavaScript, Forgot Password is a link to /login?forgot=1, which shows its form as a
 * plain form posted to /forgot-password (notice is that post's answer). */
export default function LoginForm({ next, reset, error, email: typed, forgot, forgotError, notice }: LoginFormProps) {
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [forgotOpen, setForgotOpen] = useState(false);
  const [email, setEmail] = useState(typed || '');
  const [mfa, setMfa] = useState(false);
  const [recovery, setRecovery] = useState(false);

  const submitCode = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const code = String(new FormData(e.currentTarget).get('code') || '');
    setBusy(true);
    try {
      await api('/auth/login/2fa', { method: 'POST', body: recovery ? { recoveryCode: code } : { code } });
      window.location.assign(safeNext(next));
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) setMfa(false); // the sign-in expired: start again
      toastError(errorMessage(err, 'Please check the code'), 'Login Failed');
      setBusy(false);
    }
  };

  if (mfa) {
    return (
      <Card>
        <CardContent className="pt-6">
          <form method="post" onSubmit={submitCode} className="space-y-4" aria-busy={busy} data-testid="mfa-form">
            <div className="space-y-2">
              <Label htmlFor="login-code">{recovery ? 'Recovery code' : 'Authentication code'}</Label>
              <Input
                key={recovery ? 'r' : 'c'}
                id="login-code"
                name="code"
                autoComplete="one-time-code"
                inputMode={recovery ? 'text' : 'numeric'}
                required
                autoFocus
                maxLength={recovery ? 16 : 6}
                placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
              />
              <p className="text-xs text-muted-foreground">
                {recovery ? 'Each recovery code works once.' : 'Open your authenticator app and enter the 6-digit code for Meritmark.'}
              </p>
            </div>
            <Button type="submit" className="w-full" disabled={busy} data-testid="mfa-submit">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogIn aria-hidden="true" />}
              {busy ? 'Checking...' : 'Verify and sign in'}
            </Button>
            <button type="button" className="w-full text-center text-sm font-medium text-primary hover:underline" onClick={() => setRecovery(!recovery)}>
              {recovery ? 'Use a code from the app instead' : 'Use a recovery code instead'}
            </button>
          </form>
        </CardContent>
      </Card>
    );
  }

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const d = new FormData(e.currentTarget);
    setBusy(true);
    try {
      const r = await api<{ mfaRequired?: boolean }>('/auth/login', { method: 'POST', body: { email: String(d.get('email') || ''), password: String(d.get('password') || '') } });
      if (r.mfaRequired) {
        setMfa(true);
        setBusy(false);
        return;
      }
      await api('/auth/me');
      window.location.assign(safeNext(next));
    } catch (err) {
      // the spec's toast whatever the cause; a rate limit says how long to wait instead
      const wait = err instanceof ApiError && err.status === 429;
      toastError(wait ? err.message : 'Please check your credentials', 'Login Failed');
      setBusy(false);
    }
  };

  const signupHref = next && next !== '/' ? `/signup?next=${encodeURIComponent(next)}` : '/signup';
  return (
    <>
      {reset && (
        <div role="status" className="mb-4 flex items-start gap-2 rounded-lg border border-success/40 bg-success/10 px-4 py-3 text-sm">
          <CircleCheck className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden="true" />
          Your password has been reset. Sign in with your new password.
        </div>
      )}
      {notice && (
        <div role="status" className="mb-4 flex items-start gap-2 rounded-lg border border-success/40 bg-success/10 px-4 py-3 text-sm" data-testid="forgot-sent">
          <CircleCheck className="mt-0.5 h-4 w-4 shrink-0 text-success" aria-hidden="true" />
          {notice}
        </div>
      )}
      {forgot && (
        <Card className="mb-4">
          <CardContent className="pt-6">
            <h2 id="forgot-heading" className="text-lg font-semibold">
              Forgot Password
            </h2>
            <p className="mb-4 mt-1 text-sm text-muted-foreground">Enter the email of your account and we'll send you a link to choose a new password.</p>
            {forgotError && <FormError message={forgotError} />}
            <form method="post" action="/forgot-password" className="space-y-4" data-testid="forgot-page-form">
              <div className="space-y-2">
                <Label htmlFor="forgot-page-email">Email</Label>
                <Input id="forgot-page-email" name="email" type="email" autoComplete="email" required defaultValue={typed || ''} placeholder="you@example.com" />
              </div>
              <Button type="submit" className="w-full">
                <Mail aria-hidden="true" /> Send Reset Link
              </Button>
            </form>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardContent className="pt-6">
          {error && <FormError message={error} />}
          {/* without JavaScript the browser posts this form to /login (urlencoded) */}
          <form method="post" action="/login" onSubmit={submit} className="space-y-4" aria-busy={busy}>
            <input type="hidden" name="next" value={next} />
            <div className="space-y-2">
              <Label htmlFor="login-email">Email</Label>
              <Input id="login-email" name="email" type="email" autoComplete="email" required placeholder="you@example.com" value={email} onChange={(e) => setEmail(e.target.value)} />
            </div>
            <div className="space-y-2">
              <div className="flex items-center justify-between">
                <Label htmlFor="login-password">Password</Label>
                {hydrated ? (
                  <button type="button" className="text-sm font-medium text-primary hover:underline" onClick={() => setForgotOpen(true)}>
                    Forgot Password?
                  </button>
                ) : (
                  <a href="/login?forgot=1#forgot-heading" className="text-sm font-medium text-primary hover:underline">
                    Forgot Password?
                  </a>
                )}
              </div>
              <PasswordInput id="login-password" name="password" autoComplete="current-password" required placeholder="Your password" />
            </div>
            <Button type="submit" className="w-full" disabled={busy} data-testid="login-submit">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogIn aria-hidden="true" />}
              {busy ? 'Signing in...' : 'Sign in'}
            </Button>
          </form>
          <p className="mt-6 text-center text-sm text-muted-foreground">
            Don't have an account?{' '}
            <a href={signupHref} className="font-medium text-primary hover:underline">
              Sign up
            </a>
          </p>
        </CardContent>
      </Card>
      <ForgotPasswordDialog open={forgotOpen} onOpenChange={setForgotOpen} initialEmail={email} />
    </>
  );
}

function ForgotPasswordDialog({ open, onOpenChange, initialEmail }: { open: boolean; onOpenChange: (o: boolean) => void; initialEmail: string }) {
  const { busy, onSubmit: submit } = useFormSubmit(
    async (data) => {
      const email = String(data.get('email') || '').trim();
      await api('/auth/forgot-password', { method: 'POST', body: { email } });
      toast({ title: 'Reset Email Sent', description: 'Check your inbox for a password reset link.', variant: 'success' });
      onOpenChange(false);
    },
    (err) => toastError(errorMessage(err, 'Failed to send reset email.')),
  );
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent aria-describedby="forgot-desc">
        <DialogHeader>
          <DialogTitle>Forgot Password</DialogTitle>
          <DialogDescription id="forgot-desc">Enter the email of your account and we'll send you a link to choose a new password.</DialogDescription>
        </DialogHeader>
        <form method="post" onSubmit={submit} className="space-y-4">
          <div className="space-y-2">
            <Label htmlFor="forgot-email">Email</Label>
            <Input id="forgot-email" name="email" type="email" autoComplete="email" required defaultValue={initialEmail} placeholder="you@example.com" autoFocus />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} data-testid="forgot-submit">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Mail aria-hidden="true" />}
              {busy ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
