// The quiz screen's data: the quiz and attempt as the server sends them, the phases of the
// screen, and the result handed to the application page.
// type "multiple" is "select all that apply" (pick: how many, when the question says so)
export type Question = { _id: string; text: string; options: string[]; type?: 'single' | 'multiple'; pick?: number };

// an answer is the shown option's index, or the list of shown indexes for a multiple-response question
export type Answer = number | number[];

export type Attempt = { _id: string; startedAt: string; deadline: string; serverNow: string; answers: Record<string, Answer> };

/** Whether a saved or chosen answer counts as answered (a multiple-response one needs at least one option). */
export const isAnswered = (a: Answer | undefined): boolean => (Array.isArray(a) ? a.length > 0 : a !== undefined);

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

export type Quiz = {
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
  /** The integrity review of a flagged pass (never its reasons); null when not held. */
  integrity?: IntegrityReview | null;
};

export type IntegrityReview = {
  status: 'review' | 'cleared' | 'voided';
  statement: string;
  statementAt: string | null;
  canAddStatement: boolean;
};

export type Phase =
  | { kind: 'loading' }
  | { kind: 'error'; msg: string }
  | { kind: 'empty'; quiz: Quiz }
  | { kind: 'intro'; quiz: Quiz; starting: boolean; msg: string }
  | { kind: 'running' }
  | { kind: 'submitting' }
  | { kind: 'submitFailed'; msg: string }
  | { kind: 'result'; result: QuizResult };

/** Warning threshold of the timer (spec section 9). */
export const WARN_SECONDS = 300;

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

/** The result's big number in the score's colour (lib/format scoreTone); large text, 3:1
 * on the card in both themes (the warning colour itself is for fills). */
export const SCORE_TEXT = { success: 'text-success', warning: 'text-amber-700 dark:text-warning', destructive: 'text-destructive' } as const;
