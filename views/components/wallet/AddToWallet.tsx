// "Add to wallet" (issue 36): a button that asks the server for a new wallet offer of one
// grant (POST /users/badges/{grantId}/wallet-offer, the holder only) and shows it in a
// dialog: the OpenID4VCI QR code, link and transaction code, and the DCC Learner
// Credential Wallet's QR code and links. Used inside the BadgeActions and Profile islands.
import { lazy, Suspense, useState } from 'react';
import Wallet from 'lucide-react/icons/wallet';
import { Button } from '../ui';
import { api, errorMessage } from '../../lib/api';
import { toastError } from '../../lib/toast';

/** The server's answer (app/oid4vci OfferView). */
export type WalletOffer = {
  offerUri: string;
  txCode?: string;
  expiresAt: string;
  exchangeUrl: string;
  dccRequestUrl: string;
  lcwRequestUrl: string;
  qr: { offer: string; dcc: string };
};

// the dialog's code loads when the holder first asks for an offer
const WalletOfferDialog = lazy(() => import('./WalletOfferDialog').then((m) => ({ default: m.WalletOfferDialog })));

export function AddToWallet({ grantId, badgeName, size }: { grantId: string; badgeName: string; size?: 'sm' }) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [offer, setOffer] = useState<WalletOffer | null>(null);

  const start = async () => {
    setBusy(true);
    try {
      setOffer(await api<WalletOffer>(`/users/badges/${encodeURIComponent(grantId)}/wallet-offer`, { method: 'POST', body: { txCode: true } }));
      setOpen(true);
    } catch (e) {
      toastError(errorMessage(e, 'Could not prepare the wallet offer.'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size={size} variant="outline" onClick={start} disabled={busy} data-testid="wallet-open" aria-label={`Add to wallet: ${badgeName}`}>
        <Wallet aria-hidden="true" /> {busy ? 'Preparing…' : 'Add to wallet'}
      </Button>
      {offer && (
        <Suspense fallback={null}>
          <WalletOfferDialog offer={offer} badgeName={badgeName} open={open} onOpenChange={setOpen} />
        </Suspense>
      )}
    </>
  );
}
