// The claim button of a direct award (/claim/{token}): POST /awards/claim, then the new
// credential's verify page.
import { useState } from 'react';
import Award from 'lucide-react/icons/award';
import Loader2 from 'lucide-react/icons/loader-circle';
import { Button } from '../components/ui';
import { api, errorMessage } from '../lib/api';
import { toast, toastError } from '../lib/toast';

export type ClaimAwardProps = { token: string; badgeName: string };

export default function ClaimAward({ token, badgeName }: ClaimAwardProps) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  async function claim() {
    setBusy(true);
    setError('');
    try {
      const r = await api<{ msg: string; verifyUrl: string }>('/awards/claim', { body: { token }, timeoutMs: 20000 });
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
      <Button className="w-full" onClick={claim} disabled={busy} data-testid="claim-button">
        {busy ? <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> : <Award className="h-4 w-4" aria-hidden="true" />}
        Claim the {badgeName} badge
      </Button>
      {error && <p role="alert" className="text-sm text-destructive">{error}</p>}
    </div>
  );
}
