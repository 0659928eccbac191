import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyCoupon,
  computeOrderAmounts,
  discountCentavos,
  findCoupon,
  freeShippingProgress,
  lineTotalCentavos,
  normalizeCouponCode,
  shippingCentavos,
  subtotalCentavos,
} from '~/domain/pricing';
import { COUPON_MESSAGES } from '~/i18n/cart.ts';

import { type Centavos, pricedLine } from '~/domain/money.ts';
// Amounts in centavos as the tests write them; values the code must refuse are passed unchecked.
const c = (n: number) => n as Centavos;

interface PricingCase {
  name: string;
  lines: { price: number; quantity: number }[];
  coupon: string | null;
  expected: { subtotal: number; discount: number; shipping: number; total: number };
}

const cases = JSON.parse(readFileSync(new URL('../../fixtures/pricing-cases.json', import.meta.url), 'utf8')) as PricingCase[];

describe('shared pricing cases (also run against the database)', () => {
  it('has a useful set of cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(15);
    const coupons = new Set(cases.map((c) => c.coupon?.trim().toUpperCase() ?? null));
    expect(coupons).toEqual(new Set([null, '', 'MEKACAT10', 'ENVIOGRATIS', 'DESCUENTO50']));
  });

  it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, pricingCase) => {
    const amounts = computeOrderAmounts(pricingCase.lines.map(pricedLine), pricingCase.coupon);
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

describe('coupons', () => {
  it('normalises codes by trimming and upper-casing', () => {
    expect(normalizeCouponCode('  mekacat10 ')).toBe('MEKACAT10');
    expect(normalizeCouponCode(null)).toBe('');
    expect(findCoupon('envioGratis')?.type).toBe('shipping');
    expect(findCoupon('toString')).toBeNull();
    expect(findCoupon('MEKACAT1')).toBeNull();
  });

  it('applies MEKACAT10 with its message', () => {
    expect(applyCoupon(' Mekacat10')).toEqual({
      status: 'applied',
      coupon: { code: 'MEKACAT10', type: 'percent', value: 10 },
      message: '🎉 Cupón aplicado: 10% de descuento.',
    });
  });

  it('applies ENVIOGRATIS with its message', () => {
    const result = applyCoupon('enviogratis');
    expect(result.status).toBe('applied');
    expect(result.coupon?.code).toBe('ENVIOGRATIS');
    expect(result.message).toBe('🚚 Envío gratis aplicado.');
  });

  it('clears the coupon for an unknown code with the invalid message', () => {
    expect(applyCoupon('HOLA')).toEqual({ status: 'invalid', coupon: null, message: '⚠️ Cupón no válido.' });
    expect(COUPON_MESSAGES.invalid).toBe('⚠️ Cupón no válido.');
  });

  it('an empty code clears the coupon with the invalid message, like any other unknown code', () => {
    expect(applyCoupon('   ')).toEqual({ status: 'invalid', coupon: null, message: '⚠️ Cupón no válido.' });
    expect(applyCoupon(undefined).message).toBe('⚠️ Cupón no válido.');
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
    expect(shippingCentavos(c(100), findCoupon('ENVIOGRATIS'))).toBe(0);
    expect(shippingCentavos(c(100), findCoupon('MEKACAT10'))).toBe(9900);
    expect(shippingCentavos(c(0), null)).toBe(0);
  });

  it('discounts only with a percent coupon', () => {
    expect(discountCentavos(c(33333), findCoupon('MEKACAT10'))).toBe(3333);
    expect(discountCentavos(c(33333), findCoupon('ENVIOGRATIS'))).toBe(0);
    expect(discountCentavos(c(33333), null)).toBe(0);
  });

  it('prices an empty cart at zero', () => {
    const amounts = computeOrderAmounts([], 'MEKACAT10');
    expect([amounts.subtotal, amounts.discount, amounts.shipping, amounts.total]).toEqual([0, 0, 0, 0]);
  });

  it('reports the applied coupon, or null for an unknown one', () => {
    expect(computeOrderAmounts([{ priceCentavos: c(1000), quantity: 1 }], 'enviogratis').coupon?.code).toBe('ENVIOGRATIS');
    expect(computeOrderAmounts([{ priceCentavos: c(1000), quantity: 1 }], 'NOPE').coupon).toBeNull();
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
