// The catalogue's results (/badges): count, cards, empty state and "show all", rendered
// on the server only (plain HTML, never hydrated). The BadgeCatalogue island (search and
// chips) replaces this block with the server's rendering of the new address when a
// filter changes, so the client never renders a card.
import CircleCheck from 'lucide-react/icons/circle-check';
import FileCheck from 'lucide-react/icons/file-check';
import Hourglass from 'lucide-react/icons/hourglass';
import ListChecks from 'lucide-react/icons/list-checks';
import SearchX from 'lucide-react/icons/search-x';
import { Button, Card, Chip, LinkButton } from './ui';
import { BadgeIcon, priceLabel } from './badges';
import { catalogueHref, levelLabel, statusLabel, typeLabel, type CatalogueBadge } from '../lib/badges';
import { words } from '../lib/format';
import Ellipsis from './Ellipsis';

/** The id of the results block the island swaps. */
export const RESULTS_ID = 'catalogue-results';

export function CatalogueResults({ total, visible, shown, q, category, showAll, signedIn }: {
  total: number;
  visible: CatalogueBadge[];
  shown: CatalogueBadge[];
  q: string;
  category: string;
  showAll: boolean;
  signedIn: boolean;
}) {
  const filtered = q !== '' || category !== '';
  return (
    <div id={RESULTS_ID} data-query={catalogueHref(q, category, showAll)}>
      <div className="mt-8 flex items-center justify-between gap-4 text-sm text-muted-foreground">
        <p aria-live="polite" data-testid="badge-count">
          {visible.length === total ? `${total} ${total === 1 ? 'badge' : 'badges'}` : `Showing ${visible.length} of ${total} badges`}
        </p>
        {filtered && (
          <a href="/badges" className="font-medium text-primary hover:underline" data-clear-filters="">
            Clear filters
          </a>
        )}
      </div>

      {visible.length === 0 ? (
        <div className="mt-4 flex flex-col items-center rounded-xl border border-dashed px-6 py-16 text-center" data-testid="badges-empty">
          <SearchX className="h-10 w-10 text-muted-foreground" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold">No badges found</h2>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">Try another search term or category.</p>
          {filtered && (
            <LinkButton href="/badges" variant="outline" className="mt-6" data-clear-filters="">
              Show all badges
            </LinkButton>
          )}
        </div>
      ) : (
        <>
          <ul className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {shown.map((b) => (
              <li key={b._id} className="flex min-w-0">
                <BadgeCard b={b} signedIn={signedIn} />
              </li>
            ))}
          </ul>
          {shown.length < visible.length && (
            <div className="mt-10 flex justify-center">
              <LinkButton href={catalogueHref(q, category, true)} variant="outline" size="lg" data-testid="show-all">
                {`Show all ${visible.length} badges`}
              </LinkButton>
            </div>
          )}
        </>
      )}
    </div>
  );
}

function BadgeCard({ b, signedIn }: { b: CatalogueBadge; signedIn: boolean }) {
  const href = `/badges/${b._id}`;
  const criteria = words(b.criteria || '', 25);
  const state = b.isOwned ? 'owned' : b.applicationStatus === 'pending' ? 'pending' : 'open';
  const TypeIcon = b.type === 'skill' ? ListChecks : FileCheck;
  return (
    <Card className="flex w-full flex-col transition-shadow hover:shadow-md" data-testid="badge-card" data-badge-name={b.name} data-state={state}>
      <div className="flex items-start gap-4 p-6 pb-4">
        <BadgeIcon icon={b.icon} color={b.color} />
        <div className="min-w-0 flex-1">
          <h2 className="text-base font-semibold leading-snug">
            <a href={href} className="hover:underline">
              {b.name}
            </a>
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{b.category}</p>
        </div>
        <p className="shrink-0 text-lg font-bold tabular-nums" data-testid="badge-price">
          {priceLabel(b.price)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2 px-6">
        <Chip tone="secondary" className="gap-1">
          <TypeIcon className="h-3 w-3" aria-hidden="true" />
          {typeLabel(b.type)}
        </Chip>
        <Chip tone="outline">{levelLabel(b.level)}</Chip>
        {b.applicationStatus === 'awaiting_payment' && !b.isOwned && <Chip tone="warning">{statusLabel('awaiting_payment', b.paymentProcessing)}</Chip>}
      </div>
      <p className="px-6 pt-4 text-sm leading-relaxed text-muted-foreground">
        {criteria.text}
        {criteria.cut && <Ellipsis />}{' '}
        {criteria.cut && (
          <a href={href} className="whitespace-nowrap font-medium text-primary hover:underline">
            Read more<span className="sr-only"> about {b.name}</span>
          </a>
        )}
      </p>
      <div className="mt-auto p-6 pt-5">
        {state === 'owned' ? (
          <>
            <p className="mb-3 flex items-center gap-2 text-sm font-medium text-success">
              <CircleCheck className="h-4 w-4" aria-hidden="true" />
              You already own this badge!
            </p>
            <div className="grid grid-cols-2 gap-2">
              <Button variant="outline" disabled>
                Already Owned
              </Button>
              <LinkButton href={href}>View Details</LinkButton>
            </div>
          </>
        ) : state === 'pending' ? (
          <>
            <p className="mb-3 flex items-center gap-2 text-sm font-medium text-amber-700 dark:text-amber-400">
              <Hourglass className="h-4 w-4" aria-hidden="true" />
              Your application is in process.
            </p>
            <Button variant="secondary" className="w-full" disabled>
              In Process
            </Button>
          </>
        ) : (
          <LinkButton href={href} className="w-full">
            {signedIn ? 'Check Eligibility' : 'Login to Apply'}
          </LinkButton>
        )}
      </div>
    </Card>
  );
}
