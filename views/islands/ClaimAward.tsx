// The claim button of a direct award (/claim/{token}): POST /awards/claim (with the
// holder's choice to be named in their credentials), then the new credential's verify page.
import { useState } from 'react';
import Award from 'lucide-react/icons/award';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button } from '../components/ui';
import { api, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';

export type ClaimAwardProps = { token: string; badgeName: string; nameInCredentials?: boolean };

export default function ClaimAward({ token, badgeName, nameInCredentials = false }: ClaimAwardProps) {
  const [named, setNamed] = useState(nameInCredentials);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function claim() {
    setBusy(true);
    setError('');
    try {
      const r = await api<{ msg: string; verifyUrl: string }>('/awards/claim', { body: { token, nameInCredentials: named }, timeoutMs: 20000 });
      toast({ title: 'Badge claimed', description: r.msg, variant: 'success' });
      window.location.assign(r.verifyUrl);
    } catch (e) {
      const msg = errorMessage(e, 'The badge could not be claimed. Please try again.');
      setError(msg);
      toastError(msg);
      setBusy(false);
    }
  }
  return (
    <div className="space-y-3">
      <div className="text-left">
        <label htmlFor="claim-name-in-credentials" className="flex items-start gap-3 text-sm">
          <input
            id="claim-name-in-credentials"
            type="checkbox"
            className="mt-0.5 h-4 w-4"
            checked={named}
            disabled={busy}
            onChange={(e) => setNamed(e.target.checked)}
            aria-describedby="claim-name-note"
          />
          <span>Show my name in my credentials</span>
        </label>
        <p id="claim-name-note" className="mt-1 text-xs text-muted-foreground">
          Applies to this badge and the credentials issued from now on; you can change it on your profile.
        </p>
      </div>
      <Button className="w-full" onClick={claim} disabled={busy} data-testid="claim-button">
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Award className="h-4 w-4" aria-hidden="true" />}
        Claim the {badgeName} badge
      </Button>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  );
}
