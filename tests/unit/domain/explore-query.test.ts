/**
 * The /explore search over a fixture catalogue of sealed products and singles: it finds and orders
 * exactly what filtering the whole list finds (applyFilters), and every count it gives is the
 * number of results choosing that value would give, checked by choosing it.
 */
import { describe, expect, it } from 'vitest';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import {
  applyFilters,
  EMPTY_FILTERS,
  filtersFromQuery,
  filtersToQuery,
  parseExploreData,
  SORTS,
  type ExploreData,
  type ExploreFilters,
} from '~/domain/explore.ts';
import { forgetLastPrepared, ordersPatchedCount, scanCount, searchExplore } from '~/domain/explore-query.ts';
import { centavos } from '~/domain/money.ts';
import { CARD_CONDITIONS } from '~/domain/singles.ts';
import { fakeCatalog, seededRandom } from './name-matching/fake-catalog';

const random = seededRandom(7);
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const LANGUAGES = ['es', 'en', 'ja'];
const FINISHES = ['normal', 'holo', 'reverse'];
const RARITIES = ['C', 'R', 'SR', 'SEC'];

/** 800 products, a third of them singles with one to four copies (a few sold out, a few slabs). */
function fixture(): ExploreData {
  const products = fakeCatalog(800, 11).map((fake, i) => {
    const single = i % 3 === 0;
    const copies = Array.from({ length: 1 + Math.floor(random() * 4) }, () =>
      random() < 0.15 ? `G.${pick(LANGUAGES)}.${pick(FINISHES)}` : `${pick(CARD_CONDITIONS)}.${pick(LANGUAGES)}.${pick(FINISHES)}`,
    );
    const price = 50 + Math.floor(random() * 3000);
    return {
      id: fake.id,
      name: fake.name,
      priceCentavos: price * 100,
      originalPriceCentavos: random() < 0.1 ? price * 150 : null,
      stock: random() < 0.2 ? 0 : Math.floor(random() * 9) + 1,
      preorder: random() < 0.1,
      sale: random() < 0.15,
      franchiseId: fake.franchiseId,
      expansionId: fake.expansionId,
      typeId: fake.typeId,
      image: fake.image,
      released: `2025-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-01`,
      ...(single ? { card: `#${i} ~0`, rarity: pick(RARITIES), offers: random() < 0.1 ? '' : [...new Set(copies)].join(' ') } : {}),
    };
  });
  const data = parseExploreData(JSON.parse(JSON.stringify({ franchises, expansions, types: productTypes, products })));
  if (!data) throw new Error('fixture');
  return data;
}

const data = fixture();
const ids = (list: ReadonlyArray<{ id: string }>) => list.map((product) => product.id);

/** Random filter states: a word or none, some of every kind of filter, each order. */
function randomFilters(): ExploreFilters {
  const product = pick(data.products);
  const maybe = <T>(value: T, empty: T, chance = 0.35) => (random() < chance ? value : empty);
  const low = 200 + Math.floor(random() * 1000);
  return {
    ...EMPTY_FILTERS,
    q: maybe(product.name.split(' ')[1] ?? '', '', 0.3),
    franchise: maybe(product.franchiseId ?? '', ''),
    type: maybe(product.typeId ?? '', '', 0.2),
    expansion: maybe(product.expansionId ?? '', '', 0.2),
    inStock: random() < 0.3,
    preorder: random() < 0.1,
    sale: random() < 0.15,
    priceMin: maybe(centavos(low * 100), null, 0.2),
    priceMax: maybe(centavos((low + 800) * 100), null, 0.2),
    rarity: maybe(pick(RARITIES), '', 0.2),
    condition: maybe(pick(CARD_CONDITIONS), '', 0.25),
    language: maybe(pick(LANGUAGES), '', 0.25),
    finish: maybe(pick(FINISHES), '', 0.2),
    graded: random() < 0.1,
    sort: pick(SORTS),
  };
}

const countOf = (filters: ExploreFilters) => applyFilters(data.products, filters).length;

describe('searchExplore', () => {
  it('finds and orders what filtering the whole list does, page by page', () => {
    let nonEmpty = 0;
    for (let run = 0; run < 150; run += 1) {
      const filters = randomFilters();
      const expected = applyFilters(data.products, filters);
      const answer = searchExplore(data, filters, 0, 24);
      expect(answer.total, filtersToQuery(filters)).toBe(expected.length);
      expect(ids(answer.products), filtersToQuery(filters)).toEqual(ids(expected.slice(0, 24)));
      expect(ids(searchExplore(data, filters, 24, 24).products)).toEqual(ids(expected.slice(24, 48)));
      if (expected.length > 0) nonEmpty += 1;
    }
    // The random states are not all empty: the comparison means something.
    expect(nonEmpty).toBeGreaterThan(40);
  });

  it('gives each value the count of results choosing it gives, every other filter kept', () => {
    for (let run = 0; run < 60; run += 1) {
      const filters = randomFilters();
      const { facets } = searchExplore(data, filters, 0, 0);
      const where = filtersToQuery(filters);
      // Another franchise drops a type or expansion of the chosen one, as the form does.
      const ofFranchise = (options: typeof productTypes, id: string, franchise: string) =>
        (options.find((o) => o.id === id)?.franchiseId ?? franchise) === franchise;
      for (const option of facets.franchises) {
        const other = { ...filters, franchise: option.id };
        if (!ofFranchise(productTypes, other.type, option.id)) other.type = '';
        if (!ofFranchise(expansions, other.expansion, option.id)) other.expansion = '';
        expect(option.count, `${where} franquicia ${option.id}`).toBe(countOf(other));
      }
      if (!filters.type && !filters.expansion)
        expect(facets.franchises.every((option) => option.count === countOf({ ...filters, franchise: option.id }))).toBe(true);
      for (const option of facets.types) expect(option.count, `${where} tipo ${option.id}`).toBe(countOf({ ...filters, type: option.id }));
      for (const option of facets.expansions) expect(option.count, `${where} expansión ${option.id}`).toBe(countOf({ ...filters, expansion: option.id }));
      for (const option of facets.rarities) expect(option.count, `${where} rareza ${option.id}`).toBe(countOf({ ...filters, rarity: option.id }));
      for (const option of facets.conditions) expect(option.count, `${where} condición ${option.id}`).toBe(countOf({ ...filters, condition: option.id }));
      for (const option of facets.languages) expect(option.count, `${where} idioma ${option.id}`).toBe(countOf({ ...filters, language: option.id }));
      for (const option of facets.finishes) expect(option.count, `${where} acabado ${option.id}`).toBe(countOf({ ...filters, finish: option.id }));
      expect(facets.inStock, where).toBe(countOf({ ...filters, inStock: true }));
      expect(facets.preorder, where).toBe(countOf({ ...filters, preorder: true }));
      expect(facets.sale, where).toBe(countOf({ ...filters, sale: true }));
      expect(facets.graded, where).toBe(countOf({ ...filters, graded: true }));
      const unpriced = applyFilters(data.products, { ...filters, priceMin: null, priceMax: null }).map((product) => product.priceCentavos);
      expect(facets.price, where).toEqual(unpriced.length ? { min: Math.min(...unpriced), max: Math.max(...unpriced) } : null);
    }
  });

  it('lists every value that gives results and no other but the chosen one', () => {
    const filters = { ...EMPTY_FILTERS, franchise: 'one-piece', condition: 'NM' };
    const { facets } = searchExplore(data, filters, 0, 24);
    const languages = new Set(
      applyFilters(data.products, { ...filters, language: '' }).flatMap((product) =>
        (product.offers ?? '').split(' ').flatMap((token) => (token.startsWith('NM.') ? [token.split('.')[1]!] : [])),
      ),
    );
    expect(facets.languages.map((option) => option.id).sort()).toEqual([...languages].sort());
    expect(facets.conditions.every((option) => option.count > 0 || option.id === 'NM')).toBe(true);
    expect(facets.conditions.find((option) => option.id === 'NM')?.name).toBe('Casi nueva (NM)');
    // A type of another franchise is not offered once a franchise is chosen.
    expect(facets.types.every((option) => productTypes.find((type) => type.id === option.id)?.franchiseId === 'one-piece')).toBe(true);
  });

  it('reads the price range from the address in pesos and counts it as one filter', () => {
    const filters = filtersFromQuery('?precio_min=100&precio_max=500&orden=precio-asc');
    expect(filters).toMatchObject({ priceMin: 10_000, priceMax: 50_000, sort: 'precio-asc' });
    expect(filtersToQuery(filters)).toBe('?precio_min=100&precio_max=500&orden=precio-asc');
    expect(filtersFromQuery('?precio_min=abc&precio_max=-5')).toMatchObject({ priceMin: null, priceMax: null });
    const answer = searchExplore(data, filters, 0, 1000);
    expect(answer.total).toBeGreaterThan(0);
    expect(answer.products.every((product) => product.priceCentavos >= 10_000 && product.priceCentavos <= 50_000)).toBe(true);
    expect(answer.products.map((product) => product.priceCentavos)).toEqual(answer.products.map((product) => product.priceCentavos).sort((a, b) => a - b));
  });

  it('answers a change of order alone from the results it found for the same filters, in each order, without a new scan', () => {
    let checked = 0;
    for (let run = 0; run < 40; run += 1) {
      const filters = randomFilters();
      searchExplore(data, filters, 0, 24, 50);
      const scans = scanCount();
      for (const sort of SORTS) {
        const sorted = { ...filters, sort };
        const expected = applyFilters(data.products, sorted);
        const answer = searchExplore(data, sorted, 0, 24, 50);
        expect(answer.total, filtersToQuery(sorted)).toBe(expected.length);
        expect(ids(answer.products), filtersToQuery(sorted)).toEqual(ids(expected.slice(0, 24)));
        expect(ids(searchExplore(data, sorted, 24, 24, 50).products), filtersToQuery(sorted)).toEqual(ids(expected.slice(24, 48)));
        expect(answer.facets, filtersToQuery(sorted)).toEqual(searchExplore(data, { ...sorted, sort: filters.sort }, 0, 0, 50).facets);
        if (expected.length > 24) checked += 1;
      }
      expect(scanCount(), filtersToQuery(filters)).toBe(scans);
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('scans again once the stock changed (a new version), and for other filters', () => {
    const filters = { ...EMPTY_FILTERS, inStock: true, sort: 'precio-asc' as const };
    searchExplore(data, filters, 0, 24, 60);
    const scans = scanCount();
    searchExplore(data, { ...filters, sort: 'nombre' }, 0, 24, 60);
    expect(scanCount()).toBe(scans);
    const product = data.products.find((p) => (p.stock ?? 0) > 0 && p.offers === undefined)!;
    const stock = product.stock;
    product.stock = 0;
    try {
      const answer = searchExplore(data, { ...filters, sort: 'relevancia' }, 0, 10_000, 61);
      expect(scanCount()).toBe(scans + 1);
      expect(ids(answer.products)).not.toContain(product.id);
      expect(answer.total).toBe(applyFilters(data.products, filters).length);
    } finally {
      product.stock = stock;
    }
    searchExplore(data, { ...filters, inStock: false }, 0, 24, 61);
    expect(scanCount()).toBe(scans + 2);
  });

  it('sees a copy sold since the catalogue was read when the catalogue comes with a new version', () => {
    const single = data.products.find((product) => (product.offers ?? '').includes('.es.'))!;
    const filters = { ...EMPTY_FILTERS, q: '', language: 'es' };
    expect(ids(searchExplore(data, filters, 0, 10_000, 1).products)).toContain(single.id);
    const before = single.offers;
    single.offers = (single.offers ?? '')
      .split(' ')
      .filter((token) => !token.includes('.es.'))
      .join(' ');
    try {
      expect(ids(searchExplore(data, filters, 0, 10_000, 2).products)).not.toContain(single.id);
      expect(searchExplore(data, { ...filters, language: '' }, 0, 0, 2).facets.languages.find((option) => option.id === 'es')?.count).toBe(
        applyFilters(data.products, filters).length,
      );
    } finally {
      single.offers = before;
    }
    expect(ids(searchExplore(data, filters, 0, 10_000, 3).products)).toContain(single.id);
  });

  it('answers a catalogue read again with a few products changed as the same catalogue prepared whole', () => {
    // The catalogue as served (prepared), then read again with a few products changed: new
    // objects there, the same objects everywhere else, as the server reads it after an edit.
    searchExplore(data, EMPTY_FILTERS, 0, 1, 10);
    // A misspelt word, so the catalogue's typo words are made (and the next catalogue's patched from them).
    searchExplore(data, { ...EMPTY_FILTERS, q: 'renombarda' }, 0, 1, 10);
    const products = [...data.products];
    const edits: Array<(product: (typeof products)[number]) => Partial<(typeof products)[number]>> = [
      () => ({ name: 'Aaaa Primera Carta Renombrada' }),
      () => ({ name: 'Zzzz Última Carta Renombrada' }),
      (product) => ({ priceCentavos: centavos(product.priceCentavos + 123_400) }),
      () => ({ priceCentavos: centavos(1) }),
      () => ({ released: '2031-01-01' }),
      () => ({ franchiseId: 'one-piece', expansionId: null, typeId: null }),
      (product) => ({ preorder: !product.preorder, sale: !product.sale }),
      () => ({ stock: 0 }),
      () => ({ card: '#9999 ~0', rarity: 'UR', offers: 'NM.fr.foil-nuevo LP.fr.normal' }),
      () => ({ rarity: 'C', offers: 'G.es.holo' }),
      (product) => ({ name: `${product.name} Reimpresión`, priceCentavos: centavos(product.priceCentavos + 100) }),
    ];
    const changed = edits.map((edit, k) => {
      const i = 37 + k * 61;
      products[i] = { ...products[i]!, ...edit(products[i]!) };
      return products[i]!;
    });
    const edited = { ...data, products };
    const filtersToTry = [
      ...Array.from({ length: 80 }, randomFilters),
      ...SORTS.map((sort) => ({ ...EMPTY_FILTERS, sort })),
      ...SORTS.map((sort) => ({ ...EMPTY_FILTERS, sort, q: 'renombrada' })),
      { ...EMPTY_FILTERS, rarity: 'UR' },
      { ...EMPTY_FILTERS, language: 'fr', finish: 'foil-nuevo' },
      { ...EMPTY_FILTERS, q: 'reimpresión', sort: 'precio-asc' as const },
      // Misspelt: the new names' words are corrections now.
      { ...EMPTY_FILTERS, q: 'renombarda' },
      { ...EMPTY_FILTERS, q: 'primrea carta' },
    ];
    const patched = filtersToTry.map((filters) => searchExplore(edited, filters, 0, 24, 11));
    // Each answer is what filtering the changed list gives…
    filtersToTry.forEach((filters, k) => {
      const expected = applyFilters(products, filters);
      expect(patched[k]!.total, filtersToQuery(filters)).toBe(expected.length);
      expect(ids(patched[k]!.products), filtersToQuery(filters)).toEqual(ids(expected.slice(0, 24)));
    });
    // …and the whole answer, counts included, is the one of the same catalogue prepared whole.
    forgetLastPrepared();
    const whole = { ...edited, products: [...products] };
    filtersToTry.forEach((filters, k) => expect(patched[k], filtersToQuery(filters)).toEqual(searchExplore(whole, filters, 0, 24, 11)));
    // The changed products are found where their changes put them.
    expect(searchExplore(edited, { ...EMPTY_FILTERS, sort: 'nombre' }, 0, 1, 11).products[0]).toBe(changed[0]);
    expect(searchExplore(edited, { ...EMPTY_FILTERS, sort: 'precio-asc' }, 0, 1, 11).products[0]).toBe(changed[3]);
    expect(searchExplore(edited, { ...EMPTY_FILTERS, sort: 'nuevos' }, 0, 1, 11).products[0]).toBe(changed[4]);
    expect(ids(searchExplore(edited, { ...EMPTY_FILTERS, rarity: 'UR' }, 0, 24, 11).products)).toEqual([changed[8]!.id]);
  });

  it('keeps the orders an edit moved no product in (a price edit: the name and release orders), and answers as a catalogue prepared whole', () => {
    const filtersToTry = [...Array.from({ length: 60 }, randomFilters), ...SORTS.map((sort) => ({ ...EMPTY_FILTERS, sort }))];
    // Each edit in turn from the catalogue the last one left, as the server reads edit after edit.
    // A catalogue of its own, prepared whole, so the first edit patches it and not another test's.
    forgetLastPrepared();
    let served = { ...data, products: [...data.products] };
    searchExplore(served, EMPTY_FILTERS, 0, 1, 20);
    const steps: Array<[label: string, edit: (product: (typeof data.products)[number]) => Partial<(typeof data.products)[number]>, orders: number]> = [
      ['price', (product) => ({ priceCentavos: centavos(product.priceCentavos + 5_000) }), 2],
      ['stock and flags', (product) => ({ stock: 0, sale: !product.sale }), 0],
      ['release', () => ({ released: '2032-06-01' }), 1],
      ['rarity of a single', () => ({ card: '#1 ~0', rarity: 'XR', offers: 'NM.es.normal' }), 0],
      ['name', (product) => ({ name: `${product.name} Edición Especial` }), 4],
    ];
    for (const [k, [label, edit, orders]] of steps.entries()) {
      const products = [...served.products];
      for (const i of [5 + k, 301 + k, 702 - k]) products[i] = { ...products[i]!, ...edit(products[i]!) };
      const edited = { ...served, products };
      const before = ordersPatchedCount();
      const patched = filtersToTry.map((filters) => searchExplore(edited, filters, 0, 24, 21 + k));
      expect(ordersPatchedCount() - before, label).toBe(orders);
      forgetLastPrepared();
      const whole = { ...edited, products: [...products] };
      filtersToTry.forEach((filters, n) => expect(patched[n], `${label}: ${filtersToQuery(filters)}`).toEqual(searchExplore(whole, filters, 0, 24, 21 + k)));
      // The next edit patches the preparation of this catalogue, as the server's would.
      searchExplore(edited, EMPTY_FILTERS, 0, 1, 21 + k);
      served = edited;
    }
  });
});
