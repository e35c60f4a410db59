// Formatting without Intl (the server bundle runs in bare V8: keep output identical on
// server and client so hydration matches).
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

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

/** First n words of text, with an ellipsis when cut. */
export function words(text: string, n: number): { text: string; cut: boolean } {
  const w = text.trim().split(/\s+/);
  if (w.length <= n) return { text: text.trim(), cut: false };
  return { text: w.slice(0, n).join(' ') + '…', cut: true };
}

/** mm:ss from seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)
    .toString()
    .padStart(2, '0')}:${(s % 60).toString().padStart(2, '0')}`;
}
