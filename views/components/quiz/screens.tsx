// The quiz screen's other states: loading, unavailable, no questions, and the start screen.
import AlertTriangle from 'lucide-react/icons/triangle-alert';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import CalendarClock from 'lucide-react/icons/calendar-clock';
import CircleHelp from 'lucide-react/icons/circle-help';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Target from 'lucide-react/icons/target';
import Timer from 'lucide-react/icons/timer';
import Play from 'lucide-react/icons/play';
import Layers from 'lucide-react/icons/layers';
import { useState, type ReactNode } from 'react';
import ArrowRight from 'lucide-react/icons/arrow-right';
import { pct } from '../../lib/format';
import { ConfirmDialog } from '../ui/confirm-dialog';
import type { PageState } from './blocked';
import { Button, Card, LinkButton, Skeleton } from '../ui';
import { Eligibility, Quiz } from './model';
import { LocalTime } from '../LocalTime';

export function LoadingQuiz() {
  return (
    <div className="mx-auto w-full max-w-3xl" aria-busy="true" aria-label="Loading quiz" data-testid="quiz-loading">
      <div className="flex items-start justify-between gap-4">
        <div className="flex-1 space-y-3">
          <Skeleton className="h-4 w-32" />
          <Skeleton className="h-8 w-2/3" />
          <Skeleton className="h-4 w-1/2" />
        </div>
        <Skeleton className="h-11 w-28" />
      </div>
      <Card className="mt-6">
        <div className="space-y-4 p-6">
          <div className="flex justify-between">
            <Skeleton className="h-4 w-28" />
            <Skeleton className="h-4 w-32" />
          </div>
          <Skeleton className="h-2 w-full" />
          <Skeleton className="mt-4 h-6 w-3/4" />
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-14 w-full" />
          ))}
        </div>
      </Card>
      <p className="sr-only">Loading...</p>
    </div>
  );
}

export function Unavailable({ msg, badgeId, onRetry }: { msg: string; badgeId: string; onRetry: () => void }) {
  return (
    <Card className="mx-auto w-full max-w-xl text-center" data-testid="quiz-unavailable">
      <div className="flex flex-col items-center p-8 sm:p-10">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-destructive/10 text-destructive">
          <AlertTriangle className="h-7 w-7" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight">Quiz Unavailable</h1>
        <p className="mt-2 text-muted-foreground" role="alert">
          {msg}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          <Button onClick={onRetry}>
            <RotateCcw /> Try Again
          </Button>
          <LinkButton href="/badges" variant="outline">
            <ArrowLeft /> Back to Badges
          </LinkButton>
          {badgeId && /^[0-9a-f]{24}$/.test(badgeId) && (
            <LinkButton href={`/badges/${badgeId}`} variant="ghost">
              View badge
            </LinkButton>
          )}
        </div>
      </div>
    </Card>
  );
}

export function NoQuestions({ quiz }: { quiz: Quiz }) {
  return (
    <Card className="mx-auto w-full max-w-xl text-center" data-testid="quiz-empty">
      <div className="flex flex-col items-center p-8 sm:p-10">
        <span className="flex h-14 w-14 items-center justify-center rounded-full bg-muted text-muted-foreground">
          <CircleHelp className="h-7 w-7" />
        </span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight">No Questions Available</h1>
        <p className="mt-2 text-muted-foreground">
          {quiz.title} has no questions yet. Please check back later.
        </p>
        <LinkButton href="/badges" variant="outline" className="mt-6">
          <ArrowLeft /> Back to Badges
        </LinkButton>
      </div>
    </Card>
  );
}

/** When the member may next start, as one sentence (null when they may start now); the
 * time is in the reader's zone (LocalTime). */
export function nextAttemptText(e: Eligibility | null | undefined): ReactNode {
  if (!e || !e.nextAttemptAt || (e.canStart && !e.usesExtra)) return null;
  const at = <LocalTime iso={e.nextAttemptAt} withTime />;
  if (e.usesExtra) return <>An administrator granted you an extra attempt, so you may start now. Otherwise your next attempt would open {at}.</>;
  if (e.reason === 'cap') return <>You have used all {e.maxAttempts} attempts allowed in {e.periodDays} days. Your next attempt opens {at}.</>;
  return <>Your next attempt opens {at}.</>;
}

export function NextAttempt({ e }: { e: Eligibility | null | undefined }) {
  const text = nextAttemptText(e);
  if (!text) return null;
  return (
    <p
      className="mt-4 flex items-start gap-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-left text-sm text-foreground"
      data-testid="quiz-next-attempt"
      data-next={e?.nextAttemptAt || ''}
    >
      <CalendarClock className="mt-0.5 h-4 w-4 shrink-0" /> <span>{text}</span>
    </p>
  );
}

export function StartScreen({ quiz: q, starting, msg, onStart, page }: { quiz: Quiz; starting: boolean; msg: string; onStart: () => void; page?: PageState | null }) {
  const e = q.eligibility;
  const [confirm, setConfirm] = useState(false);
  const passed = !!page?.continueHref;
  const used = e.maxAttempts > 0 && e.periodDays > 0 ? `${e.attemptsUsed} of ${e.maxAttempts} used in ${e.periodDays} days` : `${e.attemptsUsed} used`;
  const facts = [
    { label: 'Questions', value: q.questionsPerAttempt < q.poolSize ? `${q.questionsPerAttempt} drawn from ${q.poolSize}` : `${q.poolSize}`, Icon: Layers },
    { label: 'Time limit', value: `${q.timeLimit} min`, Icon: Timer },
    { label: 'Passing score', value: `${q.passingScore}%`, Icon: Target },
    {
      label: 'Attempts',
      value: e.maxAttempts > 0 && e.periodDays > 0 ? `${e.attemptsUsed} of ${e.maxAttempts} used` : `${e.attemptsUsed} used`,
      Icon: RotateCcw,
    },
  ];
  return (
    <Card className="mx-auto w-full max-w-3xl" data-testid="quiz-start">
      <div className="p-6 sm:p-8">
        <p className="text-sm font-medium text-primary">{page?.renewal ? `Renewal · ${q.badge.name}` : q.badge.name}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{page?.renewal ? `Renew your badge: ${q.title}` : q.title}</h1>
        {page?.renewal && (
          <div className="mt-3 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="quiz-renewal">
            <p className="font-medium">This attempt renews your badge ({page.renewalLabel}).</p>
            <p className="mt-1 text-muted-foreground">{page.renewalNeeds}.</p>
          </div>
        )}
        {passed && (
          <p className="mt-3 rounded-md border border-success/40 bg-success/10 px-3 py-2 text-sm" data-testid="quiz-passed-note">
            You passed this quiz. Continue your application to have it reviewed; a retake is not needed.
          </p>
        )}
        {q.description && <p className="mt-2 text-muted-foreground">{q.description}</p>}
        <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
          {facts.map(({ label, value, Icon }) => (
            <div key={label} className="rounded-lg border bg-muted/30 p-3">
              <dt className="flex items-center gap-1.5 text-xs text-muted-foreground">
                <Icon className="h-3.5 w-3.5" /> {label}
              </dt>
              <dd className="mt-1 font-semibold tabular-nums">{value}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-sm text-muted-foreground" data-testid="quiz-rule">
          {q.retakeRule.text}. The timer starts when you press Start Quiz; questions and answer order are drawn for each attempt.
        </p>
        {q.lastAttempt && (
          <p className="mt-2 text-sm text-muted-foreground">
            Your last attempt (<LocalTime iso={q.lastAttempt.submittedAt} withTime />): {pct(q.lastAttempt.score)}%, {q.lastAttempt.passed ? 'passed' : 'not passed'}.
          </p>
        )}
        <NextAttempt e={e} />
        {msg && (
          <p role="alert" className="mt-4 rounded-md border border-destructive/50 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {msg}
          </p>
        )}
        <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
          <LinkButton href={`/badges/${q.badge._id}`} variant="outline">
            <ArrowLeft /> Back to Badge
          </LinkButton>
          {e.canStart && passed && (
            <Button variant="outline" onClick={() => setConfirm(true)} disabled={starting} data-testid="quiz-begin">
              <RotateCcw /> {starting ? 'Starting…' : 'Retake Quiz'}
            </Button>
          )}
          {e.canStart && !passed && (
            <Button onClick={onStart} disabled={starting} data-testid="quiz-begin">
              <Play /> {starting ? 'Starting…' : 'Start Quiz'}
            </Button>
          )}
          {passed && page?.continueHref && (
            <LinkButton href={page.continueHref} data-testid="quiz-continue-application">
              Continue application <ArrowRight />
            </LinkButton>
          )}
        </div>
      </div>
      {passed && (
        <ConfirmDialog
          open={confirm}
          onOpenChange={setConfirm}
          title="Retake the quiz?"
          description={`You already passed. A retake uses one of your attempts (${used}), and the timer starts at once. Your passing result stays usable for your application.`}
          confirmLabel="Use an attempt and retake"
          destructive={false}
          onConfirm={() => {
            setConfirm(false);
            onStart();
          }}
        />
      )}
    </Card>
  );
}
