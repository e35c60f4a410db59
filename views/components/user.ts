// The signed-in user and their earned badges as the API answers them, and copying a link:
// what the profile island needs of account.tsx, kept apart so the profile does not load the
// sign-in forms' parts (the password field and its icons).
import type { Standing } from './GrantStanding';

/** A badge grant as the API answers it inside the user. */
export type BadgeGrant = {
  id: string;
  badgeId: string;
  badgeName: string;
  badgeCategory: string;
  grantedAt: string;
  expiresAt: string | null;
  verificationId: string;
  publicVerificationId: string;
};

/** The user as the API answers it (`_id` on the wire). */
export type ApiUser = {
  _id: string;
  name: string;
  email: string;
  role: 'user' | 'admin' | string;
  position: string;
  linkedin: string;
  portfolio: string;
  profilePicUrl: string;
  createdAt: string;
  badgeGrants: BadgeGrant[];
  emailVerified?: boolean;
  twoFactorEnabled?: boolean;
  mustChangePassword?: boolean;
  /** the holder's credentials signed from now on name them */
  nameInCredentials?: boolean;
};

/** The client's user: `_id` mapped to `id` (spec section 3). */
export type User = Omit<ApiUser, '_id'> & { id: string };

export function fromApi(u: ApiUser): User {
  const { _id, ...rest } = u;
  return { ...rest, id: _id };
}

/** One earned badge (GET /users/badges). verificationId is the public id used in links. */
export type EarnedBadge = {
  id: string;
  badgeId: string;
  name: string;
  category: string;
  icon: string;
  color: string;
  earnedDate: string;
  expiresAt: string | null;
  verificationId: string;
  standing?: Standing;
  renewHref?: string;
  /** The holder hides the score on the public verify page (the credential still carries it). */
  hideScore?: boolean;
  /** A skill badge: its credential carries the quiz score. */
  scored?: boolean;
};

/** Copies text to the clipboard (with a fallback for non-secure contexts). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the selection fallback
  }
  try {
    const ta = document.createElement('textarea');
    ta.value = text;
    ta.setAttribute('readonly', '');
    ta.style.position = 'fixed';
    ta.style.opacity = '0';
    document.body.appendChild(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  } catch {
    return false;
  }
}
