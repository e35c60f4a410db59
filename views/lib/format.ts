// Formatting without Intl (the server bundle runs in bare V8: keep output identical on
// server and client so hydration matches).
export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** $49.00 from dollars. */
export function money(dollars: number): string {
  const cents = Math.round(dollars * 100);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}$${whole}.${(abs % 100).toString().padStart(2, '0')}`;
}

/** "Nov 21, 2026" from an ISO time (UTC). */
export function date(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d.getTime())) return '';
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}`;
}

/** "Nov 21, 2026, 14:05 UTC". */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (isNaN(d.getTime())) return '';
  const hh = d.getUTCHours().toString().padStart(2, '0');
  const mm = d.getUTCMinutes().toString().padStart(2, '0');
  return `${date(iso)}, ${hh}:${mm} UTC`;
}

/** First n words of text; cut says some were left out (show <Ellipsis /> after the text). */
export function words(text: string, n: number): { text: string; cut: boolean } {
  const w = text.trim().split(/\s+/);
  if (w.length <= n) return { text: text.trim(), cut: false };
  return { text: w.slice(0, n).join(' '), cut: true };
}

/** mm:ss from seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)
    .toString()
    .padStart(2, '0')}:${(s % 60).toString().padStart(2, '0')}`;
}

/** "2.4 MB", "310 KB", "12 B"; kbDecimals 1 gives "310.5 KB" (the admin's file list). */
export function fileSize(n: number, kbDecimals: 0 | 1 = 0): string {
  if (n >= 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  if (n >= 1024) return `${kbDecimals ? (n / 1024).toFixed(1) : Math.round(n / 1024)} KB`;
  return `${n} B`;
}

/** "4m 5s", "45s". */
export function duration(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = Math.round(seconds % 60);
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

/** A score (percent) to one decimal: 87.5. */
export function pct(score: number): number {
  return Math.round(score * 10) / 10;
}

/** Score colour (spec section 4): green at 90 or more, yellow at 70 or more, red below. */
export function scoreTone(score: number): 'success' | 'warning' | 'destructive' {
  return score >= 90 ? 'success' : score >= 70 ? 'warning' : 'destructive';
}

/** "1 question", "3 questions" (or the given plural). */
export function plural(n: number, one: string, many = one + 's'): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Up to two initials, upper case ("Ada Lovelace" -> "AL"); "?" for no name. */
export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return '?';
  const first = parts[0].charAt(0);
  const last = parts.length > 1 ? parts[parts.length - 1].charAt(0) : '';
  return (first + last).toUpperCase();
}

/** "Approved" from "approved". */
export function capitalize(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}
