// The quiz screen (/quiz/:badgeId). It opens on a start screen (GET: the quiz, its pool and
// retake rule, and when the member may start); "Start Quiz" POSTs the start. The server
// draws the questions, keeps the deadline and the saved answers, and grades the
// submission; the result has the figures only (never which option was right).
import { useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import {
  AlertTriangle,
  ArrowLeft,
  ArrowRight,
  CalendarClock,
  CheckCircle2,
  ChevronLeft,
  ChevronRight,
  CircleHelp,
  Clock,
  RotateCcw,
  Send,
  Target,
  Timer,
  Trophy,
  Play,
  Layers,
  XCircle,
} from 'lucide-react';
import { api, ApiError, errorMessage } from '../lib/api';
import { clock, dateTime } from '../lib/format';
import { cn } from '../lib/cn';
import { toast } from '../lib/toast';
import { Button, Card, LinkButton, Skeleton } from '../components/ui';

export type QuizRunnerProps = { badgeId: string; badgeName: string; attemptId: string };

type Question = { _id: string; text: string; options: string[] };
type Attempt = { _id: string; startedAt: string; deadline: string; serverNow: string; answers: Record<string, number> };
export type Eligibility = {
  canStart: boolean;
  nextAttemptAt: string | null;
  reason: string;
  attemptsUsed: number;
  maxAttempts: number;
  periodDays: number;
  extraAttempts: number;
  usesExtra: boolean;
};
type Quiz = {
  _id: string;
  title: string;
  description: string;
  passingScore: number;
  timeLimit: number;
  questionsPerAttempt: number;
  poolSize: number;
  retakeRule: { waitHours: number; maxAttempts: number; periodDays: number; text: string };
  eligibility: Eligibility;
  badge: { _id: string; name: string };
  questions: Question[];
  attempt: Attempt | null;
  lastAttempt: { _id: string; score: number; passed: boolean; submittedAt: string } | null;
};
export type QuizResult = {
  attemptId: string;
  title: string;
  badge: { _id: string; name: string };
  score: number;
  passed: boolean;
  correctAnswers: number;
  total: number;
  timeSpent: number;
  passingScore: number;
  late: boolean;
  answered: number;
  topics: { topic: string; correct: number; total: number }[];
  eligibility: Eligibility | null;
};

type Phase =
  | { kind: 'loading' }
  | { kind: 'error'; msg: string }
  | { kind: 'empty'; quiz: Quiz }
  | { kind: 'intro'; quiz: Quiz; starting: boolean; msg: string }
  | { kind: 'running' }
  | { kind: 'submitting' }
  | { kind: 'submitFailed'; msg: string }
  | { kind: 'result'; result: QuizResult };

/** Warning threshold of the timer (spec section 9). */
const WARN_SECONDS = 300;

/** The quiz result as the application page reads it ("navigation state"). */
export function storeQuizResult(badgeId: string, r: QuizResult) {
  try {
    sessionStorage.setItem(
      `quizResult:${badgeId}`,
      JSON.stringify({ score: r.score, passed: r.passed, correctAnswers: r.correctAnswers, total: r.total, timeSpent: r.timeSpent, attemptId: r.attemptId, fromQuiz: true }),
    );
  } catch {
    // storage disabled: the application page asks the server for the passing attempt anyway
  }
}

function pct(score: number) {
  return Math.round(score * 10) / 10;
}

function duration(seconds: number) {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return m > 0 ? `${m}m ${s}s` : `${s}s`;
}

function scoreTone(score: number) {
  return score >= 90 ? 'text-success' : score >= 70 ? 'text-warning' : 'text-destructive';
}

export default function QuizRunner({ badgeId, badgeName, attemptId }: QuizRunnerProps) {
  const [phase, setPhase] = useState<Phase>({ kind: 'loading' });
  const [quiz, setQuiz] = useState<Quiz | null>(null);
  const [answers, setAnswers] = useState<Record<string, number>>({});
  const [current, setCurrent] = useState(0);
  const [remaining, setRemaining] = useState<number | null>(null);
  const [saveState, setSaveState] = useState<'idle' | 'saving' | 'saved' | 'failed'>('idle');

  const offset = useRef(0); // server clock minus browser clock, ms
  const answersRef = useRef(answers);
  useEffect(() => {
    answersRef.current = answers;
  }, [answers]);
  const submitted = useRef(false);
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());
  const optionsRef = useRef<HTMLFieldSetElement>(null);
  const focusAfterMove = useRef(false);

  // the running attempt: the server's clock at the middle of the round trip, saved answers
  const run = (q: Quiz, t0: number, t1: number) => {
    if (!q.attempt) return;
    // the server's clock at the middle of the round trip
    offset.current = Date.parse(q.attempt.serverNow) - (t0 + t1) / 2;
    const saved = q.attempt.answers || {};
    setAnswers(saved);
    const firstOpen = q.questions.findIndex((x) => saved[x._id] === undefined);
    setCurrent(firstOpen < 0 ? q.questions.length - 1 : firstOpen);
    submitted.current = false;
    setRemaining(Math.max(0, (Date.parse(q.attempt.deadline) - (Date.now() + offset.current)) / 1000));
    setPhase({ kind: 'running' });
  };

  const load = useCallback(async () => {
    setPhase({ kind: 'loading' });
    if (!badgeId) {
      setPhase({ kind: 'error', msg: 'Badge ID is missing' });
      return;
    }
    try {
      const t0 = Date.now();
      const q = await api<Quiz>(`/quiz/badge/${encodeURIComponent(badgeId)}`);
      const t1 = Date.now();
      setQuiz(q);
      if (q.poolSize === 0 && !q.attempt) {
        setPhase({ kind: 'empty', quiz: q });
        return;
      }
      if (!q.attempt) {
        setPhase({ kind: 'intro', quiz: q, starting: false, msg: '' });
        return;
      }
      run(q, t0, t1);
    } catch (e) {
      setPhase({ kind: 'error', msg: errorMessage(e, 'Failed to load quiz') });
    }
  }, [badgeId]);

  // Start Quiz: an explicit POST; a refused retake shows the server's message and the time
  const start = async (intro: Quiz) => {
    setPhase({ kind: 'intro', quiz: intro, starting: true, msg: '' });
    try {
      const t0 = Date.now();
      const q = await api<Quiz>(`/quiz/badge/${encodeURIComponent(badgeId)}/start`, { method: 'POST', timeoutMs: 30000 });
      const t1 = Date.now();
      setQuiz(q);
      run(q, t0, t1);
    } catch (e) {
      let next = intro;
      const d = e instanceof ApiError ? (e.data as { eligibility?: Eligibility } | null) : null;
      if (d && d.eligibility) next = { ...intro, eligibility: d.eligibility };
      setPhase({ kind: 'intro', quiz: next, starting: false, msg: errorMessage(e, 'Failed to start the quiz') });
    }
  };

  // first load: a submitted attempt's result (after a reload of the result screen), or the quiz
  useEffect(() => {
    let stop = false;
    (async () => {
      if (attemptId) {
        try {
          const r = await api<QuizResult>(`/quiz/attempts/${attemptId}`);
          if (!stop) setPhase({ kind: 'result', result: r });
          return;
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 409)) {
            if (!stop) setPhase({ kind: 'error', msg: errorMessage(e, 'Failed to load quiz') });
            return;
          }
          history.replaceState(null, '', `/quiz/${badgeId}`);
        }
      }
      if (!stop) load();
    })();
    return () => {
      stop = true;
    };
  }, [attemptId, badgeId, load]);

  const submit = useCallback(
    async (auto: boolean) => {
      if (!quiz?.attempt || submitted.current) return;
      submitted.current = true;
      if (auto) toast({ title: "Time's Up!", description: 'Your quiz was submitted automatically.' });
      setPhase({ kind: 'submitting' });
      try {
        await saveChain.current.catch(() => undefined);
        let r: QuizResult;
        try {
          r = await api<QuizResult>(`/quiz/attempts/${quiz.attempt._id}/submit`, { method: 'POST', body: { answers: answersRef.current }, timeoutMs: 30000 });
        } catch (e) {
          // too late: the server graded the answers saved before the deadline
          if (!(e instanceof ApiError && e.status === 409 && (e.data as { attemptId?: string } | null)?.attemptId)) throw e;
          toast({ title: "Time's Up!", description: e.message });
          r = await api<QuizResult>(`/quiz/attempts/${quiz.attempt._id}`);
        }
        if (r.passed) storeQuizResult(badgeId, r);
        history.replaceState(null, '', `/quiz/${badgeId}?attempt=${r.attemptId}`);
        setPhase({ kind: 'result', result: r });
        window.scrollTo({ top: 0 });
      } catch (e) {
        submitted.current = false;
        setPhase({ kind: 'submitFailed', msg: errorMessage(e, 'Failed to submit quiz') });
      }
    },
    [quiz, badgeId],
  );

  // the countdown, from the server's deadline corrected for the browser's clock
  useEffect(() => {
    if (phase.kind !== 'running' || !quiz?.attempt) return;
    const deadline = Date.parse(quiz.attempt.deadline);
    const tick = () => {
      const left = Math.max(0, (deadline - (Date.now() + offset.current)) / 1000);
      setRemaining(left);
      if (left <= 0) submit(true);
    };
    tick();
    const iv = setInterval(tick, 250);
    return () => clearInterval(iv);
  }, [phase.kind, quiz, submit]);

  // keep keyboard focus on the options when moving between questions
  useEffect(() => {
    if (!focusAfterMove.current) return;
    focusAfterMove.current = false;
    const el = optionsRef.current?.querySelector<HTMLInputElement>('input:checked') || optionsRef.current?.querySelector<HTMLInputElement>('input');
    el?.focus();
  }, [current]);

  if (phase.kind === 'loading') return <LoadingQuiz />;
  if (phase.kind === 'error') return <Unavailable msg={phase.msg} badgeId={badgeId} onRetry={load} />;
  if (phase.kind === 'empty') return <NoQuestions quiz={phase.quiz} />;
  if (phase.kind === 'intro') return <StartScreen quiz={phase.quiz} starting={phase.starting} msg={phase.msg} onStart={() => start(phase.quiz)} />;
  if (phase.kind === 'result') return <ResultScreen result={phase.result} badgeId={badgeId} />;
  if (!quiz || !quiz.attempt) return <LoadingQuiz />;

  const questions = quiz.questions;
  const n = questions.length;
  const q = questions[current];
  const chosen = answers[q._id];
  const answeredCount = questions.filter((x) => answers[x._id] !== undefined).length;
  const isLast = current === n - 1;
  const busy = phase.kind === 'submitting';
  const left = remaining ?? quiz.timeLimit * 60;
  const warn = left < WARN_SECONDS;

  const choose = (idx: number) => {
    if (busy || submitted.current) return;
    setAnswers((a) => ({ ...a, [q._id]: idx }));
    setSaveState('saving');
    const attempt = quiz.attempt!._id;
    const body = { questionId: q._id, optionIndex: idx };
    // saves run one after another, so the last choice is the one kept
    saveChain.current = saveChain.current
      .catch(() => undefined)
      .then(() => api(`/quiz/attempts/${attempt}/answers`, { method: 'PUT', body, timeoutMs: 15000 }))
      .then(
        () => setSaveState('saved'),
        (e) => {
          setSaveState('failed');
          // past the deadline the answer still travels with the submission (within the grace)
          if (!(e instanceof ApiError && e.status === 409)) console.warn('answer not saved', e);
        },
      );
  };

  const go = (to: number) => {
    focusAfterMove.current = true;
    setCurrent(Math.max(0, Math.min(n - 1, to)));
  };
  const next = () => {
    if (chosen === undefined || busy) return;
    if (isLast) submit(false);
    else go(current + 1);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLFieldSetElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      next();
    }
  };

  return (
    <div className="mx-auto w-full max-w-3xl">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <p className="text-sm font-medium text-primary">{quiz.badge.name || badgeName}</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{quiz.title}</h1>
          {quiz.description && <p className="mt-2 text-muted-foreground">{quiz.description}</p>}
        </div>
        <div
          role="timer"
          aria-label="Time remaining"
          data-testid="quiz-timer"
          data-warning={warn ? 'true' : 'false'}
          className={cn(
            'flex shrink-0 items-center gap-2 self-start rounded-lg border px-4 py-2 font-mono text-xl font-semibold tabular-nums',
            warn ? 'border-destructive/50 bg-destructive/10 text-destructive' : 'bg-card text-foreground',
          )}
        >
          {warn ? <AlertTriangle className="h-5 w-5" /> : <Clock className="h-5 w-5 text-muted-foreground" />}
          {clock(Math.ceil(left))}
        </div>
      </div>

      <Card className="mt-6">
        <div className="p-5 sm:p-6">
          <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="font-semibold" data-testid="quiz-position">
              Question {current + 1} of {n}
            </span>
            <span className="flex items-center gap-1.5 text-muted-foreground">
              <Target className="h-4 w-4" /> Passing score: {quiz.passingScore}%
            </span>
          </div>
          <div
            className="mt-3 h-2 w-full overflow-hidden rounded-full bg-muted"
            role="progressbar"
            aria-label="Quiz progress"
            aria-valuemin={0}
            aria-valuemax={n}
            aria-valuenow={current + 1}
          >
            <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${((current + 1) / n) * 100}%` }} />
          </div>
          <div className="mt-2 flex items-center justify-between text-xs text-muted-foreground">
            <span data-testid="quiz-answered">
              {answeredCount} of {n} answered
            </span>
            <span aria-live="polite" className={cn(saveState === 'failed' && 'text-destructive')}>
              {saveState === 'saving' ? 'Saving…' : saveState === 'saved' ? 'Answer saved' : saveState === 'failed' ? 'Not saved: it will be sent with your submission' : ''}
            </span>
          </div>

          <fieldset ref={optionsRef} className="mt-6" onKeyDown={onKeyDown} disabled={busy}>
            <legend className="text-lg font-semibold leading-snug sm:text-xl" data-testid="quiz-question">
              {q.text}
            </legend>
            <div className="mt-4 grid gap-3" role="radiogroup" aria-label="Answer options">
              {q.options.map((opt, i) => {
                const on = chosen === i;
                return (
                  <label
                    key={q._id + ':' + i}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-lg border p-4 transition-colors has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2 has-[input:focus-visible]:ring-offset-background',
                      on ? 'border-primary bg-primary/5' : 'hover:border-primary/40 hover:bg-accent/50',
                    )}
                  >
                    <input
                      type="radio"
                      name={`q-${q._id}`}
                      value={i}
                      checked={on}
                      onChange={() => choose(i)}
                      className="sr-only"
                    />
                    <span
                      aria-hidden="true"
                      className={cn(
                        'flex h-5 w-5 shrink-0 items-center justify-center rounded-full border-2',
                        on ? 'border-primary' : 'border-muted-foreground/40',
                      )}
                    >
                      {on && <span className="h-2.5 w-2.5 rounded-full bg-primary" />}
                    </span>
                    <span className="text-sm sm:text-base">{opt}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          <p className="mt-4 hidden text-xs text-muted-foreground sm:block">Tip: use the arrow keys to choose an answer and Enter to continue.</p>
        </div>
        <div className="flex items-center justify-between gap-3 border-t px-5 py-4 sm:px-6">
          <Button variant="outline" onClick={() => go(current - 1)} disabled={current === 0 || busy}>
            <ChevronLeft /> Previous
          </Button>
          {isLast ? (
            <Button onClick={next} disabled={chosen === undefined || busy} data-testid="quiz-submit">
              {busy ? 'Submitting…' : 'Submit Quiz'} <Send />
            </Button>
          ) : (
            <Button onClick={next} disabled={chosen === undefined || busy}>
              Next <ChevronRight />
            </Button>
          )}
        </div>
      </Card>
      {phase.kind === 'submitFailed' && (
        <div role="alert" className="mt-4 flex flex-col gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
          <span className="flex items-center gap-2 text-destructive">
            <AlertTriangle className="h-4 w-4 shrink-0" /> Submission Failed: {phase.msg}
          </span>
          <Button size="sm" variant="destructive" onClick={() => submit(false)}>
            Try Again
          </Button>
        </div>
      )}
    </div>
  );
}

function LoadingQuiz() {
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

function Unavailable({ msg, badgeId, onRetry }: { msg: string; badgeId: string; onRetry: () => void }) {
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

function NoQuestions({ quiz }: { quiz: Quiz }) {
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

/** When the member may next start, as one sentence (null when they may start now). */
function nextAttemptText(e: Eligibility | null | undefined): string | null {
  if (!e || !e.nextAttemptAt || (e.canStart && !e.usesExtra)) return null;
  if (e.usesExtra) return `An administrator granted you an extra attempt, so you may start now. Otherwise your next attempt would open ${dateTime(e.nextAttemptAt)}.`;
  if (e.reason === 'cap') return `You have used all ${e.maxAttempts} attempts allowed in ${e.periodDays} days. Your next attempt opens ${dateTime(e.nextAttemptAt)}.`;
  return `Your next attempt opens ${dateTime(e.nextAttemptAt)}.`;
}

function NextAttempt({ e }: { e: Eligibility | null | undefined }) {
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

function StartScreen({ quiz: q, starting, msg, onStart }: { quiz: Quiz; starting: boolean; msg: string; onStart: () => void }) {
  const e = q.eligibility;
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
        <p className="text-sm font-medium text-primary">{q.badge.name}</p>
        <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{q.title}</h1>
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
            Your last attempt ({dateTime(q.lastAttempt.submittedAt)}): {pct(q.lastAttempt.score)}%, {q.lastAttempt.passed ? 'passed' : 'not passed'}.
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
          {e.canStart && (
            <Button onClick={onStart} disabled={starting} data-testid="quiz-begin">
              <Play /> {starting ? 'Starting…' : 'Start Quiz'}
            </Button>
          )}
        </div>
      </div>
    </Card>
  );
}

function ResultScreen({ result: r, badgeId }: { result: QuizResult; badgeId: string }) {
  const score = pct(r.score);
  const continueApplication = () => {
    storeQuizResult(badgeId, r);
    window.location.href = `/resume-upload/${badgeId}`;
  };
  const retake = () => {
    window.location.href = `/quiz/${badgeId}`;
  };
  const canRetake = !r.eligibility || r.eligibility.canStart;
  const stats = [
    { label: 'Correct answers', value: `${r.correctAnswers} / ${r.total}`, Icon: CheckCircle2 },
    { label: 'Time taken', value: duration(r.timeSpent), Icon: Timer },
    { label: 'Passing score', value: `${r.passingScore}%`, Icon: Target },
    { label: 'Your score', value: `${score}%`, Icon: Trophy },
  ];
  return (
    <div className="mx-auto w-full max-w-3xl" data-testid="quiz-result" data-passed={r.passed ? 'true' : 'false'}>
      <Card className="overflow-hidden">
        <div className={cn('h-1.5', r.passed ? 'bg-success' : 'bg-destructive')} />
        <div className="flex flex-col items-center p-6 text-center sm:p-10">
          <span
            className={cn(
              'flex h-16 w-16 items-center justify-center rounded-full',
              r.passed ? 'bg-success/15 text-success' : 'bg-destructive/10 text-destructive',
            )}
          >
            {r.passed ? <Trophy className="h-8 w-8" /> : <XCircle className="h-8 w-8" />}
          </span>
          <p className="mt-4 text-sm font-medium text-muted-foreground">{r.title || r.badge.name}</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{r.passed ? 'Congratulations, you passed!' : 'Not quite there yet'}</h1>
          <p className={cn('mt-4 text-6xl font-extrabold tabular-nums', scoreTone(score))} data-testid="quiz-percent">
            {score}%
          </p>
          <p className="mt-2 max-w-md text-muted-foreground">
            {r.passed
              ? `You reached the ${r.passingScore}% needed for ${r.badge.name}. Continue your application to have it reviewed.`
              : `You need ${r.passingScore}% to pass. The answers are not shown, so the badge keeps its meaning: study the topics and try again when your next attempt opens.`}
          </p>
          {r.late && (
            <p className="mt-3 rounded-md bg-warning/15 px-3 py-2 text-sm">Time ran out: only the answers saved before the deadline were graded.</p>
          )}
          <dl className="mt-8 grid w-full grid-cols-2 gap-3 sm:grid-cols-4">
            {stats.map(({ label, value, Icon }) => (
              <div key={label} className="rounded-lg border bg-muted/30 p-4">
                <dt className="flex items-center justify-center gap-1.5 text-xs text-muted-foreground">
                  <Icon className="h-3.5 w-3.5" /> {label}
                </dt>
                <dd className="mt-1 text-lg font-semibold tabular-nums">{value}</dd>
              </div>
            ))}
          </dl>
          {!r.passed && <NextAttempt e={r.eligibility} />}
          <div className="mt-8 flex w-full flex-col-reverse gap-3 sm:w-auto sm:flex-row">
            {canRetake && (
              <Button variant="outline" onClick={retake}>
                <RotateCcw /> Retake Quiz
              </Button>
            )}
            {r.passed ? (
              <Button onClick={continueApplication} data-testid="quiz-continue">
                Continue Application <ArrowRight />
              </Button>
            ) : (
              <LinkButton href="/badges">
                <ArrowLeft /> Back to Badges
              </LinkButton>
            )}
          </div>
        </div>
      </Card>

      {r.topics.length > 0 && (
        <>
          <h2 className="mt-10 text-xl font-semibold">Score by topic</h2>
          <ul className="mt-4 grid gap-3 sm:grid-cols-2" data-testid="quiz-topics">
            {r.topics.map((t) => {
              const p = Math.round((t.correct / t.total) * 100);
              return (
                <li key={t.topic} className="rounded-lg border bg-card p-4">
                  <div className="flex items-center justify-between gap-2 text-sm">
                    <span className="font-medium">{t.topic}</span>
                    <span className="tabular-nums text-muted-foreground">
                      {t.correct} / {t.total}
                    </span>
                  </div>
                  <div className="mt-2 h-2 w-full overflow-hidden rounded-full bg-muted" aria-hidden="true">
                    <div className={cn('h-full rounded-full', p >= r.passingScore ? 'bg-success' : 'bg-warning')} style={{ width: `${p}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </div>
  );
}
