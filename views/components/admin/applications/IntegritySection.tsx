// View Details: the integrity flags on the quiz attempt behind a skill application, the
// member's statement, and the administrator's decision (clear, or void the attempt).
import { useState } from 'react';
import { Button, Chip } from '../../ui';
import { api, ApiError } from '../../../lib/api';
import { toast, toastError } from '../../../lib/toast';
import type { IntegrityReview } from './model';
import { LocalTime } from '../../LocalTime';

const STATE: Record<string, { label: string; tone: 'warning' | 'success' | 'destructive' | 'secondary' }> = {
  flagged: { label: 'Under review', tone: 'warning' },
  cleared: { label: 'Cleared', tone: 'success' },
  voided: { label: 'Attempt voided', tone: 'destructive' },
  '': { label: 'Flagged (not a pass)', tone: 'secondary' },
};

export function IntegritySection({ review }: { review: IntegrityReview }) {
  const [r, setR] = useState(review);
  const [busy, setBusy] = useState(false);
  const [confirmVoid, setConfirmVoid] = useState(false);
  const decide = async (decision: 'clear' | 'void') => {
    setBusy(true);
    try {
      const res = await api<{ msg: string; integrity: IntegrityReview }>(`/admin/quiz-attempts/${r.attemptId}/integrity`, {
        method: 'PUT',
        body: { decision },
      });
      setR(res.integrity);
      toast({ title: res.msg, description: decision === 'clear' ? 'The application can now be approved.' : 'The attempt counts as not passed.' });
    } catch (e) {
      toastError(e instanceof ApiError ? e.message : 'Could not record the decision.');
    } finally {
      setBusy(false);
      setConfirmVoid(false);
    }
  };
  const st = STATE[r.status] ?? STATE[''];
  return (
    <div className="grid gap-3" data-testid="integrity-review" data-status={r.status}>
      <p className="text-sm">
        <Chip tone={st.tone}>{st.label}</Chip>
        {r.decidedAt && <span className="ml-2 text-muted-foreground">decided <LocalTime iso={r.decidedAt} withTime /></span>}
      </p>
      <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="integrity-flags">
        {r.flags.map((f) => (
          <li key={f.code}>{f.reason}</li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">A flag starts a review; it does not prove misconduct on its own.</p>
      <div className="rounded-md border bg-muted/30 px-3 py-2 text-sm">
        <p className="text-xs font-medium text-muted-foreground">Member's statement</p>
        <p className="mt-1 whitespace-pre-line" data-testid="integrity-member-statement">
          {r.statement || 'No statement yet.'}
        </p>
        {r.statementAt && <p className="mt-1 text-xs text-muted-foreground"><LocalTime iso={r.statementAt} withTime /></p>}
      </div>
      {r.status === 'flagged' && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => decide('clear')} disabled={busy} data-testid="integrity-clear">
            Clear the attempt
          </Button>
          {confirmVoid ? (
            <Button size="sm" variant="destructive" onClick={() => decide('void')} disabled={busy} data-testid="integrity-void-confirm">
              Confirm: void the attempt
            </Button>
          ) : (
            <Button size="sm" variant="outline" onClick={() => setConfirmVoid(true)} disabled={busy} data-testid="integrity-void">
              Void the attempt…
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
