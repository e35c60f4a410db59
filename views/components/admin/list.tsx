// Paginated admin lists: the pager and the debounced search box (applications, users, audit log).
import { useEffect, useRef, useState } from 'react';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Search from 'lucide-react/icons/search';
import { Button, Input } from '../ui';

export type PageInfo = { page: number; limit: number; total: number; totalPages: number };

/** Previous / next page buttons with "Page x of y". */
export function Pager({ info, onPage, busy }: { info: PageInfo | null; onPage: (p: number) => void; busy?: boolean }) {
  if (!info || info.totalPages <= 1) return null;
  return (
    <nav className="flex items-center justify-between gap-3 pt-2 text-sm" aria-label="Pagination">
      <span className="text-muted-foreground">
        Page {info.page} of {info.totalPages} · {info.total} in all
      </span>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={busy || info.page <= 1} onClick={() => onPage(info.page - 1)}>
          <ChevronLeft /> Previous
        </Button>
        <Button variant="outline" size="sm" disabled={busy || info.page >= info.totalPages} onClick={() => onPage(info.page + 1)}>
          Next <ChevronRight />
        </Button>
      </div>
    </nav>
  );
}

/** A search box that reports its (trimmed) value 300 ms after typing stops. */
export function SearchBox({ placeholder, onSearch, label, initial = '' }: { placeholder: string; onSearch: (q: string) => void; label: string; initial?: string }) {
  const [v, setV] = useState(initial);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const t = setTimeout(() => onSearch(v.trim()), 300);
    return () => clearTimeout(t);
  }, [v]); // eslint-disable-line react-hooks/exhaustive-deps -- only typing restarts the timer; a new onSearch callback must not
  return (
    <div className="relative w-full sm:max-w-sm">
      <Search className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
      <Input type="search" value={v} onChange={(e) => setV(e.target.value)} placeholder={placeholder} aria-label={label} className="pl-9" />
    </div>
  );
}
