// Edit Profile Details on the profile page, with the server's checks mirrored client-side.
import { useState, type ChangeEvent, type FormEvent, type InputHTMLAttributes, type ReactNode } from 'react';
import Briefcase from 'lucide-react/icons/briefcase';
import Globe from 'lucide-react/icons/globe';
import Linkedin from 'lucide-react/icons/linkedin';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Lock from 'lucide-react/icons/lock';
import Pencil from 'lucide-react/icons/pencil';
import Save from 'lucide-react/icons/save';
import UserRound from 'lucide-react/icons/user-round';
import X from 'lucide-react/icons/x';
import { api, errorMessage, type ApiError } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label } from '../ui';
import { fromApi, type ApiUser, type User } from '../user';

export type Details = { name: string; position: string; linkedin: string; portfolio: string };

export const URL_RE = /^https?:\/\/[^\s/?#]+\.[^\s]+$/i;

export function detailsOf(u: User): Details {
  return { name: u.name, position: u.position, linkedin: u.linkedin, portfolio: u.portfolio };
}

/** Client-side checks mirroring the server's, so most mistakes never leave the page. */
export function checkDetails(d: Details): Partial<Record<keyof Details, string>> {
  const e: Partial<Record<keyof Details, string>> = {};
  if (!d.name.trim()) e.name = 'Please enter your name.';
  if (d.linkedin.trim() && !URL_RE.test(d.linkedin.trim())) e.linkedin = 'LinkedIn must be a full http:// or https:// address.';
  if (d.portfolio.trim() && !URL_RE.test(d.portfolio.trim())) e.portfolio = 'Portfolio must be a full http:// or https:// address.';
  return e;
}

/** Edit Profile Details: read-only until Edit; Save returns to read-only; Cancel restores. */
export function DetailsForm({ user, onSaved }: { user: User; onSaved: (u: User) => void }) {
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
export function fieldOf(msg: string): Partial<Record<keyof Details, string>> {
  if (!msg) return {};
  if (msg.startsWith('LinkedIn')) return { linkedin: msg };
  if (msg.startsWith('Portfolio')) return { portfolio: msg };
  if (msg.toLowerCase().includes('position')) return { position: msg };
  if (msg.toLowerCase().includes('name')) return { name: msg };
  return {};
}

// ---- Edit Profile Picture: choose, crop square with zoom 1 to 3, round preview, PNG ----
