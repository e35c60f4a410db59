import type { ReactNode } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import BadgeCheck from 'lucide-react/icons/badge-check';
import Check from 'lucide-react/icons/check';
import ChevronRight from 'lucide-react/icons/chevron-right';
import CreditCard from 'lucide-react/icons/credit-card';
import FileCheck from 'lucide-react/icons/file-check';
import FileText from 'lucide-react/icons/file-text';
import Hourglass from 'lucide-react/icons/hourglass';
import ListChecks from 'lucide-react/icons/list-checks';
import SearchX from 'lucide-react/icons/search-x';
import { Card, Chip, Container, LinkButton } from '../components/ui';
import { Island } from '../components/Island';
import { BadgeIcon, priceLabel } from '../components/badges';
import { cn } from '../lib/cn';
import { fileSize } from '../lib/format';
import { levelLabel, typeLabel } from '../lib/badges';
import { externalHref } from '../lib/url';
import ApplicationForm, { type ApplicationFormProps, type Profile } from '../islands/ApplicationForm';
import { LocalTime } from '../components/LocalTime';

type FileView = { _id: string; kind: string; originalName: string; contentType: string; size: number; url: string };

type Application = {
  _id: string;
  status: string;
  paymentStatus: string;
  price: number;
  createdAt: string;
  reviewedAt: string | null;
  rejectionReason: string;
  quizScore: number | null;
  description: string;
  portfolioUrl: string;
  proofFiles: FileView[];
  resume: FileView | null;
  profilePic: FileView | null;
};

type Props = {
  badge: {
    _id: string;
    name: string;
    description: string;
    category: string;
    type: string;
    level: string;
    price: number;
    icon: string;
    color: string;
    requiresResume: boolean;
  } | null;
  profile: Profile;
  application: Application | null;
  owned: boolean;
  quiz: { hasPassingAttempt: boolean; attempt: ApplicationFormProps['attempt'] } | null;
  limits: ApplicationFormProps['limits'];
  /** Set when this application renews the member's badge (app/application Renewal). */
  renewal?: { label: string; needs: string; resume: { originalName: string } | null; profilePic: { originalName: string } | null } | null;
};

/** /proof-upload/:badgeId and /resume-upload/:badgeId — the application for a badge. */
export default function ApplicationPage(p: Props) {
  if (!p.badge) return <NotFound />;
  const b = p.badge;
  const skill = b.type === 'skill';
  const app = p.application;
  const open = app && (app.status === 'pending' || app.status === 'awaiting_payment');
  const needsQuiz = skill && !p.quiz?.hasPassingAttempt;

  // where the applicant is on the journey (1: quiz or proof, 2: details, 3: payment, 4: review)
  let step = 2;
  if (p.owned) step = 5;
  else if (app?.status === 'awaiting_payment') step = 3;
  else if (app?.status === 'pending') step = 4;
  else if (needsQuiz) step = 1;

  return (
    <Container className="py-6 sm:py-10">
      <nav aria-label="Breadcrumb" className="mb-6 flex items-center gap-1 text-sm text-muted-foreground">
        <a href="/badges" className="hover:text-foreground">
          Badges
        </a>
        <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
        <a href={`/badges/${b._id}`} className="truncate hover:text-foreground">
          {b.name}
        </a>
        <ChevronRight className="h-4 w-4 shrink-0" aria-hidden="true" />
        <span className="text-foreground">Apply</span>
      </nav>

      <div className="flex flex-col gap-5 sm:flex-row sm:items-center">
        <BadgeIcon icon={b.icon} color={b.color} size="lg" />
        <div className="min-w-0">
          <div className="flex flex-wrap gap-2">
            <Chip tone="outline">{b.category}</Chip>
            <Chip tone="secondary" className="gap-1">
              {skill ? <ListChecks className="h-3 w-3" aria-hidden="true" /> : <FileCheck className="h-3 w-3" aria-hidden="true" />}
              {typeLabel(b.type)}
            </Chip>
            <Chip tone="outline">{levelLabel(b.level)}</Chip>
            <Chip tone="outline" data-testid="apply-price">{priceLabel(b.price)}</Chip>
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">{p.renewal ? `Renew ${b.name}` : `Apply for ${b.name}`}</h1>
          {p.renewal ? (
            <div className="mt-2 rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="application-renewal">
              <p className="font-medium">This is a renewal of your badge ({p.renewal.label}).</p>
              <p className="mt-1 text-muted-foreground">{p.renewal.needs}.</p>
              {(p.renewal.resume || p.renewal.profilePic) && (
                <p className="mt-1" data-testid="files-on-file">
                  Used again from your last application: {[p.renewal.resume && `resume ${p.renewal.resume.originalName}`, p.renewal.profilePic && `profile picture ${p.renewal.profilePic.originalName}`].filter(Boolean).join(' and ')}.
                </p>
              )}
            </div>
          ) : (
            <p className="mt-1 text-muted-foreground">
              {skill ? 'Pass the quiz, then send your details, resume and photo for review.' : 'Send your details and documents that show your work for review.'}
            </p>
          )}
        </div>
      </div>

      <Journey step={step} skill={skill} free={b.price === 0} />

      <div className="mt-8">
        {p.owned ? (
          <StateCard icon={<BadgeCheck className="h-7 w-7" />} tone="success" title="You already own this badge!" testid="state-owned">
            <p>There is nothing more to do here. Share it from your profile.</p>
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              <LinkButton href="/profile">Go to your profile</LinkButton>
              <LinkButton href={`/badges/${b._id}`} variant="outline">
                View badge
              </LinkButton>
            </div>
          </StateCard>
        ) : open && app ? (
          <OpenApplication app={app} badgeId={b._id} />
        ) : needsQuiz ? (
          <StateCard icon={<ListChecks className="h-7 w-7" />} tone="primary" title="Pass the quiz first" testid="state-quiz">
            <p>This is a quiz-based badge. Pass its quiz, then come back here to send your resume and photo.</p>
            {app?.status === 'rejected' && <p className="mt-2">Your previous application was not approved, so a new application needs a new pass.</p>}
            <div className="mt-6 flex flex-wrap justify-center gap-3">
              <LinkButton href={`/quiz/${b._id}`} data-testid="start-quiz">
                <ListChecks /> Start Quiz
              </LinkButton>
              <LinkButton href={`/badges/${b._id}`} variant="outline">
                <ArrowLeft /> Back to badge
              </LinkButton>
            </div>
          </StateCard>
        ) : (
          <Island
            name="ApplicationForm"
            component={ApplicationForm}
            props={{
              badge: { _id: b._id, name: b.name, type: b.type, price: b.price, requiresResume: b.requiresResume },
              profile: p.profile,
              limits: p.limits,
              attempt: p.quiz?.attempt ?? null,
              rejected: app?.status === 'rejected' ? { reason: app.rejectionReason, reviewedAt: app.reviewedAt } : null,
              onFile: p.renewal ? { resume: p.renewal.resume?.originalName || '', profilePic: p.renewal.profilePic?.originalName || '' } : null,
            }}
          />
        )}
      </div>
    </Container>
  );
}

function Journey({ step, skill, free }: { step: number; skill: boolean; free: boolean }) {
  const steps = [
    skill ? ['Pass the quiz', 'Quiz'] : ['Gather proof', 'Proof'],
    ['Your application', 'Apply'],
    free ? ['No fee', 'Free'] : ['Payment', 'Pay'],
    ['Review', 'Review'],
  ];
  return (
    <ol className="mt-8 grid grid-cols-4 gap-2" aria-label="Your progress" data-testid="journey">
      {steps.map(([label, short], i) => {
        const n = i + 1;
        const done = n < step;
        const current = n === step;
        return (
          <li key={label} className="min-w-0" aria-current={current ? 'step' : undefined}>
            <div className={cn('h-1.5 rounded-full', done ? 'bg-primary' : current ? 'bg-primary/60' : 'bg-muted')} />
            <p className={cn('mt-2 flex items-center gap-1 truncate text-xs sm:text-sm', current ? 'font-semibold text-foreground' : done ? 'text-foreground' : 'text-muted-foreground')}>
              {done && <Check className="h-3.5 w-3.5 shrink-0 text-primary" aria-hidden="true" />}
              <span className="truncate sm:hidden">{short}</span>
              <span className="hidden truncate sm:inline">{label}</span>
            </p>
          </li>
        );
      })}
    </ol>
  );
}

function StateCard({ icon, title, tone, testid, children }: { icon: ReactNode; title: string; tone: 'success' | 'primary' | 'warning'; testid: string; children: ReactNode }) {
  return (
    <Card className="mx-auto max-w-2xl" data-testid={testid}>
      <div className="flex flex-col items-center p-8 text-center sm:p-10">
        <span
          className={cn(
            'flex h-14 w-14 items-center justify-center rounded-full',
            tone === 'success' ? 'bg-success/15 text-success' : tone === 'warning' ? 'bg-warning/20 text-foreground' : 'bg-primary/10 text-primary',
          )}
          aria-hidden="true"
        >
          {icon}
        </span>
        <h2 className="mt-5 text-xl font-bold tracking-tight sm:text-2xl">{title}</h2>
        <div className="mt-2 max-w-lg text-muted-foreground">{children}</div>
      </div>
    </Card>
  );
}

function OpenApplication({ app, badgeId }: { app: Application; badgeId: string }) {
  const awaiting = app.status === 'awaiting_payment';
  const files = [...(app.resume ? [app.resume] : []), ...(app.profilePic ? [app.profilePic] : []), ...app.proofFiles];
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <StateCard
        icon={awaiting ? <CreditCard className="h-7 w-7" /> : <Hourglass className="h-7 w-7" />}
        tone={awaiting ? 'primary' : 'warning'}
        title={awaiting ? 'Your application is waiting for payment' : 'Your application is still being reviewed.'}
        testid={awaiting ? 'state-awaiting-payment' : 'state-pending'}
      >
        <p>
          You applied on <LocalTime iso={app.createdAt} />.{' '}
          {awaiting
            ? `Complete the payment of ${priceLabel(app.price)} to send it to review.`
            : 'Our team reviews applications within 2-3 business days and e-mails you the result.'}
        </p>
        <div className="mt-6 flex flex-wrap justify-center gap-3">
          {awaiting ? (
            <LinkButton href={`/payment/${badgeId}`} data-testid="continue-payment">
              <CreditCard /> Continue Payment
            </LinkButton>
          ) : (
            <LinkButton href="/badges">Explore more badges</LinkButton>
          )}
          <LinkButton href={`/badges/${badgeId}`} variant="outline">
            View badge
          </LinkButton>
        </div>
      </StateCard>
      <Card>
        <div className="p-6">
          <h3 className="font-semibold">What you sent</h3>
          <dl className="mt-4 grid gap-2.5 text-sm">
            <Row label="Submitted"><LocalTime iso={app.createdAt} withTime /></Row>
            {app.quizScore !== null && <Row label="Quiz score">{`${Math.round(app.quizScore * 10) / 10}%`}</Row>}
            {externalHref(app.portfolioUrl) && (
              <Row label="Portfolio">
                <a href={externalHref(app.portfolioUrl)} className="break-all text-primary hover:underline" rel="noopener noreferrer nofollow" target="_blank">
                  {app.portfolioUrl}
                </a>
              </Row>
            )}
          </dl>
          {files.length > 0 && (
            <ul className="mt-4 divide-y rounded-lg border" data-testid="sent-files">
              {files.map((f) => (
                <li key={f._id} className="flex items-center gap-3 px-3 py-2 text-sm">
                  <FileText className="h-4 w-4 shrink-0 text-muted-foreground" aria-hidden="true" />
                  <a href={f.url} className="min-w-0 flex-1 truncate hover:underline" title={f.originalName}>
                    {f.originalName}
                  </a>
                  <span className="shrink-0 text-xs text-muted-foreground">{f.kind === 'resume' ? 'Resume' : f.kind === 'profilePic' ? 'Photo' : fileSize(f.size)}</span>
                </li>
              ))}
            </ul>
          )}
          {app.description && <p className="mt-4 whitespace-pre-line text-sm text-muted-foreground">{app.description}</p>}
        </div>
      </Card>
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-right font-medium">{children}</dd>
    </div>
  );
}

function NotFound() {
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
