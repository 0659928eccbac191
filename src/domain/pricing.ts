/**
 * Order pricing: subtotal, promotion discount, shipping and total.
 *
 * This module holds the pricing arithmetic. The cart and checkout show its numbers, and the
 * database function `create_order` does the same arithmetic in SQL; tests/fixtures/pricing-cases.json
 * holds the cases both must agree on. Which codes exist and their rules (dates, uses, minimum,
 * scope) live only in the database: the checkout asks `check_promotion` and prices with its answer
 * (the promotion's type and value and which lines its scope matches).
 *
 * Rules:
 * - Coupon codes are trimmed and upper-cased.
 * - A 'percent' promotion takes its whole percent off the matching lines' amount, rounded half-up
 *   to the centavo; a 'fixed' one takes its amount off them, never more than they add up to; a
 *   'shipping' one makes shipping free. Lines not marked `eligible: false` match.
 * - Shipping is $99.00 when the subtotal is below $2,999.00 and free from $2,999.00 on. The
 *   threshold is compared with the subtotal BEFORE the discount, the same number the free-shipping
 *   progress bar shows (progress = subtotal / 2999), so a coupon never takes free shipping away.
 * - An empty order has no shipping (nothing to ship); the database refuses empty orders anyway.
 * - total = subtotal − discount + shipping.
 */
import { addCentavos, type Centavos, multiplyCentavos, centavos, percentOfCentavos, toPesos } from './money.ts';
import { percent as percentOf } from './percent.ts';

const ZERO = centavos(0);

export const FREE_SHIPPING_THRESHOLD = centavos(299_900);
export const SHIPPING_COST = centavos(9_900);

/** A promotion as the database's check describes it (src/data/promotions.ts reads it). */
export interface AppliedPromotion {
  code: string;
  type: 'percent' | 'fixed' | 'shipping';
  /** Whole percent off for 'percent', centavos off for 'fixed', 0 for 'shipping'. */
  value: number;
}

/** A coupon code as the shop compares it: trimmed and upper-cased. */
export function normalizeCouponCode(input: string | null | undefined): string {
  return (input ?? '').trim().toUpperCase();
}

/** One priced line: unit price in centavos, a whole quantity, and whether the promotion matches it. */
export interface PricedLine {
  priceCentavos: Centavos;
  quantity: number;
  /** false when the promotion's scope leaves the line out; anything else matches. */
  eligible?: boolean;
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

/** Discount in centavos that a promotion gives on the lines its scope matches. */
export function discountCentavos(lines: readonly PricedLine[], promotion: AppliedPromotion | null): Centavos {
  if (!promotion || promotion.type === 'shipping') return ZERO;
  const matching = subtotalCentavos(lines.filter((line) => line.eligible !== false));
  if (promotion.type === 'percent') return percentOfCentavos(matching, promotion.value);
  return centavos(Math.min(promotion.value, matching));
}

/**
 * The discount line by line, to show under each line: the order's discount shared among the
 * matching lines in proportion to their amounts (floored), the last matching line taking what is
 * left, so the lines add up to discountCentavos exactly. 0 for the lines it does not match.
 */
export function lineDiscountsCentavos(lines: readonly PricedLine[], promotion: AppliedPromotion | null): Centavos[] {
  const total = BigInt(discountCentavos(lines, promotion));
  const matching = BigInt(subtotalCentavos(lines.filter((line) => line.eligible !== false)));
  const last = lines.findLastIndex((line) => line.eligible !== false && lineTotalCentavos(line) > 0);
  let given = 0n;
  return lines.map((line, i) => {
    if (total === 0n || line.eligible === false) return ZERO;
    if (i === last) return centavos(Number(total - given));
    const share = (total * BigInt(lineTotalCentavos(line))) / matching;
    given += share;
    return centavos(Number(share));
  });
}

/** Shipping in centavos for a subtotal (before discount) and promotion. */
export function shippingCentavos(subtotal: Centavos, promotion: AppliedPromotion | null): Centavos {
  if (subtotal <= 0) return ZERO;
  if (promotion?.type === 'shipping') return ZERO;
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
 * centavos (what the shop computes and shows), and the promotion that was applied.
 */
export interface OrderAmounts extends Amounts<number> {
  centavos: Amounts<Centavos>;
  /** The applied promotion; null when none. */
  promotion: AppliedPromotion | null;
}

/**
 * Prices an order: the one arithmetic the cart, checkout and (in SQL) the database follow.
 * @example computeOrderAmounts([{ priceCentavos: centavos(33333), quantity: 1 }], { code: 'X', type: 'percent', value: 10 })
 *   // { subtotal: 333.33, discount: 33.33, shipping: 99, total: 399, … }
 */
export function computeOrderAmounts(lines: readonly PricedLine[], promotion: AppliedPromotion | null = null): OrderAmounts {
  const subtotal = subtotalCentavos(lines);
  const discount = discountCentavos(lines, promotion);
  const shipping = shippingCentavos(subtotal, promotion);
  const total = addCentavos(subtotal, centavos(-discount), shipping);
  const inCentavos = { subtotal, discount, shipping, total };
  return {
    subtotal: toPesos(subtotal),
    discount: toPesos(discount),
    shipping: toPesos(shipping),
    total: toPesos(total),
    centavos: inCentavos,
    promotion,
  };
}
