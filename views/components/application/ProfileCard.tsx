// The applicant's details on the application page: read-only until Edit, saved to the
// profile (POST /users/profile) with Save, restored with Cancel.
import { useState, type ReactNode } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import Lock from 'lucide-react/icons/lock';
import Pencil from 'lucide-react/icons/pencil';
import Save from 'lucide-react/icons/save';
import UserRound from 'lucide-react/icons/user-round';
import { api, errorMessage } from '../../lib/api';
import { toast } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { Button, Card, CardContent, CardDescription, CardTitle, Input, Label } from '../ui';
import type { Profile } from './model';

/** The profile card's state: the saved profile, the draft being edited, and its actions. */
export function useProfileEditor(initial: Profile) {
  const [profile, setProfile] = useState<Profile>(initial);
  const [draft, setDraft] = useState<Profile>(initial);
  const [editing, setEditing] = useState(false);
  const [saving, setSaving] = useState(false);

  const startEdit = (focus?: keyof Profile) => {
    setDraft(profile);
    setEditing(true);
    setTimeout(() => document.getElementById(`pf-${focus || 'name'}`)?.focus(), 0);
  };
  const cancelEdit = () => {
    setDraft(profile);
    setEditing(false);
  };
  const saveProfile = async () => {
    setSaving(true);
    try {
      const res = await api<{ msg?: string; user?: Partial<Profile> }>('/users/profile', {
        method: 'POST',
        body: { name: draft.name, email: profile.email, position: draft.position, linkedin: draft.linkedin, portfolio: draft.portfolio },
      });
      const u = res?.user || {};
      const next: Profile = {
        name: u.name ?? draft.name,
        email: profile.email,
        position: u.position ?? draft.position,
        linkedin: u.linkedin ?? draft.linkedin,
        portfolio: u.portfolio ?? draft.portfolio,
      };
      setProfile(next);
      setDraft(next);
      setEditing(false);
      toast({ title: 'Profile Updated', description: res?.msg || 'Your details have been saved.', variant: 'success' });
    } catch (e) {
      toast({ title: 'Profile Update Failed', description: errorMessage(e, 'Failed to update profile. Please try again.'), variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  };

  return { profile, draft, setDraft, editing, saving, values: editing ? draft : profile, startEdit, cancelEdit, saveProfile };
}

export type ProfileEditor = ReturnType<typeof useProfileEditor>;

export function ProfileCard({ editor, skill, disabled }: { editor: ProfileEditor; skill: boolean; disabled: boolean }) {
  const { draft, setDraft, editing, saving, values, startEdit, cancelEdit: cancel, saveProfile: save } = editor;
  return (
    <Card className="min-w-0 lg:col-span-2" data-testid="profile-card">
      <div className="flex items-start justify-between gap-3 p-6">
        <div className="space-y-1.5">
          <CardTitle className="flex items-center gap-2">
            <UserRound className="h-5 w-5 text-primary" aria-hidden="true" /> Your details
          </CardTitle>
          <CardDescription>Reviewers see these with your application.</CardDescription>
        </div>
        {!editing && (
          <Button variant="outline" size="sm" onClick={() => startEdit()} disabled={disabled} data-testid="profile-edit">
            <Pencil /> Edit
          </Button>
        )}
      </div>
      <CardContent className="space-y-4">
        <ProfileField label="Full name" required missing={!values.name.trim()}>
          <Input
            id="pf-name"
            value={values.name}
            readOnly={!editing}
            onChange={(e) => setDraft({ ...draft, name: e.target.value })}
            autoComplete="name"
            maxLength={100}
          />
        </ProfileField>
        <ProfileField label="Email" hint="Your sign-in address; it cannot be changed here." icon={<Lock className="h-3 w-3" aria-hidden="true" />}>
          <Input id="pf-email" value={values.email} readOnly aria-readonly="true" />
        </ProfileField>
        <ProfileField label="Position" required missing={!values.position.trim()}>
          <Input
            id="pf-position"
            value={values.position}
            readOnly={!editing}
            onChange={(e) => setDraft({ ...draft, position: e.target.value })}
            placeholder={editing ? 'e.g. Senior Frontend Engineer' : ''}
            maxLength={120}
          />
        </ProfileField>
        <ProfileField label="LinkedIn" required missing={!values.linkedin.trim()}>
          <Input
            id="pf-linkedin"
            type="url"
            value={values.linkedin}
            readOnly={!editing}
            onChange={(e) => setDraft({ ...draft, linkedin: e.target.value })}
            placeholder={editing ? 'https://linkedin.com/in/your-name' : ''}
          />
        </ProfileField>
        <ProfileField label="Portfolio" hint={skill ? 'Optional.' : 'Optional when you upload proof files.'}>
          <Input
            id="pf-portfolio"
            type="url"
            value={values.portfolio}
            readOnly={!editing}
            onChange={(e) => setDraft({ ...draft, portfolio: e.target.value })}
            placeholder={editing ? 'https://your-site.com' : ''}
          />
        </ProfileField>
        {editing && (
          <div className="flex gap-2 pt-1">
            <Button onClick={save} disabled={saving} data-testid="profile-save">
              {saving ? <Loader2 className="animate-spin" /> : <Save />} Save
            </Button>
            <Button variant="ghost" onClick={cancel} disabled={saving} data-testid="profile-cancel">
              Cancel
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

export function ProfileField({ label, required, missing, hint, icon, children }: { label: string; required?: boolean; missing?: boolean; hint?: string; icon?: ReactNode; children: ReactNode }) {
  const id = 'pf-' + label.toLowerCase().split(' ').pop();
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} className="flex items-center gap-1.5">
        {label}
        {required && <span className="text-destructive" aria-hidden="true">*</span>}
        {icon}
        {missing && <span className="ml-auto text-xs font-normal text-destructive">Required</span>}
      </Label>
      <div className={cn(missing && '[&_input]:border-destructive/70')}>{children}</div>
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}
