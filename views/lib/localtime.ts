// Times in the reader's own time zone. The server renders every time in UTC and names the
// zone ("Nov 21, 2026, 14:05 UTC"); the browser then rewrites it in the reader's zone:
// LocalTime (views/components/LocalTime.tsx) in an effect after hydration inside islands,
// and localiseStatic (called by entry-client) for the <time> elements React does not own
// (yet). Both use localText, so a time reads the same wherever it is shown.
import { MONTHS } from './format';

const pad = (n: number) => n.toString().padStart(2, '0');

/** The short name of the reader's zone at d ("PST", "GMT+13", "UTC"). */
export function zoneName(d: Date): string {
  try {
    const p = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((x) => x.type === 'timeZoneName');
    if (p?.value) return p.value;
  } catch {
    // no Intl: the offset below
  }
  const off = -d.getTimezoneOffset();
  if (off === 0) return 'UTC';
  const a = Math.abs(off);
  return `UTC${off > 0 ? '+' : '-'}${Math.floor(a / 60)}${a % 60 ? ':' + pad(a % 60) : ''}`;
}

/** iso in the reader's zone: text ("Nov 22, 2026" or "Nov 22, 2026, 03:05 GMT+13" with
 * the time) and title (always with the time and zone); null for a bad time. */
export function localText(iso: string, withTime: boolean): { text: string; title: string } | null {
  const d = new Date(iso);
  if (!iso || isNaN(d.getTime())) return null;
  const day = `${MONTHS[d.getMonth()]} ${d.getDate()}, ${d.getFullYear()}`;
  const full = `${day}, ${pad(d.getHours())}:${pad(d.getMinutes())} ${zoneName(d)}`;
  return { text: withTime ? full : day, title: full };
}

/** Rewrites the <time data-local> elements React does not own yet: those outside islands
 * and those in islands hydrated on interaction (the header, the badge page's actions),
 * which keep their server text in data-utc for restoreUTC. Islands hydrated at load switch
 * their own after hydration. */
export function localiseStatic(root: ParentNode = document) {
  for (const el of root.querySelectorAll<HTMLTimeElement>('time[data-local]')) {
    if (el.closest('[data-island][data-hydrate="load"]') || el.dataset.localised) continue;
    const t = localText(el.dateTime, el.dataset.local === 'datetime');
    if (!t) continue;
    el.dataset.utc = el.textContent || '';
    el.dataset.utcTitle = el.title;
    el.textContent = t.text;
    el.title = t.title;
    el.dataset.localised = 'true';
  }
}

/** Puts back the server's text of the times in el before React hydrates it (so the first
 * client render matches the HTML; LocalTime's effect then switches them again). */
export function restoreUTC(el: HTMLElement) {
  for (const t of el.querySelectorAll<HTMLTimeElement>('time[data-utc]')) {
    t.textContent = t.dataset.utc || '';
    t.title = t.dataset.utcTitle || '';
    delete t.dataset.utc;
    delete t.dataset.utcTitle;
    delete t.dataset.localised;
  }
}
