// Payments tab of the admin dashboard: every payment (GET /admin/payments), filtered by
// status and searched on the server, paged, with a CSV export of what the filter shows.
import { useCallback, useEffect, useRef, useState } from 'react';
import CreditCard from 'lucide-react/icons/credit-card';
import Download from 'lucide-react/icons/download';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Skeleton } from '../ui';
import { EmptyState } from '../ui/empty-state';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';
import { capitalize, money } from '../../lib/format';
import { Pager, SearchBox, type PageInfo } from './list';
import { paymentTone, type AppPayment } from './applications/model';
import { FilterChips } from './table';
import { LocalTime } from '../LocalTime';

export type AdminPayment = AppPayment & {
  applicationId: string;
  user: { _id: string; name: string; email: string } | null;
  badge: { _id: string; name: string } | null;
};
type PaymentList = PageInfo & { payments: AdminPayment[] };

const STATUSES: [string, string][] = [
  ['all', 'All'],
  ['completed', 'Completed'],
  ['pending', 'Pending'],
  ['failed', 'Failed'],
];
const LIMIT = 25;
/** The CSV export reads the filtered list a page of 100 at a time, at most this many rows. */
export const CSV_MAX_ROWS = 10_000;

function csvCell(v: string | number | null | undefined): string {
  const s = v === null || v === undefined ? '' : String(v);
  // a cell a spreadsheet would run as a formula starts with a quote
  const safe = /^[=+\-@\t\r]/.test(s) ? "'" + s : s;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The payments as CSV (one header row, one row a payment). */
export function paymentsCSV(ps: AdminPayment[]): string {
  const head = ['Payment ID', 'Date', 'Completed', 'Status', 'Amount (USD)', 'Original (USD)', 'Discount (USD)', 'Coupon', 'Provider', 'Transaction ID', 'Member', 'Email', 'Badge', 'Application ID'];
  const rows = ps.map((p) => [
    p._id, p.createdAt, p.completedAt || '', p.status, p.amount.toFixed(2), p.originalAmount.toFixed(2), p.discountAmount.toFixed(2), p.couponCode,
    p.provider, p.transactionId, p.user?.name || '', p.user?.email || '', p.badge?.name || '', p.applicationId,
  ]);
  return [head, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export function PaymentsTab({ refreshKey = 0 }: { refreshKey?: number }) {
  const [status, setStatus] = useState('all');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const [list, setList] = useState<PaymentList | null>(null);
  const [loading, setLoading] = useState(true);
  const [exporting, setExporting] = useState(false);
  const seq = useRef(0);

  const params = useCallback(
    (p: number, limit: number) => {
      const qs = new URLSearchParams({ status, page: String(p), limit: String(limit) });
      if (query) qs.set('search', query);
      return qs.toString();
    },
    [status, query],
  );

  const load = useCallback(async () => {
    const mine = ++seq.current;
    setLoading(true);
    try {
      const res = await api<PaymentList>('/admin/payments?' + params(page, LIMIT));
      if (mine === seq.current) setList(res);
    } catch (e) {
      if (mine === seq.current) toastError(errorMessage(e, 'Failed to fetch payments'));
    } finally {
      if (mine === seq.current) setLoading(false);
    }
  }, [params, page]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
    load();
  }, [load, refreshKey]);

  const exportCSV = async () => {
    setExporting(true);
    try {
      const all: AdminPayment[] = [];
      for (let p = 1; all.length < CSV_MAX_ROWS; p++) {
        const res = await api<PaymentList>('/admin/payments?' + params(p, 100));
        all.push(...res.payments);
        if (p >= res.totalPages) break;
      }
      const url = URL.createObjectURL(new Blob([paymentsCSV(all.slice(0, CSV_MAX_ROWS))], { type: 'text/csv;charset=utf-8' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `payments-${status}${query ? '-search' : ''}.csv`;
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to fetch payments'));
    } finally {
      setExporting(false);
    }
  };

  const ps = list?.payments || [];
  return (
    <Card data-testid="payments-tab">
      <CardHeader className="gap-4">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <CardTitle>Payments</CardTitle>
            <CardDescription className="mt-1.5">Every payment, its coupon and transaction, newest first.</CardDescription>
          </div>
          <div className="flex w-full flex-col gap-2 sm:w-auto sm:flex-row sm:items-center">
            <SearchBox
              label="Search payments"
              placeholder="Search member, badge, coupon or transaction"
              onSearch={(q) => {
                setQuery(q);
                setPage(1);
              }}
            />
            <Button variant="outline" onClick={exportCSV} disabled={exporting || !list || list.total === 0} data-testid="payments-csv">
              {exporting ? <Loader2 className="animate-spin" /> : <Download />} Export CSV
            </Button>
          </div>
        </div>
        <FilterChips
          label="Payment status"
          testid="payment-status-filter"
          options={STATUSES}
          value={status}
          onChange={(v) => {
            setStatus(v);
            setPage(1);
          }}
        />
      </CardHeader>
      <CardContent className="space-y-3" aria-busy={loading}>
        {loading && !list ? (
          [0, 1, 2].map((i) => <Skeleton key={i} className="h-12 w-full" />)
        ) : ps.length === 0 ? (
          <EmptyState
            icon={CreditCard}
            title={query ? `No payments match “${query}”` : status === 'all' ? 'No payments yet' : `No ${status} payments`}
            description={query ? 'Try a name, an e-mail, a badge, a coupon or a transaction ID.' : 'Payments appear here as members pay for badges.'}
          />
        ) : (
          <div className="relative overflow-x-auto rounded-lg border">
            <table className="w-full min-w-[44rem] text-sm" data-testid="payments-table">
              <thead className="bg-muted/50 text-left text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">Date</th>
                  <th scope="col" className="px-3 py-2 font-medium">Member</th>
                  <th scope="col" className="px-3 py-2 font-medium">Badge</th>
                  <th scope="col" className="px-3 py-2 text-right font-medium">Amount</th>
                  <th scope="col" className="px-3 py-2 font-medium">Coupon</th>
                  <th scope="col" className="px-3 py-2 font-medium">Status</th>
                  <th scope="col" className="px-3 py-2 font-medium">Transaction</th>
                </tr>
              </thead>
              <tbody>
                {ps.map((p) => (
                  <tr key={p._id} className="border-t" data-testid="payment-row">
                    <td className="whitespace-nowrap px-3 py-2"><LocalTime iso={p.completedAt || p.createdAt} withTime /></td>
                    <td className="px-3 py-2">
                      <span className="block font-medium">{p.user?.name || '—'}</span>
                      <span className="block text-xs text-muted-foreground">{p.user?.email}</span>
                    </td>
                    <td className="px-3 py-2">{p.badge?.name || '—'}</td>
                    <td className="whitespace-nowrap px-3 py-2 text-right tabular-nums">
                      {money(p.amount)}
                      {p.discountAmount > 0 && <span className="block text-xs text-muted-foreground line-through">{money(p.originalAmount)}</span>}
                    </td>
                    <td className="px-3 py-2">{p.couponCode ? <code className="text-xs">{p.couponCode}</code> : '—'}</td>
                    <td className="px-3 py-2">
                      <Chip tone={paymentTone(p.status)}>{capitalize(p.status)}</Chip>
                    </td>
                    <td className="px-3 py-2">
                      <code className="break-all text-xs" title={`${capitalize(p.provider)} ${p.transactionId}`}>
                        {p.transactionId || '—'}
                      </code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager info={list} busy={loading} onPage={setPage} />
      </CardContent>
    </Card>
  );
}
