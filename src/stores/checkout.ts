/**
 * Checkout state that outlives a page: the coupon typed in the summary (kept across the sign-in
 * round trip), and the pending order created from the cart, so going back and continuing again
 * reuses it instead of reserving the stock twice. The checkout's flows are actions here: bringing
 * the stored cart in line with the live catalogue, and placing the order (reuse, cancel or create
 * the pending order).
 */
import { atom } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import { cancelOrder, createOrder, fetchCartOffers, fetchCartProducts, loadOrder, type CheckoutOrder, type OrderItemRequest } from '~/data/checkout.ts';
import { $preorderWaitlist, waitlistSignature } from './preorders.ts';
import { reconcileCart } from '~/domain/cart-reconcile.ts';
import { safeCallApi } from '~/data/api.ts';
import { oxxoCancelAnswer } from '~/domain/api-answers.ts';
import { ADDRESS_INCOMPLETE_TEXT } from '~/i18n/addresses.ts';
import { CHECKOUT_MESSAGES, MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { isOrderOpen, ORDER_STATUS } from '~/domain/orders.ts';
import { normalizeCouponCode, type AppliedPromotion } from '~/domain/pricing.ts';
import { formatCentavos, centavos } from '~/domain/money.ts';
import { checkPromotion } from '~/data/promotions.ts';
import { COUPON_MESSAGES } from '~/i18n/cart.ts';
import { PROMOTION_COUPON_TEXT } from '~/i18n/promotions.ts';
import { $cart, lineKey, refreshCartLine, removeFromCart, type CartItem } from './cart.ts';

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
      if (
        parsed &&
        typeof parsed === 'object' &&
        typeof (parsed as PendingOrder).orderId === 'string' &&
        typeof (parsed as PendingOrder).signature === 'string'
      ) {
        return parsed as PendingOrder;
      }
    } catch {
      // An unreadable value is the same as none.
    }
    return null;
  },
});

/**
 * The database's answer for the applied code: the promotion, whether it matches each line (by line
 * key) and the cart it was asked about (its signature). Not stored: asked again on each page.
 */
interface CheckedPromotion {
  promotion: AppliedPromotion;
  eligible: Readonly<Record<string, boolean>>;
  signature: string;
}

export const $promotion = atom<CheckedPromotion | null>(null);

/**
 * The order's shipping address was refused when a payment started (409 'address_incomplete': an
 * address saved before the Mexican parts were asked, with the server's message naming the part).
 * The checkout takes the shopper back to the shipping step with that address open; cleared once
 * the order's address is saved again.
 */
interface AddressGap {
  orderId: string;
  message: string;
}

export const $addressGap = atom<AddressGap | null>(null);

/**
 * Looks at a payment endpoint's refusal: when it is the order's incomplete address, records it so
 * the checkout goes back to the address (true); any other answer changes nothing (false).
 */
export function noteAddressGap(orderId: string, answer: { ok: boolean; code?: string | null; message: string | null }): boolean {
  if (answer.ok || answer.code !== 'address_incomplete') return false;
  $addressGap.set({ orderId, message: answer.message ?? ADDRESS_INCOMPLETE_TEXT.generic });
  return true;
}

/** What the coupon form says once a promotion applies. */
export function appliedMessage(promotion: AppliedPromotion): string {
  if (promotion.type === 'shipping') return COUPON_MESSAGES.shipping;
  if (promotion.type === 'fixed') return PROMOTION_COUPON_TEXT.appliedFixed(formatCentavos(centavos(promotion.value)));
  return PROMOTION_COUPON_TEXT.appliedPercent(promotion.value);
}

/**
 * Applies a typed coupon to the cart: the database checks it (check_promotion) and answers the
 * promotion or why not. A code it accepts is remembered with its answer; a refused or empty one
 * takes the coupon off. Returns the message to show; when the check could not be made, the coupon
 * stays as it was.
 */
export async function submitCoupon(input: string, items: readonly CartItem[]): Promise<string> {
  const code = normalizeCouponCode(input);
  if (!code) {
    removeCoupon();
    return COUPON_MESSAGES.invalid;
  }
  const answer = await checkPromotion(code, orderItems(items));
  if (answer === null) return PROMOTION_COUPON_TEXT.checkFailed;
  if (!answer.ok) {
    removeCoupon();
    return answer.message;
  }
  $couponCode.set(answer.promotion.code);
  $promotion.set({
    promotion: answer.promotion,
    eligible: Object.fromEntries(items.map((item, i) => [lineKey(item), answer.eligible[i] === true])),
    signature: cartSignature(items, answer.promotion.code),
  });
  return appliedMessage(answer.promotion);
}

/** Removes the coupon. */
export function removeCoupon(): void {
  $couponCode.set('');
  $promotion.set(null);
}

/**
 * What identifies an order's contents: products (and offers), quantities and coupon (prices come
 * from the database). A cart without offers keeps the signature it had before offers existed.
 */
export function cartSignature(items: readonly (Pick<CartItem, 'id' | 'quantity'> & { offerId?: string })[], coupon: string): string {
  const lines = items.map((i) => `${lineKey(i)}×${i.quantity}`).sort((a, b) => a.localeCompare(b));
  return `${lines.join(',')}|${coupon}`;
}

/** The lines create_order receives: product, offer for a single card, quantity; never a price. */
export function orderItems(items: readonly CartItem[]): OrderItemRequest[] {
  return items.map((i) => (i.offerId ? { product_id: i.id, offer_id: i.offerId, quantity: i.quantity } : { product_id: i.id, quantity: i.quantity }));
}

/** Remembers the order created from a cart. */
export function rememberPendingOrder(orderId: string, signature: string): void {
  $pendingOrder.set({ orderId, signature });
}

/** Forgets the pending order (paid, cancelled or expired). */
export function forgetPendingOrder(): void {
  $pendingOrder.set(null);
}

/**
 * Brings the stored cart in line with the live catalogue: gone products (and gone offers of single
 * cards) leave, prices and stock refresh, a single card's line by its offer. Returns the notices to
 * show; offline (or the backend down) the cart stays as stored, since create_order checks
 * everything anyway.
 */
export async function reconcileCartWithLive(): Promise<string[]> {
  const items = $cart.get();
  if (items.length === 0) return [];
  let live;
  let liveOffers;
  try {
    const offerIds = items.flatMap((i) => (i.offerId ? [i.offerId] : []));
    [live, liveOffers] = await Promise.all([fetchCartProducts([...new Set(items.map((i) => i.id))]), fetchCartOffers(offerIds)]);
  } catch {
    return [];
  }
  const notices: string[] = [];
  for (const change of reconcileCart(items, live, liveOffers)) {
    if (change.kind === 'remove') {
      removeFromCart(lineKey(change));
      notices.push(change.notice);
      continue;
    }
    refreshCartLine(lineKey(change), change);
    notices.push(...change.notices);
  }
  return notices;
}

/** Whether an order waits for its OXXO voucher. */
export function hasOpenVoucher(order: Pick<CheckoutOrder, 'payment_method' | 'oxxo_voucher'>): boolean {
  return order.payment_method === 'oxxo' && Boolean(order.oxxo_voucher);
}

/**
 * 'Cancelar la ficha': the server asks Stripe to cancel the voucher first, and cancels the order
 * only then. A voucher the store already took pays the order instead; the answer says so.
 */
export async function cancelPendingVoucher(orderId: string): Promise<{ ok: boolean; paid: boolean; message: string | null }> {
  const answer = await safeCallApi('/api/payments/oxxo/cancel', { body: { orderId }, schema: oxxoCancelAnswer });
  if (!answer.ok || !answer.data) return { ok: false, paid: false, message: answer.message ?? CHECKOUT_MESSAGES.paymentError };
  if (answer.data.canceled) {
    forgetPendingOrder();
    return { ok: true, paid: false, message: null };
  }
  return { ok: false, paid: answer.data.status === ORDER_STATUS.paid, message: answer.data.message ?? null };
}

/** Outcome of placing the order: the order to continue with, or why not (and on which line). */
export type PlaceOrderResult =
  | { ok: true; order: CheckoutOrder }
  | {
      ok: false;
      message: string;
      signIn: boolean;
      lineErrors: Record<string, string>;
      /** The pending order whose OXXO voucher may be paid: never cancelled behind the shopper's back. */
      voucherOrder?: CheckoutOrder;
    };

function placeFailed(message: string, lineErrors: Record<string, string> = {}): PlaceOrderResult {
  return { ok: false, message, signIn: message === CHECKOUT_MESSAGES.signIn, lineErrors };
}

/**
 * 'Continuar con el envío': reuses this browser's pending order when it is still open and was
 * made from the same cart and coupon; otherwise cancels it (its stock goes back to the shelf)
 * and asks the database to create and price a new one.
 */
export async function placeOrder(items: readonly CartItem[], coupon: string): Promise<PlaceOrderResult> {
  try {
    const waitlist = $preorderWaitlist.get();
    const signature = cartSignature(items, coupon) + waitlistSignature(waitlist);
    const pending = $pendingOrder.get();
    if (pending) {
      const existing = await loadOrder(pending.orderId).catch(() => null);
      if (existing && isOrderOpen(existing) && pending.signature === signature) return { ok: true, order: existing };
      if (existing && existing.status === ORDER_STATUS.pending && hasOpenVoucher(existing)) {
        // The cart changed, but the voucher may already be paid at the store: the shopper decides.
        return { ok: false, message: MEXICAN_PAYMENT_MESSAGES.voucherOpen, signIn: false, lineErrors: {}, voucherOrder: existing };
      }
      if (existing && existing.status === ORDER_STATUS.pending) await cancelOrder(existing.id).catch(() => undefined);
      forgetPendingOrder();
    }
    const result = await createOrder(orderItems(items), coupon || null, waitlist);
    if (!result.ok) return placeFailed(result.message, result.line ? { [result.line.productId]: result.line.message } : {});
    rememberPendingOrder(result.orderId, signature);
    const order = await loadOrder(result.orderId);
    return order ? { ok: true, order } : placeFailed(CHECKOUT_MESSAGES.createProblem);
  } catch {
    return placeFailed(CHECKOUT_MESSAGES.createProblem);
  }
}
