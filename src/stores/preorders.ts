/**
 * The shopper's choice at checkout for a cart with a preorder line: 'Si no alcanza, mantenerme en
 * lista de espera' (kept on the waitlist for the next shipment instead of refunded). Sent with
 * create_order; a changed choice makes a new order.
 */
import { atom } from 'nanostores';

export const $preorderWaitlist = atom(false);

/** What the checkout's order signature adds for the choice (nothing when not chosen). */
export function waitlistSignature(waitlist: boolean): string {
  return waitlist ? '|waitlist' : '';
}
