import Mail from 'lucide-react/icons/mail';
import { Container } from '../components/ui';
import { Eyebrow, HeroBackdrop } from '../components/marketing';
import { cn } from '../lib/cn';
import { useShell } from '../lib/shell';
import { Kind, UPDATED, order, policies } from '../components/policies';

function slug(s: string) {
  return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** The four policy pages; `kind` picks one. */
export default function PolicyPage({ kind }: { kind: string }) {
  const { supportEmail } = useShell();
  const k: Kind = (order as string[]).includes(kind) ? (kind as Kind) : 'terms';
  const p = policies[k];
  const email = (
    <a href={`mailto:${supportEmail}`} className="font-medium">
      {supportEmail}
    </a>
  );
  const sections = p.sections(email);
  return (
    <>
      <section className="relative isolate overflow-hidden border-b">
        <HeroBackdrop />
        <Container className="py-14 sm:py-20">
          <Eyebrow>Legal</Eyebrow>
          <h1 className="mt-3 text-4xl font-bold tracking-tight sm:text-5xl">{p.title}</h1>
          <p className="mt-4 max-w-2xl text-lg text-pretty text-muted-foreground">{p.intro}</p>
          <p className="mt-4 text-sm text-muted-foreground">Last updated: {UPDATED}</p>
        </Container>
      </section>
      <Container className="grid grid-cols-1 gap-10 py-12 sm:py-16 lg:grid-cols-[16rem_minmax(0,1fr)] lg:gap-14">
        <aside className="min-w-0 lg:sticky lg:top-24 lg:self-start">
          <nav aria-label="Policies" className="grid grid-cols-2 gap-2 lg:grid-cols-1 lg:gap-1">
            {order.map((o) => (
              <a
                key={o}
                href={policies[o].href}
                aria-current={o === k ? 'page' : undefined}
                className={cn(
                  'flex items-center gap-2 rounded-md border px-3 py-2 text-sm font-medium leading-snug transition-colors lg:border-transparent [&_svg]:h-4 [&_svg]:w-4 [&_svg]:shrink-0',
                  o === k ? 'border-primary/30 bg-primary/10 text-primary' : 'text-muted-foreground hover:bg-accent hover:text-foreground',
                )}
              >
                {policies[o].icon}
                {policies[o].title}
              </a>
            ))}
          </nav>
          <div className="mt-6 hidden rounded-xl border bg-muted/40 p-4 text-sm lg:block">
            <p className="flex items-center gap-2 font-semibold">
              <Mail className="h-4 w-4 text-primary" /> Questions?
            </p>
            <p className="mt-1 text-muted-foreground">We reply within 24 hours.</p>
            <a href={`mailto:${supportEmail}`} className="mt-1 block font-medium break-words text-primary hover:underline">
              {supportEmail}
            </a>
          </div>
        </aside>
        <article className="min-w-0 max-w-3xl">
          {p.glance && (
            <div className="mb-10 rounded-2xl border border-primary/20 bg-primary/5 p-6" data-testid="policy-glance">
              <h2 className="text-sm font-semibold uppercase tracking-wider text-primary">At a glance</h2>
              <ul className="mt-3 space-y-2">
                {p.glance.map((g) => (
                  <li key={g} className="flex gap-2.5">
                    <span aria-hidden="true" className="mt-2 h-1.5 w-1.5 shrink-0 rounded-full bg-primary" />
                    <span>{g}</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
          <div className="policy-prose">
            {sections.map((s, i) => (
              <section key={s.title} aria-labelledby={slug(s.title)}>
                <h2 id={slug(s.title)}>
                  <span className="text-muted-foreground">{i + 1}.</span> {s.title}
                </h2>
                {s.body}
              </section>
            ))}
          </div>
        </article>
      </Container>
    </>
  );
}
