// The checkout's data: the server's quote (dollars) and the payment provider.
/** A quote from the server (dollars); with a coupon also the coupon validation answer. */
export type Quote = {
  code?: string;
  name?: string;
  description?: string;
  discountType?: 'percentage' | 'fixed' | string;
  discountValue: number;
  originalAmount: number;
  discountAmount: number;
  minimumAdjustment: number;
  minimumAdjusted: boolean;
  processingFee: number;
  finalAmount: number;
  freeGrant: boolean;
  currency: string;
};

export type Provider = { mode: 'simulator' | 'paypal' | string; clientId?: string; simulatorPath?: string };

export function discountLabel(q: Quote): string {
  if (!q.code) return 'Discount';
  return q.discountType === 'percentage' ? `Discount (${q.code}, ${q.discountValue}% off)` : `Discount (${q.code})`;
}
