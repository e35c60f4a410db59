// Create / edit badge dialog (also the 'Quick Free Badge' prefilled form).
import { useState, type FormEvent } from 'react';
import type { LucideIcon } from 'lucide-react';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Brain from 'lucide-react/icons/brain';
import Briefcase from 'lucide-react/icons/briefcase';
import ChartColumn from 'lucide-react/icons/chart-column';
import Cloud from 'lucide-react/icons/cloud';
import Code from 'lucide-react/icons/code';
import Container from 'lucide-react/icons/container';
import Cpu from 'lucide-react/icons/cpu';
import Database from 'lucide-react/icons/database';
import GitBranch from 'lucide-react/icons/git-branch';
import Globe from 'lucide-react/icons/globe';
import GraduationCap from 'lucide-react/icons/graduation-cap';
import HeartHandshake from 'lucide-react/icons/heart-handshake';
import Kanban from 'lucide-react/icons/kanban';
import Layers from 'lucide-react/icons/layers';
import Lightbulb from 'lucide-react/icons/lightbulb';
import Lock from 'lucide-react/icons/lock';
import Megaphone from 'lucide-react/icons/megaphone';
import Palette from 'lucide-react/icons/palette';
import PenTool from 'lucide-react/icons/pen-tool';
import Rocket from 'lucide-react/icons/rocket';
import Server from 'lucide-react/icons/server';
import Shield from 'lucide-react/icons/shield';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Smartphone from 'lucide-react/icons/smartphone';
import Star from 'lucide-react/icons/star';
import Target from 'lucide-react/icons/target';
import Terminal from 'lucide-react/icons/terminal';
import Trophy from 'lucide-react/icons/trophy';
import Users from 'lucide-react/icons/users';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Button, Input, Textarea } from '../ui';
import { BadgeIcon, priceLabel } from '../badges';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { BADGE_COLORS, BADGE_ICONS, CATEGORIES, Field, LEVELS, NativeSelect, SWATCH, numberOrNull, showSaveError, toastFail, toastSuccess, type AdminBadge } from './BadgeAdminKit';
import { Switch } from '../ui/switch';

import { capitalize } from '../../lib/format';
const GLYPHS: Record<string, LucideIcon> = {
  Award, BadgeCheck, Brain, Briefcase, ChartColumn, Cloud, Code, Container, Cpu, Database, GitBranch, Globe, GraduationCap,
  HeartHandshake, Kanban, Layers, Lightbulb, Lock, Megaphone, Palette, PenTool, Rocket, Server, Shield, ShieldCheck,
  Smartphone, Star, Target, Terminal, Trophy, Users,
};

export type BadgeFormValues = {
  name: string;
  description: string;
  category: string;
  type: 'skill' | 'proof';
  level: string;
  price: string;
  icon: string;
  color: string;
  criteria: string;
  requiresResume: boolean;
  validDays: string;
  validMonths: string;
  isActive: boolean;
};

/** The spec's form defaults: skill, beginner, price 0, icon Award, color blue, no resume. */
export const BADGE_DEFAULTS: BadgeFormValues = {
  name: '', description: '', category: '', type: 'skill', level: 'beginner', price: '0', icon: 'Award', color: 'blue',
  criteria: '', requiresResume: false, validDays: '', validMonths: '', isActive: false,
};

/** 'Quick Free Badge': a free proof badge, ready to publish. */
export const QUICK_FREE_BADGE: BadgeFormValues = {
  ...BADGE_DEFAULTS,
  type: 'proof', price: '0', icon: 'BadgeCheck', color: 'green', isActive: true,
  description: 'A free badge recognising verified participation.',
  criteria: 'Upload a certificate, a screenshot or a link that shows your participation.',
};

export function badgeToForm(b: AdminBadge): BadgeFormValues {
  return {
    name: b.name, description: b.description, category: b.category, type: b.type, level: b.level, price: String(b.price),
    icon: b.icon, color: b.color, criteria: b.criteria, requiresResume: b.requiresResume,
    validDays: b.validDays ? String(b.validDays) : '', validMonths: b.validMonths ? String(b.validMonths) : '', isActive: b.isActive,
  };
}

// the form's fields the server may name in an error, by their control's id
const FIELD_IDS = {
  name: 'badge-name', description: 'badge-description', category: 'badge-category', type: 'badge-type', level: 'badge-level',
  price: 'badge-price', criteria: 'badge-criteria', validMonths: 'badge-valid-months', validDays: 'badge-valid-days',
};
type FieldKey = keyof typeof FIELD_IDS;

export type BadgeFormMode = 'create' | 'quick' | 'edit';

export function BadgeFormDialog({ open, onOpenChange, mode, initial, badgeId, onSaved }: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
  mode: BadgeFormMode;
  initial: BadgeFormValues;
  badgeId?: string;
  onSaved: (b: AdminBadge) => void;
}) {
  const [v, setV] = useState<BadgeFormValues>(initial);
  const [busy, setBusy] = useState(false);
  // a server message about one field, shown beside it
  const [err, setErr] = useState<{ field: FieldKey; msg: string } | null>(null);
  // the form starts from `initial` each time the dialog opens
  const [seen, setSeen] = useState({ open, initial });
  if (open !== seen.open || initial !== seen.initial) {
    setSeen({ open, initial });
    if (open) {
      setV(initial);
      setErr(null);
    }
  }
  const set = <K extends keyof BadgeFormValues>(k: K, val: BadgeFormValues[K]) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const errOf = (k: FieldKey) => (err?.field === k ? err.msg : undefined);
  const editing = mode === 'edit';

  const bodyOf = (v: BadgeFormValues): Record<string, unknown> => ({
    name: v.name, description: v.description, category: v.category, type: v.type, level: v.level,
    price: numberOrNull(v.price) ?? 0, icon: v.icon, color: v.color, criteria: v.criteria,
    requiresResume: v.requiresResume, validDays: numberOrNull(v.validDays), validMonths: numberOrNull(v.validMonths),
  });
  // an edit's undo (on the toast, for a few seconds) saves the values the dialog opened with
  const undoEdit = (id: string, before: BadgeFormValues) => async () => {
    try {
      const res = await api<{ msg: string; badge: AdminBadge }>(`/badge-management/badges/${id}`, { method: 'PUT', body: bodyOf(before) });
      toastSuccess('Badge updated successfully');
      onSaved(res.badge);
    } catch (caught) {
      toastFail(caught, 'Failed to update badge');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr(null);
    const body = bodyOf(v);
    if (!editing) body.isActive = v.type === 'proof' && v.isActive;
    try {
      const res = await api<{ msg: string; badge: AdminBadge }>(editing ? `/badge-management/badges/${badgeId}` : '/badge-management/badges', {
        method: editing ? 'PUT' : 'POST',
        body,
      });
      toastSuccess(editing ? 'Badge updated successfully' : 'Badge created successfully', editing && badgeId ? undoEdit(badgeId, initial) : undefined);
      onSaved(res.badge);
      onOpenChange(false);
    } catch (caught) {
      setErr(showSaveError(caught, FIELD_IDS, editing ? 'Failed to update badge' : 'Failed to create badge'));
    } finally {
      setBusy(false);
    }
  };

  const title = editing ? 'Edit Badge' : mode === 'quick' ? 'Quick Free Badge' : 'Create Badge';
  const price = Number(v.price);
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent className="sm:max-w-2xl" aria-describedby="badge-form-desc">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription id="badge-form-desc">
            {editing
              ? 'Changes apply to the catalogue at once. Holders keep the badges they earned.'
              : mode === 'quick'
                ? 'A free proof badge: people upload proof, an admin reviews, no payment is asked.'
                : 'Skill badges are earned with a quiz; proof badges with uploaded documents.'}
          </DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-3 rounded-lg border bg-muted/40 p-3">
          <BadgeIcon icon={v.icon} color={v.color} />
          <div className="min-w-0">
            <p className="truncate font-semibold">{v.name.trim() || 'Badge name'}</p>
            <p className="text-xs text-muted-foreground">
              {v.category || 'Category'} · {v.type === 'skill' ? 'Quiz Based' : 'Proof Based'} · {capitalize(v.level)} ·{' '}
              {Number.isFinite(price) && price >= 0 ? priceLabel(price) : '—'}
            </p>
          </div>
        </div>
        <form onSubmit={submit} className="grid gap-4" data-testid="badge-form">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="Name" htmlFor="badge-name" error={errOf('name')} className="sm:col-span-2">
              <Input id="badge-name" value={v.name} onChange={(e) => set('name', e.target.value)} required maxLength={100} placeholder="e.g. React Developer" />
            </Field>
            <Field label="Description" htmlFor="badge-description" error={errOf('description')} className="sm:col-span-2">
              <Textarea id="badge-description" value={v.description} onChange={(e) => set('description', e.target.value)} maxLength={2000} rows={3} />
            </Field>
            <Field label="Category" htmlFor="badge-category" error={errOf('category')}>
              <NativeSelect id="badge-category" value={v.category} onChange={(e) => set('category', e.target.value)} required>
                <option value="" disabled>
                  Select a category
                </option>
                {CATEGORIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Type" htmlFor="badge-type" error={errOf('type')} hint={editing && v.type !== initial.type ? 'The type can change only before anyone applies.' : undefined}>
              <NativeSelect id="badge-type" value={v.type} onChange={(e) => set('type', e.target.value as 'skill' | 'proof')}>
                <option value="skill">Skill (quiz based)</option>
                <option value="proof">Proof (document based)</option>
              </NativeSelect>
            </Field>
            <Field label="Level" htmlFor="badge-level" error={errOf('level')}>
              <NativeSelect id="badge-level" value={v.level} onChange={(e) => set('level', e.target.value)}>
                {LEVELS.map((l) => (
                  <option key={l} value={l}>
                    {capitalize(l)}
                  </option>
                ))}
              </NativeSelect>
            </Field>
            <Field label="Price (USD)" htmlFor="badge-price" error={errOf('price')} hint="0 makes the badge free.">
              <Input id="badge-price" type="number" inputMode="decimal" min={0} max={10000} step="0.01" value={v.price} onChange={(e) => set('price', e.target.value)} />
            </Field>
            <Field label="Criteria" htmlFor="badge-criteria" error={errOf('criteria')} className="sm:col-span-2">
              <Textarea id="badge-criteria" value={v.criteria} onChange={(e) => set('criteria', e.target.value)} maxLength={5000} rows={3} placeholder="What someone must show to earn this badge" />
            </Field>
            <Field label="Validity period (months)" htmlFor="badge-valid-months" error={errOf('validMonths')} hint="Holders are reminded 30 and 7 days before expiry and can renew. Empty: never expires.">
              <Input id="badge-valid-months" type="number" min={1} max={120} step={1} value={v.validMonths} onChange={(e) => set('validMonths', e.target.value)} placeholder="Never expires" />
            </Field>
            <Field label="Credential valid for (days)" htmlFor="badge-valid-days" error={errOf('validDays')} hint="Used when no period in months is set. Leave empty for badges that never expire.">
              <Input id="badge-valid-days" type="number" min={1} max={3650} step={1} value={v.validDays} onChange={(e) => set('validDays', e.target.value)} placeholder="Never expires" />
            </Field>
            <div className="grid content-start gap-3 pt-1">
              <label className="flex items-center justify-between gap-3 text-sm font-medium">
                Requires a resume
                <Switch checked={v.requiresResume} onCheckedChange={(c) => set('requiresResume', c)} label="Requires a resume" />
              </label>
              {!editing && (
                <label className="flex items-center justify-between gap-3 text-sm font-medium">
                  Publish now
                  <Switch checked={v.type === 'proof' && v.isActive} onCheckedChange={(c) => set('isActive', c)} label="Publish now" disabled={v.type === 'skill'} />
                </label>
              )}
              {!editing && v.type === 'skill' && (
                <p className="text-xs text-muted-foreground">A skill badge is published from Badge Management once its quiz has questions.</p>
              )}
            </div>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium">Icon</legend>
            <div className="grid grid-cols-8 gap-1.5 sm:grid-cols-11" role="radiogroup" aria-label="Icon">
              {BADGE_ICONS.map((name) => {
                const G = GLYPHS[name] || Award;
                const on = v.icon === name;
                return (
                  <button
                    key={name}
                    type="button"
                    role="radio"
                    aria-checked={on}
                    aria-label={name}
                    title={name}
                    onClick={() => set('icon', name)}
                    className={cn(
                      'flex h-9 items-center justify-center rounded-md border transition-colors hover:bg-accent',
                      on ? 'border-primary bg-primary/10 text-primary ring-2 ring-primary/30' : 'text-muted-foreground',
                    )}
                  >
                    <G className="h-4 w-4" />
                  </button>
                );
              })}
            </div>
          </fieldset>
          <fieldset className="grid gap-2">
            <legend className="mb-1.5 text-sm font-medium">Color</legend>
            <div className="flex flex-wrap gap-2" role="radiogroup" aria-label="Color">
              {BADGE_COLORS.map((c) => (
                <button
                  key={c}
                  type="button"
                  role="radio"
                  aria-checked={v.color === c}
                  aria-label={c}
                  title={c}
                  onClick={() => set('color', c)}
                  className={cn(
                    'h-7 w-7 rounded-full ring-offset-2 ring-offset-background',
                    SWATCH[c],
                    v.color === c ? 'ring-2 ring-foreground' : 'hover:ring-2 hover:ring-muted-foreground/40',
                  )}
                />
              ))}
            </div>
          </fieldset>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} data-testid="badge-form-submit">
              {busy ? 'Saving…' : editing ? 'Save Changes' : 'Create Badge'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
