import { cn } from '../lib/cn';

/** What a step of a renewing application says (app/grant Renewal). */
export type Renewal = { label: string; needs: string };

/**
 * The line on the payment pages that says the application renews the member's badge, worded
 * as the renewal application and quiz pages word it.
 */
export function RenewalNote({ badgeName, renewal, className }: { badgeName: string; renewal: Renewal; className?: string }) {
  return (
    <div className={cn('rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm', className)} data-testid="renewal-note">
      <p className="font-medium">
        This is a renewal of your {badgeName} badge ({renewal.label}).
      </p>
    </div>
  );
}
