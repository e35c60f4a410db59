// Quiz Management › quiz settings and item analysis: the pool and draw (questions per
// attempt, never more than the pool), the retake rule, and how the quiz and each question
// behave across submitted attempts (PUT /admin/quizzes/{id}, GET .../analysis).
import { useState, type FormEvent } from 'react';
import BarChart3 from 'lucide-react/icons/chart-column';
import Settings2 from 'lucide-react/icons/settings-2';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../dialog';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input, Skeleton } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { useResource } from '../../lib/hooks/useResource';
import { Field, numberOrNull, toastFail, toastSuccess, type AdminQuiz } from './BadgeAdminKit';
import { LocalTime } from '../LocalTime';

export function QuizSettingsDialog({ open, onOpenChange, quiz, onSaved }: { open: boolean; onOpenChange: (v: boolean) => void; quiz: AdminQuiz; onSaved: () => void }) {
  const [v, setV] = useState({ passingScore: '', timeLimit: '', draw: '', wait: '', max: '', period: '' });
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  // the form starts from the quiz each time the dialog opens
  const [seen, setSeen] = useState<{ open: boolean; quiz: AdminQuiz }>({ open: false, quiz });
  if (open !== seen.open || quiz !== seen.quiz) {
    setSeen({ open, quiz });
    if (open) {
      setErr('');
      setV({
        passingScore: String(quiz.passingScore),
        timeLimit: String(quiz.timeLimit),
        draw: String(quiz.questionsPerAttempt || quiz.questionCount),
        wait: String(quiz.retakeWaitHours),
        max: String(quiz.maxAttempts),
        period: String(quiz.attemptPeriodDays),
      });
    }
  }
  const set = (k: keyof typeof v) => (e: { target: { value: string } }) => setV((x) => ({ ...x, [k]: e.target.value }));
  const draw = numberOrNull(v.draw);
  const tooMany = typeof draw === 'number' && draw > quiz.questionCount;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErr('');
    try {
      await api(`/admin/quizzes/${quiz._id}`, {
        method: 'PUT',
        body: {
          passingScore: numberOrNull(v.passingScore),
          timeLimit: numberOrNull(v.timeLimit),
          // the whole pool is stored as 0 so that new questions join every attempt
          questionsPerAttempt: draw === quiz.questionCount ? 0 : draw,
          retakeWaitHours: numberOrNull(v.wait),
          maxAttempts: numberOrNull(v.max),
          attemptPeriodDays: numberOrNull(v.period),
        },
      });
      toastSuccess('Quiz updated successfully');
      onSaved();
      onOpenChange(false);
    } catch (e2) {
      setErr(errorMessage(e2, 'Failed to update quiz'));
      toastFail(e2, 'Failed to update quiz');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Quiz settings</DialogTitle>
          <DialogDescription>
            {quiz.blueprint && quiz.blueprint.length > 0
              ? `Each attempt asks the blueprint's ${quiz.drawSize} questions (see Blueprint and exposure); questions per attempt applies only without a blueprint.`
              : `Each attempt draws its questions at random from the pool of ${quiz.questionCount} and shuffles the options.`}
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid grid-cols-1 gap-4 sm:grid-cols-2" data-testid="quiz-settings-form">
          <Field label="Questions per attempt" htmlFor="qs-draw" hint={`1 to ${quiz.questionCount} (the pool)`}>
            <Input id="qs-draw" type="number" min={1} step={1} value={v.draw} onChange={set('draw')} aria-invalid={tooMany} />
          </Field>
          <Field label="Passing score (%)" htmlFor="qs-pass" hint="1 to 100">
            <Input id="qs-pass" type="number" min={1} max={100} step={1} value={v.passingScore} onChange={set('passingScore')} />
          </Field>
          <Field label="Time limit (minutes)" htmlFor="qs-time" hint="1 to 300">
            <Input id="qs-time" type="number" min={1} max={300} step={1} value={v.timeLimit} onChange={set('timeLimit')} />
          </Field>
          <Field label="Wait after a failed attempt (hours)" htmlFor="qs-wait" hint="0 = retake at once">
            <Input id="qs-wait" type="number" min={0} max={8760} step={1} value={v.wait} onChange={set('wait')} />
          </Field>
          <Field label="Maximum attempts" htmlFor="qs-max" hint="0 = no limit">
            <Input id="qs-max" type="number" min={0} max={100} step={1} value={v.max} onChange={set('max')} />
          </Field>
          <Field label="…in a period of (days)" htmlFor="qs-period" hint="1 to 365">
            <Input id="qs-period" type="number" min={1} max={365} step={1} value={v.period} onChange={set('period')} />
          </Field>
          {tooMany && (
            <p className="text-sm text-destructive sm:col-span-2">
              The pool has only {quiz.questionCount} questions: add questions before drawing {draw}.
            </p>
          )}
          {err && (
            <p role="alert" className="text-sm text-destructive sm:col-span-2">
              {err}
            </p>
          )}
          <div className="flex justify-end gap-2 sm:col-span-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} data-testid="save-quiz-settings">
              {busy ? 'Saving…' : 'Save settings'}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function QuizSettingsButton({ onClick }: { onClick: () => void }) {
  return (
    <Button variant="outline" onClick={onClick} data-testid="quiz-settings">
      <Settings2 /> Settings
    </Button>
  );
}

type ItemStats = { questionId: string; text: string; timesAsked: number; correct: number; percentCorrect: number; discrimination: number | null; flags: string[] };
type Analysis = {
  quiz: { _id: string; title: string };
  stats: {
    attempts: number;
    passed: number;
    passRate: number;
    medianScore: number;
    medianTime: number;
    questions: ItemStats[];
    minSample: number;
  };
};

const FLAG: Record<string, { label: string; tone: 'warning' | 'destructive' | 'secondary' }> = {
  too_easy: { label: 'Almost everyone right: leaked or too easy', tone: 'warning' },
  too_hard: { label: 'Almost everyone wrong: too hard or wrong key', tone: 'destructive' },
  weak_discrimination: { label: 'Does not separate strong from weak', tone: 'secondary' },
};

function mmss(s: number) {
  const m = Math.floor(s / 60);
  return `${m}m ${Math.round(s % 60)}s`;
}

/** Item analysis of a quiz (admins only). */
export function ItemAnalysis({ quizId, refresh }: { quizId: string; refresh: unknown }) {
  const analysis = useResource<Analysis>(`/admin/quizzes/${quizId}/analysis#${String(refresh)}`, (signal) => api<Analysis>(`/admin/quizzes/${quizId}/analysis`, { signal }));
  const a = analysis.data ?? null;
  const err = analysis.error ? errorMessage(analysis.error, 'Failed to load the item analysis') : '';
  return (
    <Card className="min-w-0" data-testid="item-analysis">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BarChart3 className="h-5 w-5" /> Item analysis
        </CardTitle>
        <CardDescription>
          Over submitted attempts. Discrimination is the point-biserial correlation between getting a question right and the attempt's score (above 0.2 is good).
          Flags need at least {a?.stats.minSample ?? 5} answers.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {err ? (
          <p className="text-sm text-destructive">{err}</p>
        ) : !a ? (
          <Skeleton className="h-24 w-full" />
        ) : (
          <>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[
                ['Attempts', String(a.stats.attempts)],
                ['Pass rate', `${a.stats.passRate}%`],
                ['Median score', `${a.stats.medianScore}%`],
                ['Median time', mmss(a.stats.medianTime)],
              ].map(([k, val]) => (
                <div key={k} className="rounded-lg border bg-muted/30 p-3">
                  <dt className="text-xs text-muted-foreground">{k}</dt>
                  <dd className="mt-1 font-semibold tabular-nums" data-testid={`analysis-${k.toLowerCase().replace(/ /g, '-')}`}>
                    {val}
                  </dd>
                </div>
              ))}
            </dl>
            <div className="mt-4 relative overflow-x-auto">
              <table className="w-full min-w-[36rem] text-sm">
                <thead>
                  <tr className="border-b text-left text-xs text-muted-foreground">
                    <th className="py-2 pr-3 font-medium">Question</th>
                    <th className="py-2 pr-3 text-right font-medium">Asked</th>
                    <th className="py-2 pr-3 text-right font-medium">Correct</th>
                    <th className="py-2 pr-3 text-right font-medium">Discrimination</th>
                  </tr>
                </thead>
                <tbody>
                  {a.stats.questions.map((q) => (
                    <tr key={q.questionId} className="border-b align-top last:border-0" data-testid="analysis-row">
                      <td className="py-2 pr-3">
                        <p>{q.text || <span className="text-muted-foreground">(deleted question)</span>}</p>
                        {q.flags.length > 0 && (
                          <div className="mt-1 flex flex-wrap gap-1">
                            {q.flags.map((f) => (
                              <Chip key={f} tone={FLAG[f]?.tone || 'secondary'}>
                                {FLAG[f]?.label || f}
                              </Chip>
                            ))}
                          </div>
                        )}
                      </td>
                      <td className="py-2 pr-3 text-right tabular-nums">{q.timesAsked}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{q.timesAsked ? `${q.percentCorrect}%` : '—'}</td>
                      <td className="py-2 pr-3 text-right tabular-nums">{q.discrimination === null ? '—' : q.discrimination.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  );
}

type Member = {
  user: { _id: string; name: string; email: string };
  attempts: number;
  lastScore: number | null;
  lastAt: string;
  everPassed: boolean;
  eligibility: { canStart: boolean; nextAttemptAt: string | null; extraAttempts: number; usesExtra: boolean };
};

/** Members who attempted the quiz, and a Grant extra attempt button while a retake waits. */
export function QuizMembers({ quizId, refresh }: { quizId: string; refresh: unknown }) {
  const members = useResource<{ members: Member[] }>(`/admin/quizzes/${quizId}/members#${String(refresh)}`, (signal) =>
    api<{ members: Member[] }>(`/admin/quizzes/${quizId}/members`, { signal }),
  );
  const ms = members.data?.members ?? null;
  const err = members.error ? errorMessage(members.error, 'Failed to load the members') : '';
  const [busy, setBusy] = useState<string | null>(null);
  const grant = async (m: Member) => {
    setBusy(m.user._id);
    try {
      const r = await api<{ msg: string }>(`/admin/quizzes/${quizId}/attempt-grants`, { method: 'POST', body: { userId: m.user._id } });
      toastSuccess(`${r.msg} to ${m.user.name || m.user.email}`);
      members.reload();
    } catch (e) {
      toastFail(e, 'Failed to grant an extra attempt');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Card className="min-w-0" data-testid="quiz-members">
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>Who took this quiz, and when they may try again. Grant an extra attempt to let someone start before the retake rule allows.</CardDescription>
      </CardHeader>
      <CardContent>
        {err ? (
          <p className="text-sm text-destructive">{err}</p>
        ) : !ms ? (
          <Skeleton className="h-16 w-full" />
        ) : ms.length === 0 ? (
          <p className="text-sm text-muted-foreground">No attempts yet.</p>
        ) : (
          <ul className="divide-y rounded-lg border">
            {ms.map((m) => {
              const e = m.eligibility;
              return (
                <li key={m.user._id} className="flex flex-col gap-2 px-3 py-2.5 text-sm sm:flex-row sm:items-center" data-testid="quiz-member">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{m.user.name || m.user.email}</p>
                    <p className="truncate text-xs text-muted-foreground">
                      {m.user.email} · {m.attempts} {m.attempts === 1 ? 'attempt' : 'attempts'}
                      {m.lastScore !== null && ` · last ${Math.round(m.lastScore * 10) / 10}%`}
                    </p>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    {m.everPassed && <Chip tone="success">Passed</Chip>}
                    {e.extraAttempts > 0 ? (
                      <Chip tone="outline">Extra attempt waiting</Chip>
                    ) : e.canStart ? (
                      <Chip tone="secondary">Can start now</Chip>
                    ) : (
                      <>
                        <span className="text-xs text-muted-foreground">Next attempt <LocalTime iso={e.nextAttemptAt} withTime /></span>
                        <Button size="sm" variant="outline" onClick={() => grant(m)} disabled={busy !== null} data-testid="grant-attempt">
                          {busy === m.user._id ? 'Granting…' : 'Grant extra attempt'}
                        </Button>
                      </>
                    )}
                  </div>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
