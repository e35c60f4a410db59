// Shared pieces of the badge screens: the badge's icon tile in its colour, and its price.
import { glyphs, sprite } from 'virtual:badge-icons';
import { cn } from '../lib/cn';
import { money } from '../lib/format';

// The icons a badge may name (admins pick one; app/model/badge-style.json, name to
// lucide icon); anything else shows Award. They are drawn from one SVG sprite that
// esbuild.config.mjs builds from that list (a hashed file, cached for a year), so the ~8 KiB
// gzipped of their paths is not in the script of every island showing a badge.
// Literal class strings so Tailwind keeps them.
const COLORS: Record<string, string> = {
  blue: 'bg-blue-500/12 text-blue-600 ring-blue-500/25 dark:text-blue-400',
  sky: 'bg-sky-500/12 text-sky-600 ring-sky-500/25 dark:text-sky-400',
  cyan: 'bg-cyan-500/12 text-cyan-700 ring-cyan-500/25 dark:text-cyan-400',
  teal: 'bg-teal-500/12 text-teal-700 ring-teal-500/25 dark:text-teal-400',
  green: 'bg-green-500/12 text-green-700 ring-green-500/25 dark:text-green-400',
  emerald: 'bg-emerald-500/12 text-emerald-700 ring-emerald-500/25 dark:text-emerald-400',
  lime: 'bg-lime-500/15 text-lime-700 ring-lime-500/25 dark:text-lime-400',
  yellow: 'bg-yellow-500/15 text-yellow-700 ring-yellow-500/25 dark:text-yellow-400',
  amber: 'bg-amber-500/15 text-amber-700 ring-amber-500/25 dark:text-amber-400',
  orange: 'bg-orange-500/12 text-orange-600 ring-orange-500/25 dark:text-orange-400',
  red: 'bg-red-500/12 text-red-600 ring-red-500/25 dark:text-red-400',
  rose: 'bg-rose-500/12 text-rose-600 ring-rose-500/25 dark:text-rose-400',
  pink: 'bg-pink-500/12 text-pink-600 ring-pink-500/25 dark:text-pink-400',
  purple: 'bg-purple-500/12 text-purple-600 ring-purple-500/25 dark:text-purple-400',
  violet: 'bg-violet-500/12 text-violet-600 ring-violet-500/25 dark:text-violet-400',
  indigo: 'bg-indigo-500/12 text-indigo-600 ring-indigo-500/25 dark:text-indigo-400',
  slate: 'bg-slate-500/12 text-slate-700 ring-slate-500/25 dark:text-slate-300',
  gray: 'bg-gray-500/12 text-gray-700 ring-gray-500/25 dark:text-gray-300',
};

export function BadgeIcon({ icon, color, size = 'md', className }: { icon: string; color: string; size?: 'md' | 'lg'; className?: string }) {
  return (
    <div
      aria-hidden="true"
      className={cn(
        'flex shrink-0 items-center justify-center rounded-xl ring-1 ring-inset',
        COLORS[color] || 'bg-primary/10 text-primary ring-primary/25',
        size === 'lg' ? 'h-16 w-16 sm:h-20 sm:w-20' : 'h-12 w-12',
        className,
      )}
    >
      <svg
        xmlns="http://www.w3.org/2000/svg"
        width="24"
        height="24"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={2}
        strokeLinecap="round"
        strokeLinejoin="round"
        className={size === 'lg' ? 'h-8 w-8 sm:h-10 sm:w-10' : 'h-6 w-6'}
      >
        <use href={`${sprite}#${glyphs[icon] || 'award'}`} />
      </svg>
    </div>
  );
}

/** '$49.00', or 'Free' for a free badge. */
export function priceLabel(price: number): string {
  return price > 0 ? money(price) : 'Free';
}

/** The badge's medallion, drawn by the server (GET /achievements/{id}/image.png, 600x600). */
export function BadgeArt({ id, name, className }: { id: string; name: string; className?: string }) {
  return (
    <img
      src={`/achievements/${encodeURIComponent(id)}/image.png`}
      alt={`Medallion of the ${name} badge`}
      width={600}
      height={600}
      decoding="async"
      className={cn('h-28 w-28 shrink-0 sm:h-32 sm:w-32', className)}
      data-testid="badge-art"
    />
  );
}
