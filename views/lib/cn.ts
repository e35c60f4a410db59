import { twMerge } from 'tailwind-merge';
import { cx } from './cx';

/** Joins class names, skipping falsy ones; a later Tailwind class wins over an earlier one
 * of the same kind (cn('px-4', 'px-2') is 'px-2'), so callers can override a component's
 * defaults through className. For an island whose script must stay tiny, cx (./cx.ts)
 * only joins. */
export function cn(...parts: Array<string | false | null | undefined>): string {
  return twMerge(cx(...parts));
}
