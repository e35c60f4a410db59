// The rater's sheet of a modified-Angoff panel (/angoff/{token}): for every question in the
// quiz's pool, the chance (0 to 100) that a minimally competent candidate answers it right,
// or skip. Save keeps the ratings for later (PUT /angoff/{token}/ratings); Submit, once
// every question is rated or skipped, spends the link. The sheet never holds the key.
import { useState } from 'react';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button, Card, Chip, Input } from '../components/ui';
import { api, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';

export type AngoffItem = { _id: string; text: string; options: string[]; topic: string; type: string };
export type AngoffSheet = {
  quizTitle: string;
  badgeName: string;
  raterName: string;
  submitted: boolean;
  submittedAt: string | null;
  items: AngoffItem[];
  ratings: Record<string, number | null>;
};
export type AngoffRaterProps = { token: string; sheet: AngoffSheet };

type Entry = { value: string; skip: boolean };

function entries(s: AngoffSheet): Record<string, Entry> {
  const out: Record<string, Entry> = {};
  for (const it of s.items) {
    const has = Object.prototype.hasOwnProperty.call(s.ratings, it._id);
    const v = s.ratings[it._id];
    out[it._id] = { value: has && v !== null && v !== undefined ? String(v) : '', skip: has && v === null };
  }
  return out;
}

const valid = (s: string) => {
  if (s.trim() === '') return false;
  const n = Number(s);
  return Number.isFinite(n) && n >= 0 && n <= 100;
};

export default function AngoffRater({ token, sheet }: AngoffRaterProps) {
  const [vals, setVals] = useState<Record<string, Entry>>(() => entries(sheet));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState(false);
  const items = sheet.items;
  const answered = items.filter((it) => vals[it._id]?.skip || valid(vals[it._id]?.value || '')).length;
  const bad = items.filter((it) => !vals[it._id]?.skip && (vals[it._id]?.value || '').trim() !== '' && !valid(vals[it._id].value));

  const set = (id: string, e: Partial<Entry>) => setVals((v) => ({ ...v, [id]: { ...v[id], ...e } }));

  async function send(submit: boolean) {
    setError('');
    if (bad.length > 0) {
      setError(`Each rating must be a number from 0 to 100 (question ${items.indexOf(bad[0]) + 1}).`);
      return;
    }
    const ratings: Record<string, number | null> = {};
    for (const it of items) {
      const e = vals[it._id];
      if (e.skip) ratings[it._id] = null;
      else if (valid(e.value)) ratings[it._id] = Number(e.value);
    }
    setBusy(true);
    try {
      const r = await api<{ msg: string }>(`/angoff/${token}/ratings`, { method: 'PUT', body: { ratings, submit }, timeoutMs: 20000 });
      toast({ title: submit ? 'Ratings submitted' : 'Ratings saved', description: r.msg, variant: 'success' });
      if (submit) setDone(true);
    } catch (e) {
      const msg = errorMessage(e, 'The ratings could not be saved. Please try again.');
      setError(msg);
      toastError(msg);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  }

  if (done) {
    return (
      <div role="status" className="flex flex-col items-center py-10 text-center" data-testid="angoff-thanks">
        <CheckCircle2 className="h-10 w-10 text-success" aria-hidden="true" />
        <h2 className="mt-3 text-xl font-semibold">Thank you!</h2>
        <p className="mt-2 text-muted-foreground">Your ratings are submitted. This link is now closed.</p>
      </div>
    );
  }

  return (
    <div className="space-y-4">
      <ol className="space-y-4">
        {items.map((it, i) => {
          const e = vals[it._id];
          const id = `rating-${it._id}`;
          const wrong = !e.skip && e.value.trim() !== '' && !valid(e.value);
          return (
            <li key={it._id}>
              <Card className="p-4" data-testid="angoff-item">
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <span className="font-semibold text-foreground">Question {i + 1}</span>
                  {it.topic && <Chip tone="secondary">{it.topic}</Chip>}
                  {it.type === 'multiple' && <span>select all that apply</span>}
                </div>
                <p className="mt-2 whitespace-pre-line">{it.text}</p>
                <ul className="mt-2 list-disc space-y-0.5 pl-5 text-sm text-muted-foreground">
                  {it.options.map((o, j) => (
                    <li key={j}>{o}</li>
                  ))}
                </ul>
                <div className="mt-3 flex flex-wrap items-end gap-4">
                  <div className="space-y-1">
                    <label htmlFor={id} className="block text-sm font-medium">
                      Chance a minimally competent candidate gets it right (%)
                    </label>
                    <Input
                      id={id}
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={100}
                      step="any"
                      className="w-28"
                      value={e.value}
                      disabled={e.skip || busy}
                      aria-invalid={wrong || undefined}
                      onChange={(ev) => set(it._id, { value: ev.target.value })}
                      data-testid="angoff-value"
                    />
                  </div>
                  <label className="flex items-center gap-2 pb-2 text-sm">
                    <input type="checkbox" className="h-4 w-4" checked={e.skip} disabled={busy} onChange={(ev) => set(it._id, { skip: ev.target.checked })} data-testid="angoff-skip" />
                    Skip this question
                  </label>
                </div>
                {wrong && <p className="mt-1 text-sm text-destructive">Enter a number from 0 to 100.</p>}
              </Card>
            </li>
          );
        })}
      </ol>
      <div className="sticky bottom-0 -mx-4 border-t bg-background/95 px-4 py-3 backdrop-blur sm:mx-0 sm:rounded-lg sm:border">
        <p className="text-sm" aria-live="polite" data-testid="angoff-progress">
          {answered} of {items.length} questions rated or skipped
        </p>
        {error && (
          <p role="alert" className="mt-1 text-sm text-destructive">
            {error}
          </p>
        )}
        {confirming ? (
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <span className="text-sm">Submit now? You cannot change your ratings afterwards.</span>
            <Button onClick={() => void send(true)} disabled={busy} data-testid="angoff-confirm-submit">
              {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />} Yes, submit
            </Button>
            <Button variant="ghost" onClick={() => setConfirming(false)} disabled={busy}>
              Not yet
            </Button>
          </div>
        ) : (
          <div className="mt-2 flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => void send(false)} disabled={busy} data-testid="angoff-save">
              {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" />} Save and come back later
            </Button>
            <Button onClick={() => setConfirming(true)} disabled={busy || answered < items.length} data-testid="angoff-submit">
              Submit ratings
            </Button>
          </div>
        )}
      </div>
    </div>
  );
}
