// The actions of /payment-failed/:badgeId: Retry Payment goes back one page (to the
// payment page the member came from); Back to Badges. It also shows why the payment
// failed when the payment page left the reason for it.
import { useEffect, useState } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { Button, LinkButton } from '../components/ui';
import { FAILED_KEY } from './PaymentCheckout';

export default function PaymentRetry({ badgeId }: { badgeId: string }) {
  const [reason, setReason] = useState('');
  useEffect(() => {
    try {
      const r = sessionStorage.getItem(FAILED_KEY + badgeId);
      if (r) {
        // eslint-disable-next-line react-hooks/set-state-in-effect -- sessionStorage exists only in the browser: read after hydration so the server's HTML matches
        setReason(r);
        sessionStorage.removeItem(FAILED_KEY + badgeId);
      }
    } catch {
      // no storage: the generic text stays
    }
  }, [badgeId]);
  const retry = () => {
    // back to the payment page; a visitor who arrived here directly has no page to go back to
    if (window.history.length > 1 && document.referrer) window.history.back();
    else window.location.assign(`/payment/${badgeId}`);
  };
  return (
    <div>
      {reason && (
        <p role="alert" className="mx-auto mt-6 max-w-md rounded-lg border border-destructive/40 bg-destructive/10 px-4 py-3 text-sm text-foreground" data-testid="failed-reason">
          {reason}
        </p>
      )}
      <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
        <Button size="lg" onClick={retry} data-testid="retry-payment">
          <RotateCcw /> Retry Payment
        </Button>
        <LinkButton href="/badges" size="lg" variant="outline">
          <ArrowLeft /> Back to Badges
        </LinkButton>
      </div>
    </div>
  );
}
