import { twMerge } from 'tailwind-merge';

type Part = string | false | null | undefined;

/** Joins class names, skipping falsy ones; a later Tailwind class wins over an earlier one
 * of the same kind (cn('px-4', 'px-2') is 'px-2'), so callers can override a component's
 * defaults through className. */
export function cn(...parts: Part[]): string {
  return twMerge(cx(...parts));
}

/** Joins class names only (no merging): for the few islands whose script must stay tiny
 * (the catalogue's search box on /badges) and whose classes never conflict. */
export function cx(...parts: Part[]): string {
  return parts.filter(Boolean).join(' ');
}
