import type { ReactNode } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import EyeOff from 'lucide-react/icons/eye-off';
import FileCheck from 'lucide-react/icons/file-check';
import ListChecks from 'lucide-react/icons/list-checks';
import SearchX from 'lucide-react/icons/search-x';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { Card, CardContent, CardDescription, CardHeader, CardTitle, Chip, Container, LinkButton } from '../components/ui';
import { Island } from '../components/Island';
import { BadgeArt, priceLabel } from '../components/badges';
import BadgeActions, { type BadgeActionsProps } from '../islands/BadgeActions';
import BadgeCriteria from '../islands/BadgeCriteria';
import { levelLabel, typeLabel, type Badge, type BadgeApplication, type BadgeGrant } from '../lib/badges';
import { LocalTime } from '../components/LocalTime';

type Props = {
  notFound?: boolean;
  badge: Badge | null;
  application: BadgeApplication | null;
  grant: BadgeGrant | null;
  actions: BadgeActionsProps['actions'] | null;
  share: BadgeActionsProps['share'];
  criteriaExpanded: boolean;
  assessment?: Assessment | null;
};

/** A skill badge's quiz in the open (app/quiz PublicAssessment). */
type Assessment = {
  title: string;
  passingScore: number;
  questionsPerAttempt: number;
  poolSize: number;
  blueprint?: { topic: string; count: number }[];
  timeLimit: number;
  retakeRule: { waitHours: number; maxAttempts: number; periodDays: number; text: string };
  attempts: number;
  passRate: number | null;
  holders: number;
  answersShown: boolean;
  viewerEligibility: { canStart: boolean; nextAttemptAt: string | null; reason: string; usesExtra: boolean } | null;
};

/** /badges/:id — the badge, the viewer's state and what they can do next. */
export default function BadgeDetailPage(p: Props) {
  if (p.notFound || !p.badge || !p.actions) return <BadgeNotFound />;
  const b = p.badge;
  const skill = b.type === 'skill';
  const TypeIcon = skill ? ListChecks : FileCheck;
  return (
    <Container className="py-6 sm:py-10">
      <a href="/badges" className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground">
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Badges
      </a>

      {!b.isActive && (
        <div role="status" className="mt-4 flex items-start gap-2 rounded-lg border border-warning/60 bg-warning/10 px-4 py-3 text-sm">
          <EyeOff className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          This badge is inactive: it is hidden from the catalogue and only administrators can open this page.
        </div>
      )}

      <div className="mt-6 grid gap-6 lg:grid-cols-3 lg:items-start">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Card>
            <div className="flex flex-col gap-5 p-6 sm:flex-row sm:items-start">
              <BadgeArt id={b._id} name={b.name} />
              <div className="min-w-0">
                <div className="flex flex-wrap gap-2">
                  <Chip tone="outline">{b.category}</Chip>
                  <Chip tone="secondary" className="gap-1" data-testid="badge-type">
                    <TypeIcon className="h-3 w-3" aria-hidden="true" />
                    {typeLabel(b.type)}
                  </Chip>
                  <Chip tone="outline">{levelLabel(b.level)}</Chip>
                </div>
                <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{b.name}</h1>
                {b.description && <p className="mt-3 leading-relaxed text-muted-foreground">{b.description}</p>}
              </div>
            </div>
          </Card>

          <Card id="criteria" className="scroll-mt-24">
            <CardHeader>
              <CardTitle as="h2">Criteria</CardTitle>
              <CardDescription>What you need to show to earn this badge.</CardDescription>
            </CardHeader>
            <CardContent>
              <Island name="BadgeCriteria" component={BadgeCriteria} props={{ badgeId: b._id, text: b.criteria || '', expanded: !!p.criteriaExpanded }} hydrate="interaction" />
            </CardContent>
          </Card>

          <Card>
            <CardHeader>
              <CardTitle as="h2">How to earn it</CardTitle>
            </CardHeader>
            <CardContent>
              <ol className="grid gap-4 sm:grid-cols-3">
                <Step n={1} title={skill ? 'Pass the quiz' : 'Upload your proof'}>
                  {skill
                    ? p.assessment
                      ? `${p.assessment.questionsPerAttempt} ${p.assessment.questionsPerAttempt === 1 ? 'question' : 'questions'} drawn from a pool of ${p.assessment.poolSize}, ${p.assessment.timeLimit} minutes, pass with ${p.assessment.passingScore}% or more.`
                      : b.quiz
                      ? `${b.quiz.questionCount} ${b.quiz.questionCount === 1 ? 'question' : 'questions'}, ${b.quiz.timeLimit} minutes, pass with ${b.quiz.passingScore}% or more.`
                      : 'A timed multiple-choice quiz on the skills this badge covers.'
                    : 'Documents or links that show your work: PDF, DOC, DOCX, JPG or PNG, up to 10MB each.'}
                  {' '}
                  {applicationAsks(b)}
                </Step>
                <Step n={2} title={b.price > 0 ? 'Pay the fee' : 'No fee'}>
                  {b.price > 0 ? `${priceLabel(b.price)} in USD, paid securely. Coupons are applied at checkout.` : 'This badge is free: your application goes straight to review.'}
                </Step>
                <Step n={3} title="Get verified">
                  Our team reviews within 2-3 business days. Then share a link anyone can verify.
                </Step>
              </ol>
            </CardContent>
          </Card>

          {skill && p.assessment && <AssessmentCard a={p.assessment} badgeId={b._id} />}
        </div>

        <aside className="space-y-6 lg:sticky lg:top-20">
          <Card>
            <div className="p-6">
              <div className="mb-5">
                <p className="text-sm text-muted-foreground">Badge fee</p>
                <p className="text-3xl font-bold tabular-nums" data-testid="detail-price">{priceLabel(b.price)}</p>
              </div>
              <Island
                name="BadgeActions"
                component={BadgeActions}
                props={{ badgeId: b._id, badgeName: b.name, type: b.type, actions: p.actions, application: p.application, grant: p.grant, share: p.share }}
                hydrate="interaction"
              />
            </div>
          </Card>
          <Card>
            <CardHeader className="pb-3">
              <CardTitle as="h2" className="text-base">Details</CardTitle>
            </CardHeader>
            <CardContent>
              <dl className="grid gap-2.5 text-sm">
                <Row label="Category">{b.category}</Row>
                <Row label="Type">{typeLabel(b.type)}</Row>
                <Row label="Level">{levelLabel(b.level)}</Row>
                {p.assessment ? (
                  <Row label="Quiz">{`${p.assessment.questionsPerAttempt} of ${p.assessment.poolSize} questions · ${p.assessment.timeLimit} min`}</Row>
                ) : (
                  b.quiz && <Row label="Quiz">{`${b.quiz.questionCount} questions · ${b.quiz.timeLimit} min`}</Row>
                )}
                {b.quiz && <Row label="Passing score">{`${b.quiz.passingScore}%`}</Row>}
                <Row label="Application asks for">
                  <span data-testid="application-asks">{asksFor(b)}</span>
                </Row>
                <Row label="Issued by">
                  <span className="inline-flex items-center gap-1">
                    <ShieldCheck className="h-3.5 w-3.5 text-primary" aria-hidden="true" /> Meritmark
                  </span>
                </Row>
              </dl>
            </CardContent>
          </Card>
        </aside>
      </div>
    </Container>
  );
}

/** What the badge's quiz asks of a holder, so anyone reading the credential can judge it. */
function AssessmentCard({ a, badgeId }: { a: Assessment; badgeId: string }) {
  const e = a.viewerEligibility;
  const facts: [string, string][] = [
    ['Pass mark', `${a.passingScore}%`],
    ['Questions per attempt', `${a.questionsPerAttempt}`],
    ['Question pool', `${a.poolSize}`],
    ['Time limit', `${a.timeLimit} min`],
    ['Pass rate', a.passRate === null ? 'No attempts yet' : `${a.passRate}% of ${a.attempts} ${a.attempts === 1 ? 'attempt' : 'attempts'}`],
    ['Holders', `${a.holders}`],
  ];
  return (
    <Card data-testid="badge-assessment">
      <CardHeader>
        <CardTitle as="h2">About the assessment</CardTitle>
        <CardDescription>
          How this badge is earned, in the open. Each attempt draws its questions at random from the pool; results never show the answers.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {facts.map(([k, v]) => (
            <div key={k} className="rounded-lg border bg-muted/30 p-3">
              <dt className="text-xs text-muted-foreground">{k}</dt>
              <dd className="mt-1 font-semibold tabular-nums">{v}</dd>
            </div>
          ))}
        </dl>
        {a.blueprint && a.blueprint.length > 0 && (
          <div className="mt-4" data-testid="badge-blueprint">
            <p className="text-sm font-medium">Every attempt asks, per topic</p>
            <ul className="mt-2 flex flex-wrap gap-1.5">
              {a.blueprint.map((r) => (
                <li key={r.topic} className="rounded-full border px-2.5 py-0.5 text-xs">
                  {r.topic}: <span className="font-semibold tabular-nums">{r.count}</span>
                </li>
              ))}
            </ul>
            <p className="mt-2 text-xs text-muted-foreground">
              Forms are balanced: the same number of questions per topic and the same expected difficulty (within 0.05) on every attempt.
            </p>
          </div>
        )}
        <p className="mt-4 text-sm text-muted-foreground" data-testid="badge-retake-rule">
          Retake rule: {a.retakeRule.text}.
        </p>
        <p className="mt-3 text-sm">
          <a href={`/badges/${badgeId}/assessment`} className="font-medium text-primary underline underline-offset-2" data-testid="badge-report-link">
            Read the technical report
          </a>
          <span className="text-muted-foreground">: reliability, consistency of pass and fail, pass rate and score distribution.</span>
        </p>
        {e && e.nextAttemptAt && !e.canStart && (
          <p className="mt-3 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="badge-next-attempt">
            Your next attempt opens <LocalTime iso={e.nextAttemptAt} withTime />.
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="rounded-lg border bg-muted/30 p-4">
      <span className="flex h-7 w-7 items-center justify-center rounded-full bg-primary text-xs font-semibold text-primary-foreground">{n}</span>
      <p className="mt-3 font-medium">{title}</p>
      <p className="mt-1 text-sm text-muted-foreground">{children}</p>
    </li>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="text-right font-medium">{children}</dd>
    </div>
  );
}

/** The 'Badge not found' state (status 404). */
export function BadgeNotFound() {
  return (
    <Container className="flex flex-col items-center py-24 text-center" data-testid="badge-not-found">
      <SearchX className="h-12 w-12 text-muted-foreground" aria-hidden="true" />
      <h1 className="mt-6 text-3xl font-bold tracking-tight">Badge not found</h1>
      <p className="mt-3 max-w-md text-muted-foreground">This badge does not exist or is no longer available. Browse the catalogue to find another one.</p>
      <LinkButton href="/badges" className="mt-8">
        <ArrowLeft /> Back to Badges
      </LinkButton>
    </Container>
  );
}

/** What the application form will ask for (views/islands/ApplicationForm.tsx: a skill
 * badge asks for a resume and a profile picture after the quiz; a proof badge for proof
 * files or a portfolio link, plus a resume when the badge requires one). */
function asksFor(b: { type: string; requiresResume: boolean }): string {
  if (b.type === 'skill') return 'Resume and profile picture';
  return b.requiresResume ? 'Proof files or portfolio link, and resume' : 'Proof files or portfolio link';
}

function applicationAsks(b: { type: string; requiresResume: boolean }): string {
  if (b.type === 'skill') return 'After passing, your application asks for your resume (PDF, DOC or DOCX) and a profile picture.';
  return b.requiresResume ? 'Your application also asks for your resume (PDF, DOC or DOCX).' : '';
}
