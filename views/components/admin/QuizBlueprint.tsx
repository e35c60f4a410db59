// Quiz Management › blueprint and exposure: per topic, how many questions every attempt
// draws, beside the pool (active questions and families, shortfalls in red); the target
// difficulty and the exposure cap (PUT /admin/quizzes/{id}); and each question's exposure
// over the last forms, its difficulty estimate, family and retirement
// (PUT /admin/questions/{id}/retired). See docs/assessment.md.
import { useState, type FormEvent } from 'react';
import Scale from 'lucide-react/icons/scale';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Input } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { cn } from '../../lib/cn';
import { Field, numberOrNull, toastFail, toastSuccess, type AdminQuiz, type Question } from './BadgeAdminKit';

type Counts = Record<string, string>;

function countsOf(quiz: AdminQuiz): Counts {
  const c: Counts = {};
  for (const t of quiz.topics || []) c[t.topic] = t.count ? String(t.count) : '';
  return c;
}

export function QuizBlueprint({ quiz, onSaved }: { quiz: AdminQuiz; onSaved: () => void }) {
  const [counts, setCounts] = useState<Counts>(() => countsOf(quiz));
  const [target, setTarget] = useState(quiz.targetDifficulty == null ? '' : String(quiz.targetDifficulty));
  const [cap, setCap] = useState(String(quiz.maxExposure ?? 40));
  const [floor, setFloor] = useState(String(quiz.minItemSeconds ?? 0));
  const [busy, setBusy] = useState(false);
  const [err, setErr] = useState('');
  const [retiring, setRetiring] = useState<string | null>(null);
  // the form follows the quiz each time the server answers a new one
  const [seen, setSeen] = useState(quiz);
  if (quiz !== seen) {
    setSeen(quiz);
    setCounts(countsOf(quiz));
    setTarget(quiz.targetDifficulty == null ? '' : String(quiz.targetDifficulty));
    setCap(String(quiz.maxExposure ?? 40));
    setFloor(String(quiz.minItemSeconds ?? 0));
    setErr('');
  }
  const topics = quiz.topics || [];
  const save = async (blueprint: { topic: string; count: number | string | null }[]) => {
    setBusy(true);
    setErr('');
    try {
      await api(`/admin/quizzes/${quiz._id}`, {
        method: 'PUT',
        body: { blueprint, targetDifficulty: numberOrNull(target), maxExposure: numberOrNull(cap), minItemSeconds: numberOrNull(floor) },
      });
      toastSuccess(blueprint.length ? 'Blueprint saved' : 'Blueprint cleared: attempts draw questions per attempt');
      onSaved();
    } catch (e) {
      setErr(errorMessage(e, 'Failed to save the blueprint'));
      toastFail(e, 'Failed to save the blueprint');
    } finally {
      setBusy(false);
    }
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const rows = topics.filter((t) => (counts[t.topic] || '').trim() !== '').map((t) => ({ topic: t.topic, count: numberOrNull(counts[t.topic]) }));
    void save(rows);
  };
  const retire = async (q: Question, retired: boolean) => {
    setRetiring(q._id);
    try {
      const r = await api<{ msg: string }>(`/admin/questions/${q._id}/retired`, { method: 'PUT', body: { retired } });
      toastSuccess(r.msg);
      onSaved();
    } catch (e) {
      toastFail(e, retired ? 'Failed to retire the question' : 'Failed to bring the question back');
    } finally {
      setRetiring(null);
    }
  };
  const total = topics.reduce((s, t) => s + (Number(counts[t.topic]) || 0), 0);
  const hasBlueprint = (quiz.blueprint || []).length > 0;
  return (
    <Card className="min-w-0" data-testid="quiz-blueprint">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Scale className="h-5 w-5" /> Blueprint and exposure
        </CardTitle>
        <CardDescription>
          {hasBlueprint
            ? `Every attempt asks ${quiz.drawSize} questions: the counts below, one per family at most, with an expected difficulty within 0.05 of ${quiz.target?.toFixed(2)}.`
            : 'No blueprint: each attempt draws its questions at random from the whole pool. Give topics a count to balance every form.'}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="grid gap-4" data-testid="blueprint-form">
          <div className="relative overflow-x-auto">
            <table className="w-full min-w-[20rem] text-sm">
              <thead>
                <tr className="border-b text-left text-xs text-muted-foreground">
                  <th className="py-2 pr-3 font-medium">Topic</th>
                  <th className="py-2 pr-3 text-right font-medium">Active</th>
                  <th className="py-2 pr-3 text-right font-medium">Families</th>
                  <th className="py-2 pr-3 font-medium">Per attempt</th>
                </tr>
              </thead>
              <tbody>
                {topics.map((t) => (
                  <tr key={t.topic} className="border-b last:border-0" data-testid="blueprint-topic">
                    <td className="py-2 pr-3">
                      {t.topic}
                      {t.retired > 0 && <span className="ml-1 text-xs text-muted-foreground">({t.retired} retired)</span>}
                    </td>
                    <td className="py-2 pr-3 text-right tabular-nums">{t.active}</td>
                    <td className="py-2 pr-3 text-right tabular-nums">{t.families}</td>
                    <td className="py-2 pr-3">
                      <div className="flex items-center gap-2">
                        <Input
                          type="number"
                          min={1}
                          step={1}
                          className="h-8 w-20"
                          aria-label={`Questions per attempt from ${t.topic}`}
                          value={counts[t.topic] ?? ''}
                          onChange={(e) => setCounts((c) => ({ ...c, [t.topic]: e.target.value }))}
                        />
                        {t.shortfall > 0 && (
                          <span className="text-xs font-medium text-destructive" data-testid="blueprint-shortfall">
                            {t.shortfall} short
                          </span>
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <Field label="Target difficulty" htmlFor="bp-target" hint={`Proportion correct expected, 0.05 to 0.95; empty = the pool's mean (${quiz.poolMean?.toFixed(2)})`}>
              <Input id="bp-target" type="number" min={0.05} max={0.95} step={0.01} value={target} onChange={(e) => setTarget(e.target.value)} />
            </Field>
            <Field label="Maximum exposure (%)" htmlFor="bp-cap" hint="Of the last 200 forms, while the pool can do without the item">
              <Input id="bp-cap" type="number" min={1} max={100} step={1} value={cap} onChange={(e) => setCap(e.target.value)} />
            </Field>
            <Field label="Speed floor (seconds a question)" htmlFor="bp-floor" hint="Integrity check: a pass with most answers faster goes to review; 0 = off">
              <Input id="bp-floor" type="number" min={0} max={600} step={1} value={floor} onChange={(e) => setFloor(e.target.value)} />
            </Field>
          </div>
          {quiz.drawProblem && (
            <p className="text-sm text-destructive" data-testid="draw-problem">
              {quiz.drawProblem}
            </p>
          )}
          {err && (
            <p role="alert" className="text-sm text-destructive">
              {err}
            </p>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            {hasBlueprint && (
              <Button type="button" variant="outline" disabled={busy} onClick={() => void save([])}>
                Clear blueprint
              </Button>
            )}
            <Button type="submit" disabled={busy} data-testid="save-blueprint">
              {busy ? 'Saving…' : total > 0 ? `Save (${total} per attempt)` : 'Save'}
            </Button>
          </div>
        </form>
        <ExposureTable quiz={quiz} retiring={retiring} onRetire={retire} />
      </CardContent>
    </Card>
  );
}

function ExposureTable({ quiz, retiring, onRetire }: { quiz: AdminQuiz; retiring: string | null; onRetire: (q: Question, retired: boolean) => void }) {
  const forms = quiz.exposureForms ?? 0;
  return (
    <div className="mt-6">
      <p className="text-sm font-medium">Items</p>
      <p className="text-xs text-muted-foreground">
        Exposure over the last {forms} {forms === 1 ? 'form' : 'forms'} drawn; difficulty is the proportion correct after 30 answers, else the label.
      </p>
      <div className="mt-2 relative overflow-x-auto">
        <table className="w-full min-w-[36rem] text-sm">
          <thead>
            <tr className="border-b text-left text-xs text-muted-foreground">
              <th className="py-2 pr-3 font-medium">Question</th>
              <th className="py-2 pr-3 text-right font-medium">Exposure</th>
              <th className="py-2 pr-3 text-right font-medium">Difficulty</th>
              <th className="py-2 pr-3 font-medium" />
            </tr>
          </thead>
          <tbody>
            {quiz.questions.map((q) => (
              <tr key={q._id} className={cn('border-b align-top last:border-0', q.retired && 'text-muted-foreground')} data-testid="exposure-row">
                <td className="py-2 pr-3">
                  <p className="line-clamp-2">{q.text}</p>
                  <div className="mt-1 flex flex-wrap gap-1">
                    {q.topic && <Chip tone="outline">{q.topic}</Chip>}
                    {q.family && <Chip tone="secondary">Family {q.family.slice(-6)}</Chip>}
                    {q.retired && <Chip tone="warning">Retired</Chip>}
                  </div>
                </td>
                <td className={cn('py-2 pr-3 text-right tabular-nums', q.form?.atCap && 'font-semibold text-destructive')}>
                  {q.form ? `${q.form.exposure} (${q.form.exposureRate}%)` : '—'}
                </td>
                <td className="py-2 pr-3 text-right tabular-nums">
                  {q.form ? q.form.estimate.toFixed(2) : '—'}
                  {q.form && !q.form.estimateFromData && <span className="block text-xs text-muted-foreground">label</span>}
                </td>
                <td className="py-2 pr-3 text-right">
                  <Button size="sm" variant="ghost" disabled={retiring !== null} onClick={() => onRetire(q, !q.retired)} data-testid="retire-question">
                    {retiring === q._id ? 'Saving…' : q.retired ? 'Bring back' : 'Retire'}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
