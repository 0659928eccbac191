/**
 * Order pricing: subtotal, coupon discount, shipping and total.
 *
 * This module is the single source of the pricing rules. The cart and checkout show its numbers,
 * and the database function `create_order` mirrors it in SQL; tests/fixtures/pricing-cases.json
 * holds the cases both must agree on.
 *
 * Rules:
 * - Coupon codes are trimmed and upper-cased. MEKACAT10 takes 10% off the subtotal, rounded half-up
 *   to the centavo. ENVIOGRATIS makes shipping free. Any other code is not applied (no discount).
 * - Shipping is $99.00 when the subtotal is below $2,999.00 and free from $2,999.00 on. The
 *   threshold is compared with the subtotal BEFORE the discount, the same number the free-shipping
 *   progress bar shows (progress = subtotal / 2999), so a coupon never takes free shipping away.
 * - An empty order has no shipping (nothing to ship); the database refuses empty orders anyway.
 * - total = subtotal − discount + shipping.
 */
import { addCentavos, type Centavos, multiplyCentavos, centavos, percentOfCentavos, toPesos } from './money.ts';
import { percent as percentOf } from './percent.ts';
import { COUPON_MESSAGES } from '../i18n/cart.ts';

const ZERO = centavos(0);

export const FREE_SHIPPING_THRESHOLD = centavos(299_900);
export const SHIPPING_COST = centavos(9_900);

/** A coupon the shop accepts (the client-side coupon of the specification). */
export interface Coupon {
  code: string;
  type: 'percent' | 'shipping';
  /** Percent off for 'percent' coupons; 0 for 'shipping' coupons. */
  value: number;
}

export const COUPONS: Readonly<Record<string, Coupon>> = {
  MEKACAT10: { code: 'MEKACAT10', type: 'percent', value: 10 },
  ENVIOGRATIS: { code: 'ENVIOGRATIS', type: 'shipping', value: 0 },
};

/** Outcome of typing a coupon code into the coupon form. */
export interface CouponResult {
  status: 'applied' | 'invalid' | 'removed';
  coupon: Coupon | null;
  /** Message to show; empty when the coupon was removed. */
  message: string;
}

/** A coupon code as the shop compares it: trimmed and upper-cased. */
export function normalizeCouponCode(input: string | null | undefined): string {
  return (input ?? '').trim().toUpperCase();
}

/** The coupon for a typed code, or null when the code is empty or unknown. */
export function findCoupon(input: string | null | undefined): Coupon | null {
  const code = normalizeCouponCode(input);
  return Object.hasOwn(COUPONS, code) ? (COUPONS[code] ?? null) : null;
}

/**
 * Applies a typed coupon code: known code → applied; anything else, an empty code included, → invalid
 * ('⚠️ Cupón no válido.', the coupon cleared), as the specification says.
 */
export function applyCoupon(input: string | null | undefined): CouponResult {
  const code = normalizeCouponCode(input);
  const coupon = findCoupon(code);
  if (!coupon) return { status: 'invalid', coupon: null, message: COUPON_MESSAGES.invalid };
  return { status: 'applied', coupon, message: COUPON_MESSAGES[coupon.type] };
}

/** One priced line: unit price in centavos and a whole quantity. */
export interface PricedLine {
  priceCentavos: Centavos;
  quantity: number;
}

/** Line amount in centavos: unit price × quantity. */
export function lineTotalCentavos(line: PricedLine): Centavos {
  if (!Number.isSafeInteger(line.quantity) || line.quantity < 0) {
    throw new RangeError(`invalid quantity: ${String(line.quantity)}`);
  }
  if (line.priceCentavos < 0) throw new RangeError(`invalid price: ${String(line.priceCentavos)}`);
  return multiplyCentavos(line.priceCentavos, line.quantity);
}

/** Sum of the line amounts in centavos. */
export function subtotalCentavos(lines: readonly PricedLine[]): Centavos {
  return addCentavos(ZERO, ...lines.map(lineTotalCentavos));
}

/** Discount in centavos that a coupon gives on a subtotal. */
export function discountCentavos(subtotal: Centavos, coupon: Coupon | null): Centavos {
  if (!coupon || coupon.type !== 'percent') return ZERO;
  return percentOfCentavos(subtotal, coupon.value);
}

/** Shipping in centavos for a subtotal (before discount) and coupon. */
export function shippingCentavos(subtotal: Centavos, coupon: Coupon | null): Centavos {
  if (subtotal <= 0) return ZERO;
  if (coupon?.type === 'shipping') return ZERO;
  return subtotal >= FREE_SHIPPING_THRESHOLD ? ZERO : SHIPPING_COST;
}

/** How far a subtotal is from free shipping, for the progress bar. */
export interface FreeShippingProgress {
  /** 0–100, whole percent of the threshold reached (floored, so 100 only when reached). */
  percent: number;
  remainingCentavos: Centavos;
  /** Remaining amount in pesos. */
  remaining: number;
  reached: boolean;
}

/** Progress towards free shipping: subtotal / $2,999.00 capped at 100%, and what is missing. */
export function freeShippingProgress(subtotal: Centavos): FreeShippingProgress {
  const clamped = Math.max(0, subtotal);
  const remainingCentavos = centavos(Math.max(0, FREE_SHIPPING_THRESHOLD - clamped));
  const percent = Math.min(100, Math.floor(percentOf(clamped, FREE_SHIPPING_THRESHOLD)));
  return { percent, remainingCentavos, remaining: toPesos(remainingCentavos), reached: remainingCentavos === 0 };
}

/** The four amounts of an order in one unit. */
export interface Amounts<T> {
  subtotal: T;
  discount: T;
  shipping: T;
  total: T;
}

/**
 * Amounts of an order in pesos (top level: what the database stores and the seed writes) and in
 * centavos (what the shop computes and shows), and the coupon that was applied.
 */
export interface OrderAmounts extends Amounts<number> {
  centavos: Amounts<Centavos>;
  /** The applied coupon; null when none was given or the code is unknown. */
  coupon: Coupon | null;
}

/**
 * Prices an order: the one function the cart, checkout and (in SQL) the database follow.
 * @example computeOrderAmounts([{ priceCentavos: centavos(33333), quantity: 1 }], 'mekacat10')
 *   // { subtotal: 333.33, discount: 33.33, shipping: 99, total: 399, … }
 */
export function computeOrderAmounts(lines: readonly PricedLine[], couponCode?: string | null): OrderAmounts {
  const coupon = findCoupon(couponCode);
  const subtotal = subtotalCentavos(lines);
  const discount = discountCentavos(subtotal, coupon);
  const shipping = shippingCentavos(subtotal, coupon);
  const total = addCentavos(subtotal, centavos(-discount), shipping);
  const inCentavos = { subtotal, discount, shipping, total };
  return {
    subtotal: toPesos(subtotal),
    discount: toPesos(discount),
    shipping: toPesos(shipping),
    total: toPesos(total),
    centavos: inCentavos,
    coupon,
  };
}
