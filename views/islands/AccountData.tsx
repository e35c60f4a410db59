import { useState, type FormEvent } from 'react';
import Download from 'lucide-react/icons/download';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Trash2 from 'lucide-react/icons/trash-2';
import { API_BASE, api, errorMessage } from '../lib/api';
import { setNotice } from '../lib/notice';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label, buttonClass } from '../components/ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../components/dialog';
import { PasswordInput } from '../components/account';

export type AccountDataProps = { twoFactorEnabled: boolean; badgeCount: number };

/** The profile's "Your data" section: download everything as a zip, or delete the account
 * (confirmed with the password and, when two-step sign-in is on, a code). */
export default function AccountData({ twoFactorEnabled, badgeCount }: AccountDataProps) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // a fresh form each time the dialog opens (adjusted during render, not in an effect)
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setPassword('');
      setCode('');
      setError('');
    }
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const r = await api<{ msg: string; redirect?: string }>('/users/delete', { method: 'POST', body: { password, code: code.trim() } });
      setNotice({ title: 'Account deleted', description: r.msg });
      window.location.assign(r.redirect || '/');
    } catch (err) {
      setError(errorMessage(err, 'Could not delete your account.'));
      setBusy(false);
    }
  };

  return (
    <Card className="mt-6" data-testid="your-data">
      <CardHeader>
        <CardTitle as="h2">Your data</CardTitle>
        <CardDescription>Download a copy of everything we keep about you, or delete your account.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-6 sm:flex-row sm:items-start sm:justify-between">
        <div className="max-w-md space-y-2">
          <p className="text-sm text-muted-foreground">
            A zip file with your profile, applications, quiz results, payments, badges (with their signed credentials) and the files you uploaded.
          </p>
          <a className={buttonClass('outline')} href={`${API_BASE}/users/export`} download data-testid="download-data">
            <Download aria-hidden="true" /> Download your data
          </a>
        </div>
        <div className="max-w-md space-y-2">
          <p className="text-sm text-muted-foreground">Deletes your account and revokes your badges for good. This cannot be undone.</p>
          <Button variant="destructive" onClick={() => setOpen(true)} data-testid="delete-account">
            <Trash2 aria-hidden="true" /> Delete account
          </Button>
        </div>
      </CardContent>

      <Dialog open={open} onOpenChange={(v) => !busy && setOpen(v)}>
        <DialogContent role="alertdialog" aria-describedby="delete-account-consequences">
          <form onSubmit={submit} noValidate>
            <DialogHeader>
              <DialogTitle>Delete your account?</DialogTitle>
              <DialogDescription id="delete-account-consequences">
                {badgeCount > 0
                  ? `Your ${badgeCount === 1 ? 'badge is' : `${badgeCount} badges are`} revoked for good: anyone checking ${badgeCount === 1 ? 'it' : 'them'} will see it was revoked. `
                  : ''}
                Your profile, applications and uploaded files are erased and you are signed out everywhere. Payment records are kept without your name, as
                accounting requires. This cannot be undone.
              </DialogDescription>
            </DialogHeader>
            <div className="mt-4 space-y-4">
              <div className="space-y-2">
                <Label htmlFor="delete-password">Your password</Label>
                <PasswordInput
                  id="delete-password"
                  name="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.target.value)}
                  aria-invalid={!!error || undefined}
                  aria-describedby={error ? 'delete-error' : undefined}
                />
              </div>
              {twoFactorEnabled && (
                <div className="space-y-2">
                  <Label htmlFor="delete-code">Code from your authenticator app</Label>
                  <Input
                    id="delete-code"
                    name="code"
                    inputMode="numeric"
                    autoComplete="one-time-code"
                    maxLength={6}
                    required
                    placeholder="123456"
                    value={code}
                    onChange={(e) => setCode(e.target.value)}
                    aria-describedby={error ? 'delete-error' : undefined}
                  />
                </div>
              )}
              {error && (
                <p id="delete-error" role="alert" className="text-sm font-medium text-destructive" data-testid="delete-error">
                  {error}
                </p>
              )}
            </div>
            <DialogFooter className="mt-6">
              <Button variant="outline" onClick={() => setOpen(false)} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={busy || !password || (twoFactorEnabled && !code.trim())} data-testid="confirm-delete">
                {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
                {busy ? 'Deleting…' : 'Delete my account'}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  );
}
