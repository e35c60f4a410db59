type Part = string | false | null | undefined;

/** Joins class names only, skipping falsy ones (no merging; see cn.ts). Its own module, so
 * that an island using it (the catalogue's search box on /badges) does not load
 * tailwind-merge. */
export function cx(...parts: Part[]): string {
  return parts.filter(Boolean).join(' ');
}
