// A member's picture or initials. Its own module, not account.tsx: with code splitting a
// shared module comes whole (every export any island uses) into each island importing it,
// and the pages showing avatars (verify, Hall of Fame) need none of the password fields.
import { cn } from '../lib/cn';
import { initials } from '../lib/format';

/** The round picture, or the initials on the primary tint. */
export function Avatar({ name, url, className, textClassName }: { name: string; url: string; className?: string; textClassName?: string }) {
  if (url) return <img src={url} alt={name ? `${name}'s profile picture` : 'Profile picture'} className={cn('rounded-full object-cover ring-1 ring-border', className)} />;
  return (
    <span
      role="img"
      aria-label={name ? `${name}'s initials` : 'No profile picture'}
      className={cn('flex select-none items-center justify-center rounded-full bg-primary/12 font-semibold text-primary ring-1 ring-primary/20', className, textClassName)}
    >
      {initials(name)}
    </span>
  );
}
