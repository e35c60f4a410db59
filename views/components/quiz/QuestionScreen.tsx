// The quiz's running screen: the timer, one question with its options, Previous and Next
// (or Submit). Shown only once an attempt has started, so its code is fetched apart from the
// island's (views/islands/QuizRunner.tsx, deferred): it is there by the time Start is pressed.
import type { KeyboardEvent, RefObject } from 'react';
import AlertTriangle from 'lucide-react/icons/triangle-alert';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import Clock from 'lucide-react/icons/clock';
import Send from 'lucide-react/icons/send';
import Target from 'lucide-react/icons/target';
import { clock } from '../../lib/format';
import { cn } from '../../lib/cn';
import { Button, Card } from '../ui';
import { WARN_SECONDS, type Quiz } from './model';

export type QuestionScreenProps = {
  quiz: Quiz;
  badgeName: string;
  current: number;
  picked: number[];
  answeredCount: number;
  saveState: string;
  busy: boolean;
  answered: boolean;
  /** seconds left on the clock */
  left: number;
  /** the submission's failure, shown with Try Again ('' when none) */
  failed: string;
  optionsRef: RefObject<HTMLFieldSetElement | null>;
  headingRef: RefObject<HTMLHeadingElement | null>;
  onChoose: (option: number) => void;
  onMove: (to: number) => void;
  onNext: () => void;
  onRetry: () => void;
};

export function QuestionScreen({ quiz, badgeName, current, picked, answeredCount, saveState, busy, answered, left, failed, optionsRef, headingRef, onChoose, onMove, onNext, onRetry }: QuestionScreenProps) {
  const n = quiz.questions.length;
  const q = quiz.questions[current];
  const multiple = q.type === 'multiple';
  const isLast = current === n - 1;
  const warn = left < WARN_SECONDS;
  const onKeyDown = (e: KeyboardEvent<HTMLFieldSetElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onNext();
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
            <legend data-testid="quiz-question">
              <h2 ref={headingRef} tabIndex={-1} className="text-lg font-semibold leading-snug focus:outline-none focus-visible:outline-none sm:text-xl" data-testid="quiz-heading">
                {q.text}
              </h2>
            </legend>
            {multiple && (
              <p className="mt-1 text-sm text-muted-foreground" data-testid="quiz-pick">
                {q.pick ? `Select ${q.pick}.` : 'Select all that apply.'}
              </p>
            )}
            <div className="mt-4 grid gap-3" role={multiple ? 'group' : 'radiogroup'} aria-label="Answer options">
              {q.options.map((opt, i) => {
                const on = picked.includes(i);
                return (
                  <label
                    key={q._id + ':' + i}
                    className={cn(
                      'flex cursor-pointer items-center gap-3 rounded-lg border p-4 transition-colors has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-ring has-[input:focus-visible]:ring-offset-2 has-[input:focus-visible]:ring-offset-background',
                      on ? 'border-primary bg-primary/5' : 'hover:border-primary/40 hover:bg-accent/50',
                    )}
                  >
                    <input
                      type={multiple ? 'checkbox' : 'radio'}
                      name={`q-${q._id}`}
                      value={i}
                      checked={on}
                      onChange={() => onChoose(i)}
                      className="sr-only"
                    />
                    <span
                      aria-hidden="true"
                      className={cn(
                        'flex h-5 w-5 shrink-0 items-center justify-center border-2',
                        multiple ? 'rounded' : 'rounded-full',
                        on ? 'border-primary' : 'border-muted-foreground/40',
                      )}
                    >
                      {on && <span className={cn('h-2.5 w-2.5 bg-primary', multiple ? 'rounded-sm' : 'rounded-full')} />}
                    </span>
                    <span className="text-sm sm:text-base">{opt}</span>
                  </label>
                );
              })}
            </div>
          </fieldset>
          <p className="mt-4 hidden text-xs text-muted-foreground sm:block">
            {multiple ? 'Tip: use Tab and Space to tick the options and Enter to continue.' : 'Tip: use the arrow keys to choose an answer and Enter to continue.'}
          </p>
        </div>
        <div className="flex items-center justify-between gap-3 border-t px-5 py-4 sm:px-6">
          <Button variant="outline" onClick={() => onMove(current - 1)} disabled={current === 0 || busy}>
            <ChevronLeft /> Previous
          </Button>
          {isLast ? (
            <Button onClick={onNext} disabled={!answered || busy} data-testid="quiz-submit">
              {busy ? 'Submitting…' : 'Submit Quiz'} <Send />
            </Button>
          ) : (
            <Button onClick={onNext} disabled={!answered || busy}>
              Next <ChevronRight />
            </Button>
          )}
        </div>
      </Card>
      {failed && (
        <div role="alert" className="mt-4 flex flex-col gap-3 rounded-lg border border-destructive/50 bg-destructive/10 p-4 text-sm sm:flex-row sm:items-center sm:justify-between">
          <span className="flex items-center gap-2 text-destructive">
            <AlertTriangle className="h-4 w-4 shrink-0" /> Submission Failed: {failed}
          </span>
          <Button size="sm" variant="destructive" onClick={onRetry}>
            Try Again
          </Button>
        </div>
      )}
    </div>);
}
