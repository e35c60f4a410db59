import ArrowRight from 'lucide-react/icons/arrow-right';
import Award from 'lucide-react/icons/award';
import BadgeCheck from 'lucide-react/icons/badge-check';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import ClipboardCheck from 'lucide-react/icons/clipboard-check';
import FileCheck2 from 'lucide-react/icons/file-check-2';
import Fingerprint from 'lucide-react/icons/fingerprint';
import KeyRound from 'lucide-react/icons/key-round';
import Link2 from 'lucide-react/icons/link-2';
import Pause from 'lucide-react/icons/pause';
import Search from 'lucide-react/icons/search';
import ShieldCheck from 'lucide-react/icons/shield-check';
import UserCheck from 'lucide-react/icons/user-check';
import type { ReactNode } from 'react';
import { Container, LinkButton, buttonClass } from '../components/ui';
import lumoraLogo from '../../static/images/logos/lumora.svg';
import vertexaLogo from '../../static/images/logos/vertexa.svg';
import northpeakLogo from '../../static/images/logos/northpeak.svg';
import helixaLogo from '../../static/images/logos/helixa.svg';
import orbitraLogo from '../../static/images/logos/orbitra.svg';
import kestrelLogo from '../../static/images/logos/kestrel.svg';
import quantiveLogo from '../../static/images/logos/quantive.svg';
import arborlyLogo from '../../static/images/logos/arborly.svg';
import cobaltLogo from '../../static/images/logos/cobalt.svg';
import brightlineLogo from '../../static/images/logos/brightline.svg';
import nimbusLogo from '../../static/images/logos/nimbus.svg';
import { CtaPanel, Eyebrow, GradientText, HeroBackdrop, IconTile, SectionHeading, StatsGrid, ctaPrimary, ctaSecondary } from '../components/marketing';

/** The 11 logos of the scrolling strip (fictional companies; files in static/images/logos). */
export const LOGOS = [
  { file: 'lumora', src: lumoraLogo, name: 'Lumora', w: 115 },
  { file: 'vertexa', src: vertexaLogo, name: 'Vertexa', w: 112 },
  { file: 'northpeak', src: northpeakLogo, name: 'Northpeak', w: 139 },
  { file: 'helixa', src: helixaLogo, name: 'Helixa', w: 101 },
  { file: 'orbitra', src: orbitraLogo, name: 'Orbitra', w: 108 },
  { file: 'kestrel', src: kestrelLogo, name: 'Kestrel', w: 109 },
  { file: 'quantive', src: quantiveLogo, name: 'Quantive', w: 126 },
  { file: 'arborly', src: arborlyLogo, name: 'Arborly', w: 112 },
  { file: 'cobalt', src: cobaltLogo, name: 'Cobalt', w: 104 },
  { file: 'brightline', src: brightlineLogo, name: 'Brightline', w: 133 },
  { file: 'nimbus', src: nimbusLogo, name: 'Nimbus', w: 115 },
];

export default function HomePage() {
  return (
    <>
      <Hero />
      <LogoStrip />
      <HowItWorks />
      <Stats />
      <Trust />
      <CtaPanel
        id="get-started"
        flush
        title="Ready to prove what you know?"
        lead="Create a free account, pick your first badge and turn what you know into a credential anyone can check."
      >
        <a href="/signup" className={ctaPrimary}>
          Get Started Today <ArrowRight />
        </a>
        <a href="/badges" className={ctaSecondary}>Browse badges</a>
      </CtaPanel>
    </>
  );
}

function Hero() {
  return (
    <section className="relative isolate overflow-hidden">
      <HeroBackdrop />
      <Container className="grid items-center gap-14 pb-16 pt-14 sm:pb-24 sm:pt-20 lg:grid-cols-[1.2fr_1fr] lg:gap-12">
        <div className="text-center lg:text-left">
          <a
            href="/verify-badge"
            className="inline-flex max-w-full items-center gap-2 rounded-full border bg-background/70 py-1 pl-1 pr-3 text-xs font-medium text-muted-foreground shadow-sm backdrop-blur transition-colors hover:text-foreground sm:text-sm"
          >
            <span className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground">New</span>
            <span className="truncate">Signed Open Badges 3.0 credentials</span>
            <ArrowRight className="h-3.5 w-3.5 shrink-0" />
          </a>
          <h1 className="mt-6 text-4xl font-extrabold tracking-tight text-balance sm:text-5xl lg:leading-[1.08] xl:text-[3.4rem]">
            Professional badges that <GradientText>prove themselves</GradientText>
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-lg text-pretty text-muted-foreground lg:mx-0">
            Earn a credential by passing a timed quiz or submitting proof of your work. Every badge is reviewed by a person,
            cryptographically signed, and verifiable by anyone in one click.
          </p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row lg:justify-start">
            <LinkButton href="/badges" size="lg" className="shadow-md shadow-primary/25">
              Discover Badges <ArrowRight />
            </LinkButton>
            <LinkButton href="/hall-of-fame" size="lg" variant="outline">
              <Award /> View Hall of Fame
            </LinkButton>
          </div>
          <ul className="mt-8 flex flex-wrap justify-center gap-x-6 gap-y-2 text-sm text-muted-foreground lg:justify-start">
            {['Expert-reviewed', 'Verifiable in one click', 'Share on LinkedIn'].map((t) => (
              <li key={t} className="flex items-center gap-1.5">
                <CheckCircle2 className="h-4 w-4 text-success" /> {t}
              </li>
            ))}
          </ul>
        </div>
        <CredentialPreview />
      </Container>
    </section>
  );
}

/** An illustration of a granted credential, in markup (crisp in both themes, no image). */
function CredentialPreview() {
  return (
    <figure className="relative mx-auto w-full max-w-md lg:mr-0">
      <div aria-hidden="true" className="absolute -inset-6 -z-10 rounded-[2rem] bg-linear-to-tr from-primary/30 via-fuchsia-500/20 to-transparent blur-2xl" />
      <div className="overflow-hidden rounded-2xl border bg-card shadow-2xl shadow-primary/10">
        <div className="relative overflow-hidden bg-linear-to-br from-indigo-600 via-violet-600 to-fuchsia-600 p-6 text-white">
          <div aria-hidden="true" className="bg-grid-white absolute inset-0 opacity-15" />
          <div className="relative flex items-start justify-between gap-4">
            <span className="flex h-14 w-14 items-center justify-center rounded-2xl bg-white/15 ring-1 ring-white/30">
              <Award className="h-8 w-8" />
            </span>
            <span className="rounded-full bg-white/15 px-2.5 py-1 text-xs font-semibold ring-1 ring-white/25">Advanced · Skill</span>
          </div>
          <p className="relative mt-5 text-xs font-medium uppercase tracking-wider text-white/75">DevOps</p>
          <p className="relative mt-1 text-xl font-bold">Kubernetes Platform Engineer</p>
        </div>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-4 p-6 text-sm">
          <div>
            <dt className="text-xs text-muted-foreground">Issued to</dt>
            <dd className="mt-0.5 font-medium">Jordan Rivera</dd>
          </div>
          <div>
            <dt className="text-xs text-muted-foreground">Issued</dt>
            <dd className="mt-0.5 font-medium">Mar 14, 2025</dd>
          </div>
          <div className="col-span-2">
            <dt className="text-xs text-muted-foreground">Verification ID</dt>
            <dd className="mt-0.5 font-mono text-xs font-medium tracking-tight sm:text-sm">MM-8F2K-41QZ-7C9D</dd>
          </div>
        </dl>
        <div className="flex flex-wrap items-center gap-2 px-6 pb-6">
          <span className="inline-flex items-center gap-1.5 rounded-full bg-success/15 px-2.5 py-1 text-xs font-semibold text-success">
            <ShieldCheck className="h-3.5 w-3.5" /> Signature valid
          </span>
          <span className="inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium text-muted-foreground">
            <KeyRound className="h-3.5 w-3.5" /> ES256 · EdDSA
          </span>
          <span className="inline-flex items-center gap-1.5 rounded-full border px-2.5 py-1 text-xs font-medium text-muted-foreground">
            <BadgeCheck className="h-3.5 w-3.5" /> Open Badges 3.0
          </span>
        </div>
        <div className="flex items-center justify-end gap-1.5 border-t bg-muted/40 px-6 py-3.5 text-xs text-muted-foreground">
          <Link2 className="h-3.5 w-3.5" />
          <span className="font-mono">/verify/MM-8F2K-41QZ-7C9D</span>
        </div>
      </div>
      <div className="absolute -bottom-8 -left-3 hidden w-44 rounded-xl border bg-card p-3 shadow-lg sm:block lg:-left-10">
        <div className="flex items-center justify-between text-xs">
          <span className="font-medium">Quiz score</span>
          <span className="font-semibold text-success">92%</span>
        </div>
        <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-muted">
          <div className="h-full w-[92%] rounded-full bg-success" />
        </div>
        <p className="mt-2 text-[11px] text-muted-foreground">Passing score 70%</p>
      </div>
      <div className="absolute -right-3 -top-5 hidden items-center gap-2 rounded-xl border bg-card px-3 py-2 text-xs font-medium shadow-lg sm:flex xl:-right-6">
        <UserCheck className="h-4 w-4 text-primary" /> Approved by reviewer
      </div>
      <figcaption className="sr-only">An example of a verified Meritmark credential</figcaption>
    </figure>
  );
}

function LogoRow({ duplicate }: { duplicate?: boolean }) {
  return (
    <ul
      aria-hidden={duplicate ? 'true' : undefined}
      className={
        'flex shrink-0 items-center gap-x-14 pr-14 motion-reduce:shrink motion-reduce:flex-wrap motion-reduce:justify-center motion-reduce:gap-y-6 motion-reduce:px-4' +
        (duplicate ? ' motion-reduce:hidden' : '')
      }
    >
      {LOGOS.map((l) => (
        <li key={l.file} className="shrink-0">
          <img
            src={l.src}
            alt={duplicate ? '' : l.name}
            width={l.w}
            height={40}
            decoding="async"
            className="h-8 w-auto opacity-60 transition-opacity hover:opacity-100 dark:opacity-70 dark:invert"
          />
        </li>
      ))}
    </ul>
  );
}

function LogoStrip() {
  return (
    <section aria-labelledby="logos-title" className="border-y bg-muted/30 py-10">
      <Container>
        <h2 id="logos-title" className="text-center text-sm font-medium text-muted-foreground">
          Professionals from forward-thinking teams earn their credentials with Meritmark
        </h2>
      </Container>
      {/* it moves only once the page's script runs (views/lib/marquee.ts), which shows the
          Pause button (WCAG 2.2.2) and starts it paused for reduced motion */}
      <div data-marquee="static" data-testid="logo-marquee-box">
        <div
          className="mt-7 overflow-hidden [mask-image:linear-gradient(to_right,transparent,black_8%,black_92%,transparent)] motion-reduce:[mask-image:none]"
          data-testid="logo-marquee"
        >
          <div className="animate-marquee flex w-max hover:[animation-play-state:paused] motion-reduce:w-full">
            <LogoRow />
            <LogoRow duplicate />
          </div>
        </div>
        <Container className="mt-4 flex justify-center motion-reduce:hidden">
          <button type="button" hidden aria-pressed="false" data-marquee-toggle="" data-testid="marquee-toggle" className={buttonClass('outline', 'sm', 'aria-pressed:bg-accent')}>
            <Pause className="h-4 w-4" aria-hidden="true" />
            Pause animation
          </button>
        </Container>
      </div>
    </section>
  );
}

const steps: { icon: ReactNode; title: string; body: string; link?: { href: string; label: string } }[] = [
  {
    icon: <Search />,
    title: 'Choose a badge',
    body: 'Browse badges in Development, Design, Management, Data Science, Marketing and DevOps, and pick the one that matches your expertise.',
    link: { href: '/badges', label: 'Browse the catalogue' },
  },
  {
    icon: <ClipboardCheck />,
    title: 'Prove your skills',
    body: 'Pass a timed quiz for a skill badge, or upload your certificates and work samples for a proof badge. Either way, the evidence is yours.',
    link: { href: '/services', label: 'Compare badge types' },
  },
  {
    icon: <BadgeCheck />,
    title: 'Get verified',
    body: 'After a reviewer approves your application you receive a signed credential and a public verification link to share with employers.',
    link: { href: '/verify-badge', label: 'See how verification works' },
  },
];

function HowItWorks() {
  return (
    <section aria-labelledby="how-title" className="py-20 sm:py-28">
      <Container>
        <SectionHeading
          id="how-title"
          eyebrow="How It Works"
          title="From skill to verified credential in three steps"
          lead="No paperwork chases and no screenshots of certificates. Just a clear path from what you know to proof anyone can check."
        />
        <ol className="mt-14 grid gap-6 md:grid-cols-3">
          {steps.map((s, i) => (
            <li key={s.title} className="relative flex flex-col rounded-2xl border bg-card p-6 shadow-sm transition-shadow hover:shadow-md sm:p-8">
              <div className="flex items-center gap-4">
                <IconTile>{s.icon}</IconTile>
                <span className="text-sm font-semibold text-muted-foreground">Step {i + 1}</span>
              </div>
              <h3 className="mt-5 text-xl font-semibold">{s.title}</h3>
              <p className="mt-2 flex-1 text-muted-foreground">{s.body}</p>
              {s.link && (
                <a href={s.link.href} className="mt-5 inline-flex items-center gap-1 text-sm font-semibold text-primary hover:underline">
                  {s.link.label} <ArrowRight className="h-4 w-4" />
                </a>
              )}
            </li>
          ))}
        </ol>
      </Container>
    </section>
  );
}

function Stats() {
  return (
    <section aria-labelledby="stats-title" className="border-y bg-muted/30 py-20 sm:py-24">
      <Container>
        <SectionHeading
          id="stats-title"
          eyebrow="Meritmark in numbers"
          title="Trusted by professionals who want proof, not promises"
          lead="A growing community of specialists and the teams who hire them."
        />
        <StatsGrid className="mt-12" />
        <p className="mt-4 text-center text-xs text-muted-foreground">Program highlights; figures are rounded.</p>
      </Container>
    </section>
  );
}

const trust: { icon: ReactNode; title: string; body: string }[] = [
  {
    icon: <FileCheck2 />,
    title: 'Signed Open Badges 3.0 credentials',
    body: 'Every badge is issued as an OpenBadgeCredential, the open standard that wallets, employers and learning platforms understand.',
  },
  {
    icon: <Fingerprint />,
    title: 'Standard signatures',
    body: 'Every credential is signed twice: a JWT with our ES256 key and a JSON-LD copy with an eddsa-rdfc-2022 proof by our did:web. The public keys are published, so any change to a credential is detectable by any Open Badges verifier.',
  },
  {
    icon: <Link2 />,
    title: 'Public verification links',
    body: 'Share a link on LinkedIn or Twitter; anyone can confirm the holder, the issue date and the status in one click, without an account.',
  },
  {
    icon: <UserCheck />,
    title: 'Admin review',
    body: 'A person checks every quiz result and every uploaded document before a badge is granted, and can revoke a badge obtained unfairly.',
  },
];

function Trust() {
  return (
    <section aria-labelledby="trust-title" className="py-20 sm:py-28">
      <Container>
       <div className="grid items-center gap-12 lg:grid-cols-2 lg:gap-16">
        <div>
          <Eyebrow>Security and trust</Eyebrow>
          <h2 id="trust-title" className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">
            Credentials you can check, not just claim
          </h2>
          <p className="mt-4 text-lg text-pretty text-muted-foreground">
            A Meritmark badge is more than an image. It is a cryptographically secured record that proves who earned it, when,
            and that nobody has altered it since.
          </p>
          <LinkButton href="/verify-badge" variant="outline" className="mt-8">
            <ShieldCheck /> Verify a badge
          </LinkButton>
        </div>
        <CredentialCode />
       </div>
        <ul className="mt-16 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {trust.map((t) => (
            <li key={t.title} className="flex gap-4 rounded-2xl border bg-card p-5 shadow-sm sm:block sm:p-6">
              <IconTile>{t.icon}</IconTile>
              <div>
                <h3 className="font-semibold sm:mt-4">{t.title}</h3>
                <p className="mt-1 text-sm text-muted-foreground sm:mt-2">{t.body}</p>
              </div>
            </li>
          ))}
        </ul>
      </Container>
    </section>
  );
}

/** An excerpt of a credential as code, on a dark panel in both themes. */
function CredentialCode() {
  const k = (s: string) => <span className="text-sky-300">{s}</span>;
  const v = (s: string) => <span className="text-emerald-300">{s}</span>;
  return (
    <figure className="relative min-w-0">
      <div aria-hidden="true" className="absolute -inset-4 -z-10 rounded-[2rem] bg-linear-to-tr from-primary/25 to-fuchsia-500/10 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-zinc-800 bg-zinc-950 shadow-2xl">
        <div className="flex items-center gap-2 border-b border-zinc-800 px-4 py-3">
          <span className="h-3 w-3 rounded-full bg-red-400/80" />
          <span className="h-3 w-3 rounded-full bg-amber-400/80" />
          <span className="h-3 w-3 rounded-full bg-emerald-400/80" />
          <span className="ml-3 truncate font-mono text-xs text-zinc-400">credential.json</span>
          <span className="ml-auto inline-flex shrink-0 items-center gap-1 rounded-full bg-emerald-400/15 px-2 py-0.5 text-[11px] font-semibold text-emerald-300">
            <ShieldCheck className="h-3 w-3" /> verified
          </span>
        </div>
        <pre tabIndex={0} aria-label="Example signed credential (JSON)" className="relative overflow-x-auto p-5 font-mono focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring text-[12px] leading-relaxed text-zinc-300 sm:text-[13px]">
          <code>
            {'{\n  '}
            {k('"type"')}: [{v('"VerifiableCredential"')}, {v('"OpenBadgeCredential"')}],{'\n  '}
            {k('"issuer"')}: {'{ '}
            {k('"name"')}: {v('"Meritmark"')} {'},\n  '}
            {k('"validFrom"')}: {v('"2025-03-14T10:24:00Z"')},{'\n  '}
            {k('"credentialSubject"')}: {'{\n    '}
            {k('"achievement"')}: {'{ '}
            {k('"name"')}: {v('"Kubernetes Platform Engineer"')} {'}\n  },\n  '}
            {k('"proof"')}: {'[{\n    '}
            {k('"type"')}: {v('"DataIntegrityProof"')},{'\n    '}
            {k('"cryptosuite"')}: {v('"eddsa-rdfc-2022"')}
            {'\n  }]\n}'}
          </code>
        </pre>
      </div>
      <figcaption className="sr-only">An excerpt of a signed Open Badges 3.0 credential</figcaption>
    </figure>
  );
}
