import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type AppliedPromotion,
  computeOrderAmounts,
  discountCentavos,
  freeShippingProgress,
  lineDiscountsCentavos,
  lineTotalCentavos,
  normalizeCouponCode,
  shippingCentavos,
  subtotalCentavos,
} from '~/domain/pricing';

import { type Centavos, pricedLine, toCentavos } from '~/domain/money.ts';
// Amounts in centavos as the tests write them; values the code must refuse are passed unchecked.
const c = (n: number) => n as Centavos;

interface PricingCase {
  name: string;
  lines: { price: number; quantity: number; product_type?: string; eligible?: boolean }[];
  coupon: string | null;
  /** The promotion the code names in the database (type, value in pesos for 'fixed', rules). */
  promotion?: { type: AppliedPromotion['type']; value: number; min_subtotal?: number };
  /** What the database answers when the code is refused; `expected` is then the cart without it. */
  refusal?: { detail: string; message: string };
  expected: { subtotal: number; discount: number; shipping: number; total: number };
}

const cases = JSON.parse(readFileSync(new URL('../../fixtures/pricing-cases.json', import.meta.url), 'utf8')) as PricingCase[];

/** The promotion as the checkout holds it after the database's check accepted the code. */
function applied(pricingCase: PricingCase): AppliedPromotion | null {
  const { promotion } = pricingCase;
  if (!promotion || pricingCase.refusal) return null;
  const value = promotion.type === 'fixed' ? toCentavos(promotion.value) : promotion.value;
  return { code: normalizeCouponCode(pricingCase.coupon), type: promotion.type, value };
}

const PERCENT_10: AppliedPromotion = { code: 'DIEZ', type: 'percent', value: 10 };
const FREE_SHIPPING: AppliedPromotion = { code: 'ENVIO', type: 'shipping', value: 0 };

describe('shared pricing cases (also run against the database)', () => {
  it('has a useful set of cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    const types = new Set(cases.map((c) => c.promotion?.type ?? null));
    expect(types).toEqual(new Set([null, 'percent', 'fixed', 'shipping']));
    expect(cases.some((c) => c.lines.some((l) => l.eligible === false))).toBe(true);
    expect(cases.filter((c) => c.refusal).map((c) => c.refusal!.detail)).toEqual(
      expect.arrayContaining(['coupon_invalid', 'coupon_minimum', 'coupon_not_applicable']),
    );
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, pricingCase) => {
    const lines = pricingCase.lines.map((line) => ({ ...pricedLine(line), eligible: line.eligible }));
    const amounts = computeOrderAmounts(lines, applied(pricingCase));
    expect({
      subtotal: amounts.subtotal,
      discount: amounts.discount,
      shipping: amounts.shipping,
      total: amounts.total,
    }).toEqual(pricingCase.expected);
    const { expected } = pricingCase;
    expect(amounts.centavos).toEqual({
      subtotal: Math.round(expected.subtotal * 100),
      discount: Math.round(expected.discount * 100),
      shipping: Math.round(expected.shipping * 100),
      total: Math.round(expected.total * 100),
    });
  });
});

describe('coupon codes', () => {
  it('normalises codes by trimming and upper-casing', () => {
    expect(normalizeCouponCode('  mekacat10 ')).toBe('MEKACAT10');
    expect(normalizeCouponCode(null)).toBe('');
    expect(normalizeCouponCode(undefined)).toBe('');
  });
});

describe('parts of the computation', () => {
  it('computes line and subtotal amounts', () => {
    expect(lineTotalCentavos(pricedLine({ price: '89.00', quantity: 3 }))).toBe(26700);
    expect(lineTotalCentavos({ priceCentavos: c(8900), quantity: 3 })).toBe(26700);
    expect(subtotalCentavos([])).toBe(0);
    expect(subtotalCentavos([pricedLine({ price: 0.1, quantity: 1 }), pricedLine({ price: 0.2, quantity: 1 })])).toBe(30);
  });

  it('turns a peso price (numeric string or number) into a centavo line', () => {
    expect(pricedLine({ price: '1299.90', quantity: 2 })).toEqual({ priceCentavos: 129990, quantity: 2 });
    expect(pricedLine({ price: 1299.9, quantity: 2 })).toEqual({ priceCentavos: 129990, quantity: 2 });
  });

  it('refuses impossible lines instead of pricing them', () => {
    expect(() => lineTotalCentavos({ priceCentavos: c(1000), quantity: -1 })).toThrow(RangeError);
    expect(() => lineTotalCentavos({ priceCentavos: c(1000), quantity: 1.5 })).toThrow(RangeError);
    expect(() => lineTotalCentavos({ priceCentavos: c(-1000), quantity: 1 })).toThrow(RangeError);
    expect(() => lineTotalCentavos({ priceCentavos: c(10.5), quantity: 1 })).toThrow(RangeError);
    expect(() => lineTotalCentavos(pricedLine({ price: 'gratis', quantity: 1 }))).toThrow(RangeError);
  });

  it('charges $99.00 shipping below $2,999.00 only', () => {
    expect(shippingCentavos(c(299899), null)).toBe(9900);
    expect(shippingCentavos(c(299900), null)).toBe(0);
    expect(shippingCentavos(c(100), FREE_SHIPPING)).toBe(0);
    expect(shippingCentavos(c(100), PERCENT_10)).toBe(9900);
    expect(shippingCentavos(c(0), null)).toBe(0);
  });

  it('discounts the matching lines with a percent or fixed promotion, nothing with free shipping', () => {
    const line = { priceCentavos: c(33333), quantity: 1 };
    expect(discountCentavos([line], PERCENT_10)).toBe(3333);
    expect(discountCentavos([line, { priceCentavos: c(50000), quantity: 1, eligible: false }], PERCENT_10)).toBe(3333);
    expect(discountCentavos([line], FREE_SHIPPING)).toBe(0);
    expect(discountCentavos([line], null)).toBe(0);
    expect(discountCentavos([line], { code: 'FIJO', type: 'fixed', value: 50000 })).toBe(33333);
    expect(discountCentavos([{ ...line, eligible: false }], { code: 'FIJO', type: 'fixed', value: 500 })).toBe(0);
  });

  it('shares the discount among the matching lines so they add up to it exactly', () => {
    const lines = [
      { priceCentavos: c(10001), quantity: 1 },
      { priceCentavos: c(5000), quantity: 1, eligible: false },
      { priceCentavos: c(3333), quantity: 3 },
    ];
    const shares = lineDiscountsCentavos(lines, { code: 'QUINCE', type: 'percent', value: 15 });
    expect(shares[1]).toBe(0);
    expect(shares.reduce((sum, n) => sum + n, 0)).toBe(discountCentavos(lines, { code: 'QUINCE', type: 'percent', value: 15 }));
    expect(shares).toEqual([1500, 0, 1500]);
    expect(lineDiscountsCentavos(lines, FREE_SHIPPING)).toEqual([0, 0, 0]);
    expect(lineDiscountsCentavos(lines, null)).toEqual([0, 0, 0]);
    expect(lineDiscountsCentavos([{ priceCentavos: c(189900), quantity: 1 }], { code: 'CAJAS15', type: 'percent', value: 15 })).toEqual([28485]);
  });

  it('prices an empty cart at zero', () => {
    const amounts = computeOrderAmounts([], PERCENT_10);
    expect([amounts.subtotal, amounts.discount, amounts.shipping, amounts.total]).toEqual([0, 0, 0, 0]);
  });

  it('reports the applied promotion, or null without one', () => {
    expect(computeOrderAmounts([{ priceCentavos: c(1000), quantity: 1 }], FREE_SHIPPING).promotion?.code).toBe('ENVIO');
    expect(computeOrderAmounts([{ priceCentavos: c(1000), quantity: 1 }]).promotion).toBeNull();
  });
});

describe('free-shipping progress', () => {
  it('is subtotal / 2999 with the remaining amount', () => {
    expect(freeShippingProgress(c(149950))).toEqual({
      percent: 50,
      remainingCentavos: 149950,
      remaining: 1499.5,
      reached: false,
    });
    expect(freeShippingProgress(c(0))).toEqual({ percent: 0, remainingCentavos: 299900, remaining: 2999, reached: false });
  });

  it('shows 100% only once the threshold is reached, and caps there', () => {
    expect(freeShippingProgress(c(299899)).percent).toBe(99);
    expect(freeShippingProgress(c(299899)).remaining).toBe(0.01);
    expect(freeShippingProgress(c(299900))).toEqual({ percent: 100, remainingCentavos: 0, remaining: 0, reached: true });
    expect(freeShippingProgress(c(1_000_000)).percent).toBe(100);
  });
});
