// The verify page's data: the server's verification answer and the messages shared by the
// search and the result.

export type VerifyResult = {
  isValid: boolean;
  status: 'valid' | 'revoked' | 'expired' | 'invalid' | string;
  reason?: string;
  revocationReason?: string;
  badge: { id: string; name: string; type: string; description: string; category: string; level: string; icon: string; color: string };
  user: { name: string; email: string; avatar: string; profileUrl?: string };
  issuedAt: string;
  expiresAt: string | null;
  revokedAt?: string | null;
  verificationId: string;
  checks: { signature: boolean; issuerKey: string; notRevoked: boolean; notExpired: boolean; issuerTrusted?: boolean; keyRetired?: boolean };
  credential: {
    id: string; json: string; jwt: string; png: string; verifyUrl: string; issuer: string; jwks: string; statusList: string;
    linkedinAddUrl: string; linkedinShareUrl: string; twitterShareUrl: string;
  };
  checkedAt: string;
  /** The assessed result the signed credential carries (null: none); the holder may hide the score here. */
  result?: { assessmentType: string; score?: string; passMark?: string; scoreHidden: boolean; reportUrl?: string } | null;
  // set when the result is for a dropped or chosen file (POST /verify/file)
  source?: 'file';
  format?: 'png' | 'jwt' | 'json';
  claimedIssuer?: string;
  credentialId?: string;
  trustDetail?: string;
};

export const MSG_FAILED = 'Failed to verify badge';

export const MSG_NOT_VERIFIED = 'This badge could not be verified.';
