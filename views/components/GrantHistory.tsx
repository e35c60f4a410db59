// The renewal chain of a credential on the verify page (server-rendered): a renewed badge is
// a new credential linking to the one it renews; each is listed with its status.
import History from 'lucide-react/icons/history';
import { Card, Chip } from './ui';
import { LocalTime } from './LocalTime';

export type HistoryItem = { verifyPath: string; issuedAt: string; expiresAt: string | null; status: string; current: boolean };

const TONE: Record<string, 'success' | 'warning' | 'destructive' | 'secondary'> = { valid: 'success', expired: 'warning', revoked: 'destructive' };
const LABEL: Record<string, string> = { valid: 'Valid', expired: 'Expired', revoked: 'Revoked', invalid: 'Not verified' };

export function GrantHistory({ items }: { items: HistoryItem[] }) {
  return (
    <Card className="p-5" data-testid="grant-history">
      <h2 className="flex items-center gap-2 text-base font-semibold">
        <History className="h-4 w-4 text-muted-foreground" aria-hidden="true" /> Credential history
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">This badge was renewed: each renewal is a new signed credential linked to the one before.</p>
      <ol className="mt-3 space-y-2">
        {items.map((it, i) => (
          <li key={it.verifyPath} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-md border px-3 py-2 text-sm">
            <span className="font-medium">{i === items.length - 1 ? 'First issued' : 'Renewed'} <LocalTime iso={it.issuedAt} /></span>
            {it.expiresAt && <span className="text-muted-foreground">valid until <LocalTime iso={it.expiresAt} /></span>}
            <Chip tone={TONE[it.status] || 'secondary'}>{LABEL[it.status] || it.status}</Chip>
            {it.current ? (
              <span className="ml-auto text-xs text-muted-foreground">This credential</span>
            ) : (
              <a className="ml-auto text-xs text-primary hover:underline" href={it.verifyPath}>View</a>
            )}
          </li>
        ))}
      </ol>
    </Card>
  );
}
