import ArrowRight from 'lucide-react/icons/arrow-right';
import Eye from 'lucide-react/icons/eye';
import Globe from 'lucide-react/icons/globe';
import Lock from 'lucide-react/icons/lock';
import Scale from 'lucide-react/icons/scale';
import ShieldCheck from 'lucide-react/icons/shield-check';
import Target from 'lucide-react/icons/target';
import type { ReactNode } from 'react';
import { Container, LinkButton } from '../components/ui';
import { CtaPanel, Eyebrow, IconTile, PageHero, SectionHeading, StatsGrid, ctaPrimary, ctaSecondary } from '../components/marketing';

import { initials } from '../lib/format';
const values: { icon: ReactNode; title: string; body: string }[] = [
  {
    icon: <ShieldCheck />,
    title: 'Integrity first',
    body: 'A badge is only worth the trust behind it. Every application is reviewed by a person and every credential is signed, so a Meritmark badge means what it says.',
  },
  {
    icon: <Target />,
    title: 'Rigour that respects your time',
    body: 'Focused, timed assessments and clear proof requirements. We test what matters for the job, not trivia, and we tell you the passing score up front.',
  },
  {
    icon: <Globe />,
    title: 'Open by design',
    body: 'Credentials follow the Open Badges 3.0 standard and verify with a public key, so they stay useful wherever your career takes you.',
  },
  {
    icon: <Lock />,
    title: 'Your data, your call',
    body: 'You decide what to share. We collect only what a review needs, never sell personal data, and keep your documents private to reviewers.',
  },
];

const team = [
  { name: 'Maya Chen', role: 'Co-founder & CEO', bio: 'Spent a decade hiring engineers and wished every CV came with proof attached.', hue: 'from-indigo-500 to-violet-500' },
  { name: 'Daniel Okafor', role: 'Co-founder & CTO', bio: 'Builds the verification and signing stack; believes trust should be checkable by anyone.', hue: 'from-sky-500 to-indigo-500' },
  { name: 'Priya Raman', role: 'Head of Assessment', bio: 'Former certification lead who designs quizzes with subject-matter experts in each category.', hue: 'from-fuchsia-500 to-pink-500' },
  { name: 'Lucas Moreau', role: 'Head of Trust & Review', bio: 'Runs the review team that checks every application before a badge is granted.', hue: 'from-emerald-500 to-teal-500' },
];

export default function AboutPage() {
  return (
    <>
      <PageHero
        eyebrow="About Meritmark"
        title="We make professional skills verifiable"
        lead="Meritmark helps professionals turn what they know into credentials that employers, clients and peers can check in seconds, and helps organisations issue badges that mean something."
      >
        <LinkButton href="/badges" size="lg">
          Discover Badges <ArrowRight />
        </LinkButton>
        <LinkButton href="/contact" size="lg" variant="outline">Talk to us</LinkButton>
      </PageHero>

      <section aria-labelledby="mission-title" className="py-20 sm:py-24">
        <Container className="grid gap-12 lg:grid-cols-2 lg:gap-16">
          <div>
            <Eyebrow>Our mission</Eyebrow>
            <h2 id="mission-title" className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
              Proof of skill should be as easy to share as a link
            </h2>
          </div>
          <div className="space-y-5 text-lg text-pretty text-muted-foreground">
            <p>
              Résumés are full of claims that are hard to check. Certificates get lost in inboxes, screenshots are easy to fake,
              and great people are overlooked because their skills were learned on the job rather than in a classroom.
            </p>
            <p>
              Our mission is to give every professional a credential that speaks for itself: earned through a fair assessment or
              real evidence, reviewed by a person, signed so it cannot be altered, and verifiable by anyone with a single link.
            </p>
            <p className="text-base">
              <a href="/verify-badge" className="inline-flex items-center gap-1 font-semibold text-primary hover:underline">
                Try verifying a badge <ArrowRight className="h-4 w-4" />
              </a>
            </p>
          </div>
        </Container>
      </section>

      <section aria-labelledby="impact-title" className="border-y bg-muted/30 py-20 sm:py-24">
        <Container>
          <SectionHeading
            id="impact-title"
            eyebrow="Our impact"
            title="A community built on verified skills"
            lead="Over 500 verified badges, more than 10,000 professionals and 25+ industries, with a 95% success rate among prepared candidates."
          />
          <StatsGrid className="mt-12" />
          <p className="mt-4 text-center text-xs text-muted-foreground">Program highlights; figures are rounded.</p>
        </Container>
      </section>

      <section aria-labelledby="values-title" className="py-20 sm:py-28">
        <Container>
          <SectionHeading
            id="values-title"
            eyebrow="Our values"
            title="What we hold ourselves to"
            lead="Four principles guide every badge we design, every application we review and every line of code we ship."
          />
          <div className="mt-14 grid gap-6 sm:grid-cols-2">
            {values.map((v) => (
              <div key={v.title} className="flex gap-5 rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
                <IconTile>{v.icon}</IconTile>
                <div>
                  <h3 className="text-lg font-semibold">{v.title}</h3>
                  <p className="mt-2 text-muted-foreground">{v.body}</p>
                </div>
              </div>
            ))}
          </div>
        </Container>
      </section>

      <section aria-labelledby="team-title" className="border-t bg-muted/30 py-20 sm:py-28">
        <Container>
          <SectionHeading
            id="team-title"
            eyebrow="Our team"
            title="The people behind your badges"
            lead="Engineers, assessment designers and reviewers who care about credentials that are fair and hard to fake."
          />
          <ul className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {team.map((p) => (
              <li key={p.name} className="flex items-start gap-4 rounded-2xl border bg-card p-5 shadow-sm sm:flex-col sm:items-center sm:p-6 sm:text-center">
                <span
                  aria-hidden="true"
                  className={`flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-linear-to-br ${p.hue} text-lg font-bold text-white shadow-md sm:h-20 sm:w-20 sm:text-2xl`}
                >
                  {initials(p.name)}
                </span>
                <div>
                  <h3 className="text-lg font-semibold sm:mt-1">{p.name}</h3>
                  <p className="text-sm font-medium text-primary">{p.role}</p>
                  <p className="mt-2 text-sm text-muted-foreground sm:mt-3">{p.bio}</p>
                </div>
              </li>
            ))}
          </ul>
          <div className="mx-auto mt-14 grid max-w-4xl gap-6 text-center sm:grid-cols-2">
            <div className="rounded-2xl border bg-card p-6">
              <Scale className="mx-auto h-6 w-6 text-primary" />
              <p className="mt-3 font-semibold">Independent reviewers</p>
              <p className="mt-1 text-sm text-muted-foreground">Reviewers never assess applications from people they know or work with.</p>
            </div>
            <div className="rounded-2xl border bg-card p-6">
              <Eye className="mx-auto h-6 w-6 text-primary" />
              <p className="mt-3 font-semibold">Transparent criteria</p>
              <p className="mt-1 text-sm text-muted-foreground">Every badge lists its criteria and passing score before you start.</p>
            </div>
          </div>
        </Container>
      </section>

      <CtaPanel id="about-cta" title="Join thousands of verified professionals" lead="Pick a badge, prove your skills and share a credential that speaks for itself.">
        <a href="/signup" className={ctaPrimary}>
          Get Started <ArrowRight />
        </a>
        <a href="/contact" className={ctaSecondary}>Contact us</a>
      </CtaPanel>
    </>
  );
}
