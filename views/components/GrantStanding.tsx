// A badge's state as the holder and everyone else sees it (valid until, expiring soon,
// expired, revoked, renewed): the server computes it once (app/grant StandingOf); the
// views only show its label.
import { Chip } from './ui';
import { LocalTime } from './LocalTime';

export type Standing = {
  state: 'valid' | 'expiring' | 'expired' | 'revoked' | 'renewed' | string;
  label: string;
  expiresAt: string | null;
  daysLeft: number;
  held: boolean;
  canRenew: boolean;
  renewedOn: string | null;
};

const TONE = { valid: 'success', expiring: 'warning', expired: 'outline', revoked: 'outline', renewed: 'secondary' } as const;
const SHORT: Record<string, string> = { valid: 'Valid', expiring: 'Expiring soon', expired: 'Expired', revoked: 'Revoked', renewed: 'Renewed' };

/** The state chip and its sentence ("Valid until Mar 3, 2027"), and "Renewed on …" for a renewal. */
export function GrantStanding({ s, className }: { s: Standing | null | undefined; className?: string }) {
  if (!s || !s.state) return null;
  return (
    <span className={className} data-testid="grant-standing" data-state={s.state}>
      <Chip tone={TONE[s.state as keyof typeof TONE] || 'secondary'} className={s.held ? undefined : 'border-destructive/60'}>
        {SHORT[s.state] || s.state}
      </Chip>{' '}
      <span className="text-xs text-muted-foreground" data-testid="grant-standing-label">
        {s.label}
        {s.renewedOn && s.state !== 'renewed' ? <> · Renewed <LocalTime iso={s.renewedOn} /></> : ''}
      </span>
    </span>
  );
}
