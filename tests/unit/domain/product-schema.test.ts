import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { parseProduct } from '~/domain/product-schema.ts';

const sealed = { id: 'pk-etb-1', name: 'Elite Trainer Box', price: '1299.00', stock: 3 };

describe('product rows with their printing and offers', () => {
  it('reads a sealed product without singles data as no printing and no offers', () => {
    expect(parseProduct(sealed)).toMatchObject({ id: 'pk-etb-1', priceCentavos: centavos(129_900), printing: null, offers: [] });
    expect(parseProduct({ ...sealed, card_printings: null, card_offers: [] })).toMatchObject({ printing: null, offers: [] });
  });

  it('reads the embedded printing (an object, or a one-row array) and the offers in picker order', () => {
    const row = {
      ...sealed,
      id: 'op-single-op05-119',
      card_printings: { expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
      card_offers: [
        {
          id: 's1',
          condition: null,
          language: 'ja',
          finish: 'manga',
          price: '25000.00',
          stock: 1,
          grading_company: 'PSA',
          grade: '10.0',
          certificate_number: '7777',
        },
        { id: 'r2', condition: 'LP', language: 'en', finish: 'parallel', price: 950.5, original_price: '1100', stock: 0, position: 1 },
        { id: 'r1', condition: 'NM', language: 'en', finish: 'parallel', price: '1200', stock: '2', position: 0 },
      ],
    };
    const product = parseProduct(row)!;
    expect(product.printing).toEqual({ setCode: 'OP05', collectorNumber: 'OP05-119', rarity: 'SEC', nameEn: 'Monkey.D.Luffy', nameEs: null });
    expect(product.offers.map((offer) => offer.id)).toEqual(['r1', 'r2', 's1']);
    // Its price is the cheapest copy in stock and its stock every copy's, whatever the product row says.
    expect(product).toMatchObject({ priceCentavos: centavos(120_000), originalPriceCentavos: null, stock: 3 });
    expect(product.offers[1]).toMatchObject({ condition: 'LP', priceCentavos: centavos(95_050), originalPriceCentavos: centavos(110_000), stock: 0 });
    expect(product.offers[2]).toMatchObject({ gradingCompany: 'PSA', grade: 10, certificateNumber: '7777', condition: null });
    expect(parseProduct({ ...row, card_printings: [row.card_printings] })?.printing?.collectorNumber).toBe('OP05-119');
  });

  it('refuses a row whose offer is not a usable offer', () => {
    expect(parseProduct({ ...sealed, card_offers: [{ id: 'x', condition: 'MINT', language: 'en', finish: 'holo', price: 1, stock: 1 }] })).toBeNull();
    expect(parseProduct({ ...sealed, card_offers: [{ id: 'x', condition: 'NM', language: 'en', finish: 'holo', price: 1, stock: -1 }] })).toBeNull();
  });
});
