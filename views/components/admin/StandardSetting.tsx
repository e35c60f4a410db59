// Quiz Management › standard setting (modified Angoff): open a panel of experts, each with
// a single-use link (shown once, mailed when an address is given), follow their progress,
// and adopt the recommended cut as the pass mark or keep the fixed percentage
// (POST/GET /admin/quizzes/{id}/angoff, POST .../angoff/adopt). See docs/assessment.md.
import { useState, type FormEvent } from 'react';
import Copy from 'lucide-react/icons/copy';
import Plus from 'lucide-react/icons/plus';
import Users from 'lucide-react/icons/users';
import X from 'lucide-react/icons/x';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Skeleton } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { useResource } from '../../lib/hooks/useResource';
import { toastFail, toastSuccess } from './BadgeAdminKit';
import { LocalTime } from '../LocalTime';

type RaterView = { _id: string; name: string; email: string; rated: number; skipped: number; startedAt: string | null; submittedAt: string | null; cut: number | null };
type Panel = {
  _id: string;
  createdAt: string;
  closedAt: string | null;
  adoptedAt: string | null;
  open: boolean;
  raters: RaterView[];
  result: { raters: number; cut: number | null; sd: number | null; se: number | null; recommended: number | null; message?: string };
};
type Status = { quiz: { _id: string; passingScore: number; passMarkMethod: string }; pool: number; panel: Panel | null };
type Link = { raterId: string; name: string; email: string; url: string; mailed: boolean };
type Row = { name: string; email: string };

const one = (x: number | null) => (x === null ? '—' : x.toFixed(1));

export function StandardSetting({ quizId, refresh, onChanged }: { quizId: string; refresh: unknown; onChanged: () => void }) {
  const [tick, setTick] = useState(0);
  const res = useResource<Status>(`/admin/quizzes/${quizId}/angoff#${String(refresh)}:${tick}`, (signal) => api<Status>(`/admin/quizzes/${quizId}/angoff`, { signal }));
  const st = res.data ?? null;
  const [rows, setRows] = useState<Row[]>([{ name: '', email: '' }]);
  const [links, setLinks] = useState<Link[]>([]);
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const [opening, setOpening] = useState(false);

  const open = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr('');
    try {
      const r = await api<{ msg: string; links: Link[] }>(`/admin/quizzes/${quizId}/angoff`, { body: { raters: rows.filter((x) => x.name.trim() || x.email.trim()) } });
      setLinks(r.links);
      setRows([{ name: '', email: '' }]);
      setOpening(false);
      toastSuccess(r.msg);
      setTick((t) => t + 1);
    } catch (e2) {
      setErr(errorMessage(e2, 'Failed to open the panel'));
      toastFail(e2, 'Failed to open the panel');
    } finally {
      setBusy(false);
    }
  };
  const decide = async (keepFixed: boolean) => {
    setBusy(true);
    setErr('');
    try {
      const r = await api<{ msg: string }>(`/admin/quizzes/${quizId}/angoff/adopt`, { body: { keepFixed } });
      toastSuccess(r.msg);
      setLinks([]);
      setTick((t) => t + 1);
      onChanged();
    } catch (e2) {
      setErr(errorMessage(e2, 'Failed to record the decision'));
      toastFail(e2, 'Failed to record the decision');
    } finally {
      setBusy(false);
    }
  };
  const copy = async (l: Link) => {
    try {
      await navigator.clipboard.writeText(l.url);
      toastSuccess(`Link for ${l.name} copied`);
    } catch {
      toastFail(null, 'Could not copy: select the link and copy it');
    }
  };

  const p = st?.panel ?? null;
  const showForm = opening || (st !== null && (!p || !p.open));
  return (
    <Card className="min-w-0" data-testid="standard-setting">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Users className="h-5 w-5" aria-hidden="true" /> Standard setting
        </CardTitle>
        <CardDescription>
          Modified Angoff: experts estimate, for every question in the pool, the chance that a minimally competent candidate answers it right. The recommended pass mark is the mean over
          raters of their mean rating.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        {res.error ? (
          <p className="text-sm text-destructive">{errorMessage(res.error, 'Failed to load the standard setting')}</p>
        ) : !st ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <p className="text-sm" data-testid="angoff-pass-mark">
              Pass mark now: <strong>{st.quiz.passingScore}%</strong>,{' '}
              {st.quiz.passMarkMethod ? `set by a panel (${st.quiz.passMarkMethod})` : 'a fixed percentage set by the administrator'}.
            </p>

            {links.length > 0 && (
              <div className="rounded-lg border border-warning/60 bg-warning/10 p-3" data-testid="angoff-links">
                <p className="text-sm font-medium">Each rater's link, shown only now. Raters with an address have it by e-mail too.</p>
                <ul className="mt-2 space-y-2">
                  {links.map((l) => (
                    <li key={l.raterId} className="flex flex-wrap items-center gap-2 text-sm" data-testid="angoff-link">
                      <span className="font-medium">{l.name}</span>
                      {l.mailed && <Chip tone="secondary">mailed</Chip>}
                      <Input readOnly value={l.url} aria-label={`Link for ${l.name}`} className="min-w-0 flex-1 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                      <Button size="sm" variant="outline" onClick={() => void copy(l)} aria-label={`Copy the link for ${l.name}`}>
                        <Copy aria-hidden="true" /> Copy
                      </Button>
                    </li>
                  ))}
                </ul>
              </div>
            )}

            {p && (
              <div className="space-y-4" data-testid="angoff-panel">
                <p className="text-sm text-muted-foreground">
                  Panel opened <LocalTime iso={p.createdAt} withTime /> · {p.raters.length} {p.raters.length === 1 ? 'rater' : 'raters'} · {st.pool} questions in the pool
                  {p.adoptedAt ? <> · cut adopted <LocalTime iso={p.adoptedAt} withTime /></> : p.closedAt ? <> · closed <LocalTime iso={p.closedAt} withTime /></> : ''}
                </p>
                <div className="relative overflow-x-auto">
                  <table className="w-full min-w-[30rem] text-sm" data-testid="angoff-raters">
                    <caption className="sr-only">Raters' progress</caption>
                    <thead>
                      <tr className="border-b text-left text-xs text-muted-foreground">
                        <th scope="col" className="py-2 pr-3 font-medium">Rater</th>
                        <th scope="col" className="py-2 pr-3 text-right font-medium">Rated</th>
                        <th scope="col" className="py-2 pr-3 text-right font-medium">Skipped</th>
                        <th scope="col" className="py-2 pr-3 text-right font-medium">Rater's cut</th>
                        <th scope="col" className="py-2 pr-3 font-medium">Status</th>
                      </tr>
                    </thead>
                    <tbody>
                      {p.raters.map((r) => (
                        <tr key={r._id} className="border-b last:border-0" data-testid="angoff-rater">
                          <td className="py-2 pr-3">
                            <span className="font-medium">{r.name}</span>
                            {r.email && <span className="block text-xs text-muted-foreground">{r.email}</span>}
                          </td>
                          <td className="py-2 pr-3 text-right tabular-nums">
                            {r.rated} of {st.pool}
                          </td>
                          <td className="py-2 pr-3 text-right tabular-nums">{r.skipped}</td>
                          <td className="py-2 pr-3 text-right tabular-nums">{r.cut === null ? '—' : `${one(r.cut)}%`}</td>
                          <td className="py-2 pr-3">
                            {r.submittedAt ? <Chip tone="success">Submitted</Chip> : r.startedAt ? <Chip tone="secondary">In progress</Chip> : <Chip tone="secondary">Not started</Chip>}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
                {p.result.cut === null ? (
                  <p className="text-sm text-muted-foreground" data-testid="angoff-result">
                    {p.result.message || 'Not enough ratings yet.'}
                  </p>
                ) : (
                  <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="angoff-result">
                    {[
                      ['Recommended cut', `${one(p.result.cut)}%${p.result.se !== null ? ` ± ${one(p.result.se)}` : ''}`],
                      ['SD across raters', one(p.result.sd)],
                      ['Standard error', one(p.result.se)],
                      ['Raters counted', String(p.result.raters)],
                    ].map(([k, v]) => (
                      <div key={k} className="rounded-lg border bg-muted/30 p-3">
                        <dt className="text-xs text-muted-foreground">{k}</dt>
                        <dd className="mt-1 font-semibold tabular-nums">{v}</dd>
                      </div>
                    ))}
                  </dl>
                )}
                {p.open && (
                  <div className="flex flex-wrap gap-2">
                    <Button onClick={() => void decide(false)} disabled={busy || p.result.recommended === null} data-testid="angoff-adopt">
                      {p.result.recommended === null ? 'Adopt the cut' : `Adopt ${p.result.recommended}% as the pass mark`}
                    </Button>
                    <Button variant="outline" onClick={() => void decide(true)} disabled={busy} data-testid="angoff-keep">
                      Keep the fixed {st.quiz.passingScore}%
                    </Button>
                    {!opening && (
                      <Button variant="ghost" onClick={() => setOpening(true)} disabled={busy}>
                        Open a new panel instead
                      </Button>
                    )}
                  </div>
                )}
              </div>
            )}

            {showForm && (
              <form onSubmit={open} className="space-y-3" data-testid="angoff-open-form">
                <p className="text-sm font-medium">{p ? 'Open a new panel' : 'Open a panel'}</p>
                {p?.open && <p className="text-sm text-muted-foreground">Opening a new panel closes the current one: its links stop working.</p>}
                {rows.map((r, i) => (
                  <div key={i} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto]">
                    <Input
                      value={r.name}
                      onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))}
                      placeholder="Name"
                      aria-label={`Rater ${i + 1} name`}
                      maxLength={100}
                      data-testid="angoff-rater-name"
                    />
                    <Input
                      type="email"
                      value={r.email}
                      onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, email: e.target.value } : x)))}
                      placeholder="E-mail (optional)"
                      aria-label={`Rater ${i + 1} e-mail (optional)`}
                      maxLength={254}
                      data-testid="angoff-rater-email"
                    />
                    <Button variant="ghost" size="icon" onClick={() => setRows(rows.filter((_, j) => j !== i))} disabled={rows.length === 1} aria-label={`Remove rater ${i + 1}`}>
                      <X aria-hidden="true" />
                    </Button>
                  </div>
                ))}
                {err && (
                  <p role="alert" className="text-sm text-destructive">
                    {err}
                  </p>
                )}
                <div className="flex flex-wrap gap-2">
                  <Button variant="outline" onClick={() => setRows([...rows, { name: '', email: '' }])} disabled={rows.length >= 30} data-testid="angoff-add-rater">
                    <Plus aria-hidden="true" /> Add rater
                  </Button>
                  <Button type="submit" disabled={busy || st.pool === 0} data-testid="angoff-open">
                    Open panel and make links
                  </Button>
                  {opening && (
                    <Button variant="ghost" onClick={() => setOpening(false)}>
                      Cancel
                    </Button>
                  )}
                </div>
              </form>
            )}
            {err && !showForm && (
              <p role="alert" className="text-sm text-destructive">
                {err}
              </p>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
