import { useState, type FormEvent } from 'react';
import KeyRound from 'lucide-react/icons/key-round';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import { api, errorMessage } from '../lib/api';
import { toastError } from '../lib/toast';
import { Button, Card, CardContent, Input, Label } from '../components/ui';
import { PasswordInput } from '../components/account';

export type ResetPasswordFormProps = { email: string; token: string };

/** The New Password form of a reset link; success goes to /login. */
export default function ResetPasswordForm({ email, token }: ResetPasswordFormProps) {
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const d = new FormData(e.currentTarget);
    const pw = String(d.get('newPassword') || '');
    if (pw !== String(d.get('confirmPassword') || '')) {
      toastError('Please make sure your passwords match.', "Passwords don't match");
      return;
    }
    setBusy(true);
    try {
      await api('/auth/reset-password', { method: 'POST', body: { email, token, newPassword: pw } });
      window.location.assign('/login?reset=1');
    } catch (err) {
      toastError(errorMessage(err, 'Could not reset password.'));
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardContent className="pt-6">
        <form method="post" onSubmit={submit} className="space-y-4" aria-busy={busy}>
          <div className="space-y-2">
            <Label htmlFor="reset-email">Email</Label>
            <Input id="reset-email" type="email" value={email} readOnly autoComplete="username" />
          </div>
          <div className="space-y-2">
            <Label htmlFor="reset-password">New Password</Label>
            <PasswordInput id="reset-password" name="newPassword" autoComplete="new-password" required minLength={8} maxLength={128} placeholder="At least 8 characters" aria-describedby="reset-password-hint" autoFocus />
            <p id="reset-password-hint" className="text-xs text-muted-foreground">8 to 128 characters. Common or easy-to-guess passwords are refused. A few unrelated words work well.</p>
          </div>
          <div className="space-y-2">
            <Label htmlFor="reset-confirm">Confirm New Password</Label>
            <PasswordInput id="reset-confirm" name="confirmPassword" autoComplete="new-password" required maxLength={128} placeholder="Repeat the new password" />
          </div>
          <Button type="submit" className="w-full" disabled={busy} data-testid="reset-submit">
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
            {busy ? 'Resetting...' : 'Reset Password'}
          </Button>
        </form>
        <p className="mt-6 text-center text-sm text-muted-foreground">
          Remembered it?{' '}
          <a href="/login" className="font-medium text-primary hover:underline">
            Back to login
          </a>
        </p>
      </CardContent>
    </Card>
  );
}
