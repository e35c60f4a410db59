// Webhooks tab: the endpoints other systems receive events on (docs/webhooks.md). Add one
// (its signing secret is shown once), pause or resume it, rotate its secret, delete it, and
// see its deliveries with their outcome, resending one.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import Check from 'lucide-react/icons/check';
import Copy from 'lucide-react/icons/copy';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Plus from 'lucide-react/icons/plus';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Send from 'lucide-react/icons/send';
import Trash2 from 'lucide-react/icons/trash-2';
import Webhook from 'lucide-react/icons/webhook';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../dialog';
import { Button, Card, Chip, Input } from '../ui';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { EmptyState } from '../ui/empty-state';
import { api, errorMessage } from '../../lib/api';
import { toast } from '../../lib/toast';
import { Field, SectionHeader, toastFail, toastSuccess } from './BadgeAdminKit';
import { LocalTime } from '../LocalTime';

type Endpoint = { _id: string; url: string; description: string; events: string[]; paused: boolean; failing: boolean; failingSince: string | null; createdAt: string };
type Delivery = { _id: string; eventId: string; eventType: string; status: string; attempts: number; responseCode: number; lastError: string; createdAt: string; nextAttemptAt: string | null; deliveredAt: string | null };

const statusTone = { succeeded: 'success', failed: 'destructive', pending: 'warning', sending: 'secondary' } as const;

function SecretDialog({ secret, onClose }: { secret: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      toast({ title: 'Error', description: 'Failed to copy to clipboard', variant: 'destructive' });
    }
  };
  return (
    <Dialog open onOpenChange={(v) => !v && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Signing secret</DialogTitle>
          <DialogDescription>Copy it now and give it to the receiver: it is shown only once. Receivers verify each delivery&apos;s webhook-signature with it.</DialogDescription>
        </DialogHeader>
        <div className="flex items-center gap-2">
          <code className="min-w-0 flex-1 break-all rounded-md border bg-muted px-3 py-2 text-sm" data-testid="webhook-secret">{secret}</code>
          <Button variant="outline" size="icon" onClick={copy} aria-label={copied ? 'Secret copied' : 'Copy the secret'}>
            {copied ? <Check /> : <Copy />}
          </Button>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function AddDialog({ types, onClose, onAdded }: { types: string[]; onClose: () => void; onAdded: (secret: string) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const all = events.includes('*');
  const toggle = (t: string) => setEvents((l) => (l.includes(t) ? l.filter((x) => x !== t) : [...l, t]));
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      const res = await api<{ msg: string; secret: string }>('/admin/webhooks', { method: 'POST', body: { url, description, events } });
      toastSuccess(res.msg);
      onAdded(res.secret);
    } catch (err) {
      setError(errorMessage(err, 'Failed to add the webhook endpoint'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open onOpenChange={(v) => !v && !busy && onClose()}>
      <DialogContent>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Add a webhook endpoint</DialogTitle>
            <DialogDescription>Meritmark will POST the events you choose to this URL, signed as Standard Webhooks describes.</DialogDescription>
          </DialogHeader>
          <Field label="Endpoint URL" htmlFor="wh-url">
            <Input id="wh-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} placeholder="https://hooks.example.com/meritmark" aria-invalid={!!error || undefined} aria-describedby={error ? 'wh-error' : undefined} />
          </Field>
          <Field label="Description (optional)" htmlFor="wh-desc">
            <Input id="wh-desc" value={description} maxLength={200} onChange={(e) => setDescription(e.target.value)} />
          </Field>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Events</legend>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" checked={all} onChange={() => toggle('*')} /> All events
            </label>
            <div className="grid gap-1.5 sm:grid-cols-2">
              {types.map((t) => (
                <label key={t} className="flex items-center gap-2 font-mono text-xs">
                  <input type="checkbox" checked={all || events.includes(t)} disabled={all} onChange={() => toggle(t)} /> {t}
                </label>
              ))}
            </div>
          </fieldset>
          {error && <p id="wh-error" role="alert" className="text-sm text-destructive">{error}</p>}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={busy}>Cancel</Button>
            <Button type="submit" disabled={busy} data-testid="add-webhook-submit">{busy ? 'Adding…' : 'Add endpoint'}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Deliveries({ endpoint }: { endpoint: Endpoint }) {
  const [list, setList] = useState<Delivery[] | null>(null);
  const [busy, setBusy] = useState('');
  const load = useCallback(() => {
    api<{ deliveries: Delivery[] }>(`/admin/webhooks/${endpoint._id}/deliveries`).then((r) => setList(r.deliveries), (e) => toastFail(e, 'Failed to fetch deliveries'));
  }, [endpoint._id]);
  useEffect(load, [load]);
  const resend = async (d: Delivery) => {
    setBusy(d._id);
    try {
      const r = await api<{ msg: string }>(`/admin/webhooks/${endpoint._id}/deliveries/${d._id}/resend`, { method: 'POST' });
      toastSuccess(r.msg);
      load();
    } catch (e) {
      toastFail(e, 'Failed to resend the delivery');
    } finally {
      setBusy('');
    }
  };
  if (!list) return <p className="text-sm text-muted-foreground">Loading deliveries…</p>;
  if (!list.length) return <p className="text-sm text-muted-foreground">No deliveries yet: they appear when a chosen event happens.</p>;
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="deliveries">
        <caption className="sr-only">Deliveries to {endpoint.url}</caption>
        <thead className="text-xs text-muted-foreground">
          <tr><th className="py-1 pr-3 font-medium">Event</th><th className="pr-3 font-medium">Status</th><th className="pr-3 font-medium">Response</th><th className="pr-3 font-medium">Attempts</th><th className="pr-3 font-medium">Time</th><th className="font-medium"><span className="sr-only">Actions</span></th></tr>
        </thead>
        <tbody>
          {list.map((d) => (
            <tr key={d._id} className="border-t">
              <td className="py-1.5 pr-3 font-mono text-xs">{d.eventType}</td>
              <td className="pr-3"><Chip tone={statusTone[d.status as keyof typeof statusTone] ?? 'secondary'}>{d.status}</Chip></td>
              <td className="pr-3" title={d.lastError || undefined}>{d.responseCode || (d.lastError ? 'no answer' : '')}</td>
              <td className="pr-3 tabular-nums">{d.attempts}</td>
              <td className="pr-3 text-xs"><LocalTime iso={d.deliveredAt ?? d.createdAt} withTime />{d.nextAttemptAt && d.attempts > 0 ? <> · next <LocalTime iso={d.nextAttemptAt} withTime /></> : ''}</td>
              <td className="text-right">
                {d.status !== 'sending' && (
                  <Button variant="ghost" size="sm" onClick={() => resend(d)} disabled={busy === d._id} aria-label={`Resend ${d.eventType}`}>
                    <Send /> Resend
                  </Button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function WebhooksTab() {
  const [endpoints, setEndpoints] = useState<Endpoint[] | null>(null);
  const [types, setTypes] = useState<string[]>([]);
  const [adding, setAdding] = useState(false);
  const [secret, setSecret] = useState('');
  const [open, setOpen] = useState('');
  const [toDelete, setToDelete] = useState<Endpoint | null>(null);
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    api<{ endpoints: Endpoint[]; events: string[] }>('/admin/webhooks').then(
      (r) => {
        setEndpoints(r.endpoints);
        setTypes(r.events);
      },
      (e) => {
        toastFail(e, 'Failed to fetch webhooks');
        setEndpoints((l) => l ?? []);
      },
    );
  }, []);
  useEffect(load, [load]);

  const act = async (ep: Endpoint, what: 'pause' | 'resume' | 'rotate') => {
    try {
      if (what === 'rotate') {
        const r = await api<{ msg: string; secret: string }>(`/admin/webhooks/${ep._id}/secret`, { method: 'POST' });
        setSecret(r.secret);
      } else {
        const r = await api<{ msg: string }>(`/admin/webhooks/${ep._id}`, { method: 'PUT', body: { paused: what === 'pause' } });
        toastSuccess(what === 'pause' ? 'Webhook endpoint paused.' : r.msg);
      }
      load();
    } catch (e) {
      toastFail(e, 'Failed to update the webhook endpoint');
    }
  };
  const remove = async () => {
    if (!toDelete) return;
    setBusy(true);
    try {
      const r = await api<{ msg: string }>(`/admin/webhooks/${toDelete._id}`, { method: 'DELETE' });
      toastSuccess(r.msg);
      setToDelete(null);
      load();
    } catch (e) {
      toastFail(e, 'Failed to delete the webhook endpoint');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="space-y-4">
      <SectionHeader
        title="Webhooks"
        description="Other systems (an LMS, a CRM) receive what changes here: grants issued and revoked, applications decided, payments."
        actions={
          <>
            <Button variant="outline" onClick={load}><RefreshCw /> Refresh</Button>
            <Button onClick={() => setAdding(true)} data-testid="add-webhook"><Plus /> Add endpoint</Button>
          </>
        }
      />
      {endpoints && !endpoints.length && <EmptyState icon={Webhook} title="No webhook endpoints" description="Add one to send events to another system." />}
      {endpoints?.map((ep) => (
        <Card key={ep._id} className="p-4" data-testid="webhook-endpoint">
          <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
            <div className="min-w-0">
              <p className="break-all font-mono text-sm font-medium">{ep.url}</p>
              {ep.description && <p className="text-sm text-muted-foreground">{ep.description}</p>}
              <div className="mt-2 flex flex-wrap gap-1.5">
                {ep.failing ? <Chip tone="destructive">Failing since <LocalTime iso={ep.failingSince} withTime /></Chip> : ep.paused ? <Chip tone="secondary">Paused</Chip> : <Chip tone="success">Active</Chip>}
                {ep.events.map((t) => <Chip key={t} className="font-mono">{t === '*' ? 'all events' : t}</Chip>)}
              </div>
            </div>
            <div className="flex flex-wrap gap-1.5">
              <Button variant="outline" size="sm" onClick={() => setOpen(open === ep._id ? '' : ep._id)} aria-expanded={open === ep._id}>Deliveries</Button>
              {ep.paused ? (
                <Button variant="outline" size="sm" onClick={() => act(ep, 'resume')}><Play /> Resume</Button>
              ) : (
                <Button variant="outline" size="sm" onClick={() => act(ep, 'pause')}><Pause /> Pause</Button>
              )}
              <Button variant="outline" size="sm" onClick={() => act(ep, 'rotate')}><RotateCcw /> Rotate secret</Button>
              <Button variant="outline" size="sm" onClick={() => setToDelete(ep)} aria-label={`Delete ${ep.url}`}><Trash2 /></Button>
            </div>
          </div>
          {open === ep._id && <div className="mt-3 border-t pt-3"><Deliveries endpoint={ep} /></div>}
        </Card>
      ))}
      {adding && <AddDialog types={types} onClose={() => setAdding(false)} onAdded={(s) => { setAdding(false); setSecret(s); load(); }} />}
      {secret && <SecretDialog secret={secret} onClose={() => setSecret('')} />}
      <ConfirmDialog
        open={!!toDelete}
        onOpenChange={(v) => !v && setToDelete(null)}
        title="Delete this webhook endpoint?"
        description={`${toDelete?.url ?? ''} will receive no more events, and its delivery history is deleted.`}
        confirmLabel="Delete endpoint"
        onConfirm={remove}
        busy={busy}
      />
    </div>
  );
}
