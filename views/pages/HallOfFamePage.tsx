import type { ReactNode } from 'react';
import Award from 'lucide-react/icons/award';
import Layers from 'lucide-react/icons/layers';
import Trophy from 'lucide-react/icons/trophy';
import Users from 'lucide-react/icons/users';
import { Card, Container } from '../components/ui';
import { Island } from '../components/Island';
import HallOfFameBoard, { type HofQuery, type HofResult } from '../islands/HallOfFameBoard';

type Props = { result: HofResult | null; query: HofQuery; error: string };

function n(v: number): string {
  return v.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** /hall-of-fame: stats, filters (in the address, working without JavaScript) and the earners. */
export default function HallOfFamePage({ result, query, error }: Props) {
  const s = result?.stats;
  return (
    <Container className="py-8 sm:py-12">
      <div className="mx-auto max-w-2xl text-center">
        <span className="mx-auto flex h-12 w-12 items-center justify-center rounded-xl bg-warning/20 text-foreground">
          <Trophy className="h-6 w-6" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-3xl font-bold tracking-tight sm:text-4xl">Hall of Fame</h1>
        <p className="mt-3 text-muted-foreground">Professionals who proved their skills and earned verified Meritmark badges.</p>
      </div>

      {s && (
        <dl className="mx-auto mt-8 grid max-w-4xl grid-cols-3 gap-3 sm:gap-4" data-testid="hof-stats">
          <Stat icon={<Users className="h-5 w-5" aria-hidden="true" />} label="Badge Earners" value={n(s.earners)} />
          <Stat icon={<Award className="h-5 w-5" aria-hidden="true" />} label="Badges Earned" value={n(s.totalBadges)} />
          <Stat icon={<Layers className="h-5 w-5" aria-hidden="true" />} label="Categories" value={n(s.categories.length)} />
        </dl>
      )}

      <div className="mt-8">
        <Island name="HallOfFameBoard" component={HallOfFameBoard} props={{ result, query, error }} />
      </div>
    </Container>
  );
}

/** One figure of the stats <dl>: the card is the <div> group, directly holding its
 * <dt> and <dd> (the icon sits inside the term, hidden from assistive technology). */
function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <Card className="flex flex-col-reverse items-center gap-1 p-3 text-center sm:flex-col sm:items-start sm:gap-2 sm:p-5 sm:text-left">
      <dt className="flex items-center gap-2 text-xs text-muted-foreground sm:text-sm">
        <span className="hidden h-8 w-8 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary sm:flex" aria-hidden="true">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="text-xl font-bold tabular-nums sm:text-2xl">{value}</dd>
    </Card>
  );
}
