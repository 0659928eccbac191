import { describe, expect, it } from 'vitest';
import { isListed, parseLiveProduct } from '~/domain/products';
import { toCentavos } from '~/domain/money';
import { parseCardProduct } from '~/scripts/card-add';
import { applyFilters, EMPTY_FILTERS, filtersFromQuery, filtersToQuery, parseExploreData, toExploreProduct, type ExploreProduct } from '~/domain/explore';
import { parseProduct } from '~/domain/product-schema';
import { prepareIndex, searchProducts, searchWithTotal, type SearchEntry } from '~/domain/name-matching/matching.ts';
import { exploreHref, seeAllLabel } from '~/islands/header-search/SearchPanel';

const names = [
  'Sobre Destined Rivals',
  'Caja de sobres Journey Together',
  'Lata Pikachu ex',
  'Evoluciones Prismáticas sobre',
  'Sobre Fuerzas Temporales',
  'Mazo de inicio',
  'Sobre Corona Estelar',
  'Sobre Chispas Fulgurantes',
  'Sobre Fábula Sombría',
  'Sobre Mascarada Crepuscular',
  'Sobre Evoluciones',
].sort(new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true }).compare);
// Alphabetical, as the build writes the search index.
const entries: SearchEntry[] = names.map((name, i) => [`p${i}`, name, '']);

function exploreProduct(id: string, name: string): ExploreProduct {
  return {
    id,
    name,
    priceCentavos: toCentavos(10),
    originalPriceCentavos: null,
    stock: 5,
    preorder: false,
    sale: false,
    franchiseId: 'pokemon',
    expansionId: null,
    typeId: null,
    image: '',
    released: '',
  };
}

describe('unavailable products are hidden everywhere', () => {
  it('only products not marked unavailable are listed', () => {
    expect(isListed({ available: true })).toBe(true);
    expect(isListed({ available: null })).toBe(true);
    expect(isListed({})).toBe(true);
    expect(isListed({ available: false })).toBe(false);
  });
});

describe('the buy box reads live rows without zod', () => {
  it('reads numeric strings as PostgREST sends them', () => {
    expect(parseLiveProduct({ id: 'a', price: '559.00', original_price: '699', discount: true, preorder: null, stock: '12', available: true })).toEqual({
      id: 'a',
      priceCentavos: 55900,
      originalPriceCentavos: 69900,
      discount: true,
      preorder: false,
      stock: 12,
      available: true,
      onSaleAt: null,
    });
  });
  it("reads a timed drop's instant", () => {
    expect(parseLiveProduct({ id: 'a', price: 10, on_sale_at: '2026-12-11T16:00:00+00:00' })?.onSaleAt).toBe('2026-12-11T16:00:00+00:00');
  });
  it('reads a numeric string and a JSON number into the same centavos', () => {
    expect(parseLiveProduct({ id: 'a', price: '1299.90' })?.priceCentavos).toBe(129990);
    expect(parseLiveProduct({ id: 'a', price: 1299.9 })?.priceCentavos).toBe(129990);
    expect(parseLiveProduct({ id: 'a', price: 1299.9, original_price: '1500' })?.originalPriceCentavos).toBe(150000);
    expect(parseLiveProduct({ id: 'a', price: 10 })?.originalPriceCentavos).toBeNull();
  });
  it('refuses rows that are not products', () => {
    expect(parseLiveProduct({ id: 'a', price: 1, original_price: 'antes' })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: 1, original_price: -3 })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: Number.POSITIVE_INFINITY })).toBeNull();
    expect(parseLiveProduct({ id: 'a' })).toBeNull();
    expect(parseLiveProduct(null)).toBeNull();
    expect(parseLiveProduct({ id: '', price: 1 })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: 'gratis' })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: -1 })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: 1, stock: 1.5 })).toBeNull();
    expect(parseLiveProduct({ id: 'a', price: 1, available: 'yes' })).toBeNull();
  });
  it('product cards read their button data the same way', () => {
    expect(parseCardProduct('{"id":"a","name":"A","priceCentavos":500,"stock":null,"image":""}')).toEqual({
      id: 'a',
      name: 'A',
      priceCentavos: 500,
      stock: null,
      image: '',
    });
    expect(parseCardProduct('{"id":"a","name":"A","priceCentavos":500,"stock":-1,"image":""}')).toBeNull();
    expect(parseCardProduct('{"id":"a","name":"A","priceCentavos":5.5,"stock":null,"image":""}')).toBeNull();
    // A page built before prices were centavos carries the price in pesos.
    expect(parseCardProduct('{"id":"a","name":"A","price":5.5,"stock":null,"image":""}')).toEqual({
      id: 'a',
      name: 'A',
      priceCentavos: 550,
      stock: null,
      image: '',
    });
    expect(parseCardProduct('{"id":"a","name":"A","price":-5,"stock":null,"image":""}')).toBeNull();
    expect(parseCardProduct('{"id":"a","name":"A","stock":null,"image":""}')).toBeNull();
    expect(parseCardProduct('no es json')).toBeNull();
  });
});

describe('the explore JSON carries prices in centavos', () => {
  const product = parseProduct({
    id: 'pk-a',
    name: 'Caja',
    price: '1299.90',
    original_price: 1500,
    stock: 4,
    franchise_id: 'pokemon',
    release_date: '2026-01-02',
  })!;

  it('is written from the snapshot product and read back as it was written', () => {
    const written = toExploreProduct(product, '/img/a.svg');
    expect(written).toMatchObject({ priceCentavos: 129990, originalPriceCentavos: 150000, sale: true, image: '/img/a.svg' });
    const data = {
      franchises: [{ id: 'pokemon', name: 'Pokémon' }],
      expansions: [{ id: 'x', name: 'X', franchiseId: 'pokemon' }],
      types: [],
      products: [written],
    };
    // Read back with the franchise name its own name lacks, which /explore?q= finds it by too.
    expect(parseExploreData(JSON.parse(JSON.stringify(data)))).toEqual({ ...data, products: [{ ...written, tags: 'pokemon' }] });
  });

  it('still reads a file cached from before (prices in pesos) and leaves out entries that are not products', () => {
    const parsed = parseExploreData({
      franchises: [],
      expansions: [],
      types: [],
      products: [
        { ...exploreProduct('old', 'Viejo'), priceCentavos: undefined, originalPriceCentavos: undefined, price: 1299.9, originalPrice: null },
        { ...exploreProduct('bad', 'Malo'), priceCentavos: 12.5 },
        { ...exploreProduct('neg', 'Negativo'), priceCentavos: -100 },
        { ...exploreProduct('orig', 'Original raro'), originalPriceCentavos: 'caro' },
        { id: 'sin-nombre', priceCentavos: 100 },
        exploreProduct('ok', 'Bien'),
      ],
    });
    expect(parsed?.products.map((p) => [p.id, p.priceCentavos, p.originalPriceCentavos])).toEqual([
      ['old', 129990, null],
      ['ok', 1000, null],
    ]);
    expect(parseExploreData([])).toBeNull();
    expect(parseExploreData({ franchises: [] })).toBeNull();
  });
});

describe('search reaches every match', () => {
  const index = prepareIndex(entries);
  it('counts every match while showing at most 8', () => {
    const { results, total } = searchWithTotal(index, 'sobre');
    expect(results).toHaveLength(8);
    expect(total).toBe(9);
    expect(searchProducts(index, 'sobre')).toEqual(results);
  });
  it("offers 'Ver todos los resultados (n)' leading to /explore?q=", () => {
    expect(seeAllLabel(9)).toBe('Ver todos los resultados (9)');
    expect(exploreHref(' fábula sombría ')).toBe('/explore?q=f%C3%A1bula+sombr%C3%ADa');
  });
  it('/explore filters by q with the same matches, in the same order', () => {
    const products = entries.map(([id, name]) => exploreProduct(id, name));
    const filters = filtersFromQuery('?q=sobre');
    expect(filters.q).toBe('sobre');
    expect(filtersToQuery(filters)).toBe('?q=sobre');
    const found = applyFilters(products, filters).map((p) => p.id);
    expect(found).toEqual(searchWithTotal(index, 'sobre', 100).results.map((e) => e[0]));
    expect(applyFilters(products, { ...EMPTY_FILTERS, q: 'FABULA' }).map((p) => p.name)).toEqual(['Sobre Fábula Sombría']);
    expect(applyFilters(products, EMPTY_FILTERS)).toHaveLength(products.length);
  });
});
