/**
 * The ways the shop gives an order's money back, as the server decides them for each order
 * (server/orders/refunds.ts refundOptions) and the back office's 'Cancelar y reembolsar' dialog
 * shows them: back through the provider that took it (card, PayPal), to the shopper's balance, or
 * as a bank transfer the shop made.
 */

/** The ways to refund (what the dialog sends as `way`). */
export const REFUND_WAYS = ['provider', 'store_credit', 'bank_transfer'] as const;
export type RefundWay = (typeof REFUND_WAYS)[number];

/** What the server answers for one order: the ways that fit it (the default first). */
export interface RefundOptions {
  ways: RefundWay[];
  /** Which provider 'provider' goes back through: 'card' or 'paypal'; null when none can. */
  provider: 'card' | 'paypal' | null;
  /** The order left the shop: its units return to stock only when the admin says they came back. */
  asksForRestock: boolean;
}
