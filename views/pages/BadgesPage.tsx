import ShieldCheck from 'lucide-react/icons/shield-check';
import { Container } from '../components/ui';
import { Island } from '../components/Island';
import { CatalogueResults } from '../components/catalogue';
import BadgeCatalogue from '../islands/BadgeCatalogue';
import { useShell } from '../lib/shell';
import type { CatalogueBadge } from '../lib/badges';

type Props = { badges: CatalogueBadge[]; q: string; category: string; matchIds: string[]; pageSize: number; showAll: boolean };

/** /badges: the catalogue. Filters come from ?q=…&category=… (the server already applied
 * them: matchIds). The cards are server HTML; the island holds only search and chips. */
export default function BadgesPage({ badges, q, category, matchIds, pageSize, showAll }: Props) {
  const { user } = useShell();
  const all = badges || [];
  const ids = new Set(matchIds || []);
  const visible = all.filter((b) => ids.has(b._id));
  const shown = showAll ? visible : visible.slice(0, pageSize || 24);
  return (
    <>
      <section className="border-b bg-gradient-to-b from-primary/[0.06] to-background">
        <Container className="py-12 text-center sm:py-16">
          <p className="inline-flex items-center gap-2 rounded-full border bg-background px-3 py-1 text-xs font-medium text-muted-foreground">
            <ShieldCheck className="h-3.5 w-3.5 text-primary" aria-hidden="true" />
            Reviewed by people, verifiable by anyone
          </p>
          <h1 className="mt-5 text-3xl font-bold tracking-tight sm:text-5xl">Discover Professional Badges</h1>
          <p className="mx-auto mt-4 max-w-2xl text-base text-muted-foreground sm:text-lg">
            Prove your skills with a timed quiz or show your work with proof documents. Every badge is reviewed and comes with a public link anyone can verify.
          </p>
        </Container>
      </section>
      <Container className="py-8 sm:py-10">
        <Island name="BadgeCatalogue" component={BadgeCatalogue} hydrate="interaction" props={{ q: q || '', category: category || '', showAll: !!showAll }} />
        <CatalogueResults total={all.length} visible={visible} shown={shown} q={q || ''} category={category || ''} showAll={!!showAll} signedIn={!!user} />
      </Container>
    </>
  );
}
