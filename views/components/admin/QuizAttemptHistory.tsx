// A member's attempts at a skill badge's quiz (in the application's View Details): score,
// time, when; when the next attempt opens; and the admin's "Grant extra attempt" while a
// retake waits. GET /admin/quiz-attempts, POST /admin/quizzes/{id}/attempt-grants.
import { useCallback, useEffect, useState } from 'react';
import Gift from 'lucide-react/icons/gift';
import { Button, Chip, Skeleton } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { toast, toastError } from '../../lib/toast';
import { LocalTime } from '../LocalTime';

type Eligibility = { canStart: boolean; nextAttemptAt: string | null; reason: string; extraAttempts: number; usesExtra: boolean };
type Row = {
  _id: string;
  startedAt: string;
  submittedAt: string | null;
  score: number;
  passed: boolean;
  correctAnswers: number;
  total: number;
  timeSpent: number;
  late: boolean;
  applicationId: string | null;
  extraAttempt: boolean;
};
type History = { quiz: { _id: string; title: string } | null; retakeRule: string; attempts: Row[]; eligibility: Eligibility | null };

function mins(s: number) {
  const m = Math.floor(s / 60);
  return m > 0 ? `${m}m ${s % 60}s` : `${s}s`;
}

export function QuizAttemptHistory({ userId, badgeId }: { userId: string; badgeId: string }) {
  const [h, setH] = useState<History | null>(null);
  const [err, setErr] = useState('');
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    setErr('');
    api<History>(`/admin/quiz-attempts?userId=${encodeURIComponent(userId)}&badgeId=${encodeURIComponent(badgeId)}`)
      .then(setH)
      .catch((e) => setErr(errorMessage(e, 'Failed to load quiz attempts')));
  }, [userId, badgeId]);
  // eslint-disable-next-line react-hooks/set-state-in-effect -- fetching from the server is what this effect synchronises with; the loading state is set as it starts
  useEffect(load, [load]);

  const grant = async () => {
    if (!h?.quiz) return;
    setBusy(true);
    try {
      const r = await api<{ msg: string }>(`/admin/quizzes/${h.quiz._id}/attempt-grants`, { method: 'POST', body: { userId } });
      toast({ title: r.msg, description: 'The member can start the quiz again now.' });
      load();
    } catch (e) {
      toastError(errorMessage(e, 'Failed to grant an extra attempt'));
    } finally {
      setBusy(false);
    }
  };

  if (err) return <p className="text-sm text-destructive">{err}</p>;
  if (!h) return <Skeleton className="h-10 w-full" />;
  if (!h.quiz) return <p className="text-sm text-muted-foreground">This badge has no quiz.</p>;
  const e = h.eligibility;
  return (
    <div className="space-y-3" data-testid="quiz-attempt-history">
      <p className="text-xs text-muted-foreground">
        {h.quiz.title} · {h.retakeRule}
      </p>
      {h.attempts.length === 0 ? (
        <p className="text-sm text-muted-foreground">No attempts yet.</p>
      ) : (
        <ol className="divide-y rounded-lg border text-sm">
          {h.attempts.map((a) => (
            <li key={a._id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2" data-testid="quiz-attempt-row">
              <span className="tabular-nums text-muted-foreground"><LocalTime iso={a.submittedAt || a.startedAt} withTime /></span>
              {a.submittedAt ? (
                <>
                  <Chip tone={a.passed ? 'success' : 'destructive'}>
                    {Math.round(a.score * 10) / 10}% {a.passed ? 'passed' : 'failed'}
                  </Chip>
                  <span className="tabular-nums">
                    {a.correctAnswers} / {a.total} · {mins(a.timeSpent)}
                  </span>
                  {a.late && <Chip tone="warning">Time ran out</Chip>}
                </>
              ) : (
                <Chip tone="secondary">In progress</Chip>
              )}
              {a.extraAttempt && <Chip tone="outline">Extra attempt</Chip>}
              {a.applicationId && <Chip tone="outline">Used for an application</Chip>}
            </li>
          ))}
        </ol>
      )}
      {e && (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm" data-testid="quiz-next-attempt-admin">
            {e.extraAttempts > 0
              ? 'An extra attempt is waiting for this member.'
              : e.canStart
                ? 'The member can start a new attempt now.'
                : <>Next attempt opens <LocalTime iso={e.nextAttemptAt} withTime />.</>}
          </p>
          {!e.canStart && e.extraAttempts === 0 && (
            <Button size="sm" variant="outline" onClick={grant} disabled={busy} data-testid="grant-attempt">
              <Gift /> {busy ? 'Granting…' : 'Grant extra attempt'}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
