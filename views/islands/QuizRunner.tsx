// The quiz screen (/quiz/:badgeId). It opens on a start screen (GET: the quiz, its pool and
// retake rule, and when the member may start); "Start Quiz" POSTs the start. The server
// draws the questions, keeps the deadline and the saved answers, and grades the
// submission; the result has the figures only (never which option was right).
import { useCallback, useEffect, useReducer, useRef, useState, type ReactNode } from 'react';
import { api, ApiError, errorMessage } from '../lib/api';
import { toast } from '../lib/toast';
import { Answer, Eligibility, Quiz, QuizResult, isAnswered, storeQuizResult } from '../components/quiz/model';
import { initialRunner, runnerReducer } from '../components/quiz/reducer';
import { useCountdown } from '../lib/hooks/useCountdown';
import { LoadingQuiz, NoQuestions, StartScreen, Unavailable } from '../components/quiz/screens';
import { Blocked, OWNED_MSG, type PageState } from '../components/quiz/blocked';
import { deferred } from '../lib/deferred';

// the result screen (with the integrity notice) is shown only once an attempt is marked:
// its code is fetched apart, with React, and is there by then (views/lib/deferred.tsx)
// the running screen (timer, question, options) likewise: there by the time Start is pressed
const QuestionScreen = deferred(() => import('../components/quiz/QuestionScreen').then((m) => m.QuestionScreen));
const ResultScreen = deferred(() => import('../components/quiz/ResultScreen').then((m) => m.ResultScreen));

/** The milliseconds since mark, which then moves to now (the time on a question the runner reports). */
function lap(mark: { current: number }): number {
  const now = Date.now();
  const ms = Math.max(0, Math.round(now - mark.current));
  mark.current = now;
  return ms;
}

export type QuizRunnerProps = { badgeId: string; badgeName: string; attemptId: string; state?: PageState | null };

export default function QuizRunner({ badgeId, badgeName, attemptId, state: pageState }: QuizRunnerProps) {
  const blocked = !!pageState?.blocked;
  const [state, dispatch] = useReducer(runnerReducer, initialRunner);
  const { phase, quiz, answers, current, saveState } = state;

  const answersRef = useRef(answers);
  useEffect(() => {
    answersRef.current = answers;
  }, [answers]);
  const submitted = useRef(false);
  const saveChain = useRef<Promise<unknown>>(Promise.resolve());
  const optionsRef = useRef<HTMLFieldSetElement>(null);
  const focusAfterMove = useRef(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownAt = useRef(0); // when the current question was shown (or its time last reported)

  // a question shown when the attempt starts or resumes is timed from then
  useEffect(() => {
    if (phase.kind === 'running') shownAt.current = Date.now();
  }, [phase.kind]);

  const load = useCallback(async () => {
    dispatch({ type: 'loading' });
    if (!badgeId) {
      dispatch({ type: 'failed', msg: 'Badge ID is missing' });
      return;
    }
    try {
      const t0 = Date.now();
      const q = await api<Quiz>(`/quiz/badge/${encodeURIComponent(badgeId)}`);
      const t1 = Date.now();
      if (q.attempt) submitted.current = false;
      dispatch({ type: 'loaded', quiz: q, t0, t1 });
    } catch (e) {
      dispatch({ type: 'failed', msg: errorMessage(e, 'Failed to load quiz') });
    }
  }, [badgeId]);

  // Start Quiz: an explicit POST; a refused retake shows the server's message and the time
  const start = async (intro: Quiz) => {
    dispatch({ type: 'starting', quiz: intro });
    try {
      const t0 = Date.now();
      const q = await api<Quiz>(`/quiz/badge/${encodeURIComponent(badgeId)}/start`, { method: 'POST', timeoutMs: 30000 });
      const t1 = Date.now();
      if (q.attempt) submitted.current = false;
      focusAfterMove.current = true;
      dispatch({ type: 'started', quiz: q, t0, t1 });
    } catch (e) {
      let next = intro;
      const d = e instanceof ApiError ? (e.data as { eligibility?: Eligibility } | null) : null;
      if (d && d.eligibility) next = { ...intro, eligibility: d.eligibility };
      dispatch({ type: 'startFailed', quiz: next, msg: errorMessage(e, 'Failed to start the quiz') });
    }
  };

  // first load: a submitted attempt's result (after a reload of the result screen), or the quiz
  useEffect(() => {
    let stop = false;
    (async () => {
      if (attemptId) {
        try {
          const r = await api<QuizResult>(`/quiz/attempts/${attemptId}`);
          if (!stop) dispatch({ type: 'result', result: r });
          return;
        } catch (e) {
          if (!(e instanceof ApiError) || (e.status !== 404 && e.status !== 409)) {
            if (!stop) dispatch({ type: 'failed', msg: errorMessage(e, 'Failed to load quiz') });
            return;
          }
          history.replaceState(null, '', `/quiz/${badgeId}`);
        }
      }
      if (!stop && !blocked) load();
    })();
    return () => {
      stop = true;
    };
  }, [attemptId, badgeId, load, blocked]);

  const submit = useCallback(
    async (auto: boolean) => {
      if (!quiz?.attempt || submitted.current) return;
      submitted.current = true;
      if (auto) toast({ title: "Time's Up!", description: 'Your quiz was submitted automatically.' });
      dispatch({ type: 'submitting' });
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
        dispatch({ type: 'result', result: r });
        window.scrollTo({ top: 0 });
      } catch (e) {
        submitted.current = false;
        dispatch({ type: 'submitFailed', msg: errorMessage(e, 'Failed to submit quiz') });
      }
    },
    [quiz, badgeId],
  );

  // the countdown, from the server's deadline corrected for the browser's clock; at 0 the
  // answers are submitted
  const deadline = phase.kind === 'running' && quiz?.attempt ? Date.parse(quiz.attempt.deadline) : null;
  const remaining = useCountdown(deadline, state.offset, () => submit(true));

  // after Start Quiz, Next and Previous the focus moves to the question's heading (the
  // button pressed may be gone or disabled) and a polite live region says where we are
  const running = phase.kind === 'running' && !!quiz?.attempt;
  const total = quiz?.questions.length ?? 0;
  const [announce, setAnnounce] = useState('');
  useEffect(() => {
    shownAt.current = Date.now();
    if (!running || !focusAfterMove.current) return;
    focusAfterMove.current = false;
    headingRef.current?.focus();
    setAnnounce(`Question ${current + 1} of ${total}`);
  }, [current, running, total]);

  // the live region stays mounted from the first render, so its changes are announced
  const live = (
    <p className="sr-only" aria-live="polite" aria-atomic="true" data-testid="quiz-announce">
      {announce}
    </p>
  );
  const screen = (body: ReactNode) => (
    <>
      {live}
      {body}
    </>
  );
  if (pageState && pageState.blocked && phase.kind !== 'result') return screen(<Blocked state={pageState} badgeId={badgeId} />);
  if (phase.kind === 'loading') return screen(<LoadingQuiz />);
  if (phase.kind === 'error' && phase.msg === OWNED_MSG)
    return screen(<Blocked state={{ blocked: 'owned', title: 'Badge Already Owned', message: OWNED_MSG, nextHref: `/badges/${badgeId}`, nextLabel: 'View your badge' }} badgeId={badgeId} />);
  if (phase.kind === 'error') return screen(<Unavailable msg={phase.msg} badgeId={badgeId} onRetry={load} />);
  if (phase.kind === 'empty') return screen(<NoQuestions quiz={phase.quiz} />);
  if (phase.kind === 'intro') return screen(<StartScreen quiz={phase.quiz} starting={phase.starting} msg={phase.msg} onStart={() => start(phase.quiz)} page={pageState} />);
  if (phase.kind === 'result') return screen(<ResultScreen result={phase.result} badgeId={badgeId} />);
  if (!quiz || !quiz.attempt) return screen(<LoadingQuiz />);

  const questions = quiz.questions;
  const n = questions.length;
  const q = questions[current];
  const multiple = q.type === 'multiple';
  const chosen = answers[q._id];
  const picked: number[] = Array.isArray(chosen) ? chosen : chosen === undefined ? [] : [chosen];
  const answered = isAnswered(chosen);
  const answeredCount = questions.filter((x) => isAnswered(answers[x._id])).length;
  const isLast = current === n - 1;
  const busy = phase.kind === 'submitting';
  const left = remaining ?? quiz.timeLimit * 60;

  // one option for a single-choice question; a multiple-response one toggles the option
  const choose = (idx: number) => {
    if (busy || submitted.current) return;
    const value: Answer = multiple ? (picked.includes(idx) ? picked.filter((x) => x !== idx) : [...picked, idx].sort((a, b) => a - b)) : idx;
    dispatch({ type: 'choose', questionId: q._id, value });
    const attempt = quiz.attempt!._id;
    const body = { questionId: q._id, optionIndex: value, timeMs: lap(shownAt) };
    // saves run one after another, so the last choice is the one kept
    saveChain.current = saveChain.current
      .catch(() => undefined)
      .then(() => api(`/quiz/attempts/${attempt}/answers`, { method: 'PUT', body, timeoutMs: 15000 }))
      .then(
        () => dispatch({ type: 'save', state: 'saved' }),
        (e) => {
          dispatch({ type: 'save', state: 'failed' });
          // past the deadline the answer still travels with the submission (within the grace)
          if (!(e instanceof ApiError && e.status === 409)) console.warn('answer not saved', e);
        },
      );
  };

  const go = (to: number) => {
    focusAfterMove.current = true;
    dispatch({ type: 'move', to });
  };
  const next = () => {
    if (!answered || busy) return;
    if (isLast) submit(false);
    else go(current + 1);
  };
  return screen(
    <QuestionScreen
      quiz={quiz}
      badgeName={badgeName}
      current={current}
      picked={picked}
      answeredCount={answeredCount}
      saveState={saveState}
      busy={busy}
      answered={answered}
      left={left}
      failed={phase.kind === 'submitFailed' ? phase.msg : ''}
      optionsRef={optionsRef}
      headingRef={headingRef}
      onChoose={choose}
      onMove={go}
      onNext={next}
      onRetry={() => submit(false)}
    />,
  );
}
