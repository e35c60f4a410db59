// The applications tab's data: the server's application shape and the rules the cards and
// dialogs share (status labels and tones, which actions an application allows).
import { PageInfo } from '../list';
import { Chip } from '../../ui';
import { capitalize } from '../../../lib/format';

export type AppUser = {
  _id: string;
  name: string;
  email: string;
  role: string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  avatar: string;
  phone: string;
  bio: string;
  location: string;
  company: string;
  experience: number;
  education: string;
  skills: string[];
  createdAt: string;
};

export type AppBadge = { _id: string; name: string; type: string; price: number; category: string; level: string };

export type AppPayment = {
  _id: string;
  amount: number;
  originalAmount: number;
  discountAmount: number;
  currency: string;
  transactionId: string;
  provider: string;
  status: string;
  couponCode: string;
  createdAt: string;
  completedAt: string | null;
};

export type AppFile = { _id: string; originalName: string; kind: string; contentType: string; size: number; downloadUrl: string };

export type AppGrant = {
  _id: string;
  verificationId: string;
  publicVerificationId: string;
  grantedAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  revocationReason: string;
};

export type Application = {
  _id: string;
  user: AppUser | null;
  badge: AppBadge | null;
  type: string;
  status: 'pending' | 'awaiting_payment' | 'approved' | 'rejected' | string;
  paymentStatus: string;
  paymentId: AppPayment | null;
  paymentCompletedAt: string | null;
  price: number;
  createdAt: string;
  updatedAt: string;
  reviewedAt: string | null;
  reviewedBy: { _id: string; name: string; email: string } | null;
  rejectionReason: string;
  quizScore: number | null;
  /** Integrity flags on the quiz attempt behind a skill application (null: none). */
  integrity?: IntegrityReview | null;
  proofFiles: AppFile[];
  description: string;
  fullName: string;
  email: string;
  position: string;
  linkedinUrl: string;
  portfolioUrl: string;
  grant: AppGrant | null;
  /** the applicant's earlier grant of this badge that this application renews */
  renews?: AppGrant | null;
  /** approved with Grant Free, no payment completed */
  paymentWaived?: boolean;
  waitingForEmailVerification?: boolean;
};

export type AppList = PageInfo & { applications: Application[]; counts: Record<string, number> };

export type Group = 'review' | 'approved' | 'rejected';

export const DEFAULT_REASON = 'Application did not meet requirements';

// ---- small shared pieces (also used by the users and audit views) ----

export function paymentTone(status: string): 'success' | 'warning' | 'destructive' | 'secondary' {
  return status === 'completed' ? 'success' : status === 'failed' ? 'destructive' : status === 'waived' ? 'secondary' : 'warning';
}

/** The payment state an application shows: 'waived' once granted free without payment. */
export function paymentState(a: Pick<Application, 'paymentStatus' | 'paymentWaived'>): string {
  return a.paymentWaived && a.paymentStatus !== 'completed' ? 'waived' : a.paymentStatus;
}

export const STATUS_LABEL: Record<string, string> = {
  pending: 'Pending review',
  awaiting_payment: 'Awaiting payment',
  approved: 'Approved',
  rejected: 'Rejected',
};

export const STATUS_TONE: Record<string, 'warning' | 'secondary' | 'success' | 'destructive'> = {
  pending: 'warning',
  awaiting_payment: 'secondary',
  approved: 'success',
  rejected: 'destructive',
};

/** Approved, but the grant was revoked since (User Management's Revoke). */
export function revokedApproval(a: Application) {
  return a.status === 'approved' && !!a.grant?.revokedAt;
}

export type PayFilter = 'review' | 'pending' | 'awaiting_payment';

/** The empty state of each payment filter of Pending Review: [title, text]. */
export const PAY_FILTER_EMPTY: Record<PayFilter, [string, string]> = {
  review: ['No pending applications', 'All applications have been reviewed.'],
  pending: ['No paid applications to review', 'Paid applications appear here, ready to approve.'],
  awaiting_payment: ['No applications awaiting payment', 'Applications whose applicant has not paid yet appear here.'],
};

export const PAY_FILTERS: [PayFilter, string][] = [
  ['review', 'All'],
  ['pending', 'Paid, ready to review'],
  ['awaiting_payment', 'Awaiting payment'],
];

export function paid(a: Application) {
  return a.paymentStatus === 'completed';
}

export function canApprove(a: Application) {
  return paid(a) || a.status === 'approved';
}

export function reviewed(a: Application) {
  return a.status === 'approved' || a.status === 'rejected';
}

export function typeLabel(t: string | undefined) {
  return t === 'skill' ? 'Quiz Based' : 'Proof Based';
}

// ---- the tab ----

export type Actions = {
  busy: string | null;
  approve: (a: Application, grantFree?: boolean, restore?: boolean) => void;
  askReject: (a: Application) => void;
  quickReject: (a: Application) => void;
  details: (a: Application) => void;
};

/** The integrity review of a quiz attempt as the administrator sees it. */
export type IntegrityReview = {
  attemptId: string;
  status: 'flagged' | 'cleared' | 'voided' | '';
  flags: { code: string; reason: string }[];
  statement: string;
  statementAt: string | null;
  decidedAt: string | null;
};

/** The payment chip: Completed (green), Pending (yellow), Failed (red), Waived (Grant Free). */
export function PaymentChip({ a }: { a: Application }) {
  const s = paymentState(a);
  return (
    <Chip tone={paymentTone(s)} data-testid="payment-chip">
      {capitalize(s)}
    </Chip>
  );
}
