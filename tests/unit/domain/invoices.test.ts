import { describe, expect, it } from 'vitest';
import {
  cardFundingOf,
  globalInvoiceBreakdown,
  globalInvoicePeriod,
  InvoiceAmountsError,
  invoiceWindowEnd,
  isInvoiceWindowOpen,
  mexicoCityMonthRange,
  orderInvoiceBreakdown,
  paymentFormFor,
  splitIva,
  unitPricePesos,
} from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';

const c = centavos;

describe('splitIva', () => {
  it('splits an amount that includes 16% IVA, base rounded half up, IVA the rest', () => {
    expect(splitIva(c(11600))).toEqual({ base: 10000, iva: 1600 });
    // 1 centavo: 1/1.16 = 0.862 → base 1, IVA 0
    expect(splitIva(c(1))).toEqual({ base: 1, iva: 0 });
    // 0.29/1.16 = 0.25 exactly; 0.87/1.16 = 0.75 exactly
    expect(splitIva(c(29))).toEqual({ base: 25, iva: 4 });
    // 58/1.16 = 50 exactly; 59/1.16 = 50.86 → 51
    expect(splitIva(c(59))).toEqual({ base: 51, iva: 8 });
    expect(splitIva(c(0))).toEqual({ base: 0, iva: 0 });
  });

  it('is the nearest centavo: amount/1.16 never falls on exactly half a centavo, so no tie rule is needed', () => {
    for (let amount = 0; amount < 200_000; amount += 1) {
      // A tie would need amount·100 ≡ 58 (mod 116), i.e. 50·amount ≡ 29 (mod 58): even ≠ odd.
      expect((amount * 100) % 116).not.toBe(58);
    }
    for (const amount of [1, 2, 3, 57, 58, 59, 115, 116, 117, 99_999, 1_234_567]) {
      const exact = (amount * 100) / 116;
      expect(Math.abs(splitIva(c(amount)).base - exact)).toBeLessThan(0.5);
    }
  });

  it('always adds back to the amount, and IVA is within half a centavo of 16% of the base', () => {
    for (let amount = 0; amount < 50_000; amount += 7) {
      const { base, iva } = splitIva(c(amount));
      expect(base + iva).toBe(amount);
      expect(Math.abs(iva - base * 0.16)).toBeLessThanOrEqual(0.5 * 1.16 + 1e-9);
    }
  });
});

describe('orderInvoiceBreakdown', () => {
  it('one concept per line and shipping apart, adding up to what was paid', () => {
    const b = orderInvoiceBreakdown(
      {
        lines: [
          { description: 'Caja de sobres', quantity: 2, unitPrice: c(99900), productKey: '60141000', unitKey: 'H87', sku: 'p1' },
          { description: 'Carta suelta', quantity: 1, unitPrice: c(4550) },
        ],
        discount: c(0),
        shipping: c(14900),
        total: c(2 * 99900 + 4550 + 14900),
      },
      'Envío',
    );
    expect(b.concepts.map((x) => x.description)).toEqual(['Caja de sobres', 'Carta suelta', 'Envío']);
    expect(b.concepts[0]).toMatchObject({ amount: 199800, productKey: '60141000', unitKey: 'H87', sku: 'p1' });
    expect(b.concepts[1]).toMatchObject({ productKey: '01010101', unitKey: 'H87', sku: null });
    expect(b.concepts[2]).toMatchObject({ productKey: '78102203', unitKey: 'E48', amount: 14900, discount: 0 });
    expect(b.total).toBe(2 * 99900 + 4550 + 14900);
    expect(b.subtotal + b.iva).toBe(b.total);
    for (const concept of b.concepts) expect(concept.base + concept.iva).toBe(concept.amount);
  });

  it('spreads the discount over the product lines (not shipping) so the shares add up exactly', () => {
    const b = orderInvoiceBreakdown(
      {
        lines: [
          { description: 'A', quantity: 1, unitPrice: c(100) },
          { description: 'B', quantity: 1, unitPrice: c(100) },
          { description: 'C', quantity: 1, unitPrice: c(100) },
        ],
        discount: c(100),
        shipping: c(50),
        total: c(250),
      },
      'Envío',
    );
    expect(b.concepts.map((x) => x.discount)).toEqual([34, 33, 33, 0]);
    expect(b.concepts.map((x) => x.amount)).toEqual([66, 67, 67, 50]);
    expect(b.total).toBe(250);
  });

  it('no shipping concept when shipping is free; a fully discounted order has zero amounts', () => {
    const b = orderInvoiceBreakdown({ lines: [{ description: 'A', quantity: 3, unitPrice: c(333) }], discount: c(999), shipping: c(0), total: c(0) }, 'Envío');
    expect(b.concepts).toHaveLength(1);
    expect(b.concepts[0]).toMatchObject({ amount: 0, base: 0, iva: 0 });
  });

  it('refuses amounts that do not add up to the total', () => {
    const lines = [{ description: 'A', quantity: 1, unitPrice: c(1000) }];
    expect(() => orderInvoiceBreakdown({ lines, discount: c(0), shipping: c(0), total: c(999) }, 'Envío')).toThrow(InvoiceAmountsError);
    expect(() => orderInvoiceBreakdown({ lines, discount: c(2000), shipping: c(1000), total: c(0) }, 'Envío')).toThrow(InvoiceAmountsError);
    expect(() =>
      orderInvoiceBreakdown({ lines: [{ description: 'A', quantity: 0, unitPrice: c(1) }], discount: c(0), shipping: c(0), total: c(0) }, 'Envío'),
    ).toThrow(InvoiceAmountsError);
  });

  it('the unit price sent with taxes included times the quantity gives back the amount', () => {
    const concept = { amount: c(10000), quantity: 3 };
    expect(Math.round(unitPricePesos(concept) * concept.quantity * 100)).toBe(10000);
    expect(unitPricePesos({ amount: c(199800), quantity: 2 })).toBe(999);
  });
});

describe('paymentFormFor', () => {
  it('maps each method to its SAT form', () => {
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(0) })).toBe('04');
    expect(paymentFormFor({ method: 'oxxo', total: c(1000), creditApplied: c(0) })).toBe('01');
    expect(paymentFormFor({ method: 'paypal', total: c(1000), creditApplied: c(0) })).toBe('31');
    expect(paymentFormFor({ method: 'store_credit', total: c(1000), creditApplied: c(1000) })).toBe('17');
    expect(paymentFormFor({ method: null, total: c(1000), creditApplied: c(0) })).toBeNull();
  });

  it('with the balance and another method, the one that paid more; a tie goes to the other method', () => {
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(600) })).toBe('17');
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(500) })).toBe('04');
    expect(paymentFormFor({ method: 'paypal', total: c(1000), creditApplied: c(400) })).toBe('31');
  });

  it("a card follows its funding: credit '04', debit and prepaid '28', unknown or not recorded '04'", () => {
    const card = (cardFunding: string | null, installments: number | null = null) =>
      paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(0), cardFunding, installments });
    expect(card('credit')).toBe('04');
    expect(card('debit')).toBe('28');
    expect(card('prepaid')).toBe('28');
    expect(card('unknown')).toBe('04');
    expect(card(null)).toBe('04');
    expect(card('charge_card')).toBe('04');
  });

  it("meses sin intereses are a credit card's: '04' whatever funding was recorded", () => {
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(0), cardFunding: 'debit', installments: 6 })).toBe('04');
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(0), cardFunding: 'credit', installments: 12 })).toBe('04');
  });

  it('the funding of a card changes nothing when the balance paid more, or for other methods', () => {
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(600), cardFunding: 'debit' })).toBe('17');
    expect(paymentFormFor({ method: 'card', total: c(1000), creditApplied: c(500), cardFunding: 'debit' })).toBe('28');
    expect(paymentFormFor({ method: 'oxxo', total: c(1000), creditApplied: c(0), cardFunding: 'debit' })).toBe('01');
  });
});

describe('cardFundingOf', () => {
  it("keeps Stripe's four funding values and nothing else", () => {
    for (const funding of ['credit', 'debit', 'prepaid', 'unknown']) expect(cardFundingOf(funding)).toBe(funding);
    expect(cardFundingOf('Debit')).toBeNull();
    expect(cardFundingOf(null)).toBeNull();
    expect(cardFundingOf(3)).toBeNull();
  });
});

describe('invoice window', () => {
  it('ends at the first instant of the next month in Mexico City (UTC−6)', () => {
    // Paid 2026-11-15 12:00 Mexico City → window ends 2026-12-01 00:00 Mexico City = 06:00 UTC.
    expect(new Date(invoiceWindowEnd(Date.parse('2026-11-15T18:00:00Z'))).toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });

  it('uses the Mexico City month, not the UTC month, near midnight', () => {
    // 2026-12-01 03:00 UTC is still 30 November, 21:00 in Mexico City.
    const paid = Date.parse('2026-12-01T03:00:00Z');
    expect(new Date(invoiceWindowEnd(paid)).toISOString()).toBe('2026-12-01T06:00:00.000Z');
    expect(isInvoiceWindowOpen(paid, Date.parse('2026-12-01T05:59:59Z'))).toBe(true);
    expect(isInvoiceWindowOpen(paid, Date.parse('2026-12-01T06:00:00Z'))).toBe(false);
  });

  it('December rolls over to January of the next year', () => {
    expect(new Date(invoiceWindowEnd(Date.parse('2026-12-31T20:00:00Z'))).toISOString()).toBe('2027-01-01T06:00:00.000Z');
  });

  it('month ranges for the factura global', () => {
    const { from, to } = mexicoCityMonthRange(2026, 2);
    expect(new Date(from).toISOString()).toBe('2026-02-01T06:00:00.000Z');
    expect(new Date(to).toISOString()).toBe('2026-03-01T06:00:00.000Z');
    expect(() => mexicoCityMonthRange(2026, 13)).toThrow(RangeError);
  });
});

describe('factura global', () => {
  it('monthly periodicity, two-digit month, year', () => {
    expect(globalInvoicePeriod(2026, 3)).toEqual({ periodicity: '04', months: '03', year: 2026 });
    expect(() => globalInvoicePeriod(2026, 0)).toThrow(RangeError);
  });

  it('one concept per sale with its number, skipping sales of zero', () => {
    const b = globalInvoiceBreakdown(
      [
        { reference: 'A1B2C3', total: c(11600) },
        { reference: 'D4E5F6', total: c(0) },
        { reference: 'G7H8I9', total: c(101) },
      ],
      'Venta',
    );
    expect(b.concepts.map((x) => [x.sku, x.productKey, x.unitKey, x.quantity])).toEqual([
      ['A1B2C3', '01010101', 'ACT', 1],
      ['G7H8I9', '01010101', 'ACT', 1],
    ]);
    expect(b.total).toBe(11701);
    expect(b.iva).toBe(1600 + (101 - 87));
  });
});
