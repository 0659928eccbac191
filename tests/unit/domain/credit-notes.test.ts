import { describe, expect, it } from 'vitest';
import { creditNoteConcepts } from '~/domain/credit-notes.ts';
import { splitIva } from '~/domain/invoices.ts';
import { centavos } from '~/domain/money.ts';

describe('creditNoteConcepts', () => {
  it('credits the refunded amount in one concept with its IVA broken out, adding up exactly', () => {
    const [concept, ...rest] = creditNoteConcepts(centavos(116_000), 'Devolución del pedido #ABC123', 'ABC123');
    expect(rest).toEqual([]);
    expect(concept).toEqual({
      description: 'Devolución del pedido #ABC123',
      quantity: 1,
      productKey: '84111506',
      unitKey: 'ACT',
      sku: 'ABC123',
      amount: 116_000,
      discount: 0,
      base: 100_000,
      iva: 16_000,
    });
  });

  it('rounds the base half up to the centavo, as every factura does, for any partial amount', () => {
    for (const amount of [1, 2, 99, 20_000, 38_001, 123_457]) {
      const [concept] = creditNoteConcepts(centavos(amount), 'Devolución');
      expect(concept!.base + concept!.iva).toBe(amount);
      expect({ base: concept!.base, iva: concept!.iva }).toEqual(splitIva(centavos(amount)));
      // The IVA is within half a centavo of 16% of the base (SAT's tolerance per concept).
      expect(Math.abs(concept!.iva - concept!.base * 0.16)).toBeLessThanOrEqual(0.5 + 0.16);
    }
    expect(creditNoteConcepts(centavos(20_000), 'Devolución')[0]).toMatchObject({ base: 17_241, iva: 2_759 });
  });

  it('refuses an amount that is not a positive number of centavos', () => {
    expect(() => creditNoteConcepts(centavos(0), 'Devolución')).toThrow(RangeError);
    expect(() => creditNoteConcepts(centavos(-5), 'Devolución')).toThrow(RangeError);
    expect(() => creditNoteConcepts(centavos(10.5), 'Devolución')).toThrow(RangeError);
  });
});
