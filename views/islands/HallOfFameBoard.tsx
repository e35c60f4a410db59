// The Hall of Fame's filters and lists. The server renders it for the address's filters
// (search, category, sort, page), so it reads and works with JavaScript off: the search
// and sort are a GET form, the category chips and the pager are links. Once hydrated, a
// change asks GET /hall-of-fame and updates the lists and the address in place.
import { useEffect, useRef, useState, type FormEvent, type MouseEvent } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import ArrowRight from 'lucide-react/icons/arrow-right';
import Award from 'lucide-react/icons/award';
import CalendarDays from 'lucide-react/icons/calendar-days';
import Crown from 'lucide-react/icons/crown';
import Globe from 'lucide-react/icons/globe';
import Linkedin from 'lucide-react/icons/linkedin';
import Loader2 from 'lucide-react/icons/loader-circle';
import Medal from 'lucide-react/icons/medal';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Search from 'lucide-react/icons/search';
import SearchX from 'lucide-react/icons/search-x';
import Sparkles from 'lucide-react/icons/sparkles';
import Trophy from 'lucide-react/icons/trophy';
import { Button, Card, Input, LinkButton } from '../components/ui';
import { Avatar } from '../components/avatar';
import { api } from '../lib/api';
import { date } from '../lib/format';
import { toastError } from '../lib/toast';
import { cn } from '../lib/cn';
import { externalHref } from '../lib/url';
import { LocalTime } from '../components/LocalTime';

export type HofBadge = { id: string; name: string; category: string; earnedDate: string };
export type HofUser = {
  id: string; rank: number; name: string; title: string; company: string; profilePicUrl: string; linkedinUrl: string; portfolioUrl: string;
  totalBadges: number; joinedDate: string; lastEarnedAt: string; badges: HofBadge[];
};
export type HofQuery = { search: string; category: string; sort: 'badges' | 'recent' | 'name' | string; page: number; limit: number };
export type HofResult = {
  users: HofUser[];
  stats: { earners: number; totalBadges: number; categories: string[] };
  pagination: { page: number; limit: number; total: number; totalPages: number; totalCapped: boolean };
  query: HofQuery;
};
export type HallOfFameBoardProps = { result: HofResult | null; query: HofQuery; error: string };

export const MSG_LOAD_FAILED = 'Failed to load Hall of Fame data';

const SORTS = [
  { value: 'badges', label: 'Most Badges' },
  { value: 'recent', label: 'Recent Activity' },
  { value: 'name', label: 'Name A-Z' },
];

/** The page's address for q (defaults left out), as the server builds it. No URLSearchParams:
 * this also runs in the server's bare V8. */
export function hofHref(q: HofQuery, page = q.page): string {
  const enc = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
  const parts: string[] = [];
  if (q.search) parts.push('search=' + enc(q.search));
  if (q.category) parts.push('category=' + enc(q.category));
  if (q.sort && q.sort !== 'badges') parts.push('sort=' + enc(q.sort));
  if (page > 1) parts.push('page=' + page);
  if (q.limit && q.limit !== 24) parts.push('limit=' + q.limit);
  return parts.length ? `/hall-of-fame?${parts.join('&')}` : '/hall-of-fame';
}

function host(u: string): string {
  const m = /^https?:\/\/([^/?#]+)/i.exec(u);
  return m ? m[1].replace(/^www\./, '') : u;
}

export default function HallOfFameBoard(p: HallOfFameBoardProps) {
  const [data, setData] = useState<HofResult | null>(p.result);
  const [query, setQuery] = useState<HofQuery>(p.query);
  const [search, setSearch] = useState(p.query.search);
  const [error, setError] = useState(p.error);
  const [busy, setBusy] = useState(false);
  const seq = useRef(0);

  async function load(q: HofQuery, push: boolean) {
    const n = ++seq.current;
    setBusy(true);
    setQuery(q);
    const href = hofHref(q);
    try {
      const r = await api<HofResult>('/hall-of-fame' + href.slice('/hall-of-fame'.length), { timeoutMs: 15000 });
      if (n !== seq.current) return;
      setData(r);
      setError('');
    } catch {
      if (n !== seq.current) return;
      setError(MSG_LOAD_FAILED);
      toastError('Please try again in a moment.', MSG_LOAD_FAILED);
    } finally {
      if (n === seq.current) setBusy(false);
    }
    if (push && location.pathname + location.search !== href) history.pushState({ hof: true }, '', href);
  }

  useEffect(() => {
    const onPop = () => {
      const v = new URLSearchParams(location.search);
      const q: HofQuery = { search: v.get('search') || '', category: v.get('category') || '', sort: v.get('sort') || 'badges', page: Number(v.get('page')) || 1, limit: Number(v.get('limit')) || 24 };
      setSearch(q.search);
      void load(q, false);
    };
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);

  const go = (e: MouseEvent, q: HofQuery) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    void load(q, true);
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void load({ ...query, search: search.trim(), page: 1 }, true);
  };

  const categories = data?.stats.categories || [];
  const users = data?.users || [];
  const page = data?.pagination.page || query.page;
  const top = page === 1 ? users.slice(0, 3) : [];
  const rest = page === 1 ? users.slice(3) : users;
  const filtered = !!(query.search || query.category);

  return (
    <div className="space-y-8" data-testid="hof-board" data-busy={busy}>
      <Card className="p-4 sm:p-5">
        <form method="get" action="/hall-of-fame" onSubmit={onSubmit} className="flex flex-col gap-3 md:flex-row md:items-center" role="search" aria-label="Search the Hall of Fame">
          <div className="relative flex-1">
            <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
            <Input name="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="Search by name, title or company" aria-label="Search by name, title or company" className="pl-9" maxLength={100} data-testid="hof-search" />
          </div>
          {query.category && <input type="hidden" name="category" value={query.category} />}
          <div className="flex gap-3">
            <label className="sr-only" htmlFor="hof-sort">Sort by</label>
            <select
              id="hof-sort"
              name="sort"
              value={query.sort}
              onChange={(e) => void load({ ...query, search: search.trim(), sort: e.target.value, page: 1 }, true)}
              className="h-10 flex-1 rounded-md border border-input bg-background px-3 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:w-48 md:flex-none"
              data-testid="hof-sort"
            >
              {SORTS.map((s) => (
                <option key={s.value} value={s.value}>{s.label}</option>
              ))}
            </select>
            <Button type="submit" disabled={busy} data-testid="hof-apply">
              {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Search aria-hidden="true" />} Search
            </Button>
          </div>
        </form>
        {categories.length > 0 && (
          <nav aria-label="Categories" className="mt-4 flex flex-wrap gap-2" data-testid="hof-categories">
            {['', ...categories].map((c) => {
              const active = query.category === c;
              const q = { ...query, search: query.search, category: c, page: 1 };
              return (
                <a
                  key={c || 'all'}
                  href={hofHref(q)}
                  onClick={(e) => go(e, q)}
                  aria-current={active ? 'true' : undefined}
                  className={cn('rounded-full border px-3 py-1 text-sm font-medium transition-colors', active ? 'border-primary bg-primary text-primary-foreground' : 'hover:bg-accent')}
                >
                  {c || 'All'}
                </a>
              );
            })}
          </nav>
        )}
      </Card>

      {error && (
        <Card className="flex flex-col items-center gap-3 border-destructive/40 p-8 text-center" role="alert" data-testid="hof-error">
          <p className="font-semibold">{MSG_LOAD_FAILED}</p>
          <p className="text-sm text-muted-foreground">Something went wrong while loading the Hall of Fame.</p>
          <LinkButton href={hofHref(query)} variant="outline" size="sm" onClick={(e) => go(e, query)}>
            <RefreshCw aria-hidden="true" /> Try again
          </LinkButton>
        </Card>
      )}

      {!error && data && users.length === 0 && (
        <Card className="flex flex-col items-center px-6 py-14 text-center" data-testid="hof-empty">
          {filtered || data.stats.earners > 0 ? (
            <>
              <SearchX className="h-9 w-9 text-muted-foreground" aria-hidden="true" />
              <p className="mt-3 text-lg font-semibold">No badge earners match your filters</p>
              <p className="mt-1 text-sm text-muted-foreground">Try adjusting your search or choosing another category.</p>
              <LinkButton href="/hall-of-fame" variant="outline" className="mt-5" onClick={(e) => go(e, { search: '', category: '', sort: query.sort, page: 1, limit: query.limit })}>
                Clear filters
              </LinkButton>
            </>
          ) : (
            <>
              <Sparkles className="h-9 w-9 text-primary" aria-hidden="true" />
              <p className="mt-3 text-lg font-semibold">No one has earned a badge yet</p>
              <p className="mt-1 text-sm text-muted-foreground">Be the first to earn a verified badge and take the top spot.</p>
              <LinkButton href="/badges" className="mt-5">Discover Badges</LinkButton>
            </>
          )}
        </Card>
      )}

      {!error && top.length > 0 && (
        <section aria-labelledby="top-heading" className={cn(busy && 'opacity-60')}>
          <h2 id="top-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <Crown className="h-5 w-5 text-warning" aria-hidden="true" /> Top Performers
          </h2>
          {/* minmax(0, 1fr) columns and min-w-0 items: a long job title is cut, not widening the page */}
          <ol className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-3" data-testid="hof-top">
            {top.map((u, i) => (
              <li key={u.id} className="min-w-0">
                <TopCard u={u} first={i === 0} />
              </li>
            ))}
          </ol>
        </section>
      )}

      {!error && rest.length > 0 && (
        <section aria-labelledby="all-heading" className={cn(busy && 'opacity-60')}>
          <h2 id="all-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <Medal className="h-5 w-5 text-primary" aria-hidden="true" /> All Badge Earners
          </h2>
          <ul className="mt-4 divide-y overflow-hidden rounded-xl border bg-card" data-testid="hof-all">
            {rest.map((u) => (
              <li key={u.id} className="min-w-0">
                <EarnerRow u={u} />
              </li>
            ))}
          </ul>
        </section>
      )}

      {!error && data && data.pagination.totalPages > 1 && (
        <nav aria-label="Pages" className="flex items-center justify-between gap-3" data-testid="hof-pager">
          {page > 1 ? (
            <LinkButton variant="outline" size="sm" href={hofHref(query, page - 1)} onClick={(e) => go(e, { ...query, page: page - 1 })} rel="prev">
              <ArrowLeft aria-hidden="true" /> Previous
            </LinkButton>
          ) : (
            <span />
          )}
          <span className="text-sm text-muted-foreground">
            Page {page} of {data.pagination.totalPages}
            {data.pagination.totalCapped ? '+' : ''}
          </span>
          {page < data.pagination.totalPages ? (
            <LinkButton variant="outline" size="sm" href={hofHref(query, page + 1)} onClick={(e) => go(e, { ...query, page: page + 1 })} rel="next">
              Next <ArrowRight aria-hidden="true" />
            </LinkButton>
          ) : (
            <span />
          )}
        </nav>
      )}
    </div>
  );
}

function Links({ u }: { u: HofUser }) {
  const linkedin = externalHref(u.linkedinUrl);
  const portfolio = externalHref(u.portfolioUrl);
  if (!linkedin && !portfolio) return null;
  return (
    <div className="flex flex-wrap gap-2">
      {linkedin && (
        <a href={linkedin} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex items-center gap-1 rounded-md border px-2 py-1 text-xs font-medium hover:bg-accent" aria-label={`${u.name} on LinkedIn`}>
          <Linkedin className="h-3.5 w-3.5" aria-hidden="true" /> LinkedIn
        </a>
      )}
      {portfolio && (
        <a href={portfolio} target="_blank" rel="noopener noreferrer nofollow" className="inline-flex max-w-[12rem] items-center gap-1 rounded-md border px-2 py-1 text-xs font-medium hover:bg-accent" aria-label={`${host(portfolio)}: portfolio of ${u.name}`}>
          <Globe className="h-3.5 w-3.5 shrink-0" aria-hidden="true" /> <span className="truncate">{host(portfolio)}</span>
        </a>
      )}
    </div>
  );
}

function role(u: HofUser): string {
  if (u.title && u.company) return `${u.title} at ${u.company}`;
  return u.title || u.company;
}

function TopCard({ u, first }: { u: HofUser; first: boolean }) {
  return (
    <Card className={cn('relative flex h-full flex-col p-5', first && 'border-warning/60 ring-1 ring-warning/40')} data-testid="hof-top-card">
      {first && (
        <span className="absolute right-4 top-4 inline-flex items-center gap-1 rounded-full bg-warning px-2.5 py-0.5 text-xs font-bold text-warning-foreground" data-testid="hof-first">
          <Trophy className="h-3.5 w-3.5" aria-hidden="true" /> #1
        </span>
      )}
      <div className="flex items-center gap-3 pr-12">
        <Avatar name={u.name} url={u.profilePicUrl} className="h-14 w-14 shrink-0" />
        <div className="min-w-0">
          <p className="truncate font-semibold"><a href={`/profile/${u.id}`} className="hover:underline underline-offset-4" data-testid="hof-profile-link">{u.name}</a></p>
          {role(u) && <p className="truncate text-sm text-muted-foreground">{role(u)}</p>}
        </div>
      </div>
      <p className="mt-4 flex items-center gap-1.5 text-sm">
        <Award className="h-4 w-4 text-primary" aria-hidden="true" />
        <span className="font-semibold tabular-nums">{u.totalBadges}</span> {u.totalBadges === 1 ? 'badge' : 'badges'}
      </p>
      <ul className="mt-3 flex-1 space-y-2" aria-label="Recent badges">
        {u.badges.map((b, i) => (
          <li key={i} className="flex items-start justify-between gap-2 rounded-md bg-muted/50 px-3 py-2 text-sm">
            <span className="min-w-0">
              <a href={`/badges/${b.id}`} className="block truncate font-medium hover:underline underline-offset-4" data-testid="hof-badge-link">{b.name}</a>
              <span className="text-xs text-muted-foreground">{b.category}</span>
            </span>
            <span className="shrink-0 text-xs text-muted-foreground"><LocalTime iso={b.earnedDate} /></span>
          </li>
        ))}
      </ul>
      <div className="mt-4"><Links u={u} /></div>
    </Card>
  );
}

function EarnerRow({ u }: { u: HofUser }) {
  return (
    <div className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center" data-testid="hof-row">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <span className="mt-2.5 w-8 shrink-0 text-center text-sm font-semibold tabular-nums text-muted-foreground">#{u.rank}</span>
        <Avatar name={u.name} url={u.profilePicUrl} className="h-10 w-10 shrink-0" />
        <div className="min-w-0">
          <p className="truncate font-medium"><a href={`/profile/${u.id}`} className="hover:underline underline-offset-4" data-testid="hof-profile-link">{u.name}</a></p>
          {role(u) && <p className="truncate text-sm text-muted-foreground">{role(u)}</p>}
          <p className="mt-0.5 flex items-center gap-1 text-xs text-muted-foreground">
            <CalendarDays className="h-3.5 w-3.5" aria-hidden="true" /> Joined <LocalTime iso={u.joinedDate} />
          </p>
          <div className="mt-2"><Links u={u} /></div>
        </div>
      </div>
      <ul className="flex flex-wrap items-center gap-2 pl-11 sm:max-w-[50%] sm:justify-end sm:pl-0" aria-label="Recent badges">
        {u.badges.map((b, i) => (
          <li key={i} className="max-w-[13rem] rounded-full bg-secondary text-xs font-medium text-secondary-foreground" title={`${b.name} · ${b.category} · earned ${date(b.earnedDate)} UTC`}>
            <a href={`/badges/${b.id}`} className="block truncate rounded-full px-2.5 py-0.5 hover:underline underline-offset-4" data-testid="hof-badge-link">{b.name}</a>
          </li>
        ))}
      </ul>
      <p className="pl-11 text-sm sm:w-24 sm:pl-0 sm:text-right">
        <span className="font-semibold tabular-nums">{u.totalBadges}</span> {u.totalBadges === 1 ? 'badge' : 'badges'}
      </p>
    </div>
  );
}
