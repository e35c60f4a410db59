// 'Award by e-mail' (Badge Management tab): award a badge directly to an e-mail address,
// with or without an account. POST /admin/awards mails the recipient a single-use claim
// link; the credential is issued when they sign in with that address and claim it.
import { useEffect, useState, type FormEvent } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import Send from 'lucide-react/icons/send';
import { Button, Card, Input, Label, Textarea } from '../ui';
import { api } from '../../lib/api';
import { NativeSelect, toastFail, toastSuccess, type AdminBadge } from './BadgeAdminKit';

export function AwardByEmail() {
  const [badges, setBadges] = useState<AdminBadge[]>([]);
  const [badgeId, setBadgeId] = useState('');
  const [email, setEmail] = useState('');
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState('');

  // the badge list is read when the form is shown and again each time the list is opened
  // (focus), so a badge created or activated meanwhile is offered
  const loadBadges = () => {
    api<AdminBadge[]>('/badge-management/badges').then(setBadges, () => {});
  };
  useEffect(loadBadges, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setSent('');
    try {
      const r = await api<{ msg: string; award: { email: string; badgeName: string } }>('/admin/awards', { body: { badgeId, email, note } });
      toastSuccess(r.msg);
      setSent(`Sent: ${r.award.badgeName} to ${r.award.email}`);
      setEmail('');
      setNote('');
    } catch (err) {
      toastFail(err, 'Failed to send the award');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card className="mt-6 p-5" data-testid="award-by-email">
      <h3 className="text-lg font-semibold tracking-tight">Award by e-mail</h3>
      <p className="mt-1 text-sm text-muted-foreground">
        Award a badge to anyone by e-mail address, with or without an account. They get a claim link valid for 30 days; the badge is issued when they sign in with that address.
      </p>
      <form className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-2" onSubmit={submit}>
        <div className="space-y-1.5">
          <Label htmlFor="award-badge">Badge</Label>
          <NativeSelect id="award-badge" value={badgeId} onChange={(e) => setBadgeId(e.target.value)} onFocus={loadBadges} required>
            <option value="">Choose a badge…</option>
            {badges.map((b) => (
              <option key={b._id} value={b._id}>{b.name}</option>
            ))}
          </NativeSelect>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="award-email">Recipient e-mail</Label>
          <Input id="award-email" type="email" autoComplete="off" value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" required maxLength={254} />
        </div>
        <div className="space-y-1.5 sm:col-span-2">
          <Label htmlFor="award-note">Note (optional)</Label>
          <Textarea id="award-note" rows={2} maxLength={500} value={note} onChange={(e) => setNote(e.target.value)} placeholder="Shown in the e-mail and on the claim page" />
        </div>
        <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
          <Button type="submit" disabled={busy || !badgeId || !email}>
            {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Send className="h-4 w-4" aria-hidden="true" />}
            Send award
          </Button>
          {sent && <span className="min-w-0 text-sm text-muted-foreground [overflow-wrap:anywhere]" role="status">{sent}</span>}
        </div>
      </form>
    </Card>
  );
}
