// Building blocks of the marketing pages (home, about, services, contact, policies): the
// page hero, section headings, the marketing figures and the closing call to action.
// Server-rendered only: nothing here ships JavaScript.
import type { ReactNode } from 'react';
import { cn } from '../lib/cn';
import { Container } from './ui';

/** The marketing figures from the product spec. They are marketing copy, not live data. */
export const MARKETING_STATS = [
  { value: '500+', label: 'Verified badges', note: 'issued across six skill categories' },
  { value: '10K+', label: 'Professionals', note: 'building portable, checkable credentials' },
  { value: '25+', label: 'Industries', note: 'from software to healthcare and finance' },
  { value: '95%', label: 'Success rate', note: 'of prepared candidates earn their badge' },
];

/** A small uppercase line above a heading. */
export function Eyebrow({ children, className }: { children: ReactNode; className?: string }) {
  return <p className={cn('text-sm font-semibold uppercase tracking-wider text-primary', className)}>{children}</p>;
}

/** Brand gradient text (readable in both themes). */
export function GradientText({ children }: { children: ReactNode }) {
  return <span className="bg-linear-to-r from-primary via-violet-500 to-fuchsia-500 bg-clip-text text-transparent">{children}</span>;
}

/** A centred section heading: eyebrow, title and lead paragraph. */
export function SectionHeading({ eyebrow, title, lead, id, className }: { eyebrow?: string; title: ReactNode; lead?: ReactNode; id?: string; className?: string }) {
  return (
    <div className={cn('mx-auto max-w-2xl text-center', className)}>
      {eyebrow && <Eyebrow>{eyebrow}</Eyebrow>}
      <h2 id={id} className="mt-2 text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h2>
      {lead && <p className="mt-4 text-base text-pretty text-muted-foreground sm:text-lg">{lead}</p>}
    </div>
  );
}

/** The soft grid and glow behind a hero. */
export function HeroBackdrop() {
  return (
    <>
      <div aria-hidden="true" className="bg-grid absolute inset-0 -z-10 [mask-image:radial-gradient(ellipse_70%_60%_at_50%_0%,black,transparent)]" />
      <div aria-hidden="true" className="absolute -top-48 left-1/2 -z-10 h-[32rem] w-[56rem] max-w-[140vw] -translate-x-1/2 rounded-full bg-primary/15 blur-3xl dark:bg-primary/20" />
    </>
  );
}

/** The hero of an inner marketing page. */
export function PageHero({ eyebrow, title, lead, children }: { eyebrow: string; title: ReactNode; lead: ReactNode; children?: ReactNode }) {
  return (
    <section className="relative isolate overflow-hidden border-b">
      <HeroBackdrop />
      <Container className="py-16 text-center sm:py-24">
        <Eyebrow>{eyebrow}</Eyebrow>
        <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight text-balance sm:text-5xl">{title}</h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-pretty text-muted-foreground">{lead}</p>
        {children && <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>}
      </Container>
    </section>
  );
}

/** The marketing figures as a row of large numbers. */
export function StatsGrid({ className }: { className?: string }) {
  return (
    <div className={className}>
      <dl className="grid grid-cols-2 gap-px overflow-hidden rounded-2xl border bg-border lg:grid-cols-4">
        {MARKETING_STATS.map((s) => (
          <div key={s.label} className="flex flex-col bg-card p-6 text-center sm:p-8">
            <dt className="order-2 mt-2 text-sm font-semibold text-foreground">{s.label}</dt>
            <dd className="order-1 text-4xl font-bold tracking-tight sm:text-5xl">
              <GradientText>{s.value}</GradientText>
            </dd>
            <dd className="order-3 mt-1 text-xs text-muted-foreground sm:text-sm">{s.note}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The closing call to action: a gradient panel with a title, a line and buttons. */
export function CtaPanel({ title, lead, children, id, flush }: { title: ReactNode; lead: ReactNode; children: ReactNode; id?: string; flush?: boolean }) {
  // the footer below brings its own top margin; flush: the section above already has its padding
  return (
    <section aria-labelledby={id} className={flush ? 'pb-4 sm:pb-8' : 'pb-4 pt-16 sm:pb-8 sm:pt-24'}>
      <Container>
        <div className="relative isolate overflow-hidden rounded-3xl bg-linear-to-br from-indigo-600 via-violet-600 to-fuchsia-600 px-6 py-14 text-center text-white shadow-xl sm:px-12 sm:py-20">
          <div aria-hidden="true" className="bg-grid-white absolute inset-0 -z-10 opacity-20 [mask-image:radial-gradient(ellipse_at_center,black,transparent_75%)]" />
          <div aria-hidden="true" className="absolute -right-24 -top-24 -z-10 h-72 w-72 rounded-full bg-white/20 blur-3xl" />
          <h2 id={id} className="mx-auto max-w-2xl text-3xl font-bold tracking-tight text-balance sm:text-4xl">{title}</h2>
          <p className="mx-auto mt-4 max-w-xl text-base text-pretty text-white/85 sm:text-lg">{lead}</p>
          <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">{children}</div>
        </div>
      </Container>
    </section>
  );
}

/** Button classes for use on the gradient panel. */
export const ctaPrimary =
  'inline-flex h-11 items-center justify-center gap-2 rounded-md bg-white px-8 text-base font-semibold text-indigo-700 shadow-sm transition-colors hover:bg-white/90 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white focus-visible:ring-offset-2 focus-visible:ring-offset-indigo-600 [&_svg]:size-4';
export const ctaSecondary =
  'inline-flex h-11 items-center justify-center gap-2 rounded-md border border-white/40 bg-white/10 px-8 text-base font-semibold text-white transition-colors hover:bg-white/20 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white [&_svg]:size-4';

/** A rounded square holding an icon, tinted with the primary colour. */
export function IconTile({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <span className={cn('flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-primary/10 text-primary ring-1 ring-primary/20 [&_svg]:h-5 [&_svg]:w-5', className)}>
      {children}
    </span>
  );
}
