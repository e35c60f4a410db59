import { useEffect, useState } from 'react';
import KeyRound from 'lucide-react/icons/key-round';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import LogOut from 'lucide-react/icons/log-out';
import MailWarning from 'lucide-react/icons/mail-warning';
import Monitor from 'lucide-react/icons/monitor';
import Send from 'lucide-react/icons/send';
import ShieldCheck from 'lucide-react/icons/shield-check';
import X from 'lucide-react/icons/x';
import { api, errorMessage } from '../lib/api';
import { useResource } from '../lib/hooks/useResource';
import { toast, toastError } from '../lib/toast';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, LinkButton } from '../components/ui';
import { LocalTime } from '../components/LocalTime';

export type AccountSecurityProps = { email: string; emailVerified: boolean; twoFactorEnabled: boolean; waitingBadges?: string[] };

type Session = { id: string; device: string; ip: string; createdAt: string; lastSeenAt: string; current: boolean };

/** The profile's account security section: e-mail confirmation, password, two-factor
 * sign-in and the signed-in devices. */
export default function AccountSecurity({ email, emailVerified, twoFactorEnabled, waitingBadges = [] }: AccountSecurityProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const loaded = useResource<{ sessions: Session[] }>('/auth/sessions');
  // devices signed out here, left out of the list without asking the server again
  const [ended, setEnded] = useState<string[]>([]);
  const sessions = loaded.data ? loaded.data.sessions.filter((x) => !ended.includes(x.id)) : null;
  useEffect(() => {
    if (loaded.error) toastError(errorMessage(loaded.error, 'Could not load your devices.'));
  }, [loaded.error]);

  const resend = async () => {
    setBusy('resend');
    try {
      const r = await api<{ msg: string }>('/auth/resend-verification', { method: 'POST' });
      toast({ title: 'Confirmation sent', description: r.msg });
    } catch (err) {
      toastError(errorMessage(err, 'Could not send the confirmation email.'));
    } finally {
      setBusy(null);
    }
  };
  const end = async (s: Session) => {
    setBusy(s.id);
    try {
      await api(`/auth/sessions/${s.id}`, { method: 'DELETE' });
      if (s.current) return window.location.assign('/login');
      setEnded((list) => [...list, s.id]);
      toast({ title: 'Signed out', description: `${s.device} was signed out.` });
    } catch (err) {
      toastError(errorMessage(err, 'Could not sign that device out.'));
    } finally {
      setBusy(null);
    }
  };
  const everywhere = async () => {
    setBusy('all');
    try {
      await api('/auth/logout-everywhere', { method: 'POST' });
      window.location.assign('/login');
    } catch (err) {
      toastError(errorMessage(err, 'Could not sign out everywhere.'));
      setBusy(null);
    }
  };

  return (
    <div className="mt-6 space-y-6" data-testid="account-security">
      {!emailVerified && (
        <Card className="border-amber-500/40" data-testid="email-unverified">
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <MailWarning className="h-5 w-5 text-amber-600 dark:text-amber-400" aria-hidden="true" /> Confirm your email address
            </CardTitle>
            <CardDescription>
              We sent a link to <span className="font-medium text-foreground">{email}</span>. You can take quizzes and apply now; badges approved for you
              are issued once you open the link.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {waitingBadges.length > 0 && (
              <p className="rounded-md bg-amber-500/10 px-3 py-2 text-sm text-amber-800 dark:text-amber-300" data-testid="grant-waiting" role="status">
                {waitingBadges.length === 1 ? (
                  <>
                    Your <span className="font-medium">{waitingBadges[0]}</span> badge is approved and waits for this confirmation: its credential is issued
                    when you open the link.
                  </>
                ) : (
                  <>
                    {waitingBadges.length} approved badges wait for this confirmation ({waitingBadges.join(', ')}): their credentials are issued when you open
                    the link.
                  </>
                )}
              </p>
            )}
            <Button variant="outline" onClick={resend} disabled={busy === 'resend'} data-testid="resend-verification">
              {busy === 'resend' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
              Send a new link
            </Button>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <ShieldCheck className="h-5 w-5 text-primary" aria-hidden="true" /> Security
          </CardTitle>
          <CardDescription>Your password, two-step sign-in and the devices signed in to your account.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <div className="flex flex-wrap gap-3">
            <LinkButton href="/account/password" variant="outline">
              <KeyRound aria-hidden="true" /> Change password
            </LinkButton>
            <LinkButton href="/account/two-factor" variant="outline" data-testid="two-factor-link">
              <ShieldCheck aria-hidden="true" /> {twoFactorEnabled ? 'Two-step sign-in: on' : 'Set up two-step sign-in'}
            </LinkButton>
          </div>
          <div>
            <h3 className="text-sm font-semibold">Signed-in devices</h3>
            {sessions === null ? (
              <p className="mt-2 text-sm text-muted-foreground">Loading…</p>
            ) : (
              <ul className="mt-2 divide-y rounded-lg border" data-testid="session-list">
                {sessions.map((s) => (
                  <li key={s.id} className="flex items-center gap-3 p-3" data-testid="session-row">
                    <Monitor className="h-5 w-5 shrink-0 text-muted-foreground" aria-hidden="true" />
                    <div className="min-w-0 flex-1">
                      <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                        {s.device} {s.current && <Chip className="text-xs">This device</Chip>}
                      </p>
                      <p className="truncate text-xs text-muted-foreground">
                        {s.ip} · last used <LocalTime iso={s.lastSeenAt} withTime /> · signed in <LocalTime iso={s.createdAt} withTime />
                      </p>
                    </div>
                    <Button variant="ghost" size="sm" onClick={() => end(s)} disabled={busy === s.id} aria-label={`Sign out ${s.device}`}>
                      <X aria-hidden="true" /> Sign out
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <Button variant="outline" className="mt-3" onClick={everywhere} disabled={busy === 'all'} data-testid="logout-everywhere">
              {busy === 'all' ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <LogOut aria-hidden="true" />}
              Sign out everywhere
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
