// Bulk verification for recruiters, on /verify-badge: paste many verification IDs or links
// (or choose a CSV file), get one table (holder, badge, issued, status, checks), download it
// as CSV, and save the signed receipt of the answer. A saved receipt can be checked here
// later. The server does the work: POST /verify/bulk and POST /verify/receipts/check.
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import Check from 'lucide-react/icons/check';
import Download from 'lucide-react/icons/download';
import FileCheck2 from 'lucide-react/icons/file-check-2';
import FileUp from 'lucide-react/icons/file-up';
import ListChecks from 'lucide-react/icons/list-checks';
import Loader2 from 'lucide-react/icons/loader-circle';
import Receipt from 'lucide-react/icons/receipt';
import ShieldCheck from 'lucide-react/icons/shield-check';
import ShieldX from 'lucide-react/icons/shield-x';
import X from 'lucide-react/icons/x';
import { Button, Card, Chip, Label, Textarea } from '../components/ui';
import { api, ApiError } from '../lib/api';
import { cn } from '../lib/cn';
import { useHydrated } from '../lib/hooks/useHydrated';
import { LocalTime } from '../components/LocalTime';

export type BulkRow = {
  row: number;
  input: string;
  status: string;
  isValid: boolean;
  reason?: string;
  holder?: string;
  badge?: string;
  badgeType?: string;
  issuedAt?: string;
  expiresAt?: string | null;
  verifyUrl?: string;
  checks?: { signature: boolean; notRevoked: boolean; notExpired: boolean };
};
type Summary = { total: number; valid: number; revoked: number; expired: number; invalid: number; notFound: number; malformed: number };
export type BulkResult = { checkedAt: string; summary: Summary; rows: BulkRow[]; receipt: string };
type CheckedReceipt = { valid: boolean; msg: string; keyId: string; receipt: { checkedAt: string; summary: Summary; rows: BulkRow[] } };

/** bulkText, bulk and bulkError come back from the form posted without JavaScript (POST
 * /verify-badge): the text as typed, the table or the message. */
export type BulkVerifyProps = { maxIds: number; maxBytes: number; bulkText?: string; bulk?: BulkResult; bulkError?: string };

export const MSG_BULK_TOO_LARGE = 'The list is too large: upload at most 1 MB.';
export const MSG_BULK_EMPTY = 'Paste or upload at least one verification ID or link.';
const MSG_BULK_FAILED = 'The bulk check failed. Please try again.';

const LABELS: Record<string, string> = {
  valid: 'Valid', revoked: 'Revoked', expired: 'Expired', invalid: 'Not verified', not_found: 'Not found', malformed: 'Not an ID',
};
const TONES: Record<string, 'success' | 'destructive' | 'warning' | 'secondary'> = {
  valid: 'success', revoked: 'destructive', expired: 'warning', invalid: 'destructive', not_found: 'secondary', malformed: 'secondary',
};

const CSV_HEADER = ['row', 'input', 'status', 'holder', 'badge', 'issued', 'expires', 'signature', 'not revoked', 'not expired', 'reason', 'verify url'];

function csvCell(s: string): string {
  if (s && '=+-@\t\r'.includes(s[0])) s = "'" + s;
  return /[",\n\r]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

/** The table as CSV, the same columns as the API's ?format=csv. */
export function rowsToCSV(rows: BulkRow[]): string {
  const yes = (b: boolean | undefined) => (b === undefined ? '' : b ? 'yes' : 'no');
  const day = (s?: string | null) => (s ? s.slice(0, 10) : '');
  const lines = [CSV_HEADER.join(',')];
  for (const r of rows) {
    lines.push([
      String(r.row), r.input, r.status, r.holder || '', r.badge || '', day(r.issuedAt), day(r.expiresAt),
      yes(r.checks?.signature), yes(r.checks?.notRevoked), yes(r.checks?.notExpired), r.reason || '', r.verifyUrl || '',
    ].map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function save(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function stamp(iso: string) {
  return iso.replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

export default function BulkVerify(p: BulkVerifyProps) {
  // the file chooser, the downloads and the receipt check need script: shown once it runs
  const hydrated = useHydrated();
  const [text, setText] = useState(p.bulkText ?? '');
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(p.bulkError ?? '');
  const [result, setResult] = useState<BulkResult | null>(p.bulk ?? null);
  const [receiptState, setReceiptState] = useState<{ ok: boolean; msg: string; detail?: CheckedReceipt } | null>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const receiptRef = useRef<HTMLInputElement>(null);

  async function chooseFile(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    e.target.value = '';
    setError('');
    if (!f) return;
    if (f.size > p.maxBytes) {
      setFile(null);
      setError(MSG_BULK_TOO_LARGE);
      return;
    }
    setFile({ name: f.name, text: await f.text() });
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const csv = file ? file.text : text;
    if (!csv.trim()) {
      setError(MSG_BULK_EMPTY);
      return;
    }
    setBusy(true);
    setError('');
    try {
      const r = await api<BulkResult>('/verify/bulk', { body: { csv }, timeoutMs: 60000 });
      setResult(r);
    } catch (err) {
      setResult(null);
      setError(err instanceof ApiError && err.message ? err.message : MSG_BULK_FAILED);
    } finally {
      setBusy(false);
    }
  }

  async function checkReceipt(e: ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    e.target.value = '';
    if (!f) return;
    let receipt = (await f.text()).trim();
    try {
      const j = JSON.parse(receipt) as { receipt?: unknown };
      if (j && typeof j.receipt === 'string') receipt = j.receipt;
    } catch {
      /* a bare JWS */
    }
    try {
      const r = await api<CheckedReceipt>('/verify/receipts/check', { body: { receipt }, timeoutMs: 30000 });
      setReceiptState({ ok: true, msg: r.msg, detail: r });
    } catch (err) {
      setReceiptState({ ok: false, msg: err instanceof ApiError && err.message ? err.message : MSG_BULK_FAILED });
    }
  }

  const s = result?.summary;
  return (
    <Card className="p-5 sm:p-6" data-testid="bulk-verify">
      <div className="flex items-start gap-3">
        <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary">
          <ListChecks className="h-5 w-5" aria-hidden="true" />
        </span>
        <div>
          <h2 id="bulk-heading" className="text-xl font-semibold tracking-tight">Verify many badges at once</h2>
          <p className="mt-1 text-sm text-muted-foreground">
            For recruiters: paste verification IDs or links, one per line, or choose a CSV file with a column of them (up to {String(p.maxIds).replace(/\B(?=(\d{3})+(?!\d))/g, ',')} entries, 1 MB).
          </p>
        </div>
      </div>

      {/* without JavaScript the browser posts this form to /verify-badge (urlencoded) */}
      <form method="post" action="/verify-badge#bulk" className="mt-5 space-y-3" onSubmit={submit} aria-labelledby="bulk-heading">
        <div className="space-y-1.5">
          <Label htmlFor="bulk-ids">IDs or links</Label>
          <Textarea
            id="bulk-ids"
            name="ids"
            rows={5}
            value={file ? '' : text}
            disabled={!!file || busy}
            onChange={(e) => setText(e.target.value)}
            placeholder={'MM-7K2D-9QXA-4PZM\nhttps://.../verify/MM-3F8W-2RTC-7YHN'}
            className="font-mono text-sm"
          />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <input ref={fileRef} type="file" accept=".csv,.txt,text/csv,text/plain" className="sr-only" id="bulk-file" tabIndex={-1} aria-label="CSV file of verification IDs or links" onChange={chooseFile} />
          {hydrated && (
            <Button type="button" variant="outline" onClick={() => fileRef.current?.click()} disabled={busy}>
              <FileUp className="mr-2 h-4 w-4" aria-hidden="true" /> Choose CSV file
            </Button>
          )}
          {file && (
            <Chip tone="secondary" className="gap-1 py-1">
              <span className="max-w-[12rem] truncate" data-testid="bulk-file-name">{file.name}</span>
              <button type="button" aria-label="Remove the file" onClick={() => setFile(null)} className="rounded-full p-0.5 hover:bg-muted">
                <X className="h-3 w-3" aria-hidden="true" />
              </button>
            </Chip>
          )}
          <Button type="submit" disabled={busy} className="ml-auto">
            {busy ? <Loader2 className="mr-2 h-4 w-4 animate-spin" aria-hidden="true" /> : <ShieldCheck className="mr-2 h-4 w-4" aria-hidden="true" />}
            Verify all
          </Button>
        </div>
        {error && (
          <p role="alert" className="rounded-md border border-destructive/30 bg-destructive/10 px-3 py-2 text-sm text-destructive" data-testid="bulk-error">
            {error}
          </p>
        )}
      </form>

      {result && s && (
        <section className="mt-6" aria-label="Bulk verification results" data-testid="bulk-results">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <span className="font-medium">{s.total} checked</span>
            <Chip tone="success">{s.valid} valid</Chip>
            {s.revoked > 0 && <Chip tone="destructive">{s.revoked} revoked</Chip>}
            {s.expired > 0 && <Chip tone="warning">{s.expired} expired</Chip>}
            {s.invalid > 0 && <Chip tone="destructive">{s.invalid} not verified</Chip>}
            {s.notFound > 0 && <Chip tone="secondary">{s.notFound} not found</Chip>}
            {s.malformed > 0 && <Chip tone="secondary">{s.malformed} not an ID</Chip>}
            <span className="text-xs text-muted-foreground">Checked <LocalTime iso={result.checkedAt} withTime /></span>
          </div>
          {hydrated && (<div className="mt-3 flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => save(`meritmark-verification-${stamp(result.checkedAt)}.csv`, 'text/csv', rowsToCSV(result.rows))}>
              <Download className="mr-2 h-4 w-4" aria-hidden="true" /> Download CSV
            </Button>
            <Button
              variant="outline"
              size="sm"
              onClick={() => save(`meritmark-receipt-${stamp(result.checkedAt)}.json`, 'application/json',
                JSON.stringify({ type: 'MeritmarkVerificationReceipt', checkedAt: result.checkedAt, receipt: result.receipt }, null, 2))}
            >
              <Receipt className="mr-2 h-4 w-4" aria-hidden="true" /> Save signed receipt
            </Button>
          </div>)}

          <ul className="mt-4 space-y-2 sm:hidden" aria-label="Results">
            {result.rows.map((r, i) => (
              <li key={i} className="rounded-lg border p-3 text-sm" data-status={r.status}>
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <div className="font-medium">{r.holder || <span className="text-muted-foreground">—</span>}</div>
                    <div className="truncate font-mono text-xs text-muted-foreground" title={r.input}>{r.row}. {r.input}</div>
                  </div>
                  <Chip tone={TONES[r.status] || 'secondary'} className="shrink-0">{LABELS[r.status] || r.status}</Chip>
                </div>
                {r.badge && (
                  <div className="mt-1">
                    {r.verifyUrl ? <a className="hover:underline" href={r.verifyUrl}>{r.badge}</a> : r.badge}
                    {r.issuedAt && <span className="text-muted-foreground"> · issued <LocalTime iso={r.issuedAt} /></span>}
                  </div>
                )}
                {!r.isValid && r.reason && <div className="mt-1 text-xs text-muted-foreground">{r.reason}</div>}
                {r.checks && (
                  <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs">
                    <CheckItem ok={r.checks.signature} label="Signature" />
                    <CheckItem ok={r.checks.notRevoked} label="Not revoked" />
                    <CheckItem ok={r.checks.notExpired} label="Not expired" />
                  </ul>
                )}
              </li>
            ))}
          </ul>

          <div className="mt-4 hidden relative overflow-x-auto rounded-lg border sm:block">
            <table className="w-full min-w-[640px] text-left text-sm">
              <thead className="bg-muted/50 text-xs uppercase tracking-wide text-muted-foreground">
                <tr>
                  <th scope="col" className="px-3 py-2 font-medium">#</th>
                  <th scope="col" className="px-3 py-2 font-medium">Holder</th>
                  <th scope="col" className="px-3 py-2 font-medium">Badge</th>
                  <th scope="col" className="px-3 py-2 font-medium">Issued</th>
                  <th scope="col" className="px-3 py-2 font-medium">Status</th>
                  <th scope="col" className="px-3 py-2 font-medium">Checks</th>
                </tr>
              </thead>
              <tbody>
                {result.rows.map((r, i) => (
                  <tr key={i} className="border-t align-top" data-status={r.status}>
                    <td className="px-3 py-2 text-muted-foreground">{r.row}</td>
                    <td className="px-3 py-2">
                      {r.holder ? <span className="font-medium">{r.holder}</span> : <span className="text-muted-foreground">—</span>}
                      <div className="max-w-[14rem] truncate font-mono text-xs text-muted-foreground" title={r.input}>{r.input}</div>
                    </td>
                    <td className="px-3 py-2">
                      {r.badge ? (r.verifyUrl ? <a className="hover:underline" href={r.verifyUrl}>{r.badge}</a> : r.badge) : <span className="text-muted-foreground">—</span>}
                    </td>
                    <td className="whitespace-nowrap px-3 py-2">{r.issuedAt ? <LocalTime iso={r.issuedAt} /> : '—'}</td>
                    <td className="px-3 py-2">
                      <Chip tone={TONES[r.status] || 'secondary'}>{LABELS[r.status] || r.status}</Chip>
                      {!r.isValid && r.reason && <div className="mt-1 max-w-[16rem] text-xs text-muted-foreground">{r.reason}</div>}
                    </td>
                    <td className="px-3 py-2">
                      {r.checks ? (
                        <ul className="space-y-0.5 text-xs">
                          <CheckItem ok={r.checks.signature} label="Signature" />
                          <CheckItem ok={r.checks.notRevoked} label="Not revoked" />
                          <CheckItem ok={r.checks.notExpired} label="Not expired" />
                        </ul>
                      ) : (
                        <span className="text-muted-foreground">—</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      )}

      {hydrated && (<div className="mt-6 border-t pt-4">
        <div className="flex flex-wrap items-center gap-2">
          <FileCheck2 className="h-4 w-4 text-muted-foreground" aria-hidden="true" />
          <span className="text-sm text-muted-foreground">Have a saved receipt?</span>
          <input ref={receiptRef} type="file" accept=".json,application/json,.jwt,text/plain" className="sr-only" id="receipt-file" tabIndex={-1} aria-label="Saved verification receipt" onChange={checkReceipt} />
          <Button variant="link" size="sm" className="h-auto px-0" onClick={() => receiptRef.current?.click()}>Check a receipt</Button>
        </div>
        {receiptState && (
          <p
            role="status"
            data-testid="receipt-result"
            className={cn('mt-2 flex items-start gap-2 rounded-md px-3 py-2 text-sm', receiptState.ok ? 'bg-success/10 text-success' : 'bg-destructive/10 text-destructive')}
          >
            {receiptState.ok ? <ShieldCheck className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" /> : <ShieldX className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />}
            <span>
              {receiptState.msg}
              {receiptState.detail && (
                <> Checked <LocalTime iso={receiptState.detail.receipt.checkedAt} withTime />: {receiptState.detail.receipt.summary.total} entries, {receiptState.detail.receipt.summary.valid} valid.</>
              )}
            </span>
          </p>
        )}
      </div>)}
    </Card>
  );
}

function CheckItem({ ok, label }: { ok: boolean; label: string }) {
  return (
    <li className={cn('flex items-center gap-1', ok ? 'text-success' : 'text-destructive')}>
      {ok ? <Check className="h-3 w-3" aria-hidden="true" /> : <X className="h-3 w-3" aria-hidden="true" />}
      {label}
    </li>
  );
}
