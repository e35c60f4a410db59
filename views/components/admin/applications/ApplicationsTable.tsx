// The applications as a dense table (wide screens; phones keep the cards): sortable
// columns, a row per application whose name button (Tab, Enter) or row click opens the
// details side panel with the review actions.
import { Chip } from '../../ui';
import { money } from '../../../lib/format';
import { Actions, Application, PaymentChip, STATUS_LABEL, STATUS_TONE, revokedApproval } from './model';
import { OpenRowButton, SortHeader, TH as th, rowOpener, type SortState } from '../table';
import { LocalTime } from '../../LocalTime';

export function ApplicationsTable({ apps, actions, sort, onSort, selected, allMatching, onToggle }: {
  apps: Application[];
  actions: Actions;
  sort: SortState;
  onSort: (s: SortState) => void;
  selected: string[];
  allMatching: boolean;
  onToggle: (id: string) => void;
}) {
  return (
    <div className="relative overflow-x-auto rounded-lg border">
      <table className="w-full border-collapse text-sm" data-testid="applications-table">
        <caption className="sr-only">Applications. Column headers sort; a name opens the application.</caption>
        <thead className="bg-muted/50">
          <tr>
            <th scope="col" className={th}><span className="sr-only">Select</span></th>
            <SortHeader label="Applicant" sortKey="name" sort={sort} onSort={onSort} className={th} />
            <SortHeader label="E-mail" sortKey="email" sort={sort} onSort={onSort} className={th} />
            <th scope="col" className={th}>Badge</th>
            <SortHeader label="Status" sortKey="status" sort={sort} onSort={onSort} className={th} />
            <th scope="col" className={th}>Payment</th>
            <SortHeader label="Price" sortKey="price" sort={sort} onSort={onSort} className={th + ' text-right'} />
            <SortHeader label="Submitted" sortKey="createdAt" sort={sort} onSort={onSort} firstDesc className={th} />
          </tr>
        </thead>
        <tbody>
          {apps.map((a) => (
            <tr key={a._id} onClick={rowOpener(() => actions.details(a))} className="cursor-pointer border-t hover:bg-accent/50" data-testid="application-row" data-row-id={a._id} data-application-id={a._id}>
              <td className="w-8 px-3 py-1.5">
                <input
                  type="checkbox"
                  className="h-4 w-4 accent-primary"
                  aria-label={`Select ${a.user?.name || a.fullName || 'application'} · ${a.badge?.name || ''}`}
                  checked={allMatching || selected.includes(a._id)}
                  onChange={() => onToggle(a._id)}
                  data-testid="select-row"
                />
              </td>
              <td className="max-w-48 px-3 py-1.5">
                <OpenRowButton onOpen={() => actions.details(a)}>{a.user?.name || a.fullName || 'Incomplete application data'}</OpenRowButton>
              </td>
              <td className="max-w-56 truncate px-3 py-1.5 text-muted-foreground">{a.user?.email || a.email}</td>
              <td className="max-w-48 truncate px-3 py-1.5">{a.badge?.name || '—'}</td>
              <td className="px-3 py-1.5">
                <Chip tone={revokedApproval(a) ? 'destructive' : STATUS_TONE[a.status] || 'secondary'}>
                  {revokedApproval(a) ? 'Badge revoked' : STATUS_LABEL[a.status] || a.status}
                </Chip>
              </td>
              <td className="px-3 py-1.5"><PaymentChip a={a} /></td>
              <td className="px-3 py-1.5 text-right tabular-nums">{money(a.paymentId ? a.paymentId.amount : a.price)}</td>
              <td className="whitespace-nowrap px-3 py-1.5 tabular-nums"><LocalTime iso={a.createdAt} /></td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
