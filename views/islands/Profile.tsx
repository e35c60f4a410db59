import { useEffect, useRef, useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import {
  Award, BadgeCheck, Briefcase, Camera, Check, Copy, ExternalLink, FileJson, Globe, ImageDown, ImageUp, Layers, Linkedin, LoaderCircle, Lock, Pencil, Save,
  Share2, ShieldCheck, Sparkles, UserRound, X, ZoomIn,
} from 'lucide-react';
import { api, errorMessage, type ApiError } from '../lib/api';
import { publishSessionUser } from '../lib/session-store';
import { toast, toastError } from '../lib/toast';
import { date } from '../lib/format';
import { cn } from '../lib/cn';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Label, LinkButton } from '../components/ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../components/dialog';
import { BadgeIcon } from '../components/badges';
import { Avatar, copyText, fromApi, type ApiUser, type EarnedBadge, type User } from '../components/account';

export type ProfileProps = { user: ApiUser; badges: EarnedBadge[]; origin: string };

/** The holder's downloads of a badge: the signed credential and the PNG it is baked into. */
const DOWNLOAD_LINK = 'inline-flex items-center gap-1 font-medium text-primary hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring rounded-sm';

/** The copy button's "Copied!" lasts 2 seconds (spec section 9). */
const COPY_FEEDBACK_MS = 2000;

function useCopied(): [string, (key: string, text: string, success: string) => Promise<void>] {
  const [copied, setCopied] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (key: string, text: string, success: string) => {
    if (await copyText(text)) {
      setCopied(key);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(''), COPY_FEEDBACK_MS);
      toast({ title: success, variant: 'success' });
    } else {
      toastError('Failed to copy to clipboard');
    }
  };
  return [copied, copy];
}

/** The id a holder quotes (MM-XXXX-XXXX-XXXX, as on the badge page and the verify page);
 * the earned badge's own verificationId is the link form used in /verify/{id}. */
function quoteId(user: User, b: EarnedBadge): string {
  return user.badgeGrants?.find((g) => g.id === b.id)?.verificationId || b.verificationId;
}

/** The member's own profile: header, stats, earned badges, details and picture editing. */
export default function Profile({ user: initial, badges, origin }: ProfileProps) {
  const [user, setUser] = useState<User>(() => fromApi(initial));
  const [picOpen, setPicOpen] = useState(false);
  const [copied, copy] = useCopied();
  const categories = new Set(badges.map((b) => b.category)).size;
  const isAdmin = user.role === 'admin';
  const base = origin.replace(/\/$/, '');

  const updated = (u: User) => {
    setUser(u);
    // other islands (the header) may follow the signed-in user
    publishSessionUser({ id: u.id, name: u.name, email: u.email, role: u.role, profilePicUrl: u.profilePicUrl });
  };

  return (
    <div className="space-y-6">
      <Card className="overflow-hidden">
        <div className="h-24 bg-gradient-to-r from-primary/80 via-indigo-500/70 to-sky-500/60 sm:h-28" aria-hidden="true" />
        <div className="flex flex-col gap-5 px-6 pb-6 sm:flex-row sm:items-end">
          <div className="relative -mt-14 w-fit shrink-0 rounded-full border-4 border-card bg-card">
            <Avatar name={user.name} url={user.profilePicUrl} className="h-28 w-28" textClassName="text-3xl" />
            <button
              type="button"
              onClick={() => setPicOpen(true)}
              className="absolute bottom-1 right-1 flex h-9 w-9 items-center justify-center rounded-full border-2 border-card bg-primary text-primary-foreground shadow hover:bg-primary/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
              aria-label="Edit profile picture"
              data-testid="edit-picture"
            >
              <Camera className="h-4 w-4" />
            </button>
          </div>
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h1 className="truncate text-2xl font-bold tracking-tight" data-testid="profile-name">{user.name}</h1>
              <Chip tone={isAdmin ? 'default' : 'secondary'} className="gap-1">
                {isAdmin ? <ShieldCheck className="h-3 w-3" aria-hidden="true" /> : <BadgeCheck className="h-3 w-3" aria-hidden="true" />}
                {isAdmin ? 'Administrator' : 'Professional'}
              </Chip>
            </div>
            <p className="mt-1 truncate text-sm text-muted-foreground">{user.email}</p>
            {user.position && (
              <p className="mt-1 flex items-center gap-1.5 text-sm">
                <Briefcase className="h-4 w-4 text-muted-foreground" aria-hidden="true" /> {user.position}
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => copy('profile', `${base}/profile/${user.id}`, 'Profile link copied!')} data-testid="share-profile">
              {copied === 'profile' ? <Check aria-hidden="true" /> : <Share2 aria-hidden="true" />}
              {copied === 'profile' ? 'Copied!' : 'Share Profile'}
            </Button>
            <LinkButton variant="ghost" href={`/profile/${user.id}`}>
              <ExternalLink aria-hidden="true" /> Public view
            </LinkButton>
          </div>
        </div>
      </Card>

      <div className="grid grid-cols-3 gap-3 sm:gap-4">
        <Stat icon={<Award className="h-5 w-5" />} label="Badges Earned" short="Badges" value={String(badges.length)} testId="stat-badges" />
        <Stat icon={<Layers className="h-5 w-5" />} label="Categories" short="Categories" value={String(categories)} testId="stat-categories" />
        <Stat icon={isAdmin ? <ShieldCheck className="h-5 w-5" /> : <UserRound className="h-5 w-5" />} label="Status" short="Status" value={isAdmin ? 'Admin' : 'Member'} testId="stat-status" />
      </div>

      <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
        <Card className="lg:col-span-3">
          <CardHeader className="flex-row items-center justify-between gap-4 space-y-0">
            <div>
              <CardTitle>Earned Badges</CardTitle>
              <CardDescription className="mt-1.5">Credentials you hold, each with a public verification page.</CardDescription>
            </div>
            {badges.length > 0 && (
              <a href="/badges" className="shrink-0 text-sm font-medium text-primary hover:underline">
                Earn More Badges
              </a>
            )}
          </CardHeader>
          <CardContent>
            {badges.length === 0 ? (
              <div className="flex flex-col items-center rounded-lg border border-dashed px-6 py-10 text-center">
                <span className="flex h-12 w-12 items-center justify-center rounded-full bg-primary/10 text-primary">
                  <Sparkles className="h-6 w-6" aria-hidden="true" />
                </span>
                <p className="mt-4 font-semibold">No badges earned yet</p>
                <p className="mt-1 max-w-sm text-sm text-muted-foreground">Pass a quiz or submit proof of your work to earn your first verified badge.</p>
                <LinkButton href="/badges" className="mt-5">
                  Discover Badges
                </LinkButton>
              </div>
            ) : (
              <ul className="divide-y" data-testid="earned-badges">
                {badges.map((b) => (
                  <li key={b.id} className="flex flex-col gap-3 py-4 first:pt-0 last:pb-0 sm:flex-row sm:items-center">
                    <BadgeIcon icon={b.icon} color={b.color} />
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold">{b.name}</p>
                      <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
                        <Chip tone="outline">{b.category}</Chip>
                        <span>Earned {date(b.earnedDate)}</span>
                      </div>
                      <p className="mt-1.5 text-xs text-muted-foreground">
                        Verification ID:{' '}
                        <code className="break-all rounded bg-muted px-1 py-0.5 font-mono text-[11px] text-foreground" data-testid="earned-verification-id">
                          {quoteId(user, b)}
                        </code>
                      </p>
                      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" data-testid="badge-downloads">
                        <a href={`/credentials/${encodeURIComponent(b.verificationId)}.json?download=1`} download className={DOWNLOAD_LINK} aria-label={`Credential (JSON) of ${b.name}`}>
                          <FileJson className="h-3.5 w-3.5" aria-hidden="true" /> Credential (JSON)
                        </a>
                        <a href={`/credentials/${encodeURIComponent(b.verificationId)}.png?download=1`} download className={DOWNLOAD_LINK} aria-label={`Baked badge (PNG) of ${b.name}`}>
                          <ImageDown className="h-3.5 w-3.5" aria-hidden="true" /> Baked badge (PNG)
                        </a>
                      </div>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <Button size="sm" variant="outline" onClick={() => copy(b.id, `${base}/verify/${b.verificationId}`, 'Badge verification link copied!')} aria-label={`Share ${b.name}`}>
                        {copied === b.id ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
                        {copied === b.id ? 'Copied!' : 'Share'}
                      </Button>
                      <LinkButton size="sm" variant="secondary" href={`/verify/${encodeURIComponent(b.verificationId)}`} aria-label={`Verify ${b.name}`}>
                        <ShieldCheck aria-hidden="true" /> Verify
                      </LinkButton>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <DetailsForm user={user} onSaved={updated} />
      </div>

      <PictureDialog open={picOpen} onOpenChange={setPicOpen} onSaved={updated} />
    </div>
  );
}

function Stat({ icon, label, short, value, testId }: { icon: ReactNode; label: string; short: string; value: string; testId: string }) {
  return (
    <Card className="flex flex-col gap-1 p-3 sm:flex-row sm:items-center sm:gap-4 sm:p-5">
      <span className="hidden h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex" aria-hidden="true">
        {icon}
      </span>
      <div className="min-w-0">
        <p className="truncate text-xs text-muted-foreground sm:text-sm">
          <span className="sm:hidden">{short}</span>
          <span className="hidden sm:inline">{label}</span>
        </p>
        <p className="text-lg font-bold sm:text-2xl" data-testid={testId}>{value}</p>
      </div>
    </Card>
  );
}

type Details = { name: string; position: string; linkedin: string; portfolio: string };
const URL_RE = /^https?:\/\/[^\s/?#]+\.[^\s]+$/i;

function detailsOf(u: User): Details {
  return { name: u.name, position: u.position, linkedin: u.linkedin, portfolio: u.portfolio };
}

/** Client-side checks mirroring the server's, so most mistakes never leave the page. */
function checkDetails(d: Details): Partial<Record<keyof Details, string>> {
  const e: Partial<Record<keyof Details, string>> = {};
  if (!d.name.trim()) e.name = 'Please enter your name.';
  if (d.linkedin.trim() && !URL_RE.test(d.linkedin.trim())) e.linkedin = 'LinkedIn must be a full http:// or https:// address.';
  if (d.portfolio.trim() && !URL_RE.test(d.portfolio.trim())) e.portfolio = 'Portfolio must be a full http:// or https:// address.';
  return e;
}

/** Edit Profile Details: read-only until Edit; Save returns to read-only; Cancel restores. */
function DetailsForm({ user, onSaved }: { user: User; onSaved: (u: User) => void }) {
  const [editing, setEditing] = useState(false);
  const [form, setForm] = useState<Details>(() => detailsOf(user));
  const [errors, setErrors] = useState<Partial<Record<keyof Details, string>>>({});
  const [busy, setBusy] = useState(false);

  const set = (k: keyof Details) => (e: ChangeEvent<HTMLInputElement>) => {
    setForm({ ...form, [k]: e.target.value });
    if (errors[k]) setErrors({ ...errors, [k]: undefined });
  };
  const cancel = () => {
    setForm(detailsOf(user));
    setErrors({});
    setEditing(false);
  };
  const save = async (e: FormEvent) => {
    e.preventDefault();
    if (!editing || busy) return;
    const errs = checkDetails(form);
    setErrors(errs);
    if (Object.values(errs).some(Boolean)) return;
    setBusy(true);
    try {
      const res = await api<{ user: ApiUser }>('/users/profile', { method: 'POST', body: { ...form, email: user.email } });
      const u = fromApi(res.user);
      onSaved(u);
      setForm(detailsOf(u));
      setEditing(false);
      toast({ title: 'Profile updated!', description: 'Your details have been saved.', variant: 'success' });
    } catch (err) {
      const status = (err as ApiError).status;
      if (status === 400) setErrors({ name: undefined, ...fieldOf(errorMessage(err, '')) });
      toastError('Could not update profile.', 'Update failed');
    } finally {
      setBusy(false);
    }
  };

  const field = (k: keyof Details, label: string, icon: ReactNode, props: InputHTMLAttributes<HTMLInputElement> = {}) => (
    <div className="space-y-2">
      <Label htmlFor={`profile-${k}`} className="flex items-center gap-1.5">
        {icon} {label}
      </Label>
      <Input
        id={`profile-${k}`}
        name={k}
        value={form[k]}
        onChange={set(k)}
        readOnly={!editing}
        aria-invalid={errors[k] ? true : undefined}
        aria-describedby={errors[k] ? `profile-${k}-error` : undefined}
        className={cn(errors[k] && 'border-destructive focus-visible:ring-destructive')}
        {...props}
      />
      {errors[k] && (
        <p id={`profile-${k}-error`} className="text-sm text-destructive">
          {errors[k]}
        </p>
      )}
    </div>
  );

  return (
    <Card className="lg:col-span-2">
      <CardHeader>
        <CardTitle>Edit Profile Details</CardTitle>
        <CardDescription>{editing ? 'Change your details, then save.' : 'Shown on your public profile and your applications.'}</CardDescription>
      </CardHeader>
      <CardContent>
        <form method="post" onSubmit={save} className="space-y-4" aria-busy={busy} data-testid="profile-form" noValidate>
          {field('name', 'Name', <UserRound className="h-3.5 w-3.5" aria-hidden="true" />, { autoComplete: 'name', maxLength: 100, required: true })}
          <div className="space-y-2">
            <Label htmlFor="profile-email" className="flex items-center gap-1.5">
              <Lock className="h-3.5 w-3.5" aria-hidden="true" /> Email
            </Label>
            <Input id="profile-email" value={user.email} readOnly aria-describedby="profile-email-hint" />
            <p id="profile-email-hint" className="text-xs text-muted-foreground">
              Your email address cannot be changed.
            </p>
          </div>
          {field('position', 'Position', <Briefcase className="h-3.5 w-3.5" aria-hidden="true" />, { autoComplete: 'organization-title', maxLength: 120, placeholder: editing ? 'e.g. Senior Frontend Engineer' : '' })}
          {field('linkedin', 'LinkedIn', <Linkedin className="h-3.5 w-3.5" aria-hidden="true" />, { type: 'url', inputMode: 'url', maxLength: 300, placeholder: editing ? 'https://www.linkedin.com/in/you' : '' })}
          {field('portfolio', 'Portfolio', <Globe className="h-3.5 w-3.5" aria-hidden="true" />, { type: 'url', inputMode: 'url', maxLength: 300, placeholder: editing ? 'https://your-site.example' : '' })}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            {editing ? (
              <>
                <Button type="button" variant="outline" onClick={cancel} disabled={busy} data-testid="profile-cancel">
                  <X aria-hidden="true" /> Cancel
                </Button>
                <Button type="submit" disabled={busy} data-testid="profile-save">
                  {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
                  {busy ? 'Saving...' : 'Save'}
                </Button>
              </>
            ) : (
              <Button type="button" onClick={() => setEditing(true)} data-testid="profile-edit">
                <Pencil aria-hidden="true" /> Edit
              </Button>
            )}
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** Which field a server validation message is about. */
function fieldOf(msg: string): Partial<Record<keyof Details, string>> {
  if (!msg) return {};
  if (msg.startsWith('LinkedIn')) return { linkedin: msg };
  if (msg.startsWith('Portfolio')) return { portfolio: msg };
  if (msg.toLowerCase().includes('position')) return { position: msg };
  if (msg.toLowerCase().includes('name')) return { name: msg };
  return {};
}

// ---- Edit Profile Picture: choose, crop square with zoom 1 to 3, round preview, PNG ----

const VIEW = 256; // the crop square, CSS pixels
const PREVIEW = 96; // the round preview
const OUT = 512; // exported size (at most)
const ZOOM_MIN = 1;
const ZOOM_MAX = 3;

type Src = { url: string; w: number; h: number; img: HTMLImageElement };
type Crop = { zoom: number; x: number; y: number }; // x, y: the image's top-left in the square

function scaleOf(src: Src, zoom: number) {
  return (VIEW / Math.min(src.w, src.h)) * zoom;
}

function clamp(src: Src, c: Crop): Crop {
  const s = scaleOf(src, c.zoom);
  const minX = VIEW - src.w * s;
  const minY = VIEW - src.h * s;
  return { zoom: c.zoom, x: Math.min(0, Math.max(minX, c.x)), y: Math.min(0, Math.max(minY, c.y)) };
}

function centred(src: Src): Crop {
  const s = scaleOf(src, 1);
  return { zoom: 1, x: (VIEW - src.w * s) / 2, y: (VIEW - src.h * s) / 2 };
}

/** Zooms about the centre of the square. */
function zoomTo(src: Src, c: Crop, zoom: number): Crop {
  const z = Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, zoom));
  const s0 = scaleOf(src, c.zoom);
  const s1 = scaleOf(src, z);
  const cx = (VIEW / 2 - c.x) / s0;
  const cy = (VIEW / 2 - c.y) / s0;
  return clamp(src, { zoom: z, x: VIEW / 2 - cx * s1, y: VIEW / 2 - cy * s1 });
}

/** Draws the cropped square into a PNG (at most 512x512). */
function exportPNG(src: Src, c: Crop): Promise<Blob> {
  const s = scaleOf(src, c.zoom);
  const side = VIEW / s; // in source pixels
  const out = Math.max(1, Math.min(OUT, Math.round(side)));
  const canvas = document.createElement('canvas');
  canvas.width = out;
  canvas.height = out;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.reject(new Error('no canvas'));
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(src.img, -c.x / s, -c.y / s, side, side, 0, 0, out, out);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('export failed'))), 'image/png'));
}

function PictureDialog({ open, onOpenChange, onSaved }: { open: boolean; onOpenChange: (o: boolean) => void; onSaved: (u: User) => void }) {
  const [src, setSrc] = useState<Src | null>(null);
  const [crop, setCrop] = useState<Crop>({ zoom: 1, x: 0, y: 0 });
  const [busy, setBusy] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);
  const drag = useRef<{ px: number; py: number; x: number; y: number } | null>(null);

  // forget the picked image when the dialog closes (its object URL is released below)
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (!open) setSrc(null);
  }
  // release a picked image's object URL once it is replaced, dropped or the dialog unmounts
  useEffect(() => {
    if (!src) return;
    return () => URL.revokeObjectURL(src.url);
  }, [src]);

  const choose = () => fileRef.current?.click();

  const picked = (file: File | undefined) => {
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      toastError('Please choose an image file (PNG, JPEG, WebP…).', 'Not an image');
      return;
    }
    const url = URL.createObjectURL(file);
    const img = new Image();
    img.onload = () => {
      const s: Src = { url, w: img.naturalWidth, h: img.naturalHeight, img };
      setSrc(s);
      setCrop(centred(s));
    };
    img.onerror = () => {
      URL.revokeObjectURL(url);
      toastError('This file could not be read as an image. Please choose another.', 'Not an image');
    };
    img.src = url;
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!src) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { px: e.clientX, py: e.clientY, x: crop.x, y: crop.y };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!src || !drag.current) return;
    const d = drag.current;
    setCrop(clamp(src, { zoom: crop.zoom, x: d.x + e.clientX - d.px, y: d.y + e.clientY - d.py }));
  };
  const onPointerUp = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!src) return;
    const step = e.shiftKey ? 20 : 5;
    const moves: Record<string, [number, number]> = { ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step], ArrowDown: [0, -step] };
    if (moves[e.key]) {
      e.preventDefault();
      setCrop(clamp(src, { zoom: crop.zoom, x: crop.x + moves[e.key][0], y: crop.y + moves[e.key][1] }));
    } else if (e.key === '+' || e.key === '=') setCrop(zoomTo(src, crop, crop.zoom + 0.1));
    else if (e.key === '-') setCrop(zoomTo(src, crop, crop.zoom - 0.1));
  };

  const save = async () => {
    if (!src || busy) return;
    setBusy(true);
    try {
      const blob = await exportPNG(src, crop);
      const form = new FormData();
      form.append('profilePic', blob, 'profile.png');
      await api('/users/profile-pic', { method: 'POST', form, timeoutMs: 60000 });
      try {
        const me = await api<{ user: ApiUser }>('/auth/me');
        onSaved(fromApi(me.user));
      } catch {
        toastError('Your picture was saved, but the page could not refresh it. Reload to see it.');
        onOpenChange(false);
        return;
      }
      toast({ title: 'Profile picture updated', variant: 'success' });
      onOpenChange(false);
    } catch (err) {
      toastError(errorMessage(err, 'Please try again.'), 'Failed to update profile picture');
    } finally {
      setBusy(false);
    }
  };

  const s = src ? scaleOf(src, crop.zoom) : 1;
  const k = PREVIEW / VIEW;
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent className="max-w-xl" aria-describedby="pic-desc" data-testid="picture-dialog">
        <DialogHeader>
          <DialogTitle>Edit Profile Picture</DialogTitle>
          <DialogDescription id="pic-desc">
            {src ? 'Drag to position your picture and zoom to frame it. It is saved as a square.' : 'Choose an image from your device. You can crop and zoom it next.'}
          </DialogDescription>
        </DialogHeader>
        <input ref={fileRef} type="file" accept="image/*" className="sr-only" tabIndex={-1} aria-hidden="true" data-testid="picture-input" onChange={(e) => {
          picked(e.target.files?.[0]);
          e.target.value = '';
        }} />
        {!src ? (
          <button
            type="button"
            onClick={choose}
            className="flex h-56 w-full flex-col items-center justify-center gap-3 rounded-xl border-2 border-dashed text-muted-foreground transition-colors hover:border-primary hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              picked(e.dataTransfer.files?.[0]);
            }}
          >
            <ImageUp className="h-10 w-10" aria-hidden="true" />
            <span className="font-medium">Choose an image</span>
            <span className="text-xs">PNG, JPEG or WebP — or drop a file here</span>
          </button>
        ) : (
          <div className="flex flex-col items-center gap-6 sm:flex-row sm:items-start">
            <div className="space-y-4">
              <div
                role="application"
                aria-label="Crop area: drag or use the arrow keys to move the picture, + and - to zoom"
                tabIndex={0}
                className="relative cursor-grab touch-none overflow-hidden rounded-lg bg-muted ring-1 ring-border focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring active:cursor-grabbing"
                style={{ width: VIEW, height: VIEW }}
                onPointerDown={onPointerDown}
                onPointerMove={onPointerMove}
                onPointerUp={onPointerUp}
                onPointerCancel={onPointerUp}
                onKeyDown={onKeyDown}
                onWheel={(e) => setCrop(zoomTo(src, crop, crop.zoom - e.deltaY / 500))}
                data-testid="crop-area"
              >
                <img src={src.url} alt="" draggable={false} className="pointer-events-none absolute max-w-none select-none" style={{ left: crop.x, top: crop.y, width: src.w * s, height: src.h * s }} />
                {/* the round outline of what the avatar shows */}
                <div className="pointer-events-none absolute inset-0 rounded-full shadow-[0_0_0_9999px_rgba(0,0,0,0.35)] ring-2 ring-white/80" aria-hidden="true" />
              </div>
              <div className="flex items-center gap-3">
                <ZoomIn className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
                <input
                  type="range"
                  min={ZOOM_MIN}
                  max={ZOOM_MAX}
                  step={0.01}
                  value={crop.zoom}
                  onChange={(e) => setCrop(zoomTo(src, crop, Number(e.target.value)))}
                  aria-label="Zoom"
                  className="h-2 w-full cursor-pointer accent-[var(--primary)]"
                  data-testid="zoom"
                />
                <span className="w-10 text-right text-xs tabular-nums text-muted-foreground">{crop.zoom.toFixed(1)}×</span>
              </div>
            </div>
            <div className="flex flex-col items-center gap-2">
              <div className="relative overflow-hidden rounded-full bg-muted ring-2 ring-border" style={{ width: PREVIEW, height: PREVIEW }} data-testid="round-preview">
                <img src={src.url} alt="Preview of your new profile picture" draggable={false} className="absolute max-w-none" style={{ left: crop.x * k, top: crop.y * k, width: src.w * s * k, height: src.h * s * k }} />
              </div>
              <span className="text-xs text-muted-foreground">Preview</span>
            </div>
          </div>
        )}
        <DialogFooter className="gap-2 sm:justify-between">
          {src ? (
            <Button type="button" variant="ghost" onClick={choose} disabled={busy}>
              <Camera aria-hidden="true" /> Choose Another
            </Button>
          ) : (
            <span />
          )}
          <div className="flex flex-col-reverse gap-2 sm:flex-row">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="button" onClick={save} disabled={!src || busy} data-testid="picture-save">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
              {busy ? 'Saving...' : 'Save'}
            </Button>
          </div>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
