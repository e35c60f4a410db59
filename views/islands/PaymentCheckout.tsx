// The payment island of /payment/:badgeId: coupon, order summary and the payment
// provider (PayPal's JS SDK with real credentials, else the built-in sandbox simulator),
// or the free-grant button when a 100% coupon makes the badge free. Every amount shown
// comes from the server's pricing; the server charges its own price whatever is sent.
import { useEffect, useRef, useState } from 'react';
import AlertCircle from 'lucide-react/icons/circle-alert';
import CheckCircle2 from 'lucide-react/icons/circle-check';
import Gift from 'lucide-react/icons/gift';
import Loader2 from 'lucide-react/icons/loader-circle';
import Lock from 'lucide-react/icons/lock';
import Tag from 'lucide-react/icons/tag';
import X from 'lucide-react/icons/x';
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle, Input, Label } from '../components/ui';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '../components/dialog';
import { api, ApiError, errorMessage } from '../lib/api';
import { money } from '../lib/format';
import { toast } from '../lib/toast';
import { cn } from '../lib/cn';
import type { Provider, Quote } from '../components/checkout/model';

export type { Provider, Quote };
import { OrderSummary } from '../components/checkout/OrderSummary';
import { PayPalButtons, PayPalMark, RefreshLink } from '../components/checkout/paypal';

export type PaymentCheckoutProps = {
  badge: { _id: string; name: string; category: string };
  quote: Quote;
  provider: Provider;
  lastPaymentFailed: boolean;
};

type VerifyResult = { success: boolean; msg: string; paymentId: string; status: string };

const ORDER_TIMEOUT = 30_000; // spec section 9

const VERIFY_TIMEOUT = 45_000;

export const FAILED_KEY = 'mm-payment-failed:';

export default function PaymentCheckout({ badge, quote: base, provider, lastPaymentFailed }: PaymentCheckoutProps) {
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<Quote | null>(null);
  const [applying, setApplying] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [simOrder, setSimOrder] = useState<string | null>(null);
  const [simBusy, setSimBusy] = useState<string | null>(null);
  const quote = applied ?? base;
  const showProvider = quote.finalAmount > 0 && !quote.freeGrant;

  // the latest coupon for PayPal's createOrder callback (rendered once)
  const couponRef = useRef<string | null>(null);
  useEffect(() => {
    couponRef.current = applied?.code ?? null;
  }, [applied]);

  const applyCoupon = async () => {
    const c = code.trim().toUpperCase();
    if (!c) {
      toast({ title: 'Please enter a coupon code', variant: 'destructive' });
      return;
    }
    setApplying(true);
    try {
      const q = await api<Quote>('/coupons/validate', { body: { code: c, badgeId: badge._id, amount: base.finalAmount } });
      setApplied(q);
      setCode(q.code || c);
      setError(null);
      toast({ title: `Coupon applied! You saved ${money(q.discountAmount)}`, description: q.freeGrant ? 'This coupon covers the full fee.' : q.name || undefined, variant: 'success' });
    } catch (e) {
      setApplied(null);
      toast({ title: 'Invalid Coupon', description: errorMessage(e, 'Coupon code is invalid or expired'), variant: 'destructive' });
    } finally {
      setApplying(false);
    }
  };

  const removeCoupon = (e?: { preventDefault: () => void }) => {
    e?.preventDefault();
    setApplied(null);
    setCode('');
  };

  const fail = (msg: string) => {
    setError(msg);
    toast({ title: 'Payment Error', description: msg, variant: 'destructive' });
    setProcessing(false);
  };

  const createOrder = async (): Promise<string> => {
    const r = await api<{ success?: boolean; orderId?: string; msg?: string }>('/payments/paypal-order', {
      body: { amount: quote.finalAmount, badgeId: badge._id, couponCode: couponRef.current },
      timeoutMs: ORDER_TIMEOUT,
    });
    if (!r || !r.orderId) throw new Error('Invalid order response');
    return r.orderId;
  };

  const orderError = (e: unknown) => {
    const msg = e instanceof ApiError ? errorMessage(e, 'Failed to create payment order') : e instanceof Error && e.message === 'Invalid order response' ? e.message : 'Failed to create payment order';
    toast({ title: 'Payment Error', description: msg, variant: 'destructive' });
    setProcessing(false);
  };

  const verify = async (orderId: string) => {
    setProcessing(true);
    setError(null);
    try {
      const r = await api<VerifyResult>('/payments/paypal-verify', {
        body: { orderId, badgeId: badge._id, couponCode: couponRef.current },
        timeoutMs: VERIFY_TIMEOUT,
      });
      if (!r || !r.success) throw new Error(r?.msg || 'Payment verification failed');
      window.location.assign(`/payment-success/${badge._id}`);
    } catch (e) {
      setSimOrder(null);
      if (e instanceof ApiError && (e.data as { declined?: boolean } | null)?.declined) {
        try {
          sessionStorage.setItem(FAILED_KEY + badge._id, e.message);
        } catch {
          // no storage: the failure page shows its generic text
        }
        window.location.assign(`/payment-failed/${badge._id}`);
        return;
      }
      fail(e instanceof ApiError ? errorMessage(e, 'Could not verify PayPal payment.') : e instanceof Error && e.message ? e.message : 'Payment verification failed');
    }
  };

  const providerError = () => {
    toast({ title: 'Payment Error', description: 'PayPal payment error', variant: 'destructive' });
    setProcessing(false);
    setSimOrder(null);
    window.location.assign(`/payment-failed/${badge._id}`);
  };

  const cancelled = () => {
    setSimOrder(null);
    setProcessing(false);
    toast({ title: 'Payment cancelled', description: 'PayPal payment was cancelled' });
  };

  // --- the built-in sandbox simulator
  const startSimulator = async () => {
    setError(null);
    setProcessing(true);
    try {
      setSimOrder(await createOrder());
    } catch (e) {
      orderError(e);
    }
  };

  const simDecide = async (outcome: 'approve' | 'decline' | 'pending') => {
    if (!simOrder) return;
    setSimBusy(outcome);
    try {
      const res = await fetch(`${provider.simulatorPath || '/paypal-sim'}/sim/orders/${encodeURIComponent(simOrder)}/approve`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ outcome }),
        credentials: 'same-origin',
      });
      if (!res.ok) throw new Error('simulator ' + res.status);
    } catch {
      setSimBusy(null);
      providerError();
      return;
    }
    await verify(simOrder);
    setSimBusy(null);
  };

  // --- the action bar of narrow screens: the total and the start button stay at hand
  // while the pay card is still below the fold (hidden once it is reached)
  const payRef = useRef<HTMLDivElement>(null);
  const [payBelow, setPayBelow] = useState(true);
  useEffect(() => {
    const el = payRef.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver(([e]) => setPayBelow(!e.isIntersecting && e.boundingClientRect.top > 0));
    io.observe(el);
    return () => io.disconnect();
  }, []);
  const barAction = () => {
    if (quote.freeGrant) return void applyFreeGrant();
    if (showProvider && provider.mode !== 'paypal') return void startSimulator();
    // PayPal's own buttons live in its frames: bring them into view
    payRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  };

  // --- a free grant
  const applyFreeGrant = async () => {
    if (!applied?.code) return;
    setError(null);
    setProcessing(true);
    try {
      await api('/payments', { body: { badgeId: badge._id, amount: 0, status: 'success', provider: 'free-grant', couponCode: applied.code } });
      window.location.assign(`/payment-success/${badge._id}`);
    } catch (e) {
      fail(errorMessage(e, 'Failed to apply free grant coupon.'));
    }
  };

  return (
    <div className="grid gap-6 lg:grid-cols-5 lg:items-start">
      <div className="space-y-6 lg:col-span-3">
        {lastPaymentFailed && !error && (
          <div role="status" className="flex items-start gap-2 rounded-lg border border-warning/60 bg-warning/10 px-4 py-3 text-sm" data-testid="last-failed">
            <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            Your last payment attempt did not go through. You can try again below.
          </div>
        )}

        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <Tag className="h-5 w-5 text-primary" aria-hidden="true" /> Coupon
            </CardTitle>
            <CardDescription>Have a coupon code? Apply it before you pay.</CardDescription>
          </CardHeader>
          <CardContent>
            <form
              className="flex gap-2"
              onSubmit={(e) => {
                e.preventDefault();
                applyCoupon();
              }}
            >
              <Label htmlFor="coupon" className="sr-only">
                Coupon code
              </Label>
              <Input
                id="coupon"
                name="coupon"
                value={code}
                onChange={(e) => setCode(e.target.value.toUpperCase())}
                placeholder="Enter coupon code"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={64}
                disabled={processing || !!applied}
                className="font-mono uppercase tracking-wider placeholder:font-sans placeholder:normal-case placeholder:tracking-normal"
                data-testid="coupon-input"
              />
              {applied ? (
                // distinct keys: React must not reuse the Remove button as the submit button
                // while its click is still being handled (that submitted the emptied form)
                <Button key="remove" type="button" variant="outline" onClick={removeCoupon} disabled={processing} data-testid="coupon-remove">
                  <X /> Remove
                </Button>
              ) : (
                <Button key="apply" type="submit" variant="secondary" disabled={applying || processing} data-testid="coupon-apply">
                  {applying && <Loader2 className="animate-spin" />} Apply
                </Button>
              )}
            </form>
            {applied && (
              <p className="mt-3 flex items-center gap-1.5 text-sm text-success" data-testid="coupon-applied">
                <CheckCircle2 className="h-4 w-4" aria-hidden="true" />
                <span>
                  <span className="font-mono font-semibold">{applied.code}</span> applied: you save {money(applied.discountAmount)}.
                </span>
              </p>
            )}
          </CardContent>
        </Card>

        <div ref={payRef} data-testid="pay-card">
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              {quote.freeGrant ? <Gift className="h-5 w-5 text-primary" aria-hidden="true" /> : <Lock className="h-5 w-5 text-primary" aria-hidden="true" />}{' '}
              {showProvider ? 'Pay securely' : quote.freeGrant ? 'Free grant' : 'Nothing to pay'}
            </CardTitle>
            <CardDescription>
              {showProvider
                ? 'Payments are processed by PayPal in USD. Meritmark never sees your card or bank details.'
                : quote.freeGrant
                  ? 'Your coupon covers the whole fee. Apply it to send your application for review.'
                  : 'There is no fee to pay for this application.'}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            {error && (
              <div role="alert" className="rounded-lg border border-destructive/50 bg-destructive/10 px-4 py-3 text-sm" data-testid="payment-error">
                <p className="flex items-center gap-2 font-semibold text-destructive">
                  <AlertCircle className="h-4 w-4" aria-hidden="true" /> Payment Error
                </p>
                <p className="mt-1 text-foreground">{error}</p>
              </div>
            )}

            {quote.freeGrant && (
              <Button size="lg" variant="success" className="w-full" onClick={applyFreeGrant} disabled={processing} data-testid="free-grant">
                {processing ? <Loader2 className="animate-spin" /> : <Gift />} Apply Free Grant Coupon
              </Button>
            )}

            {showProvider && provider.mode === 'paypal' && (
              <PayPalButtons clientId={provider.clientId || ''} disabled={processing} createOrder={createOrder} onOrderError={orderError} onApprove={verify} onCancel={cancelled} onError={providerError} onStart={() => { setError(null); setProcessing(true); }} />
            )}

            {showProvider && provider.mode !== 'paypal' && (
              <div>
                <button
                  type="button"
                  onClick={startSimulator}
                  disabled={processing}
                  data-testid="paypal-sim-button"
                  className={cn(
                    'flex h-12 w-full items-center justify-center gap-2 rounded-md bg-[#ffc439] text-[#111] shadow-sm transition hover:brightness-95 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 ring-offset-background',
                    'disabled:cursor-not-allowed disabled:opacity-60',
                  )}
                >
                  {processing && <Loader2 className="h-5 w-5 animate-spin" aria-hidden="true" />}
                  <PayPalMark />
                  <span className="font-semibold">(sandbox simulator)</span>
                  <span className="sr-only">Pay {money(quote.finalAmount)} with PayPal (sandbox simulator)</span>
                </button>
                <p className="mt-2 text-center text-xs text-muted-foreground">
                  Sandbox simulator: this server has no PayPal credentials, so no real money moves.
                </p>
                <RefreshLink />
              </div>
            )}
          </CardContent>
        </Card>
        </div>
      </div>

      <div className="order-first lg:order-none lg:col-span-2 lg:sticky lg:top-24">
        <OrderSummary badgeName={badge.name} quote={quote} />
      </div>

      {(showProvider || quote.freeGrant) && (
        <div
          className={cn(
            'fixed inset-x-0 bottom-0 z-40 border-t bg-background/95 px-4 pt-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] shadow-[0_-4px_12px_rgba(0,0,0,0.08)] backdrop-blur lg:hidden',
            !payBelow && 'hidden',
          )}
          data-testid="pay-bar"
        >
          <div className="mx-auto flex max-w-xl items-center justify-between gap-3">
            <p className="text-sm">
              <span className="block text-muted-foreground">Total</span>
              <span className="text-lg font-bold" data-testid="pay-bar-total">{money(quote.finalAmount)}</span>
            </p>
            <Button size="lg" variant={quote.freeGrant ? 'success' : 'default'} onClick={barAction} disabled={processing} data-testid="pay-bar-start">
              {processing ? <Loader2 className="animate-spin" /> : quote.freeGrant ? <Gift /> : <Lock />}
              {quote.freeGrant ? 'Apply Free Grant Coupon' : `Pay ${money(quote.finalAmount)}`}
            </Button>
          </div>
        </div>
      )}

      <Dialog open={!!simOrder} onOpenChange={(open) => !open && !simBusy && cancelled()}>
        <DialogContent data-testid="paypal-sim-dialog" aria-describedby="sim-desc">
          <DialogHeader>
            <DialogTitle className="flex items-center gap-2">
              <PayPalMark small adaptive /> <span>Sandbox simulator</span>
            </DialogTitle>
            <DialogDescription id="sim-desc">Choose how the simulated PayPal buyer answers this order. No real money moves.</DialogDescription>
          </DialogHeader>
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 rounded-lg border bg-muted/40 p-4 text-sm">
            <dt className="text-muted-foreground">Merchant</dt>
            <dd className="text-right font-medium">Meritmark</dd>
            <dt className="text-muted-foreground">Order</dt>
            <dd className="truncate text-right font-mono text-xs leading-5" data-testid="sim-order-id">{simOrder}</dd>
            <dt className="text-muted-foreground">Amount</dt>
            <dd className="text-right text-base font-semibold">{money(quote.finalAmount)} USD</dd>
          </dl>
          {simBusy && (
            <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
              <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Confirming your payment with PayPal…
            </p>
          )}
          <DialogFooter className="sm:justify-between">
            <Button variant="ghost" onClick={cancelled} disabled={!!simBusy} data-testid="sim-cancel">
              Cancel
            </Button>
            <div className="flex flex-col-reverse gap-2 sm:flex-row">
              <Button variant="outline" onClick={() => simDecide('decline')} disabled={!!simBusy} data-testid="sim-decline">
                Decline
              </Button>
              <Button variant="outline" onClick={() => simDecide('pending')} disabled={!!simBusy} data-testid="sim-pending">
                Pending
              </Button>
              <Button onClick={() => simDecide('approve')} disabled={!!simBusy} data-testid="sim-approve">
                {simBusy === 'approve' && <Loader2 className="animate-spin" />} Approve
              </Button>
            </div>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </div>
  );
}
