// The applications list's bulk bar: with rows selected (or all that match the filter),
// approve, reject with a reason or grant an extra attempt. Every action is previewed first
// (POST /admin/applications/bulk with preview: the server runs its real rules and keeps
// nothing); the confirmation names how many change, who is e-mailed and which are skipped
// and why; the result dialog lists each row's outcome.
import { useState } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Label, Textarea } from '../../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../../dialog';
import { api, errorMessage } from '../../../lib/api';
import { toastError, toast } from '../../../lib/toast';
import { plural } from '../../../lib/format';
import { ACTION_LABEL, type BulkAction, type BulkAnswer, type BulkResult } from './model';

export type BulkSelection = { ids: string[] } | { filter: { status: string; search: string }; count: number };

export function BulkBar({ selection, onClear, onDone }: { selection: BulkSelection | null; onClear: () => void; onDone: () => void }) {
  const [action, setAction] = useState<BulkAction | null>(null);
  const [reason, setReason] = useState('');
  const [preview, setPreview] = useState<BulkAnswer | null>(null);
  const [result, setResult] = useState<BulkAnswer | null>(null);
  const [busy, setBusy] = useState(false);
  if (!selection) return null;
  const n = 'ids' in selection ? selection.ids.length : selection.count;

  async function previewOf(a: BulkAction, why: string) {
    if (!selection) return;
    setBusy(true);
    try {
      const body = { ...selection, action: a, reason: why, preview: true };
      if ('count' in body) delete (body as { count?: number }).count;
      setPreview(await api<BulkAnswer>('/admin/applications/bulk', { body, timeoutMs: 120000 }));
      setAction(a);
    } catch (e) {
      toastError(errorMessage(e, 'Failed to preview the bulk action'));
    } finally {
      setBusy(false);
    }
  }

  async function run() {
    if (!preview || !action) return;
    setBusy(true);
    try {
      // exactly the rows previewed (a filter may match others by now)
      const ids = preview.results.map((r) => r.id);
      const res = await api<BulkAnswer>('/admin/applications/bulk', { body: { ids, action, reason }, timeoutMs: 300000 });
      setPreview(null);
      setResult(res);
      toast({ title: `${res.counts.ok} of ${res.counts.total} done`, description: res.counts.skipped ? `${res.counts.skipped} skipped` : undefined });
      onDone();
    } catch (e) {
      toastError(errorMessage(e, 'Failed to run the bulk action'));
    } finally {
      setBusy(false);
    }
  }

  const skipped = preview?.results.filter((r) => !r.ok) || [];
  return (
    <div className="sticky top-2 z-10 flex flex-wrap items-center gap-2 rounded-lg border border-primary/30 bg-card p-3 shadow-sm" data-testid="bulk-bar" role="region" aria-label="Bulk actions">
      <p className="mr-auto text-sm font-medium" data-testid="bulk-count">{plural(n, 'application')} selected</p>
      <Button size="sm" disabled={busy} onClick={() => previewOf('approve', '')} data-testid="bulk-approve">
        {busy && <Loader2 className="animate-spin" />} Approve
      </Button>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => { setReason(''); setAction('reject'); setPreview(null); }} data-testid="bulk-reject">Reject</Button>
      <Button size="sm" variant="outline" disabled={busy} onClick={() => previewOf('extra_attempt', '')} data-testid="bulk-attempt">Extra attempt</Button>
      <Button size="sm" variant="ghost" onClick={onClear}>Clear selection</Button>

      <Dialog open={action === 'reject' && !preview} onOpenChange={(o) => !o && setAction(null)}>
        <DialogContent data-testid="bulk-reason-dialog">
          <DialogHeader>
            <DialogTitle>Reject {plural(n, 'application')}</DialogTitle>
            <DialogDescription>Each applicant is told by e-mail with this reason. You will see what happens to each before anything changes.</DialogDescription>
          </DialogHeader>
          <form className="grid gap-4" onSubmit={(e) => { e.preventDefault(); previewOf('reject', reason); }}>
            <div className="grid gap-2">
              <Label htmlFor="bulk-reason">Reason</Label>
              <Textarea id="bulk-reason" required maxLength={1000} rows={3} value={reason} onChange={(e) => setReason(e.target.value)} />
            </div>
            <DialogFooter>
              <Button variant="outline" onClick={() => setAction(null)}>Cancel</Button>
              <Button type="submit" variant="destructive" disabled={busy || !reason.trim()}>Preview</Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>

      <Dialog open={!!preview} onOpenChange={(o) => !o && (setPreview(null), setAction(null))}>
        {preview && action && (
          <DialogContent data-testid="bulk-confirm-dialog" className="max-w-2xl">
            <DialogHeader>
              <DialogTitle>{ACTION_LABEL[action]}: {plural(preview.counts.ok - preview.counts.unchanged, 'application')} will change</DialogTitle>
              <DialogDescription data-testid="bulk-preview-summary">
                {preview.counts.ok - preview.counts.unchanged} will change, {preview.counts.unchanged} already done, {preview.counts.skipped} skipped.{' '}
                {plural(preview.counts.emailed, 'applicant')} will be e-mailed.
                {action === 'reject' && ' A rejected application whose badge was granted loses the badge.'}
              </DialogDescription>
            </DialogHeader>
            <Outcomes rows={skipped.length ? skipped : preview.results.slice(0, 10)} title={skipped.length ? 'Skipped, and why' : 'What happens'} />
            <DialogFooter>
              <Button variant="outline" onClick={() => { setPreview(null); setAction(null); }}>Cancel</Button>
              <Button variant={action === 'reject' ? 'destructive' : 'default'} disabled={busy || preview.counts.ok - preview.counts.unchanged === 0} onClick={run} data-testid="bulk-confirm">
                {busy && <Loader2 className="animate-spin" />} {ACTION_LABEL[action]} {preview.counts.ok - preview.counts.unchanged}
              </Button>
            </DialogFooter>
          </DialogContent>
        )}
      </Dialog>

      <Dialog open={!!result} onOpenChange={(o) => !o && (setResult(null), setAction(null), onClear())}>
        {result && (
          <DialogContent data-testid="bulk-result-dialog" className="max-w-2xl">
            <DialogHeader>
              <DialogTitle>{result.counts.ok} of {result.counts.total} done</DialogTitle>
              <DialogDescription>{result.counts.skipped} skipped · {plural(result.counts.emailed, 'e-mail')} queued · batch {result.batchId}</DialogDescription>
            </DialogHeader>
            <Outcomes rows={result.results} title="Outcome per application" />
            <DialogFooter>
              <Button onClick={() => { setResult(null); setAction(null); onClear(); }}>Close</Button>
            </DialogFooter>
          </DialogContent>
        )}
      </Dialog>
    </div>
  );
}

function Outcomes({ rows, title }: { rows: BulkResult[]; title: string }) {
  return (
    <div className="max-h-72 overflow-y-auto rounded-md border" tabIndex={0} role="region" aria-label={title}>
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{title}</caption>
        <thead className="bg-muted text-xs">
          <tr><th scope="col" className="px-3 py-2">Application</th><th scope="col" className="px-3 py-2">Outcome</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.id} className="border-t" data-testid="bulk-row" data-ok={r.ok ? 'true' : 'false'}>
              <td className="px-3 py-2">{r.label || r.id}</td>
              <td className={r.ok ? 'px-3 py-2' : 'px-3 py-2 text-destructive'}>{r.ok ? '' : 'Skipped: '}{r.msg}{r.emailed.length > 0 && ` E-mail to ${r.emailed.join(', ')}.`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
