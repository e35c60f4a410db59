import { useState, type FormEvent } from 'react';
import KeyRound from 'lucide-react/icons/key-round';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import { api, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';
import { Button, Card, CardContent, Label } from '../components/ui';
import { PasswordInput, safeNext } from '../components/account';

export type ChangePasswordFormProps = { required: boolean; email: string; next: string };

/** Current password, new password and its confirmation. */
export default function ChangePasswordForm({ required, email, next }: ChangePasswordFormProps) {
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const d = new FormData(e.currentTarget);
    const v = (k: string) => String(d.get(k) || '');
    if (v('newPassword') !== v('confirmPassword')) {
      toastError('Please make sure your passwords match.', "Passwords don't match");
      return;
    }
    setBusy(true);
    try {
      const r = await api<{ msg: string }>('/auth/change-password', { method: 'POST', body: { currentPassword: v('currentPassword'), newPassword: v('newPassword') } });
      toast({ title: 'Password changed', description: r.msg, variant: 'success' });
      window.location.assign(safeNext(next && next !== '/' ? next : required ? '/' : '/profile'));
    } catch (err) {
      toastError(errorMessage(err, 'Could not change the password.'));
      setBusy(false);
    }
  };

  return (
    <Card>
      <CardContent className="pt-6">
        <form method="post" onSubmit={submit} className="space-y-4" aria-busy={busy}>
          {/* a bare input: Input's w-full would stretch the sr-only box past a phone's screen */}
          <input type="email" value={email} readOnly autoComplete="username" className="sr-only" tabIndex={-1} aria-hidden="true" />
          <div className="space-y-2">
            <Label htmlFor="current-password">Current password</Label>
            <PasswordInput id="current-password" name="currentPassword" autoComplete="current-password" required maxLength={128} autoFocus />
          </div>
          <div className="space-y-2">
            <Label htmlFor="new-password">New password</Label>
            <PasswordInput id="new-password" name="newPassword" autoComplete="new-password" required minLength={8} maxLength={128} aria-describedby="new-password-hint" placeholder="At least 8 characters" />
            <p id="new-password-hint" className="text-xs text-muted-foreground">Common or easy-to-guess passwords are refused. A few unrelated words work well.</p>
          </div>
          <div className="space-y-2">
            <Label htmlFor="confirm-password">Confirm new password</Label>
            <PasswordInput id="confirm-password" name="confirmPassword" autoComplete="new-password" required maxLength={128} />
          </div>
          <Button type="submit" className="w-full" disabled={busy} data-testid="change-password-submit">
            {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <KeyRound aria-hidden="true" />}
            {busy ? 'Saving...' : required ? 'Set my password' : 'Change password'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
