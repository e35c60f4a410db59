// One user of the users tab: photo upload, details, and their badge grants with copyable
// verification ids, state and the Revoke / Set expiry actions.
import { useRef, useState } from 'react';
import Award from 'lucide-react/icons/award';
import Ban from 'lucide-react/icons/ban';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import Camera from 'lucide-react/icons/camera';
import Check from 'lucide-react/icons/check';
import Copy from 'lucide-react/icons/copy';
import Link2 from 'lucide-react/icons/link-2';
import Loader2 from 'lucide-react/icons/loader-circle';
import Pencil from 'lucide-react/icons/pencil';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Button, Chip } from '../../ui';
import { copyText } from '../../user';
import { Avatar } from '../../avatar';
import { api, errorMessage } from '../../../lib/api';
import { toast, toastError } from '../../../lib/toast';
import { externalHref } from '../../../lib/url';
import { AdminUser, GrantAction, MAX_PICTURE, UserGrant } from './model';
import { LocalTime } from '../../LocalTime';

/** A value with a copy button ('Copied!' for 2 seconds). */
export function CopyValue({ label, value }: { label: string; value: string }) {
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

export function UserCard({
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
            <span>Joined <LocalTime iso={u.createdAt} /></span>
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
              <GrantItem key={g._id} g={g} all={u.badgeGrants} onAction={(kind) => onGrant(kind, g)} />
            ))}
          </ul>
        )}
      </div>
    </article>
  );
}

/** One grant of a user: the badge, its ids, its state (revoked with the reason, expired,
 * expiring) and, while it is in force, Set expiry and Revoke. */
export function GrantItem({ g, all = [], onAction }: { g: UserGrant; all?: UserGrant[]; onAction: (kind: GrantAction['kind']) => void }) {
  const renews = g.renewsGrantId ? all.find((x) => x._id === g.renewsGrantId) : undefined;
  const renewedBy = g.renewedByGrantId ? all.find((x) => x._id === g.renewedByGrantId) : undefined;
  // the list is loaded in the browser only, so reading the clock here cannot break hydration
  // eslint-disable-next-line react-hooks/purity -- see above: never server-rendered
  const expired = !!g.expiresAt && new Date(g.expiresAt).getTime() <= Date.now();
  const state = g.revokedAt ? 'revoked' : expired ? 'expired' : 'active';
  return (
    <li id={`grant-${g._id}`} className="scroll-mt-24 rounded-md bg-muted/40 px-3 py-2" data-testid="user-grant" data-grant-id={g._id} data-state={state}>
      <div className="flex flex-wrap items-center gap-2">
        <Award className="h-4 w-4 text-primary" aria-hidden="true" />
        <span className="text-sm font-medium">{g.badgeName}</span>
        <span className="text-xs text-muted-foreground">
          {g.badgeCategory} · <LocalTime iso={g.grantedAt} />
        </span>
        {g.revokedAt ? <Chip tone="destructive">Revoked</Chip> : expired && <Chip tone="warning">Expired</Chip>}
      </div>
      {(renews || renewedBy) && (
        <p className="mt-1 text-xs text-muted-foreground" data-testid="grant-renewal">
          {renews && (
            <>
              Renewal of{' '}
              <a className="font-mono text-primary underline-offset-2 hover:underline" href={`#grant-${renews._id}`}>
                {renews.verificationId}
              </a>
            </>
          )}
          {renews && renewedBy && ' · '}
          {renewedBy && (
            <>
              Renewed by{' '}
              <a className="font-mono text-primary underline-offset-2 hover:underline" href={`#grant-${renewedBy._id}`}>
                {renewedBy.verificationId}
              </a>
            </>
          )}
        </p>
      )}
      <div className="mt-1.5 grid gap-1">
        <CopyValue label="Verification ID" value={g.verificationId} />
        <CopyValue label="Public ID" value={g.publicVerificationId} />
      </div>
      {g.revokedAt ? (
        <p className="mt-2 flex items-start gap-1.5 text-xs text-destructive" data-testid="grant-revoked">
          <Ban className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
          <span>
            Revoked on <LocalTime iso={g.revokedAt} />
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
            {g.expiresAt ? <>{expired ? 'Expired on' : 'Expires on'} <LocalTime iso={g.expiresAt} /></> : 'No expiry'}
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
