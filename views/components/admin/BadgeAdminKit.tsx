// Shared pieces of the catalogue admin tabs (Badge Management, Quiz Management, Coupons):
// the API shapes, stat cards, form fields, card actions and toasts (the switch, confirmation
// dialog and empty state are generic: components/ui/).
import { cloneElement, isValidElement, type ComponentType, type ReactElement, type ReactNode, type SelectHTMLAttributes } from 'react';
import Pencil from 'lucide-react/icons/pencil';
import Search from 'lucide-react/icons/search';
import Trash2 from 'lucide-react/icons/trash-2';
import { Button, Card, Input, Label } from '../ui';
import { ApiError, errorMessage } from '../../lib/api';
import { toast, toastError, toastUndo } from '../../lib/toast';
import { cn } from '../../lib/cn';
import { Switch } from '../ui/switch';
import badgeStyle from '../../../app/model/badge-style.json';

export { CATEGORIES } from '../../lib/categories';

export const LEVELS = ['beginner', 'intermediate', 'advanced'] as const;

export const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

// The lists the server validates against (app/model/badge-style.json: one source for the
// server, the medallion images, this form and the icon sprite).
export const BADGE_ICONS = badgeStyle.icons.map(([name]) => name);
export const BADGE_COLORS = badgeStyle.colors.map(([name]) => name);

// Literal classes so Tailwind keeps them.
export const SWATCH: Record<string, string> = {
  blue: 'bg-blue-500', sky: 'bg-sky-500', cyan: 'bg-cyan-500', teal: 'bg-teal-500', emerald: 'bg-emerald-500',
  green: 'bg-green-500', lime: 'bg-lime-500', yellow: 'bg-yellow-400', amber: 'bg-amber-500', orange: 'bg-orange-500',
  red: 'bg-red-500', rose: 'bg-rose-500', pink: 'bg-pink-500', purple: 'bg-purple-500', violet: 'bg-violet-500',
  indigo: 'bg-indigo-500', slate: 'bg-slate-500', gray: 'bg-gray-500',
};

// ---- API shapes (app/badgeadmin, app/quizadmin, app/coupon) ----

export type AdminBadge = {
  _id: string;
  name: string;
  description: string;
  category: string;
  type: 'skill' | 'proof';
  level: string;
  price: number;
  icon: string;
  color: string;
  criteria: string;
  requiresResume: boolean;
  isActive: boolean;
  validDays: number | null;
  validMonths?: number | null;
  createdBy: { _id: string; name: string } | null;
  createdAt: string;
  updatedAt: string;
  quiz: { _id: string; title: string; passingScore: number; timeLimit: number; isActive: boolean; questionCount: number } | null;
  grantCount: number;
  applicationCount: number;
  openApplicationCount: number;
};

export type BadgeStats = { totalBadges: number; activeBadges: number; skillBadges: number; proofBadges: number };

export type Question = {
  _id: string;
  text: string;
  options: string[];
  correctIndex: number;
  // 'multiple' is "select all that apply": correctIndexes is its key (for single choice,
  // [correctIndex]); showCount: the question tells members how many to pick
  type?: 'single' | 'multiple';
  correctIndexes?: number[];
  showCount?: boolean;
  difficulty: string;
  explanation: string;
  topic: string;
  category: string;
  createdAt: string;
  quizzes: { _id: string; title: string; badgeName: string }[] | null;
  // families and retirement (app/quizadmin): familyOf links a variant or enemy; family is
  // the family's key ('' when in none)
  familyOf?: string | null;
  family?: string;
  retired?: boolean;
  // the draw's figures in a quiz view
  form?: { exposure: number; exposureRate: number; atCap: boolean; answered: number; estimate: number; estimateFromData: boolean };
};

export type BlueprintRow = { topic: string; count: number };

export type TopicPool = { topic: string; active: number; retired: number; families: number; count: number; shortfall: number };

export type AdminQuiz = {
  _id: string;
  title: string;
  description: string;
  passingScore: number;
  timeLimit: number;
  isActive: boolean;
  createdAt: string;
  badge: { _id: string; name: string; category: string; type: string; isActive: boolean };
  questions: Question[];
  questionCount: number;
  questionsPerAttempt: number;
  drawSize: number;
  retakeWaitHours: number;
  maxAttempts: number;
  attemptPeriodDays: number;
  retakeRule: string;
  // balanced forms (docs/assessment.md)
  blueprint?: BlueprintRow[];
  targetDifficulty?: number | null;
  target?: number;
  poolMean?: number;
  maxExposure?: number;
  minItemSeconds?: number;
  exposureForms?: number;
  activeCount?: number;
  topics?: TopicPool[];
  drawProblem?: string;
};

export type AdminCoupon = {
  _id: string;
  code: string;
  name: string;
  description: string;
  discountType: 'percentage' | 'fixed';
  discountValue: number;
  minimumAmount: number;
  maximumDiscount: number | null;
  usageLimit: number | null;
  usedCount: number;
  validFrom: string;
  validUntil: string;
  isActive: boolean;
  applicableBadges: { _id: string; name: string }[];
  applicableCategories: string[];
  status: 'active' | 'inactive' | 'expired';
  createdAt: string;
  updatedAt: string;
};

export type CouponStats = {
  totalCoupons: number;
  activeCoupons: number;
  expiredCoupons: number;
  topUsedCoupons: { code: string; usedCount: number }[];
};

// ---- toasts ----

/** The spec's admin success toast. */
export function toastSuccess(message: string, undo?: () => void) {
  if (undo) toastUndo('Success', message, undo);
  else toast({ title: 'Success', description: message, variant: 'success' });
}

/** The spec's admin error toast: title 'Error', the server's msg, else the fallback. */
export function toastFail(e: unknown, fallback: string) {
  toastError(errorMessage(e, fallback));
}

// ---- layout pieces ----

export function SectionHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h2 className="text-xl font-semibold tracking-tight">{title}</h2>
        {description && <p className="mt-1 text-sm text-muted-foreground">{description}</p>}
      </div>
      {actions && <div className="flex flex-wrap gap-2">{actions}</div>}
    </div>
  );
}

type Tone = 'primary' | 'success' | 'warning' | 'destructive' | 'muted';

const toneClass: Record<Tone, string> = {
  primary: 'bg-primary/10 text-primary',
  success: 'bg-success/15 text-success',
  warning: 'bg-warning/20 text-foreground',
  destructive: 'bg-destructive/10 text-destructive',
  muted: 'bg-muted text-muted-foreground',
};

export function StatCard({ label, value, icon: Icon, hint, tone = 'primary', testId }: {
  label: string;
  value: ReactNode;
  icon: ComponentType<{ className?: string }>;
  hint?: ReactNode;
  tone?: Tone;
  testId?: string;
}) {
  return (
    <Card className="p-4 sm:p-5" data-testid={testId}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-medium text-muted-foreground">{label}</p>
          <p className="mt-1 text-2xl font-bold tabular-nums [overflow-wrap:anywhere]">{value}</p>
          {hint && <div className="mt-1 text-xs text-muted-foreground">{hint}</div>}
        </div>
        <span className={cn('flex h-8 w-8 shrink-0 items-center justify-center rounded-lg sm:h-10 sm:w-10', toneClass[tone])}>
          <Icon className="h-4 w-4 sm:h-5 sm:w-5" />
        </span>
      </div>
    </Card>
  );
}

/** A labelled form field; `error` (a server message about this field) shows beside it and
 * marks its control invalid. */
export function Field({ label, htmlFor, hint, error, children, className }: { label: string; htmlFor?: string; hint?: ReactNode; error?: string; children: ReactNode; className?: string }) {
  const errId = htmlFor ? `${htmlFor}-error` : undefined;
  const control = error && isValidElement(children) ? cloneElement(children as ReactElement<Record<string, unknown>>, { 'aria-invalid': true, 'aria-describedby': errId }) : children;
  return (
    <div className={cn('grid min-w-0 gap-1.5', className)}>
      <Label htmlFor={htmlFor}>{label}</Label>
      {control}
      {error && (
        <p id={errId} className="text-xs font-medium text-destructive" data-testid="field-error">
          {error}
        </p>
      )}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

/** A server error about one of a form's fields ({"msg", "field"}), or null: the form shows
 * it beside that field instead of in a toast. */
export function fieldError<K extends string>(e: unknown, fields: Record<K, string>): { field: K; msg: string } | null {
  if (!(e instanceof ApiError) || !e.field || !e.serverMsg || !(e.field in fields)) return null;
  return { field: e.field as K, msg: e.serverMsg };
}

/** Shows a failed save: beside its field when the server names one of `fields` (focused,
 * answers that error), else as the 'Error' toast (answers null). */
export function showSaveError<K extends string>(e: unknown, fields: Record<K, string>, fallback: string): { field: K; msg: string } | null {
  const f = fieldError(e, fields);
  if (!f) {
    toastFail(e, fallback);
    return null;
  }
  if (typeof document !== 'undefined') document.getElementById(fields[f.field])?.focus();
  return f;
}

export function NativeSelect({ className, children, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select
      className={cn(
        'flex h-10 w-full rounded-md border border-input bg-background px-3 py-2 text-sm ring-offset-background focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:cursor-not-allowed disabled:opacity-60',
        className,
      )}
      {...rest}
    >
      {children}
    </select>
  );
}

export function SearchInput({ value, onChange, placeholder, label, className }: { value: string; onChange: (v: string) => void; placeholder: string; label: string; className?: string }) {
  return (
    <div className={cn('relative', className)}>
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} placeholder={placeholder} className="pl-9" />
    </div>
  );
}

export function CardsSkeleton({ n = 3 }: { n?: number }) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-2 lg:grid-cols-3" aria-busy="true" aria-label="Loading">
      {Array.from({ length: n }, (_, i) => (
        <div key={i} className="h-40 animate-pulse rounded-xl bg-muted" />
      ))}
    </div>
  );
}

/** A number typed in a form, as JSON: empty is null, a number is a number, anything else is
 * sent as typed so the server answers with the exact problem. */
export function numberOrNull(v: string): number | string | null {
  const t = v.trim();
  if (t === '') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : t;
}

/** The footer of an admin list card: the active switch with its state text, then Edit and
 * Delete. `name` labels the controls for assistive technology (and the tests). */
export function CardActions({ name, active, activeText, inactiveText, busy, onToggle, onEdit, onDelete, toggleTestId }: {
  name: string;
  active: boolean;
  activeText: string;
  inactiveText: string;
  busy: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onDelete: () => void;
  toggleTestId: string;
}) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-2 border-t pt-3">
      <label className="flex items-center gap-2 text-sm">
        <Switch checked={active} onCheckedChange={onToggle} disabled={busy} label={`${active ? 'Deactivate' : 'Activate'} ${name}`} testId={toggleTestId} />
        <span className="text-muted-foreground">{active ? activeText : inactiveText}</span>
      </label>
      <div className="flex gap-1">
        <Button variant="ghost" size="icon" aria-label={`Edit ${name}`} onClick={onEdit}>
          <Pencil />
        </Button>
        <Button variant="ghost" size="icon" aria-label={`Delete ${name}`} className="text-destructive hover:text-destructive" onClick={onDelete}>
          <Trash2 />
        </Button>
      </div>
    </div>
  );
}
