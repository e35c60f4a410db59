// User Management tab: stats, a server-side search over name, email, position, badge name
// and verification ids, one card per user with photo upload, the edit dialog (including
// role) and the user's badge grants with copyable verification ids, their state (revoked with
// the reason, expiry) and the Revoke and Set expiry actions.
import { useCallback, useEffect, useRef, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { Award, Ban, CalendarClock, Camera, Check, Copy, Fingerprint, Link2, Loader2, Pencil, ShieldCheck, Users } from 'lucide-react';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Label, Skeleton, Textarea } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Avatar, copyText } from '../account';
import { api, errorMessage, ApiError } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { date } from '../../lib/format';
import { externalHref } from '../../lib/url';
import { Pager, SearchBox, type PageInfo } from './ApplicationsTab';

export type UserGrant = {
  _id: string;
  badgeId: string;
  badgeName: string;
  badgeCategory: string;
  grantedAt: string;
  expiresAt: string | null;
  verificationId: string;
  publicVerificationId: string;
  revokedAt: string | null;
  revocationReason: string;
};
export type AdminUser = {
  _id: string;
  name: string;
  email: string;
  role: string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  createdAt: string;
  updatedAt: string;
  badgeGrants: UserGrant[];
};
type UserStats = { totalUsers: number; totalAdmins: number; totalBadgesEarned: number; verificationIds: number };
type UserList = PageInfo & { users: AdminUser[]; stats: UserStats };

const LIMIT = 12;
const MAX_PICTURE = 10 * 1024 * 1024;
/** The longest revocation reason the server keeps (app/verify MaxReason). */
const MAX_REVOKE_REASON = 500;

/** A grant action the admin has opened: the dialog it shows and whose grant. */
type GrantAction = { kind: 'revoke' | 'expiry'; user: AdminUser; grant: UserGrant };

function Stat({ label, value, icon }: { label: string; value: number | string; icon: ReactNode }) {
  return (
    <div className="flex items-center gap-3 rounded-lg border bg-card p-4">
      <span className="flex h-9 w-9 items-center justify-center rounded-md bg-primary/10 text-primary" aria-hidden="true">
        {icon}
      </span>
      <div>
        <p className="text-xs text-muted-foreground">{label}</p>
        <p className="text-xl font-bold tabular-nums">{value}</p>
      </div>
    </div>
  );
}

/** A value with a copy button ('Copied!' for 2 seconds). */
function CopyValue({ label, value }: { label: string; value: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    if (await copyText(value)) {
      toast({ title: 'Copied!', variant: 'success' });
      setDone(true);
      setTimeout(() => setDone(false), 2000);
    } else {
      toastError('Failed to copy to clipboard');
    }
  };
  return (
    <div className="flex min-w-0 items-center gap-1.5">
      <span className="shrink-0 text-xs text-muted-foreground">{label}</span>
      <code className="min-w-0 truncate rounded bg-muted px-1.5 py-0.5 text-xs" title={value}>
        {value}
      </code>
      <button
        type="button"
        onClick={copy}
        className="shrink-0 rounded p-1 text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={`Copy ${label.toLowerCase()}`}
      >
        {done ? <Check className="h-3.5 w-3.5 text-success" /> : <Copy className="h-3.5 w-3.5" />}
      </button>
    </div>
  );
}

export function UsersTab({ currentUserId = '', refreshKey = 0, onChanged }: { currentUserId?: string; refreshKey?: number; onChanged?: () => void }) {
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<UserList | null>(null);
  const [loading, setLoading] = useState(true);
  const [editing, setEditing] = useState<AdminUser | null>(null);
  const [acting, setActing] = useState<GrantAction | null>(null);
  const seq = useRef(0);

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const qs = new URLSearchParams({ page: String(page), limit: String(LIMIT) });
      if (query) qs.set('search', query);
      const res = await api<UserList>('/admin/users?' + qs.toString());
      if (mine === seq.current) setList(res);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch users'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [page, query]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const replace = (u: AdminUser) => setList((l) => (l ? { ...l, users: l.users.map((x) => (x._id === u._id ? u : x)) } : l));

  return (
    <Card>
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>User Management</CardTitle>
            <CardDescription className="mt-1.5">Edit members and administrators, their pictures and roles, and look up their badges.</CardDescription>
          </div>
          <SearchBox
            label="Search users"
            placeholder="Name, email, position, badge or verification ID"
            onSearch={(q) => {
              setQuery(q);
              setPage(1);
            }}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-3" data-testid="user-stats">
          <Stat label="Total users" value={list?.stats.totalUsers ?? '—'} icon={<Users className="h-4 w-4" />} />
          <Stat label="Total badges earned" value={list?.stats.totalBadgesEarned ?? '—'} icon={<Award className="h-4 w-4" />} />
          <Stat label="Verification IDs" value={list?.stats.verificationIds ?? '—'} icon={<Fingerprint className="h-4 w-4" />} />
        </div>
      </CardHeader>
      <CardContent className="space-y-3">
        {loading && !list ? (
          [0, 1, 2].map((i) => <Skeleton key={i} className="h-32 w-full" />)
        ) : !list || list.users.length === 0 ? (
          <div className="rounded-lg border border-dashed py-12 text-center">
            <Users className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
            <p className="mt-3 font-medium">No users found</p>
            <p className="mt-1 text-sm text-muted-foreground">{query ? `Nothing matches “${query}”.` : 'Users appear here once they sign up.'}</p>
          </div>
        ) : (
          <div className="grid gap-3 lg:grid-cols-2" aria-busy={loading}>
            {list.users.map((u) => (
              <UserCard
                key={u._id}
                u={u}
                self={u._id === currentUserId}
                onEdit={() => setEditing(u)}
                onPicture={(url) => replace({ ...u, profilePicUrl: url })}
                onGrant={(kind, grant) => setActing({ kind, user: u, grant })}
              />
            ))}
          </div>
        )}
        <Pager info={list} busy={loading} onPage={setPage} />
      </CardContent>
      <EditDialog
        user={editing}
        self={editing?._id === currentUserId}
        onClose={() => setEditing(null)}
        onSaved={(u) => {
          replace(u);
          setEditing(null);
          onChanged?.();
        }}
      />
      <RevokeDialog
        action={acting?.kind === 'revoke' ? acting : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          load();
          onChanged?.();
        }}
      />
      <ExpiryDialog
        action={acting?.kind === 'expiry' ? acting : null}
        onClose={() => setActing(null)}
        onDone={() => {
          setActing(null);
          load();
          onChanged?.();
        }}
      />
    </Card>
  );
}

function UserCard({
  u,
  self,
  onEdit,
  onPicture,
  onGrant,
}: {
  u: AdminUser;
  self: boolean;
  onEdit: () => void;
  onPicture: (url: string) => void;
  onGrant: (kind: GrantAction['kind'], g: UserGrant) => void;
}) {
  const file = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(false);
  const upload = async (f: File | undefined) => {
    if (!f) return;
    if (!f.type.startsWith('image/')) {
      toastError('Please choose an image file (PNG, JPEG or WebP).');
      return;
    }
    if (f.size > MAX_PICTURE) {
      toastError('The picture must be at most 10 MB.');
      return;
    }
    const form = new FormData();
    form.append('profilePic', f);
    setUploading(true);
    try {
      const res = await api<{ profilePicUrl: string }>(`/admin/users/${u._id}/profile-pic`, { method: 'POST', form, timeoutMs: 60000 });
      onPicture(res.profilePicUrl);
      toast({ title: 'Profile picture updated successfully', variant: 'success' });
    } catch (e) {
      toastError(errorMessage(e, 'Failed to update profile picture'));
    } finally {
      setUploading(false);
      if (file.current) file.current.value = '';
    }
  };
  const active = u.badgeGrants.filter((g) => !g.revokedAt);
  return (
    <article className="min-w-0 rounded-lg border bg-card p-4" data-testid="user-card" data-user-id={u._id}>
      <div className="flex items-start gap-4">
        <div className="relative shrink-0">
          <Avatar name={u.name} url={u.profilePicUrl} className="h-16 w-16" textClassName="text-lg" />
          <button
            type="button"
            onClick={() => file.current?.click()}
            disabled={uploading}
            className="absolute -bottom-1 -right-1 flex h-7 w-7 items-center justify-center rounded-full border bg-background text-foreground shadow-sm hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
            aria-label={`Upload a photo for ${u.name}`}
          >
            {uploading ? <Loader2 className="h-3.5 w-3.5 animate-spin" /> : <Camera className="h-3.5 w-3.5" />}
          </button>
          <input ref={file} type="file" accept="image/png,image/jpeg,image/webp" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(e) => upload(e.target.files?.[0])} />
        </div>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <p className="truncate font-semibold">{u.name}</p>
            {u.role === 'admin' ? (
              <Chip tone="default" className="gap-1">
                <ShieldCheck className="h-3 w-3" aria-hidden="true" /> Administrator
              </Chip>
            ) : (
              <Chip tone="secondary">Member</Chip>
            )}
            {self && <Chip tone="outline">You</Chip>}
          </div>
          <p className="truncate text-sm text-muted-foreground">{u.email}</p>
          {u.position && <p className="mt-0.5 truncate text-sm">{u.position}</p>}
          <div className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span>Joined {date(u.createdAt)}</span>
            {externalHref(u.linkedin) && (
              <a href={externalHref(u.linkedin)} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex items-center gap-1 text-primary hover:underline">
                <Link2 className="h-3 w-3" aria-hidden="true" /> LinkedIn
              </a>
            )}
            {externalHref(u.portfolio) && (
              <a href={externalHref(u.portfolio)} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex items-center gap-1 text-primary hover:underline">
                <Link2 className="h-3 w-3" aria-hidden="true" /> Portfolio
              </a>
            )}
          </div>
        </div>
        <Button variant="outline" size="sm" onClick={onEdit} aria-label={`Edit ${u.name}`}>
          <Pencil /> <span className="hidden sm:inline">Edit</span>
        </Button>
      </div>
      <div className="mt-4 border-t pt-3">
        <p className="text-xs font-medium uppercase tracking-wide text-muted-foreground">
          Badges ({active.length}
          {u.badgeGrants.length > active.length && `, ${u.badgeGrants.length - active.length} revoked`})
        </p>
        {u.badgeGrants.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No badges yet.</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {u.badgeGrants.map((g) => (
              <GrantItem key={g._id} g={g} onAction={(kind) => onGrant(kind, g)} />
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}

/** One grant of a user: the badge, its ids, its state (revoked with the reason, expired,
 * expiring) and, while it is in force, Set expiry and Revoke. */
function GrantItem({ g, onAction }: { g: UserGrant; onAction: (kind: GrantAction['kind']) => void }) {
  // the list is loaded in the browser only, so reading the clock here cannot break hydration
  // eslint-disable-next-line react-hooks/purity -- see above: never server-rendered
  const expired = !!g.expiresAt && new Date(g.expiresAt).getTime() <= Date.now();
  const state = g.revokedAt ? 'revoked' : expired ? 'expired' : 'active';
  return (
    <li className="rounded-md bg-muted/40 px-3 py-2" data-testid="user-grant" data-grant-id={g._id} data-state={state}>
      <div className="flex flex-wrap items-center gap-2">
        <Award className="h-4 w-4 text-primary" aria-hidden="true" />
        <span className="text-sm font-medium">{g.badgeName}</span>
        <span className="text-xs text-muted-foreground">
          {g.badgeCategory} · {date(g.grantedAt)}
        </span>
        {g.revokedAt ? <Chip tone="destructive">Revoked</Chip> : expired && <Chip tone="warning">Expired</Chip>}
      </div>
      <div className="mt-1.5 grid gap-1">
        <CopyValue label="Verification ID" value={g.verificationId} />
        <CopyValue label="Public ID" value={g.publicVerificationId} />
      </div>
      {g.revokedAt ? (
        <p className="mt-2 flex items-start gap-1.5 text-xs text-destructive" data-testid="grant-revoked">
          <Ban className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          <span>
            Revoked on {date(g.revokedAt)}
            {g.revocationReason && (
              <>
                : <span className="text-foreground">{g.revocationReason}</span>
              </>
            )}
          </span>
        </p>
      ) : (
        <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
          <p className={`flex items-center gap-1.5 text-xs ${expired ? 'text-destructive' : 'text-muted-foreground'}`} data-testid="grant-expiry">
            <CalendarClock className="h-3.5 w-3.5 shrink-0" aria-hidden="true" />
            {g.expiresAt ? `${expired ? 'Expired on' : 'Expires on'} ${date(g.expiresAt)}` : 'No expiry'}
          </p>
          <div className="flex gap-1.5">
            <Button variant="outline" size="sm" className="h-8 px-2.5 text-xs" onClick={() => onAction('expiry')} aria-label={`Set expiry of ${g.badgeName}`}>
              <CalendarClock /> Set expiry
            </Button>
            <Button
              variant="outline"
              size="sm"
              className="h-8 px-2.5 text-xs text-destructive hover:bg-destructive/10 hover:text-destructive"
              onClick={() => onAction('revoke')}
              aria-label={`Revoke ${g.badgeName}`}
            >
              <Ban /> Revoke
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

/** Collapses runs of white space, as the server does before checking the reason. */
function squash(s: string): string {
  return s.split(/\s+/).filter(Boolean).join(' ');
}

/** Revoke: a required reason (shown on the verification page and sent to the holder). */
function RevokeDialog({ action, onClose, onDone }: { action: GrantAction | null; onClose: () => void; onDone: () => void }) {
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  // a fresh reason for each grant opened
  const [seen, setSeen] = useState(action);
  if (action !== seen) {
    setSeen(action);
    if (action) setReason('');
  }
  const clean = squash(reason);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!action || !clean || busy) return;
    setBusy(true);
    try {
      const res = await api<{ msg: string }>(`/admin/grants/${action.grant._id}/revoke`, { method: 'PUT', body: { reason: clean } });
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
              <Label htmlFor="revoke-reason">Reason</Label>
              <Textarea
                id="revoke-reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                required
                maxLength={MAX_REVOKE_REASON}
                rows={4}
                placeholder="e.g. The submitted proof belonged to someone else."
                aria-describedby="revoke-reason-hint"
              />
              <p id="revoke-reason-hint" className="flex justify-between gap-4 text-xs text-muted-foreground">
                <span>Shown on the verification page and in the e-mail to the holder.</span>
                <span className="tabular-nums">
                  {clean.length}/{MAX_REVOKE_REASON}
                </span>
              </p>
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={onClose} disabled={busy}>
                Cancel
              </Button>
              <Button type="submit" variant="destructive" disabled={busy || !clean}>
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
function ExpiryDialog({ action, onClose, onDone }: { action: GrantAction | null; onClose: () => void; onDone: () => void }) {
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
              {action.grant.badgeName} held by {action.user.name}, issued {date(action.grant.grantedAt)}. {current ? `It expires on ${date(current)}.` : 'It has no expiry.'} The
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

type Form = { name: string; email: string; position: string; linkedin: string; portfolio: string; role: string };

function EditDialog({ user, self, onClose, onSaved }: { user: AdminUser | null; self: boolean; onClose: () => void; onSaved: (u: AdminUser) => void }) {
  const [f, setF] = useState<Form>({ name: '', email: '', position: '', linkedin: '', portfolio: '', role: 'user' });
  const [saving, setSaving] = useState(false);
  // the form starts from the user each time one is opened
  const [seen, setSeen] = useState<AdminUser | null>(null);
  if (user !== seen) {
    setSeen(user);
    if (user) setF({ name: user.name, email: user.email, position: user.position, linkedin: user.linkedin, portfolio: user.portfolio, role: user.role });
  }
  const set = (k: keyof Form) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setF({ ...f, [k]: e.target.value });
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!user) return;
    setSaving(true);
    try {
      const res = await api<{ user: AdminUser }>(`/admin/users/${user._id}`, { method: 'PUT', body: f });
      toast({ title: 'User updated successfully', variant: 'success' });
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
              <Input id="eu-email" type="email" value={f.email} onChange={set('email')} required maxLength={254} />
            </div>
            <div className="grid gap-2">
              <Label htmlFor="eu-position">Position</Label>
              <Input id="eu-position" value={f.position} onChange={set('position')} maxLength={120} placeholder="e.g. Senior Engineer" />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
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
