// The holder's choice to show or hide a skill badge's score on the public verify page.
// The signed credential carries the score either way, and the control says so.
import { useState } from 'react';
import { api, ApiError } from '../lib/api';
import { toast, toastError } from '../lib/toast';

export function ScoreVisibility({ grantId, name, hidden: initial }: { grantId: string; name: string; hidden: boolean }) {
  const [hidden, setHidden] = useState(initial);
  const [busy, setBusy] = useState(false);
  // the box follows the click at once (a controlled box that waited for the server would
  // spring back until it answered) and goes back if the server refuses
  const change = async (next: boolean) => {
    setHidden(next);
    setBusy(true);
    try {
      const r = await api<{ msg: string; hideScore: boolean }>(`/users/badges/${grantId}/score`, { method: 'PUT', body: { hidden: next } });
      setHidden(r.hideScore);
      toast({ title: r.hideScore ? 'Score hidden' : 'Score shown', description: r.msg });
    } catch (e) {
      setHidden(!next);
      toastError(e instanceof ApiError ? e.message : 'Could not save the setting.');
    } finally {
      setBusy(false);
    }
  };
  const id = `hide-score-${grantId}`;
  return (
    <div className="mt-2 text-xs">
      <label htmlFor={id} className="inline-flex items-center gap-2">
        <input id={id} type="checkbox" checked={hidden} disabled={busy} onChange={(e) => change(e.target.checked)} data-testid="hide-score" aria-describedby={`${id}-note`} />
        Hide my score on the public verification page of {name}
      </label>
      <p id={`${id}-note`} className="mt-0.5 text-muted-foreground">
        The signed credential still carries the score: anyone you give the credential file to can read it.
      </p>
    </div>
  );
}
