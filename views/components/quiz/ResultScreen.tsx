// The quiz result: score, pass or fail, topics, and the next step.
import { useEffect, useRef } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import ArrowRight from 'lucide-react/icons/arrow-right';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Target from 'lucide-react/icons/target';
import Timer from 'lucide-react/icons/timer';
import Trophy from 'lucide-react/icons/trophy';
import XCircle from 'lucide-react/icons/circle-x';
import { cn } from '../../lib/cn';
import { Button, Card, LinkButton } from '../ui';
import { QuizResult, storeQuizResult, SCORE_TEXT } from './model';
import { NextAttempt } from './screens';
import { IntegrityNotice } from './IntegrityNotice';

import { duration, pct, scoreTone } from '../../lib/format';
export function ResultScreen({ result: r, badgeId }: { result: QuizResult; badgeId: string }) {
  const score = pct(r.score);
  // the Submit Quiz button is gone: the focus goes to the result's heading
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
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
          <h1 ref={heading} tabIndex={-1} className="mt-1 text-2xl font-bold tracking-tight focus:outline-none sm:text-3xl" data-testid="quiz-result-heading">{r.passed ? 'Congratulations, you passed!' : 'Not quite there yet'}</h1>
          <p className={cn('mt-4 text-6xl font-extrabold tabular-nums', SCORE_TEXT[scoreTone(score)])} data-testid="quiz-percent">
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
          {r.integrity && <IntegrityNotice attemptId={r.attemptId} review={r.integrity} />}
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
