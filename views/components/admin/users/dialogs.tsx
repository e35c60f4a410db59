// The users tab's dialogs: revoke a grant (a category and a note), set a grant's expiry, edit a user.
import { useState, type ChangeEvent, type FormEvent } from 'react';
import Ban from 'lucide-react/icons/ban';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Input, Label, Textarea } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../dialog';
import { api, errorMessage, ApiError } from '../../../lib/api';
import { toast, toastError } from '../../../lib/toast';
import { date } from '../../../lib/format';
import { AdminUser, GrantAction, MAX_REVOKE_REASON, REVOCATION_CATEGORIES } from './model';
import { LocalTime } from '../../LocalTime';

/** Collapses runs of white space, as the server does before checking the reason. */
export function squash(s: string): string {
  return s.split(/\s+/).filter(Boolean).join(' ');
}

/** Revoke: a category (all the public verification page shows) and a note (kept for the
 * administrators and sent to the holder; required for Other). */
export function RevokeDialog({ action, onClose, onDone }: { action: GrantAction | null; onClose: () => void; onDone: () => void }) {
  const [category, setCategory] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  // a fresh category and note for each grant opened
  const [seen, setSeen] = useState(action);
  if (action !== seen) {
    setSeen(action);
    if (action) {
      setCategory('');
      setReason('');
    }
  }
  const clean = squash(reason);
  const ready = category !== '' && (category !== 'other' || clean !== '');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!action || !ready || busy) return;
    setBusy(true);
    try {
      const res = await api<{ msg: string }>(`/admin/grants/${action.grant._id}/revoke`, { method: 'PUT', body: { category, reason: clean } });
      toast({ title: res.msg, description: `${action.grant.badgeName} no longer verifies for ${action.user.name}.`, variant: 'success' });
      onDone();
    } catch (err) {
      toastError(errorMessage(err, 'Failed to revoke badge'));
      // revoked meanwhile, or gone: show the list as it is now
      if (err instanceof ApiError && (err.status === 404 || err.status === 409)) onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={!!action} onOpenChange={(o) => !o && !busy && onClose()}>
      {action && (
        <DialogContent data-testid="revoke-dialog">
          <DialogHeader>
            <DialogTitle>Revoke badge</DialogTitle>
            <DialogDescription>
              {action.grant.badgeName} held by {action.user.name}. The credential fails verification from now on, and the holder is told by e-mail.
            </DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={submit}>
            <div className="grid gap-2">
              <Label htmlFor="revoke-category">Category</Label>
              <select
                id="revoke-category"
                value={category}
                onChange={(e) => setCategory(e.target.value)}
                required
                aria-describedby="revoke-category-hint"
                className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              >
                <option value="" disabled>
                  Choose a category…
                </option>
                {REVOCATION_CATEGORIES.map((c) => (
                  <option key={c.key} value={c.key}>
                    {c.label}
                  </option>
                ))}
              </select>
              <p id="revoke-category-hint" className="text-xs text-muted-foreground">
                The only reason the public verification page shows.
              </p>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="revoke-reason">Note{category === 'other' ? '' : ' (optional)'}</Label>
              <Textarea
                id="revoke-reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                required={category === 'other'}
                maxLength={MAX_REVOKE_REASON}
                rows={4}
                placeholder="e.g. The submitted proof belonged to someone else."
                aria-describedby="revoke-reason-hint"
              />
              <p id="revoke-reason-hint" className="flex justify-between gap-4 text-xs text-muted-foreground">
                <span>Kept in the audit log and sent to the holder; never shown publicly.</span>
                <span className="tabular-nums">
                  {clean.length}/{MAX_REVOKE_REASON}
                </span>
              </p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={busy || !ready}>
                {busy ? <Loader2 className="animate-spin" /> : <Ban />} Revoke badge
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}

/** Set expiry: a date (the credential stops verifying at 00:00 UTC that day) or no expiry;
 * the server signs the credential again with the new validUntil. */
export function ExpiryDialog({ action, onClose, onDone }: { action: GrantAction | null; onClose: () => void; onDone: () => void }) {
  const [day, setDay] = useState('');
  const [none, setNone] = useState(false);
  const [busy, setBusy] = useState(false);
  // the form starts from the grant's expiry each time one is opened
  const [seen, setSeen] = useState<GrantAction | null>(null);
  if (action !== seen) {
    setSeen(action);
    if (action) {
      setDay(action.grant.expiresAt ? action.grant.expiresAt.slice(0, 10) : '');
      setNone(false);
    }
  }
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!action || busy || (!none && !day)) return;
    setBusy(true);
    try {
      const res = await api<{ msg: string }>(`/admin/grants/${action.grant._id}/expiry`, { method: 'PUT', body: { expiresAt: none ? null : day } });
      toast({ title: res.msg, description: none ? `${action.grant.badgeName} no longer expires.` : `${action.grant.badgeName} expires on ${date(day)}.`, variant: 'success' });
      onDone();
    } catch (err) {
      toastError(errorMessage(err, 'Failed to update expiry'));
      if (err instanceof ApiError && err.status === 404) onDone();
    } finally {
      setBusy(false);
    }
  };
  const current = action?.grant.expiresAt;
  return (
    <Dialog open={!!action} onOpenChange={(o) => !o && !busy && onClose()}>
      {action && (
        <DialogContent data-testid="expiry-dialog">
          <DialogHeader>
            <DialogTitle>Set expiry</DialogTitle>
            <DialogDescription>
              {action.grant.badgeName} held by {action.user.name}, issued <LocalTime iso={action.grant.grantedAt} />. {current ? <>It expires on <LocalTime iso={current} />.</> : 'It has no expiry.'} The
              credential is signed again with the new date.
            </DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={submit}>
            <div className="grid gap-2">
              <Label htmlFor="expiry-date">Expires on</Label>
              <Input id="expiry-date" type="date" value={none ? '' : day} onChange={(e) => setDay(e.target.value)} disabled={none} required={!none} aria-describedby="expiry-hint" className="sm:w-56" />
              <p id="expiry-hint" className="text-xs text-muted-foreground">
                The badge stops verifying at 00:00 UTC on this day, which must come after the issue date.
              </p>
            </div>
            <label className="flex items-center gap-2.5 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-[var(--primary)]" checked={none} onChange={(e) => setNone(e.target.checked)} />
              No expiry <span className="text-muted-foreground">(the badge never expires)</span>
            </label>
            <DialogFooter>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" disabled={busy || (!none && !day)}>
                {busy ? <Loader2 className="animate-spin" /> : <CalendarClock />} Save expiry
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}

export type Form = { name: string; email: string; position: string; linkedin: string; portfolio: string; role: string };

export function EditDialog({ user, self, onClose, onSaved }: { user: AdminUser | null; self: boolean; onClose: () => void; onSaved: (u: AdminUser) => void }) {
  const [f, setF] = useState<Form>({ name: '', email: '', position: '', linkedin: '', portfolio: '', role: 'user' });
  const [saving, setSaving] = useState(false);
  // the form starts from the user each time one is opened
  const [seen, setSeen] = useState<AdminUser | null>(null);
  if (user !== seen) {
    setSeen(user);
    if (user) setF({ name: user.name, email: user.email, position: user.position, linkedin: user.linkedin, portfolio: user.portfolio, role: user.role });
  }
  const emailChanged = !!user && f.email.trim().toLowerCase() !== user.email.toLowerCase();
  const set = (k: keyof Form) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setF({ ...f, [k]: e.target.value });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    setSaving(true);
    try {
      const res = await api<{ user: AdminUser }>(`/admin/users/${user._id}`, { method: 'PUT', body: f });
      const waiting = res.user.pendingEmail && res.user.pendingEmail !== user.pendingEmail;
      toast({ title: 'User updated successfully', description: waiting ? `A confirmation link went to ${res.user.pendingEmail}.` : undefined, variant: 'success' });
      onSaved(res.user);
    } catch (err) {
      toastError(errorMessage(err, 'Failed to update user'));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Dialog open={!!user} onOpenChange={(o) => !o && onClose()}>
      {user && (
        <DialogContent>
          <DialogHeader>
            <DialogTitle>Edit user</DialogTitle>
            <DialogDescription>Changes are saved to {user.name}'s account and recorded in the audit log.</DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={save}>
            <div className="grid gap-2">
              <Label htmlFor="eu-name">Name</Label>
              <Input id="eu-name" value={f.name} onChange={set('name')} required maxLength={100} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="eu-email">Email</Label>
              <Input
                id="eu-email"
                type="email"
                value={f.email}
                onChange={set('email')}
                required
                maxLength={254}
                aria-describedby={emailChanged || user.pendingEmail ? 'eu-email-note' : undefined}
              />
              {emailChanged ? (
                <p id="eu-email-note" role="status" className="rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm text-foreground" data-testid="email-change-warning">
                  The member must confirm the new address; a notice goes to the old one.
                </p>
              ) : (
                user.pendingEmail && (
                  <p id="eu-email-note" className="text-sm text-muted-foreground" data-testid="email-pending">
                    Waiting for confirmation: {user.pendingEmail}
                  </p>
                )
              )}
            </div>
            <div className="grid gap-2">
              <Label htmlFor="eu-position">Position</Label>
              <Input id="eu-position" value={f.position} onChange={set('position')} maxLength={120} placeholder="e.g. Senior Engineer" />
            </div>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <div className="grid gap-2">
                <Label htmlFor="eu-linkedin">LinkedIn</Label>
                <Input id="eu-linkedin" type="url" value={f.linkedin} onChange={set('linkedin')} placeholder="https://linkedin.com/in/…" />
              </div>
              <div className="grid gap-2">
                <Label htmlFor="eu-portfolio">Portfolio</Label>
                <Input id="eu-portfolio" type="url" value={f.portfolio} onChange={set('portfolio')} placeholder="https://…" />
              </div>
            </div>
            <div className="grid gap-2">
              <Label htmlFor="eu-role">Role</Label>
              <select
                id="eu-role"
                value={f.role}
                onChange={set('role')}
                disabled={self}
                className="h-10 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
              >
                <option value="user">Member (user)</option>
                <option value="admin">Administrator (admin)</option>
              </select>
              {self && <p className="text-xs text-muted-foreground">You cannot remove your own admin role.</p>}
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose}>
                Cancel
              </Button>
              <Button type="submit" disabled={saving}>
                {saving && <Loader2 className="animate-spin" />} Save changes
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      )}
    </Dialog>
  );
}
