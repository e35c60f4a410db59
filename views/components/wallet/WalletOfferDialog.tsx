// The "Add to wallet" dialog (issue 36): the OpenID4VCI QR code, link and transaction
// code, and the DCC Learner Credential Wallet's QR code and links. Loaded when the holder
// first asks for an offer (AddToWallet), so the islands that show the button do not carry
// the dialog's code.
import { buttonClass } from '../ui';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '../dialog';
import type { WalletOffer } from './AddToWallet';

/** The time part of an ISO date as HH:MM (UTC), without Intl. */
function until(iso: string): string {
  return iso.slice(11, 16) + ' UTC';
}

export function WalletOfferDialog({ offer, badgeName, open, onOpenChange }: { offer: WalletOffer; badgeName: string; open: boolean; onOpenChange: (open: boolean) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="wallet-dialog" className="max-h-[90vh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add {badgeName} to your wallet</DialogTitle>
          <DialogDescription>
            Scan a code with your wallet app. Each code works once, until {until(offer.expiresAt)}; the wallet receives a copy of your badge bound to its own key.
          </DialogDescription>
        </DialogHeader>
        <section className="grid gap-3 sm:grid-cols-[13rem_1fr] sm:items-start" aria-labelledby="wallet-oid4vci">
          <img src={offer.qr.offer} alt="QR code of the OpenID4VCI credential offer" width={208} height={208} className="rounded border bg-white" data-testid="wallet-qr-offer" />
          <div className="space-y-2 text-sm">
            <h3 id="wallet-oid4vci" className="font-semibold">OpenID4VCI wallets</h3>
            <p className="text-muted-foreground">EU digital identity wallets and other OpenID for Verifiable Credential Issuance wallets.</p>
            {offer.txCode && (
              <p>
                Transaction code:{' '}
                <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-base font-semibold tracking-widest" data-testid="wallet-tx-code">
                  {offer.txCode}
                </code>
              </p>
            )}
            <a href={offer.offerUri} className={buttonClass('outline', 'sm')} data-testid="wallet-offer-link">
              Open in a wallet on this device
            </a>
          </div>
        </section>
        <section className="grid gap-3 border-t pt-4 sm:grid-cols-[13rem_1fr] sm:items-start" aria-labelledby="wallet-dcc">
          <img src={offer.qr.dcc} alt="QR code of the Learner Credential Wallet request" width={208} height={208} className="rounded border bg-white" data-testid="wallet-qr-dcc" />
          <div className="space-y-2 text-sm">
            <h3 id="wallet-dcc" className="font-semibold">Learner Credential Wallet</h3>
            <p className="text-muted-foreground">The Digital Credentials Consortium&apos;s wallet, through a VC API exchange.</p>
            <div className="flex flex-wrap gap-2">
              <a href={offer.dccRequestUrl} className={buttonClass('outline', 'sm')} data-testid="wallet-dcc-link">
                Open in the wallet app
              </a>
              <a href={offer.lcwRequestUrl} target="_blank" rel="noopener noreferrer" className={buttonClass('outline', 'sm')} data-testid="wallet-lcw-link">
                Link for e-mail (lcw.app)
              </a>
            </div>
          </div>
        </section>
      </DialogContent>
    </Dialog>
  );
}
