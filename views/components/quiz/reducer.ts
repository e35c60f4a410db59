// The quiz screen's state as one reducer: which phase it is in (see Phase), the quiz, the
// member's answers, the question shown, whether the last answer was saved, and the server's
// clock offset. QuizRunner dispatches; the requests stay in the component.
import { isAnswered, type Answer, type Phase, type Quiz, type QuizResult } from './model';

export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export type RunnerState = {
  phase: Phase;
  quiz: Quiz | null;
  answers: Record<string, Answer>;
  current: number;
  saveState: SaveState;
  /** the server's clock minus the browser's, ms */
  offset: number;
};

export type RunnerAction =
  | { type: 'loading' }
  | { type: 'failed'; msg: string }
  /** GET answered: no questions, the start screen, or the attempt under way */
  | { type: 'loaded'; quiz: Quiz; t0: number; t1: number }
  | { type: 'starting'; quiz: Quiz }
  | { type: 'startFailed'; quiz: Quiz; msg: string }
  | { type: 'started'; quiz: Quiz; t0: number; t1: number }
  | { type: 'submitting' }
  | { type: 'submitFailed'; msg: string }
  | { type: 'result'; result: QuizResult }
  | { type: 'choose'; questionId: string; value: Answer }
  | { type: 'move'; to: number }
  | { type: 'save'; state: SaveState };

export const initialRunner: RunnerState = { phase: { kind: 'loading' }, quiz: null, answers: {}, current: 0, saveState: 'idle', offset: 0 };

// the running attempt: the server's clock at the middle of the round trip, the saved answers
// and the first question without one
function run(s: RunnerState, q: Quiz, t0: number, t1: number): RunnerState {
  if (!q.attempt) return { ...s, quiz: q };
  const saved = q.attempt.answers || {};
  const firstOpen = q.questions.findIndex((x) => !isAnswered(saved[x._id]));
  return {
    ...s,
    quiz: q,
    offset: Date.parse(q.attempt.serverNow) - (t0 + t1) / 2,
    answers: saved,
    current: firstOpen < 0 ? q.questions.length - 1 : firstOpen,
    phase: { kind: 'running' },
  };
}

export function runnerReducer(s: RunnerState, a: RunnerAction): RunnerState {
  switch (a.type) {
    case 'loading':
      return { ...s, phase: { kind: 'loading' } };
    case 'failed':
      return { ...s, phase: { kind: 'error', msg: a.msg } };
    case 'loaded':
      if (a.quiz.poolSize === 0 && !a.quiz.attempt) return { ...s, quiz: a.quiz, phase: { kind: 'empty', quiz: a.quiz } };
      if (!a.quiz.attempt) return { ...s, quiz: a.quiz, phase: { kind: 'intro', quiz: a.quiz, starting: false, msg: '' } };
      return run(s, a.quiz, a.t0, a.t1);
    case 'starting':
      return { ...s, phase: { kind: 'intro', quiz: a.quiz, starting: true, msg: '' } };
    case 'startFailed':
      return { ...s, phase: { kind: 'intro', quiz: a.quiz, starting: false, msg: a.msg } };
    case 'started':
      return run(s, a.quiz, a.t0, a.t1);
    case 'submitting':
      return { ...s, phase: { kind: 'submitting' } };
    case 'submitFailed':
      return { ...s, phase: { kind: 'submitFailed', msg: a.msg } };
    case 'result':
      return { ...s, phase: { kind: 'result', result: a.result } };
    case 'choose':
      return { ...s, answers: { ...s.answers, [a.questionId]: a.value }, saveState: 'saving' };
    case 'move': {
      const n = s.quiz?.questions.length || 1;
      return { ...s, current: Math.max(0, Math.min(n - 1, a.to)) };
    }
    case 'save':
      return { ...s, saveState: a.state };
  }
}
