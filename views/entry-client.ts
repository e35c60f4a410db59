// The client entry: finds server-rendered islands and hydrates them. It imports nothing
// from React itself, so a page whose only island is the header ships a few kilobytes at
// load; React is fetched when an eager island needs it, or when the visitor first reaches
// for a lazy one (pointer over, touch or focus), and the click that woke it is replayed.
import islands from 'virtual:islands';
import { subscribeSessionUser } from './lib/session-store';
import { showNotice } from './lib/notice';

type Mode = 'load' | 'interaction';

function hydrate(el: HTMLElement): Promise<void> {
  const name = el.dataset.island || '';
  const load = islands[name];
  const script = document.getElementById('props-i' + el.dataset.islandId);
  if (!load || !script) {
    console.error('island not found:', name);
    return Promise.resolve();
  }
  const props = JSON.parse(script.textContent || '{}');
  const times = el.querySelector('time[data-local]') ? import('./lib/localtime') : null;
  return Promise.all([import('./lib/hydrate'), load(), times])
    .then(([{ hydrateIsland }, mod, lt]) => {
      lt?.restoreUTC(el); // React hydrates the server's text; LocalTime switches it again
      hydrateIsland(el, mod.default, props, name);
    })
    .catch((e) => console.error('island failed to load:', name, e));
}

function whenTouched(el: HTMLElement) {
  let started = false;
  let pending: HTMLElement | null = null;
  let focused: HTMLElement | null = null;
  const events = ['pointerover', 'touchstart', 'focusin', 'click'] as const;
  const wake = (e: Event) => {
    if (e.type === 'focusin') focused = e.target as HTMLElement;
    if (e.type === 'click') {
      const t = (e.target as HTMLElement).closest('button, summary');
      if (t) {
        // a button clicked before React arrived: replay it once hydrated
        e.preventDefault();
        pending = t as HTMLElement;
      }
    }
    if (started) return;
    started = true;
    hydrate(el).then(() => {
      for (const ev of events) el.removeEventListener(ev, wake, true);
      // React attaches its listeners during hydration; wait a frame, then replay. A control
      // rendered differently once hydrated (the header's <summary>, swapped for the menu
      // button a render after hydration) is waited for and found again by its data-testid.
      const replay = (frames: number) => {
        if (pending?.tagName === 'SUMMARY' && pending.isConnected && frames < 120) {
          requestAnimationFrame(() => replay(frames + 1));
          return;
        }
        const id = pending?.dataset.testid;
        const target = pending?.isConnected ? pending : id ? el.querySelector<HTMLElement>(`[data-testid="${id}"]`) : null;
        target?.click();
        // the focus, lost with a control so replaced, goes to its successor
        const fid = focused?.dataset.testid;
        const lost = !document.activeElement || document.activeElement === document.body;
        if (focused && !focused.isConnected && fid && lost) el.querySelector<HTMLElement>(`[data-testid="${fid}"]`)?.focus();
      };
      requestAnimationFrame(() => replay(0));
    });
  };
  for (const ev of events) el.addEventListener(ev, wake, { capture: true, passive: ev !== 'click' });
  // another island changed the signed-in user (a new name or picture): wake now, so the
  // header shows it at once rather than the server-rendered one until first touched
  const off = subscribeSessionUser(() => {
    off();
    wake(new Event('session-user'));
  });
}

// the chunks of the islands hydrated at load, named by the server on this script's tag:
// asked for at once, rather than each found in the one that imports it (app/web/page.go)
for (const href of document.querySelector<HTMLScriptElement>('script[data-preload]')?.dataset.preload?.split(' ') || []) {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.href = href;
  document.head.append(link);
}

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const mode = (el.dataset.hydrate || 'load') as Mode;
  if (mode === 'interaction') whenTouched(el);
  else hydrate(el);
}

// a notice the previous page left (views/lib/notice.ts)
showNotice();
// times outside islands in the reader's zone (islands switch theirs after hydration), and
// the logo marquee's Pause button: each module is fetched only by a page that has one, so
// the initial script every page loads stays a couple of kilobytes
if (document.querySelector('time[data-local]')) void import('./lib/localtime').then((m) => m.localiseStatic());
if (document.querySelector('[data-marquee]')) void import('./lib/marquee').then((m) => m.startMarquees());
