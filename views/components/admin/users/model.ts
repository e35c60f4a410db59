// The users tab's data: a user as the admin API sends it, their grants, the list page.
import { type PageInfo } from '../list';

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
  /** the grant this one renews, and the grant that renewed this one (ids among the user's) */
  renewsGrantId?: string | null;
  renewedByGrantId?: string | null;
};

export type AdminUser = {
  _id: string;
  name: string;
  email: string;
  /** A new address an administrator set, waiting for its owner's confirmation. */
  pendingEmail?: string;
  role: string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  createdAt: string;
  updatedAt: string;
  badgeGrants: UserGrant[];
};

export type UserStats = { totalUsers: number; totalAdmins: number; totalBadgesEarned: number; verificationIds: number };

export type UserList = PageInfo & { users: AdminUser[]; stats: UserStats };

export const MAX_PICTURE = 10 * 1024 * 1024;

/** The longest revocation reason the server keeps (app/verify MaxReason). */
export const MAX_REVOKE_REASON = 500;

/** The revocation categories (app/grant RevocationCategories, same keys and labels, in
 * order): the public verification page shows the label only, never the note. */
export const REVOCATION_CATEGORIES = [
  { key: 'issued_in_error', label: 'Issued in error' },
  { key: 'misconduct', label: 'Policy violation or misconduct' },
  { key: 'fraud', label: 'Fraudulent or misrepresented evidence' },
  { key: 'superseded', label: 'Superseded by a newer credential' },
  { key: 'other', label: 'Other' },
] as const;

/** A grant action the admin has opened: the dialog it shows and whose grant. */
export type GrantAction = { kind: 'revoke' | 'expiry'; user: AdminUser; grant: UserGrant };
