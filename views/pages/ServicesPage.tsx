import ArrowRight from 'lucide-react/icons/arrow-right';
import BarChart3 from 'lucide-react/icons/chart-column';
import Building2 from 'lucide-react/icons/building-2';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import ClipboardCheck from 'lucide-react/icons/clipboard-check';
import Code2 from 'lucide-react/icons/code-xml';
import Factory from 'lucide-react/icons/factory';
import FileCheck2 from 'lucide-react/icons/file-check-2';
import GraduationCap from 'lucide-react/icons/graduation-cap';
import Headphones from 'lucide-react/icons/headphones';
import HeartPulse from 'lucide-react/icons/heart-pulse';
import Landmark from 'lucide-react/icons/landmark';
import Mail from 'lucide-react/icons/mail';
import Megaphone from 'lucide-react/icons/megaphone';
import Palette from 'lucide-react/icons/palette';
import PenTool from 'lucide-react/icons/pen-tool';
import type { ReactNode } from 'react';
import { useShell } from '../lib/shell';
import { Container, LinkButton } from '../components/ui';
import { CtaPanel, IconTile, PageHero, SectionHeading, ctaPrimary, ctaSecondary } from '../components/marketing';

/** The mailto link behind every "Get Started" on this page. */
export function servicesMailto(supportEmail: string) {
  return `mailto:${supportEmail}?subject=${encodeURIComponent('Meritmark services: getting started')}`;
}

const services: { icon: ReactNode; title: string; body: string; points: string[]; featured?: boolean }[] = [
  {
    icon: <ClipboardCheck />,
    title: 'Skill Assessment Badges',
    body: 'Timed, expert-written quizzes that certify what a person knows, graded on our servers so results cannot be gamed.',
    points: ['Question banks built with subject-matter experts', 'Passing score and time limit you choose', 'Instant results, reviewed before issue'],
  },
  {
    icon: <FileCheck2 />,
    title: 'Proof-Based Certification',
    body: 'Badges earned with real evidence: certificates, portfolios and work samples checked by trained reviewers.',
    points: ['Secure document upload (PDF, DOC, images)', 'Human review with clear criteria', 'Feedback and the option to reapply'],
    featured: true,
  },
  {
    icon: <Building2 />,
    title: 'Enterprise Credential Programs',
    body: 'A complete badge program for your team, academy or community, from catalogue design to verified issue at scale.',
    points: ['A catalogue tailored to your roles', 'Sponsored badges with coupon codes', 'Signed Open Badges 3.0 credentials'],
  },
];

const extras: { icon: ReactNode; title: string; body: string }[] = [
  { icon: <Palette />, title: 'Custom badge design', body: 'Badge artwork, levels and criteria that reflect your brand and your standards.' },
  { icon: <PenTool />, title: 'Assessment authoring', body: 'Our specialists write and calibrate quiz questions with your experts.' },
  { icon: <BarChart3 />, title: 'Program analytics', body: 'See applications, pass rates and revenue at a glance in the admin dashboard.' },
  { icon: <Headphones />, title: 'Priority support', body: 'A named contact and faster answers for your administrators and earners.' },
];

const industries: { icon: ReactNode; name: string; body: string }[] = [
  { icon: <Code2 />, name: 'Technology', body: 'Engineering, cloud and DevOps skills.' },
  { icon: <HeartPulse />, name: 'Healthcare', body: 'Clinical and compliance training.' },
  { icon: <Landmark />, name: 'Finance', body: 'Risk, audit and analytics roles.' },
  { icon: <GraduationCap />, name: 'Education', body: 'Courses, bootcamps and academies.' },
  { icon: <Factory />, name: 'Manufacturing', body: 'Safety, quality and operations.' },
  { icon: <Megaphone />, name: 'Marketing & Media', body: 'Growth, content and design.' },
];

const process = [
  { title: 'Consultation', body: 'We learn your goals, audience and standards, and agree on the badges that matter.' },
  { title: 'Setup', body: 'We design the badges, write the assessments and configure pricing and coupons.' },
  { title: 'Launch', body: 'Your earners start applying; our reviewers and signed credentials do the rest.' },
  { title: 'Scale', body: 'Add badges, levels and sponsored programs as your community grows.' },
];

export default function ServicesPage() {
  const { supportEmail } = useShell();
  const mailto = servicesMailto(supportEmail);
  return (
    <>
      <PageHero
        eyebrow="Services"
        title="Credential programs that people trust"
        lead="From a single skill badge to a full certification program, we help organisations assess, review and issue verifiable credentials."
      >
        <LinkButton href={mailto} size="lg" data-testid="services-get-started">
          <Mail /> Get Started
        </LinkButton>
        <LinkButton href="/contact" size="lg" variant="outline">Ask a question</LinkButton>
      </PageHero>

      <section aria-labelledby="services-title" className="py-20 sm:py-28">
        <Container>
          <SectionHeading
            id="services-title"
            eyebrow="What we offer"
            title="Three ways to certify skills"
            lead="Choose the assessment that fits the skill, or combine them in one program."
          />
          <div className="mt-14 grid gap-6 lg:grid-cols-3">
            {services.map((s) => (
              <div
                key={s.title}
                className={
                  'relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm sm:p-8' +
                  (s.featured ? ' ring-2 ring-primary lg:-my-2 lg:shadow-xl lg:shadow-primary/10' : '')
                }
              >
                {s.featured && (
                  <span className="absolute -top-3 left-6 rounded-full bg-primary px-3 py-0.5 text-xs font-semibold text-primary-foreground">Most requested</span>
                )}
                <IconTile>{s.icon}</IconTile>
                <h3 className="mt-5 text-xl font-semibold">{s.title}</h3>
                <p className="mt-2 text-muted-foreground">{s.body}</p>
                <ul className="mt-6 flex-1 space-y-3 text-sm">
                  {s.points.map((p) => (
                    <li key={p} className="flex gap-2">
                      <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0 text-success" /> {p}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
          </div>
        </Container>
      </section>

      <section aria-labelledby="extras-title" className="border-y bg-muted/30 py-20 sm:py-24">
        <Container>
          <SectionHeading id="extras-title" eyebrow="Additional services" title="Everything around your badges" />
          <div className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {extras.map((x) => (
              <div key={x.title} className="flex gap-4 rounded-2xl border bg-card p-5 shadow-sm sm:block sm:p-6">
                <IconTile>{x.icon}</IconTile>
                <div>
                  <h3 className="font-semibold sm:mt-4">{x.title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground sm:mt-2">{x.body}</p>
                </div>
              </div>
            ))}
          </div>
        </Container>
      </section>

      <section aria-labelledby="industries-title" className="py-20 sm:py-28">
        <Container>
          <SectionHeading
            id="industries-title"
            eyebrow="Industries"
            title="Built for every field where skills matter"
            lead="Our programs serve teams in more than 25 industries. These are the six we work with most."
          />
          <ul className="mt-12 grid grid-cols-2 gap-4 sm:gap-6 lg:grid-cols-3">
            {industries.map((i) => (
              <li key={i.name} className="flex flex-col gap-3 rounded-2xl border bg-card p-5 shadow-sm sm:flex-row sm:items-center sm:gap-4 sm:p-6">
                <IconTile>{i.icon}</IconTile>
                <div>
                  <h3 className="font-semibold">{i.name}</h3>
                  <p className="mt-0.5 text-sm text-muted-foreground">{i.body}</p>
                </div>
              </li>
            ))}
          </ul>
        </Container>
      </section>

      <section aria-labelledby="process-title" className="border-t bg-muted/30 py-20 sm:py-28">
        <Container>
          <SectionHeading
            id="process-title"
            eyebrow="Our process"
            title="From first call to thousands of badges"
            lead="A simple four-step engagement, with a dedicated contact at every stage."
          />
          <ol className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {process.map((p, i) => (
              <li key={p.title} className="relative rounded-2xl border bg-card p-6 shadow-sm">
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-primary text-sm font-bold text-primary-foreground shadow-md shadow-primary/25">
                  {i + 1}
                </span>
                <h3 className="mt-5 text-lg font-semibold">{p.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{p.body}</p>
              </li>
            ))}
          </ol>
        </Container>
      </section>

      <CtaPanel id="services-cta" title="Ready to launch your badge program?" lead="Tell us about your team and your goals. We reply within 24 hours.">
        <a href={mailto} className={ctaPrimary}>
          <Mail /> Get Started
        </a>
        <a href="/badges" className={ctaSecondary}>
          See example badges <ArrowRight />
        </a>
      </CtaPanel>
    </>
  );
}
