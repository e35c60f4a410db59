// PayPal on the checkout: the word mark, the JS SDK loaded once, its buttons, and the
// spec's 'PayPal not loading? Click to refresh' link.
import { useEffect, useRef, useState } from 'react';
import Loader2 from 'lucide-react/icons/loader-circle';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import { cn } from '../../lib/cn';

/** PayPal's word mark; adaptive lightens it on a dark background (the button is always yellow). */
export function PayPalMark({ small, adaptive }: { small?: boolean; adaptive?: boolean }) {
  return (
    <span aria-hidden="true" className={cn('font-extrabold italic tracking-tight', small ? 'text-lg' : 'text-xl')}>
      <span className={cn('text-[#003087]', adaptive && 'dark:text-[#6ea8ff]')}>Pay</span>
      {/* on the yellow button a darker blue (3:1 for the large bold mark) */}
      <span className={adaptive ? 'text-[#0070ba] dark:text-[#5bc0f0]' : 'text-[#0b5fa5]'}>Pal</span>
    </span>
  );
}

export type PayPalSDK = {
  Buttons: (opts: Record<string, unknown>) => { render: (el: HTMLElement) => Promise<void>; isEligible?: () => boolean };
};

let sdkPromise: Promise<PayPalSDK> | null = null;

export function loadSDK(clientId: string): Promise<PayPalSDK> {
  if (sdkPromise) return sdkPromise;
  sdkPromise = new Promise((resolve, reject) => {
    const s = document.createElement('script');
    s.src = `https://www.paypal.com/sdk/js?client-id=${encodeURIComponent(clientId)}&currency=USD&intent=capture&components=buttons`;
    s.async = true;
    s.onload = () => {
      const pp = (window as unknown as { paypal?: PayPalSDK }).paypal;
      if (pp) resolve(pp);
      else reject(new Error('PayPal SDK missing'));
    };
    s.onerror = () => {
      sdkPromise = null;
      reject(new Error('PayPal SDK failed to load'));
    };
    document.head.appendChild(s);
  });
  return sdkPromise;
}

export function PayPalButtons(p: {
  clientId: string;
  disabled: boolean;
  createOrder: () => Promise<string>;
  onOrderError: (e: unknown) => void;
  onApprove: (orderId: string) => Promise<void>;
  onCancel: () => void;
  onError: () => void;
  onStart: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const cb = useRef(p);
  useEffect(() => {
    cb.current = p;
  });
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    let gone = false;
    loadSDK(p.clientId)
      .then((pp) => {
        if (gone || !ref.current) return;
        return pp
          .Buttons({
            style: { layout: 'vertical', shape: 'rect', label: 'paypal', height: 45 },
            createOrder: async () => {
              cb.current.onStart();
              try {
                return await cb.current.createOrder();
              } catch (e) {
                cb.current.onOrderError(e);
                throw e;
              }
            },
            onApprove: (data: { orderID: string }) => cb.current.onApprove(data.orderID),
            onCancel: () => cb.current.onCancel(),
            onError: () => cb.current.onError(),
          })
          .render(ref.current)
          .then(() => !gone && setState('ready'));
      })
      .catch(() => !gone && setState('failed'));
    return () => {
      gone = true;
    };
  }, [p.clientId]);
  return (
    <div>
      {state === 'loading' && (
        <p className="flex h-12 items-center justify-center gap-2 rounded-md border border-dashed text-sm text-muted-foreground">
          <Loader2 className="h-4 w-4 animate-spin" aria-hidden="true" /> Loading PayPal…
        </p>
      )}
      {state === 'failed' && (
        <p className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm">PayPal could not be loaded. Check your connection or any content blocker, then refresh.</p>
      )}
      <div ref={ref} aria-busy={p.disabled} className={cn('relative z-0', p.disabled && 'pointer-events-none opacity-60')} data-testid="paypal-buttons" />
      <RefreshLink />
    </div>
  );
}

/** The spec's 'PayPal not loading? Click to refresh' (under the real button and the
 * simulator alike): a plain link to this page, so it works even if scripts stalled. */
export function RefreshLink() {
  return (
    <a
      href=""
      onClick={(e) => {
        e.preventDefault();
        window.location.reload();
      }}
      className="mt-2 flex w-full items-center justify-center gap-1.5 rounded-sm text-sm text-muted-foreground underline-offset-4 hover:text-foreground hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
      data-testid="paypal-refresh"
    >
      <RefreshCw className="h-3.5 w-3.5" aria-hidden="true" /> PayPal not loading? Click to refresh
    </a>
  );
}
