import { describe, expect, it } from 'vitest';
import { discountPercent, matchByName, productsForListing, resultsHeading, productIdFor, productImages, uniqueProductId, wrapIndex } from '~/domain/products';
import { parseProduct } from '~/domain/product-schema';
import { toCentavos } from '~/domain/money';

const row = {
  id: 'pk-boosterbox-journey-together',
  name: 'Caja de sobres Journey Together',
  price: '3299.00',
  original_price: '3599.00',
  discount: true,
  preorder: false,
  stock: 5,
  image: 'products/pk-boosterbox-journey-together-1.svg',
  images: ['products/pk-boosterbox-journey-together-2.svg'],
  franchise_id: 'pokemon',
  expansion_id: 'journey-together',
  product_type_id: 'booster-box',
  type: 'newArrivals',
};

describe('productSchema', () => {
  it('turns Postgres numeric strings into numbers, prices into centavos', () => {
    const product = parseProduct(row);
    expect(product).toMatchObject({ priceCentavos: 329900, originalPriceCentavos: 359900, stock: 5, discount: true, type: 'newArrivals' });
  });

  it('reads a price as a numeric string or a JSON number into the same centavos', () => {
    expect(parseProduct({ ...row, price: '1299.90' })?.priceCentavos).toBe(129990);
    expect(parseProduct({ ...row, price: 1299.9 })?.priceCentavos).toBe(129990);
    expect(parseProduct({ ...row, price: '0.1', original_price: 0.3 })).toMatchObject({ priceCentavos: 10, originalPriceCentavos: 30 });
    expect(parseProduct({ ...row, original_price: null })?.originalPriceCentavos).toBeNull();
    // The unit is in the name: no peso field is left on a parsed product.
    expect(parseProduct(row)).not.toHaveProperty('price');
    expect(parseProduct(row)).not.toHaveProperty('original_price');
  });

  it('accepts originalPrice and fills defaults for missing optional columns', () => {
    const product = parseProduct({ id: 'x', name: 'Sobre', price: 89, originalPrice: 99.5, images: null });
    expect(product).toMatchObject({
      priceCentavos: 8900,
      originalPriceCentavos: 9950,
      discount: false,
      preorder: false,
      stock: null,
      image: '',
      images: [],
      available: true,
      franchise_id: null,
    });
  });

  it('rejects rows that cannot be products', () => {
    expect(parseProduct({ ...row, price: 'caro' })).toBeNull();
    expect(parseProduct({ ...row, price: -1 })).toBeNull();
    expect(parseProduct({ ...row, price: '' })).toBeNull();
    expect(parseProduct({ ...row, price: Number.NaN })).toBeNull();
    expect(parseProduct({ ...row, price: null })).toBeNull();
    expect(parseProduct({ ...row, original_price: 'antes' })).toBeNull();
    expect(parseProduct({ ...row, original_price: '-5' })).toBeNull();
    expect(parseProduct({ ...row, id: '' })).toBeNull();
    expect(parseProduct({ ...row, stock: 1.5 })).toBeNull();
    expect(parseProduct(null)).toBeNull();
  });
});

describe('badges', () => {
  it('rounds the percent off from original price and price', () => {
    const percentOff = (price: number | string, original: number | string | null) =>
      discountPercent({ priceCentavos: toCentavos(price), originalPriceCentavos: original === null ? null : toCentavos(original) });
    expect(percentOff(3299, 3599)).toBe(8); // 8.33…
    expect(percentOff(75, 100)).toBe(25);
    expect(percentOff('66.50', '100.00')).toBe(34); // 33.5 rounds up
    expect(percentOff(100, 100)).toBeNull();
    expect(percentOff(100, null)).toBeNull();
    expect(percentOff(120, 100)).toBeNull();
    expect(percentOff(999.99, 1000)).toBeNull(); // rounds to 0%
    expect(discountPercent({ priceCentavos: null, originalPriceCentavos: toCentavos(100) })).toBeNull();
  });
});

describe('gallery', () => {
  it('lists the main image first without blanks or repeats', () => {
    expect(productImages({ image: 'a.svg', images: ['a.svg', ' ', 'b.svg'] })).toEqual(['a.svg', 'b.svg']);
    expect(productImages({ image: null, images: null })).toEqual([]);
  });

  it('wraps previous and next around', () => {
    expect(wrapIndex(3, 3)).toBe(0);
    expect(wrapIndex(-1, 3)).toBe(2);
    expect(wrapIndex(1, 3)).toBe(1);
    expect(wrapIndex(5, 0)).toBe(0);
  });
});

describe('listings', () => {
  const products = [
    {
      id: 'a',
      name: 'Caja de sobres Journey Together',
      priceCentavos: toCentavos(3299),
      franchise_id: 'pokemon',
      expansion_id: 'journey-together',
      product_type_id: 'booster-box',
      preorder: false,
    },
    {
      id: 'b',
      name: 'Sobre Destined Rivals',
      priceCentavos: toCentavos(89),
      originalPriceCentavos: toCentavos(99),
      franchise_id: 'pokemon',
      expansion_id: 'destined-rivals',
      product_type_id: 'booster-pack',
      preorder: true,
    },
    {
      id: 'c',
      name: 'Lata Pokémon',
      priceCentavos: toCentavos(499),
      discount: true,
      franchise_id: 'pokemon',
      expansion_id: 'journey-together',
      product_type_id: 'tin',
    },
    {
      id: 'd',
      name: 'Starter Deck OP-01',
      priceCentavos: toCentavos(349),
      franchise_id: 'one-piece',
      expansion_id: 'op-01',
      product_type_id: 'op-starter-deck',
    },
  ];
  const ids = (list: readonly { id: string }[]) => list.map((p) => p.id);

  it('filters by franchise, expansion and type', () => {
    expect(ids(productsForListing(products, { franchiseId: 'pokemon' }))).toEqual(['a', 'b', 'c']);
    expect(ids(productsForListing(products, { franchiseId: 'pokemon', expansionId: 'journey-together' }))).toEqual(['a', 'c']);
    expect(ids(productsForListing(products, { franchiseId: 'pokemon', typeId: 'tin' }))).toEqual(['c']);
    expect(ids(productsForListing(products, { franchiseId: 'one-piece', typeId: 'tin' }))).toEqual([]);
  });

  it('resolves the preorder and sale pseudo-types', () => {
    expect(ids(productsForListing(products, { franchiseId: 'pokemon', typeId: 'preorder' }))).toEqual(['b']);
    expect(ids(productsForListing(products, { franchiseId: 'pokemon', typeId: 'sale' }))).toEqual(['b', 'c']);
  });

  it('matches names ignoring case and accents', () => {
    expect(ids(matchByName(products, 'POKEMON'))).toEqual(['c']);
    expect(ids(matchByName(products, ' sobre'))).toEqual(['a', 'b']);
    expect(ids(matchByName(products, '  '))).toEqual(['a', 'b', 'c', 'd']);
    expect(matchByName(products, 'zzz')).toEqual([]);
  });

  it('writes the listing heading', () => {
    expect(resultsHeading(3, 'Pokémon')).toBe('Resultados (3) – POKÉMON');
  });
});

describe('product ids', () => {
  it('follows franchise-type-expansion with abbreviations', () => {
    expect(productIdFor('pokemon', 'booster-box', 'journey-together')).toBe('pk-boosterbox-journey-together');
    expect(productIdFor('pokemon', 'elite-trainer-box', 'destined-rivals')).toBe('pk-elitetrainerbox-destined-rivals');
    expect(productIdFor('one-piece', 'op-starter-deck', 'op-01')).toBe('op-starterdeck-op-01');
    expect(productIdFor('riftbound', 'rb-booster-box', 'origins')).toBe('rb-boosterbox-origins');
    expect(productIdFor('Digi Món', 'Caja Ñ', 'Set 1')).toBe('digimon-cajan-set-1');
  });

  it('adds the first free numeric suffix', () => {
    expect(uniqueProductId('pk-tin-xy-evolutions', [])).toBe('pk-tin-xy-evolutions');
    expect(uniqueProductId('a', ['a', 'a-2', 'a-3'])).toBe('a-4');
    expect(uniqueProductId('a', new Set(['a-2']))).toBe('a');
  });
});
