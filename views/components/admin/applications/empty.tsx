// The applications list when nothing is in it: for a search, a sub-tab or a payment filter.
import BadgeCheck from 'lucide-react/icons/badge-check';
import { PAY_FILTER_EMPTY, type Group, type PayFilter } from './model';

export function Empty({ group, query, payFilter = 'review' }: { group: Group; query: string; payFilter?: PayFilter }) {
  if (query) {
    return (
      <div className="rounded-lg border border-dashed py-12 text-center">
        <p className="font-medium">No applications match “{query}”</p>
        <p className="mt-1 text-sm text-muted-foreground">Try a name, an email, a badge or a transaction ID.</p>
      </div>
    );
  }
  const text: Record<Group, [string, string]> = {
    review: PAY_FILTER_EMPTY[payFilter],
    approved: ['No approved applications', 'Approved applications will appear here.'],
    rejected: ['No rejected applications', 'Rejected applications will appear here.'],
  };
  return (
    <div className="rounded-lg border border-dashed py-12 text-center" data-testid="empty-applications">
      <BadgeCheck className="mx-auto h-10 w-10 text-muted-foreground/60" aria-hidden="true" />
      <p className="mt-3 font-medium">{text[group][0]}</p>
      <p className="mt-1 text-sm text-muted-foreground">{text[group][1]}</p>
    </div>
  );
}
