import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { offerItemCondition, productJsonLd, singleOffersJsonLd } from '~/domain/product-seo.ts';

const PAGE = 'https://tienda.mx/product/op-op05-119';

function single(offers: Array<Record<string, unknown>>, overrides: Record<string, unknown> = {}): Product {
  const parsed = parseProduct({
    id: 'op-op05-119',
    name: 'Monkey.D.Luffy OP05-119',
    price: 900,
    stock: null,
    franchise_id: 'one-piece',
    card_printings: { expansion: 'OP05', collector_number: 'OP05-119', rarity: 'SEC', name_en: 'Monkey.D.Luffy', name_es: null },
    card_offers: offers,
    ...overrides,
  });
  if (!parsed) throw new Error('carta de prueba no válida');
  return parsed;
}

const OFFERS = [
  { id: 'o1', condition: 'NM', language: 'en', finish: 'parallel', price: '1500', stock: 2 },
  { id: 'o2', condition: 'LP', language: 'en', finish: 'parallel', price: 1200, stock: 1 },
  { id: 'o3', condition: 'MP', language: 'ja', finish: 'parallel', price: 600, stock: 0 },
  { id: 'o4', condition: 'DMG', language: 'en', finish: 'normal', price: 300, stock: 1 },
  { id: 'o5', condition: null, language: 'en', finish: 'parallel', price: 9000, stock: 1, grading_company: 'PSA', grade: 10, certificate_number: '12345678' },
];

function graph(product: Product) {
  const json = productJsonLd(product, { url: PAGE, images: [], brand: 'One Piece', site: 'https://tienda.mx', crumbs: [{ name: 'Inicio', href: '/' }] });
  return (JSON.parse(json) as { '@graph': Array<Record<string, any>> })['@graph'][0]!;
}

describe('structured data of a single card', () => {
  it('is an AggregateOffer in MXN with the price range of the offers in stock and one Offer per offer', () => {
    const offers = graph(single(OFFERS)).offers;
    expect(offers).toMatchObject({
      '@type': 'AggregateOffer',
      priceCurrency: 'MXN',
      lowPrice: '300.00',
      highPrice: '9000.00',
      offerCount: 5,
      availability: 'https://schema.org/InStock',
    });
    expect(offers.offers).toHaveLength(5);
    const lp = offers.offers.find((o: { sku: string }) => o.sku === 'op-op05-119-lp-en-parallel');
    expect(lp).toEqual({
      '@type': 'Offer',
      url: `${PAGE}?oferta=lp-en-parallel`,
      name: 'Monkey.D.Luffy OP05-119 · LP · Inglés · Parallel',
      sku: 'op-op05-119-lp-en-parallel',
      price: '1200.00',
      priceCurrency: 'MXN',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/UsedCondition',
    });
  });

  it('marks a sold-out offer OutOfStock, a damaged one DamagedCondition and a slab a used card with its certificate in the link', () => {
    const offers: Array<Record<string, string>> = graph(single(OFFERS)).offers.offers;
    const byName = (text: string) => offers.find((o) => o.name!.includes(text))!;
    expect(byName('MP · Japonés')).toMatchObject({ availability: 'https://schema.org/OutOfStock', price: '600.00' });
    expect(byName('DMG · Inglés')).toMatchObject({ itemCondition: 'https://schema.org/DamagedCondition' });
    expect(byName('PSA 10 · Inglés')).toMatchObject({
      url: `${PAGE}?oferta=psa-12345678`,
      itemCondition: 'https://schema.org/UsedCondition',
      price: '9000.00',
    });
    expect(offerItemCondition({ condition: 'NM' })).toBe('https://schema.org/UsedCondition');
    expect(offerItemCondition({ condition: null })).toBe('https://schema.org/UsedCondition');
  });

  it('is out of stock with the range of every offer when none is left, or when the card is not for sale', () => {
    const soldOut = singleOffersJsonLd(single(OFFERS.slice(0, 3).map((o) => ({ ...o, stock: 0 }))), PAGE);
    expect(soldOut).toMatchObject({ lowPrice: '600.00', highPrice: '1500.00', offerCount: 3, availability: 'https://schema.org/OutOfStock' });
    const hidden = singleOffersJsonLd(single(OFFERS, { available: false }), PAGE);
    expect(hidden.availability).toBe('https://schema.org/OutOfStock');
    expect(hidden.offers.every((o) => o.availability === 'https://schema.org/OutOfStock')).toBe(true);
  });

  it('keeps a sealed product to its single new Offer', () => {
    const sealed = parseProduct({ id: 'op-box', name: 'Caja OP-05', price: 2999, stock: 4 })!;
    expect(graph(sealed).offers).toEqual({
      '@type': 'Offer',
      url: PAGE,
      price: '2999.00',
      priceCurrency: 'MXN',
      availability: 'https://schema.org/InStock',
      itemCondition: 'https://schema.org/NewCondition',
    });
  });
});
