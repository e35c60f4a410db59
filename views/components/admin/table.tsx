// Dense admin tables (issue 37): sortable column headers (a button in each th, aria-sort),
// the page-size choice, the "1–25 of 1,234" pager and the Export CSV link. The server
// pages, sorts (sort=key or -key) and exports (format=csv) what the filter shows.
import { useEffect, useState, type MouseEvent, type ReactNode } from 'react';
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import ArrowUpDown from 'lucide-react/icons/arrow-up-down';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Download from 'lucide-react/icons/download';
import { Button } from '../ui';
import { API_BASE } from '../../lib/api';
import { cn } from '../../lib/cn';
import type { PageInfo } from './list';

export const PAGE_SIZES = [10, 25, 50, 100];

/** A header cell's classes. */
export const TH = 'px-3 py-2 text-left text-xs font-medium text-muted-foreground';

/** A table on wide screens, cards on phones; an admin may keep the cards everywhere. */
export type Layout = 'table' | 'cards';

/** The layout an admin chose for a list, kept in the browser under key (the server and the
 * first render use the table, so hydration matches). */
export function useLayout(key: string): [Layout, (v: Layout) => void] {
  const [layout, setLayout] = useState<Layout>('table');
  useEffect(() => {
    try {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- the stored choice is read after hydration (the server renders the default)
      if (localStorage.getItem(key) === 'cards') setLayout('cards');
    } catch {
      /* storage off: the table */
    }
  }, [key]);
  const choose = (v: Layout) => {
    setLayout(v);
    try {
      localStorage.setItem(key, v);
    } catch {
      /* storage off: this visit only */
    }
  };
  return [layout, choose];
}

/** Table or Cards (wide screens only: phones always show the cards). */
export function LayoutToggle({ layout, onChange }: { layout: Layout; onChange: (v: Layout) => void }) {
  return (
    <div role="group" aria-label="Layout" className="inline-flex rounded-md border p-0.5 text-sm">
      {(['table', 'cards'] as Layout[]).map((v) => (
        <button
          key={v}
          type="button"
          aria-pressed={layout === v}
          onClick={() => onChange(v)}
          className={cn(
            'rounded px-2.5 py-1 font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            layout === v ? 'bg-primary text-primary-foreground' : 'hover:bg-accent',
          )}
          data-testid={`view-${v}`}
        >
          {v === 'table' ? 'Table' : 'Cards'}
        </button>
      ))}
    </div>
  );
}

/** A row's click (not on one of its own controls) opens it as its open button does: the
 * button takes the focus first, so closing the details returns the focus to the row. */
export function rowOpener(open: () => void) {
  return (e: MouseEvent<HTMLTableRowElement>) => {
    if ((e.target as HTMLElement).closest('button, input, a, select, label')) return;
    e.currentTarget.querySelector<HTMLElement>('[data-testid="open-row"]')?.focus();
    open();
  };
}

/** The control that opens a row's details (Tab to it, Enter). */
export function OpenRowButton({ onOpen, children, className }: { onOpen: () => void; children: ReactNode; className?: string }) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className={cn('block max-w-full truncate rounded text-left font-medium hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring', className)}
      data-testid="open-row"
    >
      {children}
    </button>
  );
}

/** A sort as the server reads it: a column key, "-key" descending; "" the list's default. */
export type SortState = string;

/** A column header that sorts by key: first click descending for dates, ascending otherwise. */
export function SortHeader({ label, sortKey, sort, onSort, firstDesc, className }: {
  label: string;
  sortKey: string;
  sort: SortState;
  onSort: (s: SortState) => void;
  firstDesc?: boolean;
  className?: string;
}) {
  const asc = sort === sortKey;
  const desc = sort === '-' + sortKey;
  const next = asc ? '-' + sortKey : desc ? sortKey : firstDesc ? '-' + sortKey : sortKey;
  const Icon = asc ? ArrowUp : desc ? ArrowDown : ArrowUpDown;
  return (
    <th scope="col" aria-sort={asc ? 'ascending' : desc ? 'descending' : 'none'} className={className}>
      <button
        type="button"
        onClick={() => onSort(next)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 font-medium hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        data-testid={`sort-${sortKey}`}
      >
        {label}
        <Icon className={asc || desc ? 'h-3.5 w-3.5' : 'h-3.5 w-3.5 opacity-50'} aria-hidden="true" />
      </button>
    </th>
  );
}

/** Rows per page. */
export function PageSizeSelect({ value, onChange, id }: { value: number; onChange: (n: number) => void; id: string }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm text-muted-foreground">
      Rows per page
      <select
        id={id}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        className="h-8 rounded-md border bg-background px-2 text-sm text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        data-testid="page-size"
      >
        {PAGE_SIZES.map((n) => (
          <option key={n} value={n}>{n}</option>
        ))}
      </select>
    </label>
  );
}

const num = (n: number) => n.toLocaleString('en-US');

/** "1–25 of 1,234" and Previous / Next. */
export function TablePager({ info, onPage, busy, children }: { info: PageInfo | null; onPage: (p: number) => void; busy?: boolean; children?: ReactNode }) {
  const total = info?.total ?? 0;
  const from = total === 0 || !info ? 0 : (info.page - 1) * info.limit + 1;
  const to = !info ? 0 : Math.min(total, info.page * info.limit);
  return (
    <nav className="flex flex-wrap items-center justify-between gap-3 pt-2 text-sm" aria-label="Pagination">
      <div className="flex flex-wrap items-center gap-4">
        {children}
        <span className="text-muted-foreground" data-testid="page-range" aria-live="polite">
          {num(from)}–{num(to)} of {num(total)}
        </span>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={busy || !info || info.page <= 1} onClick={() => info && onPage(info.page - 1)} data-testid="page-prev">
          <ChevronLeft /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={busy || !info || info.page >= info.totalPages} onClick={() => info && onPage(info.page + 1)} data-testid="page-next">
          Next <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}

/** Downloads every row the filter shows (all pages) as CSV. */
export function ExportLink({ path, params, label = 'Export CSV' }: { path: string; params: Record<string, string>; label?: string }) {
  // built by hand: the server renderer (V8) has no URLSearchParams
  const qs = Object.entries({ ...params, format: 'csv' })
    .filter(([, v]) => v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return (
    <a
      href={`${API_BASE}${path}?${qs}`}
      download
      className="inline-flex h-8 items-center gap-1.5 rounded-md border bg-background px-3 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="export-csv"
    >
      <Download className="h-4 w-4" aria-hidden="true" /> {label}
    </a>
  );
}

/** A row of toggle chips choosing one filter value (aria-pressed on the chosen one). */
export function FilterChips({ label, options, value, onChange, testid }: {
  label: string;
  options: [string, ReactNode][];
  value: string;
  onChange: (v: string) => void;
  testid?: string;
}) {
  return (
    <div role="group" aria-label={label} className="flex flex-wrap gap-2" data-testid={testid}>
      {options.map(([v, text]) => (
        <button
          key={v}
          type="button"
          aria-pressed={value === v}
          onClick={() => onChange(v)}
          className={cn(
            'rounded-full border px-3 py-1 text-sm font-medium transition-colors focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring',
            value === v ? 'border-primary bg-primary text-primary-foreground' : 'bg-background hover:bg-accent',
          )}
        >
          {text}
        </button>
      ))}
    </div>
  );
}
