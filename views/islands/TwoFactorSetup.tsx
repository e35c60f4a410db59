import { useState, type FormEvent } from 'react';
import Check from 'lucide-react/icons/check';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Smartphone from 'lucide-react/icons/smartphone';
import { api, ApiError, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';
import { Button, Card, CardContent, Input, Label, LinkButton } from '../components/ui';
import { PasswordInput, safeNext } from '../components/account';
import { RecoveryCodes } from '../components/RecoveryCodes';

export type TwoFactorSetupProps = { enabled: boolean; required: boolean; next: string };

type Setup = { secret: string; otpauthUrl: string; qr: string };

/** Enrol an authenticator app: QR code (or the secret as text), a first code, then the
 * recovery codes, shown once. */
export default function TwoFactorSetup({ enabled, required, next }: TwoFactorSetupProps) {
  const [busy, setBusy] = useState(false);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [on, setOn] = useState(enabled);
  // replacing the recovery codes: the password and a current authenticator code
  const [replaceErr, setReplaceErr] = useState<{ field: string; msg: string } | null>(null);
  const replace = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    setBusy(true);
    setReplaceErr(null);
    try {
      const r = await api<{ msg: string; recoveryCodes: string[] }>('/auth/2fa/recovery-codes', {
        method: 'POST',
        body: { password: String(f.get('password') || ''), code: String(f.get('code') || '') },
      });
      toast({ title: r.msg, variant: 'success' });
      setCodes(r.recoveryCodes);
    } catch (err) {
      const field = err instanceof ApiError && (err.field === 'password' || err.field === 'code') ? err.field : err instanceof ApiError && err.status === 400 ? 'password' : '';
      if (field) setReplaceErr({ field, msg: errorMessage(err, 'Could not replace the recovery codes.') });
      else toastError(errorMessage(err, 'Could not replace the recovery codes.'));
    } finally {
      setBusy(false);
    }
  };
  const after = safeNext(next && next !== '/' ? next : required ? '/admin' : '/profile');

  const start = async () => {
    setBusy(true);
    try {
      setSetup(await api<Setup>('/auth/2fa/setup', { method: 'POST' }));
    } catch (err) {
      toastError(errorMessage(err, 'Could not start the set-up.'));
    } finally {
      setBusy(false);
    }
  };
  const confirm = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    try {
      const r = await api<{ msg: string; recoveryCodes: string[] }>('/auth/2fa/enable', { method: 'POST', body: { code: String(new FormData(e.currentTarget).get('code') || '') } });
      setCodes(r.recoveryCodes);
      setOn(true);
      toast({ title: 'Two-step sign-in is on', description: r.msg, variant: 'success' });
    } catch (err) {
      toastError(errorMessage(err, 'Could not check the code.'));
    } finally {
      setBusy(false);
    }
  };
  const disable = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setBusy(true);
    try {
      await api('/auth/2fa/disable', { method: 'POST', body: { password: String(new FormData(e.currentTarget).get('password') || '') } });
      setOn(false);
      toast({ title: 'Two-step sign-in is off' });
    } catch (err) {
      toastError(errorMessage(err, 'Could not switch it off.'));
    } finally {
      setBusy(false);
    }
  };

  if (codes) {
    return (
      <Card>
        <CardContent className="space-y-4 pt-6" data-testid="recovery-codes">
          <p className="flex items-center gap-2 font-semibold">
            <Check className="h-5 w-5 text-success" aria-hidden="true" /> Save your recovery codes
          </p>
          <p className="text-sm text-muted-foreground">Each code signs you in once if you lose your phone. They are not shown again.</p>
          <RecoveryCodes codes={codes} />
          <LinkButton href={after} className="w-full" data-testid="mfa-continue">
            I saved them, continue
          </LinkButton>
        </CardContent>
      </Card>
    );
  }
  if (on) {
    return (
      <Card>
        <CardContent className="space-y-4 pt-6">
          <p className="flex items-center gap-2 font-semibold" data-testid="mfa-on">
            <ShieldCheck className="h-5 w-5 text-success" aria-hidden="true" /> Two-step sign-in is on.
          </p>
          {required ? (
            <p className="text-sm text-muted-foreground">Administrators keep it on.</p>
          ) : (
            <form onSubmit={disable} className="space-y-3">
              <Label htmlFor="mfa-off-password">Password, to switch it off</Label>
              <PasswordInput id="mfa-off-password" name="password" autoComplete="current-password" required />
              <Button type="submit" variant="outline" disabled={busy}>
                Switch off
              </Button>
            </form>
          )}
          <form onSubmit={replace} className="space-y-3 border-t pt-4" data-testid="recovery-replace">
            <p className="text-sm font-semibold">Replace recovery codes</p>
            <p className="text-sm text-muted-foreground">Lost them, or used several? New codes replace all the old ones at once.</p>
            <div className="space-y-1.5">
              <Label htmlFor="recovery-password">Current password</Label>
              <PasswordInput id="recovery-password" name="password" autoComplete="current-password" required aria-invalid={replaceErr?.field === 'password' || undefined} aria-describedby={replaceErr?.field === 'password' ? 'recovery-password-error' : undefined} />
              {replaceErr?.field === 'password' && <p id="recovery-password-error" className="text-xs font-medium text-destructive">{replaceErr.msg}</p>}
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="recovery-code">Code from your authenticator app</Label>
              <Input id="recovery-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required placeholder="123456" aria-invalid={replaceErr?.field === 'code' || undefined} aria-describedby={replaceErr?.field === 'code' ? 'recovery-code-error' : undefined} />
              {replaceErr?.field === 'code' && <p id="recovery-code-error" className="text-xs font-medium text-destructive">{replaceErr.msg}</p>}
            </div>
            <Button type="submit" variant="outline" disabled={busy} data-testid="recovery-replace-submit">
              New recovery codes
            </Button>
          </form>
        </CardContent>
      </Card>
    );
  }
  return (
    <Card>
      <CardContent className="space-y-4 pt-6">
        {!setup ? (
          <>
            <p className="text-sm text-muted-foreground">You need an authenticator app (such as Aegis, Google Authenticator or 1Password) on your phone.</p>
            <Button onClick={start} disabled={busy} className="w-full" data-testid="mfa-start">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Smartphone aria-hidden="true" />}
              Set up two-step sign-in
            </Button>
          </>
        ) : (
          <form onSubmit={confirm} className="space-y-4">
            <p className="text-sm">1. Scan this code with your authenticator app.</p>
            <img src={setup.qr} alt="QR code to add Meritmark to an authenticator app" width={200} height={200} className="mx-auto rounded-lg border bg-white p-2" />
            <p className="text-sm text-muted-foreground">
              Or type this key: <code className="break-all rounded bg-muted px-1.5 py-0.5 text-xs text-foreground" data-testid="mfa-secret">{setup.secret}</code>
            </p>
            <div className="space-y-2">
              <Label htmlFor="mfa-code">2. Enter the 6-digit code it shows</Label>
              <Input id="mfa-code" name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} required placeholder="123456" />
            </div>
            <Button type="submit" className="w-full" disabled={busy} data-testid="mfa-confirm">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
              Turn on
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
