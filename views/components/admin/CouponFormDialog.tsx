// The coupon form: 'New Coupon' (create) and the edit dialog. Numbers are converted,
// maximumDiscount and usageLimit are null when empty, dates are sent as ISO strings;
// defaults: percentage, 10, minimum 0, valid from now for 30 days.
import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Button, Input, Textarea } from '../ui';
import { api } from '../../lib/api';
import { cn } from '../../lib/cn';
import { CATEGORIES, Field, NativeSelect, numberOrNull, showSaveError, toastFail, toastSuccess, type AdminBadge, type AdminCoupon } from './BadgeAdminKit';
import { Switch } from '../ui/switch';

type Values = {
  code: string;
  name: string;
  description: string;
  discountType: 'percentage' | 'fixed';
  discountValue: string;
  minimumAmount: string;
  maximumDiscount: string;
  usageLimit: string;
  validFrom: string; // datetime-local, the admin's time zone
  validUntil: string;
  applicableBadges: string[];
  applicableCategories: string[];
  isActive: boolean;
};

const DAY = 24 * 60 * 60 * 1000;
const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO time as a datetime-local value in the browser's time zone. */
export function toLocalInput(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function fromLocalInput(v: string): string | null {
  if (!v) return null;
  const d = new Date(v);
  return isNaN(d.getTime()) ? v : d.toISOString();
}

function defaults(): Values {
  const now = new Date();
  return {
    code: '', name: '', description: '', discountType: 'percentage', discountValue: '10', minimumAmount: '0', maximumDiscount: '', usageLimit: '',
    validFrom: toLocalInput(now), validUntil: toLocalInput(new Date(now.getTime() + 30 * DAY)), applicableBadges: [], applicableCategories: [], isActive: true,
  };
}

function fromCoupon(c: AdminCoupon): Values {
  return {
    code: c.code, name: c.name, description: c.description, discountType: c.discountType, discountValue: String(c.discountValue),
    minimumAmount: String(c.minimumAmount), maximumDiscount: c.maximumDiscount == null ? '' : String(c.maximumDiscount),
    usageLimit: c.usageLimit == null ? '' : String(c.usageLimit), validFrom: toLocalInput(c.validFrom), validUntil: toLocalInput(c.validUntil),
    applicableBadges: c.applicableBadges.map((b) => b._id), applicableCategories: c.applicableCategories, isActive: c.isActive,
  };
}

// the form's fields the server may name in an error, by their control's id
const FIELD_IDS = {
  code: 'coupon-code', name: 'coupon-name', description: 'coupon-description', discountType: 'coupon-type', discountValue: 'coupon-value',
  minimumAmount: 'coupon-minimum', maximumDiscount: 'coupon-maximum', usageLimit: 'coupon-limit', validFrom: 'coupon-from', validUntil: 'coupon-until',
};
type FieldKey = keyof typeof FIELD_IDS;

function Toggle({ on, onClick, children }: { on: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      aria-pressed={on}
      onClick={onClick}
      className={cn(
        'rounded-full border px-3 py-1 text-xs font-medium',
        on ? 'border-primary bg-primary text-primary-foreground' : 'bg-background text-muted-foreground hover:bg-accent hover:text-accent-foreground',
      )}
    >
      {children}
    </button>
  );
}

export function CouponFormDialog({ open, onOpenChange, coupon, badges, onSaved }: {
  open: boolean;
  onOpenChange: (v: boolean) => void;
  coupon: AdminCoupon | null; // null: create
  badges: AdminBadge[];
  onSaved: () => void;
}) {
  const editing = !!coupon;
  const [v, setV] = useState<Values>(() => (coupon ? fromCoupon(coupon) : defaults()));
  const [busy, setBusy] = useState(false);
  const [badgeSearch, setBadgeSearch] = useState('');
  // a server message about one field, shown beside it
  const [err, setErr] = useState<{ field: FieldKey; msg: string } | null>(null);
  // the form starts afresh each time the dialog opens
  const [seen, setSeen] = useState({ open, coupon });
  if (open !== seen.open || coupon !== seen.coupon) {
    setSeen({ open, coupon });
    if (open) {
      setV(coupon ? fromCoupon(coupon) : defaults());
      setBadgeSearch('');
      setErr(null);
    }
  }
  const set = <K extends keyof Values>(k: K, val: Values[K]) => {
    setV((p) => ({ ...p, [k]: val }));
    if (err?.field === k) setErr(null);
  };
  const errOf = (k: FieldKey) => (err?.field === k ? err.msg : undefined);
  const flip = (k: 'applicableBadges' | 'applicableCategories', id: string) =>
    setV((p) => ({ ...p, [k]: p[k].includes(id) ? p[k].filter((x) => x !== id) : [...p[k], id] }));

  const shownBadges = useMemo(() => {
    const q = badgeSearch.trim().toLowerCase();
    return badges.filter((b) => !q || b.name.toLowerCase().includes(q) || v.applicableBadges.includes(b._id));
  }, [badges, badgeSearch, v.applicableBadges]);

  const bodyOf = (v: Values) => ({
      code: v.code.trim().toUpperCase(), name: v.name, description: v.description, discountType: v.discountType,
      discountValue: numberOrNull(v.discountValue), minimumAmount: numberOrNull(v.minimumAmount) ?? 0,
      maximumDiscount: numberOrNull(v.maximumDiscount), usageLimit: numberOrNull(v.usageLimit),
      validFrom: fromLocalInput(v.validFrom), validUntil: fromLocalInput(v.validUntil),
      applicableBadges: v.applicableBadges, applicableCategories: v.applicableCategories, isActive: v.isActive,
  });
  // an edit's undo (on the toast, for a few seconds) saves the coupon as it was
  const undoEdit = (before: AdminCoupon) => async () => {
    try {
      await api(`/coupons/${before._id}`, { method: 'PUT', body: bodyOf(fromCoupon(before)) });
      toastSuccess('Coupon updated successfully');
      onSaved();
    } catch (caught) {
      toastFail(caught, 'Failed to update coupon');
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = bodyOf(v);
    setBusy(true);
    setErr(null);
    try {
      await api(editing ? `/coupons/${coupon!._id}` : '/coupons', { method: editing ? 'PUT' : 'POST', body });
      toastSuccess(editing ? 'Coupon updated successfully' : 'Coupon created successfully', coupon ? undoEdit(coupon) : undefined);
      onSaved();
      onOpenChange(false);
    } catch (caught) {
      setErr(showSaveError(caught, FIELD_IDS, editing ? 'Failed to update coupon' : 'Failed to create coupon'));
    } finally {
      setBusy(false);
    }
  };

  const pct = v.discountType === 'percentage';
  return (
    <Dialog open={open} onOpenChange={(o) => !busy && onOpenChange(o)}>
      <DialogContent className="sm:max-w-3xl">
        <DialogHeader>
          <DialogTitle>{editing ? 'Edit Coupon' : 'New Coupon'}</DialogTitle>
          <DialogDescription>
            {editing ? `Used ${coupon!.usedCount} time${coupon!.usedCount === 1 ? '' : 's'} so far. Past payments keep their discount.` : 'Codes are upper-case letters, digits, - and _.'}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" data-testid="coupon-form">
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="Code" htmlFor="coupon-code" error={errOf('code')}>
              <Input
                id="coupon-code"
                value={v.code}
                onChange={(e) => set('code', e.target.value.toUpperCase())}
                required
                minLength={3}
                maxLength={32}
                placeholder="SUMMER25"
                className="font-mono uppercase"
                autoComplete="off"
              />
            </Field>
            <Field label="Name" htmlFor="coupon-name" error={errOf('name')}>
              <Input id="coupon-name" value={v.name} onChange={(e) => set('name', e.target.value)} maxLength={100} placeholder="Summer sale" />
            </Field>
            <Field label="Description" htmlFor="coupon-description" error={errOf('description')} className="sm:col-span-2">
              <Textarea id="coupon-description" value={v.description} onChange={(e) => set('description', e.target.value)} maxLength={500} rows={2} />
            </Field>
            <Field label="Discount type" htmlFor="coupon-type" error={errOf('discountType')}>
              <NativeSelect id="coupon-type" value={v.discountType} onChange={(e) => set('discountType', e.target.value as Values['discountType'])}>
                <option value="percentage">Percentage (%)</option>
                <option value="fixed">Fixed amount ($)</option>
              </NativeSelect>
            </Field>
            <Field label={pct ? 'Discount (%)' : 'Discount ($)'} htmlFor="coupon-value" error={errOf('discountValue')} hint={pct ? '1 to 100. 100% makes a free-grant coupon.' : 'More than $0.'}>
              <Input id="coupon-value" type="number" inputMode="decimal" step="0.01" min={pct ? 1 : 0.01} max={pct ? 100 : 10000} value={v.discountValue} onChange={(e) => set('discountValue', e.target.value)} required />
            </Field>
            <Field label="Minimum order ($)" htmlFor="coupon-minimum" error={errOf('minimumAmount')}>
              <Input id="coupon-minimum" type="number" inputMode="decimal" step="0.01" min={0} value={v.minimumAmount} onChange={(e) => set('minimumAmount', e.target.value)} />
            </Field>
            <Field label="Maximum discount ($)" htmlFor="coupon-maximum" error={errOf('maximumDiscount')} hint="Empty: no maximum.">
              <Input id="coupon-maximum" type="number" inputMode="decimal" step="0.01" min={0.01} value={v.maximumDiscount} onChange={(e) => set('maximumDiscount', e.target.value)} placeholder="No maximum" />
            </Field>
            <Field label="Usage limit" htmlFor="coupon-limit" error={errOf('usageLimit')} hint="Empty: unlimited.">
              <Input id="coupon-limit" type="number" step={1} min={1} value={v.usageLimit} onChange={(e) => set('usageLimit', e.target.value)} placeholder="Unlimited" />
            </Field>
            <div className="flex items-end pb-2">
              <label className="flex items-center gap-3 text-sm font-medium">
                <Switch checked={v.isActive} onCheckedChange={(c) => set('isActive', c)} label="Active" />
                Active
              </label>
            </div>
            <Field label="Valid from" htmlFor="coupon-from" error={errOf('validFrom')}>
              <Input id="coupon-from" type="datetime-local" value={v.validFrom} onChange={(e) => set('validFrom', e.target.value)} required />
            </Field>
            <Field label="Valid until" htmlFor="coupon-until" error={errOf('validUntil')}>
              <Input id="coupon-until" type="datetime-local" value={v.validUntil} onChange={(e) => set('validUntil', e.target.value)} required />
            </Field>
          </div>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Applicable categories</legend>
            <p className="-mt-1 text-xs text-muted-foreground">None selected: every category.</p>
            <div className="flex flex-wrap gap-2">
              {CATEGORIES.map((c) => (
                <Toggle key={c} on={v.applicableCategories.includes(c)} onClick={() => flip('applicableCategories', c)}>
                  {c}
                </Toggle>
              ))}
            </div>
          </fieldset>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Applicable badges</legend>
            <p className="-mt-1 text-xs text-muted-foreground">
              {v.applicableBadges.length ? `${v.applicableBadges.length} selected.` : 'None selected: every badge.'}
            </p>
            {badges.length > 8 && (
              <Input value={badgeSearch} onChange={(e) => setBadgeSearch(e.target.value)} placeholder="Find a badge" aria-label="Find a badge" className="h-9" />
            )}
            <div className="flex max-h-36 flex-wrap gap-2 overflow-y-auto">
              {shownBadges.map((b) => (
                <Toggle key={b._id} on={v.applicableBadges.includes(b._id)} onClick={() => flip('applicableBadges', b._id)}>
                  {b.name}
                </Toggle>
              ))}
            </div>
          </fieldset>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} data-testid="coupon-form-submit">
              {busy ? 'Saving…' : editing ? 'Save Changes' : 'Create Coupon'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
