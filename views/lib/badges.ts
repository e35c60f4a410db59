// Badge shapes as the API and the badge pages give them (spec section 3), and the
// catalogue's search text and addresses. The server filters (app/badge Matches) and
// renders each ?q=…&category=… view; the catalogue island only normalizes the search
// text as the server does (NormalizeQuery) and fetches that view.
import { CATEGORIES as BADGE_CATEGORIES } from './categories';
import type { Standing } from '../components/GrantStanding';

export type BadgeType = 'skill' | 'proof';

export type BadgeQuiz = { _id: string; title: string; passingScore: number; timeLimit: number; questionCount: number };

export type Badge = {
  _id: string;
  name: string;
  description: string;
  category: string;
  type: BadgeType | string;
  level: string;
  price: number; // dollars
  icon: string;
  color: string;
  criteria: string;
  requiresResume: boolean;
  isActive: boolean;
  quiz?: BadgeQuiz;
  createdBy: { name: string } | null;
};

export type ApplicationStatus = 'pending' | 'approved' | 'rejected' | 'awaiting_payment';

/** A catalogue card (app/badge Card): the fields /badges shows of a badge and, for a
 * signed-in user, ownership and the latest application's status. */
export type CatalogueBadge = Pick<Badge, '_id' | 'name' | 'category' | 'type' | 'level' | 'price' | 'icon' | 'color' | 'criteria'> & { isOwned?: boolean; applicationStatus?: ApplicationStatus | string | null; paymentProcessing?: boolean };

export type BadgeApplication = { _id: string; status: ApplicationStatus | string; createdAt: string; reviewedAt: string | null; rejectionReason: string; paymentProcessing?: boolean };

export type BadgeGrant = { id: string; grantedAt: string; verificationId: string; publicVerificationId: string; expiresAt: string | null; standing?: Standing };

/** The catalogue's category chips: All, then every category (lib/categories.ts). */
export const CATEGORIES = ['All', ...BADGE_CATEGORIES] as const;

/** Trims and collapses whitespace; at most 100 characters. */
export function normalizeQuery(q: string): string {
  const s = q.trim().split(/\s+/).filter(Boolean).join(' ');
  return Array.from(s).slice(0, 100).join('').trim();
}

/** The shareable address of a filtered catalogue view (no URLSearchParams: the server
 * bundle runs in bare V8). */
export function catalogueHref(q: string, category: string, showAll = false): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  const parts: string[] = [];
  if (category) parts.push('category=' + enc(category));
  if (q) parts.push('q=' + enc(q));
  if (showAll) parts.push('show=all');
  return parts.length ? '/badges?' + parts.join('&') : '/badges';
}

export function typeLabel(t: string): string {
  return t === 'skill' ? 'Quiz Based' : 'Proof Based';
}

export function levelLabel(l: string): string {
  return l ? l.charAt(0).toUpperCase() + l.slice(1) : '';
}

export const STATUS_LABELS: Record<string, string> = {
  pending: 'Pending review',
  awaiting_payment: 'Awaiting payment',
  approved: 'Approved',
  rejected: 'Rejected',
};

/** The label of an application's status; an application awaiting payment whose PayPal
 * capture is still processing owes nothing more, so it is not 'Awaiting payment'. */
export function statusLabel(status: string, paymentProcessing?: boolean): string {
  if (status === 'awaiting_payment' && paymentProcessing) return 'Payment processing';
  return STATUS_LABELS[status] || status;
}
