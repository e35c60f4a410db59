// Awards from a CSV (Badge Management tab): choose a badge and a file, see every row
// checked (bad rows highlighted with their line and reason, duplicates and holders
// flagged), then send the valid ones (POST /admin/awards/csv). Below, the award register
// (AwardRegister.tsx), read again after each send.
import { useEffect, useState } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import Upload from 'lucide-react/icons/upload';
import { Button, Card, Input, Label } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { api } from '../../lib/api';
import { plural } from '../../lib/format';
import { NativeSelect, toastFail, toastSuccess, type AdminBadge } from './BadgeAdminKit';
import { AwardRegister } from './AwardRegister';

type Row = { line: number; email: string; name: string; expiry: string; note: string; ok: boolean; status: string; msg: string };
type Upload = { preview: boolean; batchId?: string; badge: { _id: string; name: string }; rows: Row[]; counts: { total: number; valid: number; invalid: number; sent: number } };

export function AwardsCsv() {
  const [badges, setBadges] = useState<AdminBadge[]>([]);
  const [badgeId, setBadgeId] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<Upload | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    api<AdminBadge[]>('/badge-management/badges').then(setBadges, () => {});
  }, []);
  // the register reads its list again after each send
  const [sent, setSent] = useState(0);

  async function send(preview: boolean) {
    if (!file) return;
    setBusy(true);
    try {
      const form = new FormData();
      form.set('badgeId', badgeId);
      form.set('file', file);
      if (preview) form.set('preview', '1');
      const r = await api<Upload>('/admin/awards/csv', { form, timeoutMs: 300000 });
      if (preview) setChecked(r);
      else {
        setChecked(null);
        toastSuccess(`${plural(r.counts.sent, 'award')} sent`);
        setSent((n) => n + 1);
      }
    } catch (e) {
      toastFail(e, 'Failed to check the file');
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Card className="mt-6 p-5" data-testid="awards-csv">
        <h3 className="text-lg font-semibold tracking-tight">Award from a CSV</h3>
        <p className="mt-1 text-sm text-muted-foreground">Columns: email, name, expiry (optional, YYYY-MM-DD) and note. Up to 1,000 rows; you see every row checked before anything is sent.</p>
        <form className="mt-4 grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={(e) => { e.preventDefault(); send(true); }}>
          <div className="space-y-1.5">
            <Label htmlFor="csv-badge">Badge</Label>
            <NativeSelect id="csv-badge" value={badgeId} onChange={(e) => setBadgeId(e.target.value)} required>
              <option value="">Choose a badge…</option>
              {badges.map((b) => <option key={b._id} value={b._id}>{b.name}</option>)}
            </NativeSelect>
          </div>
          <div className="space-y-1.5">
            <Label htmlFor="csv-file">CSV file</Label>
            <Input id="csv-file" type="file" accept=".csv,text/csv" required onChange={(e) => setFile(e.target.files?.[0] || null)} />
          </div>
          <Button type="submit" disabled={busy || !file || !badgeId} data-testid="csv-preview">
            {busy ? <Loader2 className="animate-spin" /> : <Upload />} Check file
          </Button>
        </form>

        <Dialog open={!!checked} onOpenChange={(o) => !o && setChecked(null)}>
          {checked && (
            <DialogContent className="max-w-3xl" data-testid="csv-dialog">
              <DialogHeader>
                <DialogTitle>Award {checked.badge.name}: {plural(checked.counts.valid, 'row')} ready</DialogTitle>
                <DialogDescription data-testid="csv-summary">
                  {checked.counts.total} rows: {checked.counts.valid} will be sent a claim link by e-mail, {checked.counts.invalid} will be skipped (highlighted, listed first).
                </DialogDescription>
              </DialogHeader>
              <div className="max-h-80 overflow-auto rounded-md border" tabIndex={0} role="region" aria-label="Checked rows">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">Checked rows of the file</caption>
                  <thead className="sticky top-0 bg-muted text-xs">
                    <tr><th scope="col" className="px-2 py-1.5">Line</th><th scope="col" className="px-2 py-1.5">E-mail</th><th scope="col" className="px-2 py-1.5">Name</th><th scope="col" className="px-2 py-1.5">Check</th></tr>
                  </thead>
                  <tbody>
                    {[...checked.rows.filter((r) => !r.ok), ...checked.rows.filter((r) => r.ok)].map((r) => (
                      <tr key={r.line} className={r.ok ? 'border-t' : 'border-t bg-destructive/10'} data-testid="csv-row" data-ok={r.ok ? 'true' : 'false'}>
                        <td className="px-2 py-1.5 tabular-nums">{r.line}</td>
                        <td className="px-2 py-1.5 [overflow-wrap:anywhere]">{r.email}</td>
                        <td className="px-2 py-1.5">{r.name}</td>
                        <td className={r.ok ? 'px-2 py-1.5' : 'px-2 py-1.5 font-medium'}>{r.msg}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <DialogFooter>
                <Button variant="outline" onClick={() => setChecked(null)}>Cancel</Button>
                <Button disabled={busy || checked.counts.valid === 0} onClick={() => send(false)} data-testid="csv-send">
                  {busy && <Loader2 className="animate-spin" />} Send {plural(checked.counts.valid, 'award')}
                </Button>
              </DialogFooter>
            </DialogContent>
          )}
        </Dialog>
      </Card>
      <AwardRegister badges={badges} refreshKey={sent} />
    </>
  );
}
