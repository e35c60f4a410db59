// The result screen's note on an attempt held for an integrity review: the member sees
// that it is being reviewed (never why) and may add a statement for the reviewer.
import { useState } from 'react';
import ShieldAlert from 'lucide-react/icons/shield-alert';
import { api, ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { Button, Label, Textarea } from '../ui';
import type { IntegrityReview } from './model';

const MAX = 2000;

export function IntegrityNotice({ attemptId, review }: { attemptId: string; review: IntegrityReview }) {
  const [state, setState] = useState(review);
  const [text, setText] = useState(review.statement);
  const [saving, setSaving] = useState(false);
  const [msg, setMsg] = useState('');
  if (state.status === 'cleared') {
    return (
      <p className="mt-4 rounded-md bg-success/10 px-3 py-2 text-sm" data-testid="quiz-integrity" data-status="cleared">
        Your attempt was reviewed and cleared.
      </p>
    );
  }
  if (state.status === 'voided') {
    return (
      <p className="mt-4 rounded-md bg-destructive/10 px-3 py-2 text-sm" data-testid="quiz-integrity" data-status="voided">
        After a review this attempt was voided: it counts as not passed, and the retake rules apply.
      </p>
    );
  }
  const save = async () => {
    setSaving(true);
    setMsg('');
    try {
      const r = await api<{ integrity: IntegrityReview }>(`/quiz/attempts/${attemptId}/statement`, { method: 'POST', body: { statement: text } });
      setState(r.integrity);
      toast({ title: 'Statement saved', description: 'The reviewer will read it with your attempt.' });
    } catch (e) {
      setMsg(e instanceof ApiError ? e.message : 'Could not save your statement.');
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="mt-6 w-full rounded-lg border border-warning/40 bg-warning/10 p-4 text-left" data-testid="quiz-integrity" data-status="review">
      <p className="flex items-center gap-2 font-semibold">
        <ShieldAlert className="h-4 w-4" aria-hidden="true" /> Your attempt is being reviewed
      </p>
      <p className="mt-1 text-sm text-muted-foreground">
        Our routine integrity checks asked for a person to look at this attempt before the badge is granted. This is not a finding of
        misconduct. You may continue your application; an administrator will clear the attempt or void it, and you will see the
        outcome here.
      </p>
      {state.canAddStatement && (
        <div className="mt-3">
          <Label htmlFor="integrity-statement">Add a statement for the reviewer (optional)</Label>
          <Textarea
            id="integrity-statement"
            className="mt-1"
            rows={3}
            maxLength={MAX}
            value={text}
            onChange={(e) => setText(e.target.value)}
            data-testid="integrity-statement"
          />
          {msg && (
            <p className="mt-1 text-sm text-destructive" role="alert">
              {msg}
            </p>
          )}
          <div className="mt-2 flex items-center justify-between gap-2 text-xs text-muted-foreground">
            <span>{state.statementAt ? 'Statement saved. You can change it until the review ends.' : `${text.length} / ${MAX}`}</span>
            <Button size="sm" onClick={save} disabled={saving || !text.trim()} data-testid="integrity-save">
              {saving ? 'Saving…' : 'Save statement'}
            </Button>
          </div>
        </div>
      )}
    </div>
  );
}
