// The order summary beside the checkout: badge, price, coupon discount, total.
import { Card, CardContent, CardHeader, CardTitle } from '../ui';
import { money } from '../../lib/format';
import { Quote, discountLabel } from './model';

export function OrderSummary({ badgeName, quote }: { badgeName: string; quote: Quote }) {
  return (
    <Card data-testid="order-summary">
      <CardHeader>
        <CardTitle>Order summary</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="space-y-3 text-sm">
          <div className="flex justify-between gap-4">
            <dt className="min-w-0">
              <span className="block text-muted-foreground">Badge fee</span>
              <span className="block truncate font-medium">{badgeName}</span>
            </dt>
            <dd className="font-medium tabular-nums" data-testid="summary-fee">{money(quote.originalAmount)}</dd>
          </div>
          {quote.discountAmount > 0 && (
            <div className="flex justify-between gap-4 text-success">
              <dt>{discountLabel(quote)}</dt>
              <dd className="font-medium tabular-nums" data-testid="summary-discount">-{money(quote.discountAmount)}</dd>
            </div>
          )}
          {quote.minimumAdjusted && (
            <div>
              <div className="flex justify-between gap-4">
                <dt>Minimum adjustment</dt>
                <dd className="font-medium tabular-nums" data-testid="summary-minimum">+{money(quote.minimumAdjustment)}</dd>
              </div>
              <p className="mt-1 text-xs text-muted-foreground" data-testid="minimum-notice">
                PayPal payments must be at least $1.00, so the amount due was adjusted to $1.00.
              </p>
            </div>
          )}
          <div className="flex justify-between gap-4">
            <dt className="text-muted-foreground">Processing fee</dt>
            <dd className="tabular-nums">{money(quote.processingFee)}</dd>
          </div>
          <div className="flex items-baseline justify-between gap-4 border-t pt-3">
            <dt className="text-base font-semibold">Total</dt>
            <dd className="text-2xl font-bold tabular-nums" data-testid="summary-total">
              {money(quote.finalAmount)} <span className="text-xs font-medium text-muted-foreground">USD</span>
            </dd>
          </div>
        </dl>
      </CardContent>
    </Card>
  );
}

// --- PayPal's JS SDK (real credentials)
