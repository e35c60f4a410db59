// The catalogue's search, category chips and cards (/badges). Server-rendered with the
// server's filter result (matchIds) so that it reads and works with JavaScript off: the
// search is a GET form and the chips are links (?q=…&category=…). Once hydrated, filtering
// is instant and the address follows it, so every filtered view is a shareable link.
import { useMemo, useState, type MouseEvent } from 'react';
import { CircleCheck, FileCheck, Hourglass, ListChecks, Search, SearchX } from 'lucide-react';
import { Button, Card, Chip, LinkButton } from '../components/ui';
import { BadgeIcon, priceLabel } from '../components/badges';
import { CATEGORIES, catalogueHref, levelLabel, matches, normalizeQuery, statusLabel, typeLabel, type CatalogueBadge } from '../lib/badges';
import { words } from '../lib/format';
import { cn } from '../lib/cn';

export type BadgeCatalogueProps = {
  badges: CatalogueBadge[];
  q: string;
  category: string;
  matchIds: string[];
  pageSize: number;
  showAll: boolean;
  signedIn: boolean;
};

export default function BadgeCatalogue({ badges, q: q0, category: cat0, matchIds, pageSize, showAll, signedIn }: BadgeCatalogueProps) {
  const [q, setQ] = useState(q0);
  const [category, setCategory] = useState(cat0);
  const [all, setAll] = useState(showAll);
  // Until the visitor changes a filter, show exactly what the server rendered.
  const [live, setLive] = useState(false);

  const visible = useMemo(() => {
    if (!live) {
      const ids = new Set(matchIds);
      return badges.filter((b) => ids.has(b._id));
    }
    const nq = normalizeQuery(q);
    return badges.filter((b) => matches(b, nq, category));
  }, [badges, matchIds, live, q, category]);

  const shown = all ? visible : visible.slice(0, pageSize);

  const sync = (nq: string, nc: string, na = all) => {
    setLive(true);
    try {
      window.history.replaceState(window.history.state, '', catalogueHref(normalizeQuery(nq), nc, na));
    } catch {
      /* history unavailable */
    }
  };
  const onQuery = (v: string) => {
    setQ(v);
    sync(v, category);
  };
  const onCategory = (e: MouseEvent, c: string) => {
    e.preventDefault();
    setCategory(c);
    sync(q, c);
  };
  const clear = (e: MouseEvent) => {
    e.preventDefault();
    setQ('');
    setCategory('');
    sync('', '');
  };
  const showEverything = (e: MouseEvent) => {
    e.preventDefault();
    setAll(true);
    sync(q, category, true);
  };
  const filtered = normalizeQuery(q) !== '' || category !== '';

  return (
    <div>
      <div className="flex flex-col gap-4">
        <form role="search" action="/badges" method="get" className="relative w-full max-w-2xl self-center" onSubmit={(e) => e.preventDefault()}>
          <Search className="pointer-events-none absolute left-3.5 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <input
            type="search"
            name="q"
            value={q}
            maxLength={100}
            onChange={(e) => onQuery(e.target.value)}
            placeholder="Search by name, skill or category"
            aria-label="Search badges"
            autoComplete="off"
            data-testid="badge-search"
            className="flex h-12 w-full rounded-full border border-input bg-background pl-10 pr-4 text-sm shadow-sm ring-offset-background placeholder:text-muted-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
          />
          {category && <input type="hidden" name="category" value={category} />}
          {all && <input type="hidden" name="show" value="all" />}
          <button type="submit" className="sr-only">Search</button>
        </form>

        <nav aria-label="Categories" className="-mx-4 overflow-x-auto px-4 [scrollbar-width:none] sm:mx-0 sm:px-0">
          <ul className="flex w-max gap-2 sm:w-auto sm:flex-wrap sm:justify-center">
            {CATEGORIES.map((c) => {
              const value = c === 'All' ? '' : c;
              const active = value === category;
              return (
                <li key={c}>
                  <a
                    href={catalogueHref(normalizeQuery(q), value, all)}
                    onClick={(e) => onCategory(e, value)}
                    aria-current={active ? 'true' : undefined}
                    data-category={c}
                    className={cn(
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

      <div className="mt-8 flex items-center justify-between gap-4 text-sm text-muted-foreground">
        <p aria-live="polite" data-testid="badge-count">
          {visible.length === badges.length ? `${badges.length} ${badges.length === 1 ? 'badge' : 'badges'}` : `Showing ${visible.length} of ${badges.length} badges`}
        </p>
        {filtered && (
          <a href="/badges" onClick={clear} className="font-medium text-primary hover:underline">
            Clear filters
          </a>
        )}
      </div>

      {visible.length === 0 ? (
        <div className="mt-4 flex flex-col items-center rounded-xl border border-dashed px-6 py-16 text-center" data-testid="badges-empty">
          <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold">No badges found</h2>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">Try another search term or category.</p>
          {filtered && (
            <LinkButton href="/badges" onClick={clear} variant="outline" className="mt-6">
              Show all badges
            </LinkButton>
          )}
        </div>
      ) : (
        <>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {shown.map((b) => (
              <li key={b._id} className="flex">
                <BadgeCard b={b} signedIn={signedIn} />
              </li>
            ))}
          </ul>
          {shown.length < visible.length && (
            <div className="mt-10 flex justify-center">
              <LinkButton href={catalogueHref(normalizeQuery(q), category, true)} onClick={showEverything} variant="outline" size="lg" data-testid="show-all">
                {`Show all ${visible.length} badges`}
              </LinkButton>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function BadgeCard({ b, signedIn }: { b: CatalogueBadge; signedIn: boolean }) {
  const href = `/badges/${b._id}`;
  const criteria = words(b.criteria || '', 25);
  const state = b.isOwned ? 'owned' : b.applicationStatus === 'pending' ? 'pending' : 'open';
  const TypeIcon = b.type === 'skill' ? ListChecks : FileCheck;
  return (
    <Card className="flex w-full flex-col transition-shadow hover:shadow-md" data-testid="badge-card" data-badge-name={b.name} data-state={state}>
      <div className="flex items-start gap-4 p-6 pb-4">
        <BadgeIcon icon={b.icon} color={b.color} />
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold leading-snug">
            <a href={href} className="hover:underline">
              {b.name}
            </a>
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{b.category}</p>
        </div>
        <p className="shrink-0 text-lg font-bold tabular-nums" data-testid="badge-price">
          {priceLabel(b.price)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2 px-6">
        <Chip tone="secondary" className="gap-1">
          <TypeIcon className="h-3 w-3" aria-hidden="true" />
          {typeLabel(b.type)}
        </Chip>
        <Chip tone="outline">{levelLabel(b.level)}</Chip>
        {b.applicationStatus === 'awaiting_payment' && !b.isOwned && <Chip tone="warning">{statusLabel('awaiting_payment', b.paymentProcessing)}</Chip>}
      </div>
      <p className="px-6 pt-4 text-sm leading-relaxed text-muted-foreground">
        {criteria.text}{' '}
        {criteria.cut && (
          <a href={href} className="whitespace-nowrap font-medium text-primary hover:underline" aria-label={`Read more about ${b.name}`}>
            Read more
          </a>
        )}
      </p>
      <div className="mt-auto p-6 pt-5">
        {state === 'owned' ? (
          <>
            <p className="mb-3 flex items-center gap-2 text-sm font-medium text-success">
              <CircleCheck className="h-4 w-4" aria-hidden="true" />
              You already own this badge!
            </p>
            <div className="grid grid-cols-2 gap-2">
              <Button variant="outline" disabled>
                Already Owned
              </Button>
              <LinkButton href={href}>View Details</LinkButton>
            </div>
          </>
        ) : state === 'pending' ? (
          <>
            <p className="mb-3 flex items-center gap-2 text-sm font-medium text-amber-700 dark:text-amber-400">
              <Hourglass className="h-4 w-4" aria-hidden="true" />
              Your application is in process.
            </p>
            <Button variant="secondary" className="w-full" disabled>
              In Process
            </Button>
          </>
        ) : (
          <LinkButton href={href} className="w-full">
            {signedIn ? 'Check Eligibility' : 'Login to Apply'}
          </LinkButton>
        )}
      </div>
    </Card>
  );
}
