/**
 * Checkout state that outlives a page: the coupon typed in the summary (kept across the sign-in
 * round trip), and the pending order created from the cart, so going back and continuing again
 * reuses it instead of reserving the stock twice.
 */
import { persistentAtom } from '@nanostores/persistent';
import { applyCoupon, type CouponResult } from '../domain/pricing.ts';
import type { CartItem } from './cart.ts';

/** The coupon code as typed (empty: none). */
export const $couponCode = persistentAtom<string>('checkout-coupon', '');

/** The pending order of this browser and the cart it was created from. */
export interface PendingOrder {
  orderId: string;
  signature: string;
}

export const $pendingOrder = persistentAtom<PendingOrder | null>('checkout-pending-order', null, {
  encode: (value) => JSON.stringify(value),
  decode: (raw) => {
    try {
      const parsed = JSON.parse(raw) as unknown;
      if (parsed && typeof parsed === 'object' && typeof (parsed as PendingOrder).orderId === 'string' && typeof (parsed as PendingOrder).signature === 'string') {
        return parsed as PendingOrder;
      }
    } catch {
      // An unreadable value is the same as none.
    }
    return null;
  },
});

/** Applies a typed coupon: remembers a known code, forgets anything else; returns the message to show. */
export function submitCoupon(input: string): CouponResult {
  const result = applyCoupon(input);
  $couponCode.set(result.status === 'applied' ? result.coupon!.code : '');
  return result;
}

/** Removes the coupon. */
export function removeCoupon(): void {
  $couponCode.set('');
}

/** What identifies an order's contents: products, quantities and coupon (prices come from the database). */
export function cartSignature(items: readonly Pick<CartItem, 'id' | 'quantity'>[], coupon: string): string {
  const lines = [...items].sort((a, b) => a.id.localeCompare(b.id)).map((i) => `${i.id}×${i.quantity}`);
  return `${lines.join(',')}|${coupon}`;
}

/** Remembers the order created from a cart. */
export function rememberPendingOrder(orderId: string, signature: string): void {
  $pendingOrder.set({ orderId, signature });
}

/** Forgets the pending order (paid, cancelled or expired). */
export function forgetPendingOrder(): void {
  $pendingOrder.set(null);
}
