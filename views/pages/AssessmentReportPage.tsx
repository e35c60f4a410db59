import type { ReactNode } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import FileCheck from 'lucide-react/icons/file-check';
import FlaskConical from 'lucide-react/icons/flask-conical';
import { Card, CardContent, CardHeader, CardTitle, Container, LinkButton } from '../components/ui';
import { BadgeIcon } from '../components/badges';
import { BadgeNotFound } from './BadgeDetailPage';
import { ScoreChart } from '../components/report/ScoreChart';
import { NOT_ENOUGH, type ReportFigures, type TechnicalReport } from '../components/report/model';
import type { Badge } from '../lib/badges';
import { plural } from '../lib/format';
import { useShell } from '../lib/shell';
import { LocalTime } from '../components/LocalTime';

type Props = { notFound?: boolean; noQuiz?: boolean; badge: Badge | null; report: TechnicalReport | null };

/** /badges/:id/assessment — the public technical report of a skill badge's quiz, in plain
 * words, rendered on the server with no script (app/badge report.go). */
export default function AssessmentReportPage(p: Props) {
  if (p.notFound || !p.badge) return <BadgeNotFound />;
  const b = p.badge;
  if (p.noQuiz || !p.report) return <NoReport badge={b} />;
  const { assessment: a, figures: f } = p.report;
  return (
    <Container className="max-w-4xl py-6 sm:py-10">
      <a href={`/badges/${b._id}`} className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to {b.name}
      </a>

      <header className="mt-6 flex flex-col gap-5 sm:flex-row sm:items-start">
        <BadgeIcon icon={b.icon} color={b.color} size="lg" />
        <div className="min-w-0">
          <p className="text-sm font-medium text-primary">Technical report</p>
          <h1 className="mt-1 text-2xl font-bold tracking-tight sm:text-3xl">{b.name}</h1>
          <p className="mt-3 leading-relaxed text-muted-foreground">
            How the quiz behind this badge is built and how far its result can be trusted, for anyone reading a {b.name} credential. No question is shown here.
          </p>
        </div>
      </header>

      {f.demoAttempts > 0 && (
        <div role="note" data-testid="report-demo-note" className="mt-6 flex items-start gap-2 rounded-lg border border-warning/60 bg-warning/10 px-4 py-3 text-sm">
          <FlaskConical className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <p>
            Demo data: {f.demoAttempts === f.n ? `all ${f.n}` : `${f.demoAttempts} of the ${f.n}`} attempts counted here were simulated from an item response model by the demo
            installation, not taken by real candidates. The figures show how this report reads; they say nothing about real people.
          </p>
        </div>
      )}

      <div className="mt-8 space-y-6">
        <Section title="At a glance" testid="report-glance">
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            <Fact label="Questions per attempt">{`${a.questionsPerAttempt}`}</Fact>
            <Fact label="Question pool">{`${a.poolSize}`}</Fact>
            <Fact label="Time limit">{`${a.timeLimit} min`}</Fact>
            <Fact label="Pass mark">{`${a.passingScore}%`}</Fact>
            <Fact label="Pass rate">{f.passRate === null ? NOT_ENOUGH : `${f.passRate}%`}</Fact>
            <Fact label="Attempts counted">{`${f.n}`}</Fact>
          </dl>
        </Section>

        <Section title="What each attempt covers" testid="report-blueprint">
          {a.blueprint.length > 0 ? (
            <>
              <p>Every candidate gets their own set of {a.questionsPerAttempt} questions, drawn from a pool of {a.poolSize}, with the same number of questions on each topic:</p>
              <table className="mt-3 w-full max-w-sm text-sm">
                <thead>
                  <tr className="border-b text-left text-muted-foreground">
                    <th scope="col" className="py-1.5 font-medium">Topic</th>
                    <th scope="col" className="py-1.5 text-right font-medium">Questions</th>
                  </tr>
                </thead>
                <tbody>
                  {a.blueprint.map((r) => (
                    <tr key={r.topic} className="border-b last:border-0">
                      <td className="py-1.5">{r.topic}</td>
                      <td className="py-1.5 text-right tabular-nums">{r.count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p className="mt-3">The sets are also balanced for difficulty: the expected difficulty of every set is within 0.05 of the same target.</p>
            </>
          ) : (
            <p>Every candidate gets their own set of {a.questionsPerAttempt} questions, drawn at random from a pool of {a.poolSize}. There is no fixed mix of topics.</p>
          )}
          <p className="mt-3">
            Candidates have {a.timeLimit} minutes. Questions are multiple choice with one right answer; the score is the share of questions answered right.
          </p>
        </Section>

        <Section title="How the pass mark is set" testid="report-pass-mark">
          {a.passMarkMethod ? (
            <>
              <p>{a.passMarkText} A candidate passes with {a.passingScore}% of the questions right or more.</p>
              <p className="mt-3">
                In a modified-Angoff study, subject-matter experts each estimate, for every question in the pool, the chance that a minimally competent candidate (one who just
                deserves the badge) answers it right. Each expert's estimates are averaged, and the pass mark is the mean of those averages across the panel.
              </p>
            </>
          ) : (
            <p>
              Fixed by the administrator at {a.passingScore}%: a candidate passes with {a.passingScore}% of the questions right or more. It was not set by a formal standard-setting study.
            </p>
          )}
        </Section>

        <Measurement f={f} passMark={a.passingScore} />

        <Section title="Retakes and question exposure" testid="report-retakes">
          <p>Retake rule: {a.retakeRule.text}.</p>
          <p className="mt-3">
            No question appears in more than {p.report.exposureRate}% of the last {p.report.exposureWindow} sets drawn, as long as the pool has enough questions to allow it. This limits how many candidates see any one question.
          </p>
        </Section>

        <Section title="How integrity is checked" testid="report-integrity">
          <ul className="list-disc space-y-1.5 pl-5">
            <li>Answers are graded on our server. The answer key is never sent to the candidate&apos;s browser, and results show the score, never the right answers.</li>
            <li>The clock is kept by the server: only answers saved before the time limit (plus a few seconds for the network) are graded.</li>
            <li>Each candidate gets their own set of questions, with the exposure limit above.</li>
            <li>The retake rule is enforced by the server.</li>
          </ul>
        </Section>

        <Appeal />

        <div className="flex flex-wrap gap-3">
          <LinkButton href={`/badges/${b._id}`} variant="outline">
            <ArrowLeft /> Back to {b.name}
          </LinkButton>
          <LinkButton href="/verify-badge" variant="outline">
            Verify a badge
          </LinkButton>
        </div>
      </div>
    </Container>
  );
}

/** Reliability, SEM, decision consistency and pass rate, with n and dates; each figure is
 * withheld below the minimum number of attempts. */
function Measurement({ f, passMark }: { f: ReportFigures; passMark: number }) {
  const show = (x: number | null, s: (x: number) => string) => (!f.enough || x === null ? NOT_ENOUGH : s(x));
  return (
    <Section title="How consistent the results are" testid="report-figures">
      {f.enough ? (
        <p data-testid="report-n">
          Computed from {plural(f.n, 'submitted attempt')}
          {f.from && f.until ? <>, <LocalTime iso={f.from} /> to <LocalTime iso={f.until} /></> : ''}, on sets of {plural(f.formLength, 'question')}.
        </p>
      ) : (
        <p data-testid="report-not-enough">
          These figures appear once {f.minAttempts} attempts have been submitted ({f.n} so far): with fewer, they would say more about chance than about the quiz.
        </p>
      )}
      <dl className="mt-4 space-y-4">
        <Figure label="Reliability (KR-20)" value={show(f.reliability, (x) => x.toFixed(2))} testid="report-reliability">
          From 0 to 1: how consistently the quiz tells stronger from weaker candidates. High-stakes exams aim for 0.8 or more; short quizzes score lower.
        </Figure>
        <Figure label="Standard error of measurement" value={show(f.sem, (x) => `± ${x} points`)} testid="report-sem">
          How far a candidate&apos;s score would typically move on another set of questions, in percentage points of the score.
        </Figure>
        <Figure label="Decision consistency" value={show(f.decisionConsistency, (x) => `${x}%`)} testid="report-consistency">
          The share of candidates who would get the same result, pass or fail, on a second set of questions.
          {f.enough && f.kappa !== null && ` Beyond what chance alone would give, the agreement (kappa) is ${f.kappa.toFixed(2)} on a scale from 0 to 1.`}
        </Figure>
        <Figure label="Pass rate" value={show(f.passRate, (x) => `${x}%`)} testid="report-pass-rate">
          The share of submitted attempts that passed.
        </Figure>
      </dl>
      <div className="mt-6">
        <h3 className="text-sm font-medium">Score distribution</h3>
        {f.enough && f.distribution ? (
          <div className="mt-3">
            <ScoreChart bins={f.distribution} passMark={passMark} />
          </div>
        ) : (
          <p className="mt-1 text-sm text-muted-foreground">{NOT_ENOUGH}</p>
        )}
      </div>
    </Section>
  );
}

function Appeal() {
  const { supportEmail } = useShell();
  return (
    <Section title="How to appeal" testid="report-appeal">
      <p>
        To question a quiz result or a credential, write to{' '}
        <a className="font-medium text-primary underline underline-offset-2" href={`mailto:${supportEmail}`}>
          {supportEmail}
        </a>
        , giving the badge name and, for a credential, its verification ID.
      </p>
    </Section>
  );
}

function Section({ title, testid, children }: { title: string; testid: string; children: ReactNode }) {
  return (
    <Card data-testid={testid}>
      <CardHeader className="pb-3">
        <CardTitle as="h2">{title}</CardTitle>
      </CardHeader>
      <CardContent className="text-sm leading-relaxed">{children}</CardContent>
    </Card>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="rounded-lg border bg-muted/30 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="mt-1 font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

function Figure({ label, value, testid, children }: { label: string; value: string; testid: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 sm:grid-cols-3 sm:gap-4">
      <dt className="font-medium">{label}</dt>
      <dd className="sm:col-span-2">
        <span className="font-semibold tabular-nums" data-testid={testid}>
          {value}
        </span>
        <span className="mt-0.5 block text-muted-foreground">{children}</span>
      </dd>
    </div>
  );
}

/** A badge no quiz assesses (status 404): say how it is assessed instead. */
function NoReport({ badge: b }: { badge: Badge }) {
  const proof = b.type !== 'skill';
  return (
    <Container className="flex flex-col items-center py-24 text-center" data-testid="report-none">
      <FileCheck className="h-12 w-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">No technical report for this badge</h1>
      <p className="mt-3 max-w-md text-muted-foreground">
        {proof
          ? `${b.name} is not assessed by a quiz: an administrator reviews the documents or links each candidate submits.`
          : `${b.name} has no quiz open at the moment, so there is nothing to report.`}
      </p>
      <LinkButton href={`/badges/${b._id}`} className="mt-8">
        <ArrowLeft /> Back to {b.name}
      </LinkButton>
    </Container>
  );
}
