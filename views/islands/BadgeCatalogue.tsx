// The catalogue's search and category chips (/badges). The cards are plain server HTML
// (components/catalogue.tsx): this island never renders one. Without JavaScript the
// search is a GET form and the chips are links (?q=…&category=…); once hydrated (on the
// first touch, so the page loads no React), a change updates the address and swaps the
// results block for the server's rendering of that address (usually straight from the
// page cache), so every filtered view is a shareable link.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import Search from 'lucide-react/icons/search';
import { CATEGORIES, catalogueHref, normalizeQuery } from '../lib/badges';
import { cx } from '../lib/cx';

export type BadgeCatalogueProps = {
  q: string;
  category: string;
  showAll: boolean;
};

const RESULTS_ID = 'catalogue-results';

export default function BadgeCatalogue({ q: q0, category: cat0, showAll }: BadgeCatalogueProps) {
  const [q, setQ] = useState(q0);
  const [category, setCategory] = useState(cat0);
  const input = useRef<HTMLInputElement>(null);
  const inflight = useRef<AbortController | null>(null);
  const timer = useRef<number | undefined>(undefined);

  // load the results of href from the server and put them in place
  const load = (href: string) => {
    inflight.current?.abort();
    const ctl = new AbortController();
    inflight.current = ctl;
    const current = document.getElementById(RESULTS_ID);
    current?.setAttribute('aria-busy', 'true');
    fetch(href, { headers: { Accept: 'text/html' }, signal: ctl.signal, credentials: 'same-origin' })
      .then((r) => r.text())
      .then((html) => {
        if (ctl.signal.aborted) return;
        const next = new DOMParser().parseFromString(html, 'text/html').getElementById(RESULTS_ID);
        const here = document.getElementById(RESULTS_ID);
        if (next && here) here.replaceWith(document.importNode(next, true));
      })
      .catch(() => {
        if (!ctl.signal.aborted) window.location.assign(href); // fall back to a navigation
      });
  };

  const apply = (nq: string, nc: string, delay: number) => {
    const href = catalogueHref(normalizeQuery(nq), nc, showAll);
    try {
      window.history.replaceState(window.history.state, '', href);
    } catch {
      /* history unavailable */
    }
    window.clearTimeout(timer.current);
    if (delay > 0) timer.current = window.setTimeout(() => load(href), delay);
    else load(href);
  };

  // letters typed before React arrived are in the input already: filter by them
  useEffect(() => {
    const v = input.current?.value ?? '';
    if (v !== q0) {
      setQ(v);
      apply(v, category, 0);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, at hydration: later typing goes through onQuery
  }, []);

  const onQuery = (v: string) => {
    setQ(v);
    apply(v, category, 150);
  };
  const onCategory = (e: MouseEvent, c: string) => {
    e.preventDefault();
    setCategory(c);
    apply(q, c, 0);
  };

  return (
    <div className="flex flex-col gap-4">
      <form role="search" action="/badges" method="get" className="relative w-full max-w-2xl self-center" onSubmit={(e) => e.preventDefault()}>
        <Search className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
        <input
          ref={input}
          type="search"
          name="q"
          defaultValue={q0}
          maxLength={100}
          onChange={(e) => onQuery(e.target.value)}
          placeholder="Search by name, skill or category"
          aria-label="Search badges"
          autoComplete="off"
          data-testid="badge-search"
          className="flex h-12 w-full rounded-full border border-input bg-background pl-10 pr-4 text-sm shadow-sm ring-offset-background placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        />
        {category && <input type="hidden" name="category" value={category} />}
        {showAll && <input type="hidden" name="show" value="all" />}
        <button type="submit" className="sr-only">
          Search
        </button>
      </form>

      <nav aria-label="Categories" className="-mx-4 relative overflow-x-auto px-4 [scrollbar-width:none] sm:mx-0 sm:px-0">
        <ul className="flex w-max gap-2 sm:w-auto sm:flex-wrap sm:justify-center">
          {CATEGORIES.map((c) => {
            const value = c === 'All' ? '' : c;
            const active = value === category;
            return (
              <li key={c}>
                <a
                  href={catalogueHref(normalizeQuery(q), value, showAll)}
                  onClick={(e) => onCategory(e, value)}
                  aria-current={active ? 'true' : undefined}
                  data-category={c}
                  className={cx(
                    'inline-flex h-9 items-center whitespace-nowrap rounded-full border px-4 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
                    active ? 'border-primary bg-primary text-primary-foreground shadow-sm' : 'bg-background text-foreground hover:bg-accent hover:text-accent-foreground',
                  )}
                >
                  {c}
                </a>
              </li>
            );
          })}
        </ul>
      </nav>
    </div>
  );
}
