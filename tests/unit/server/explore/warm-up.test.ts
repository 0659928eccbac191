/**
 * /explore's search warmed up as the server starts (src/server/explore/warm-up.ts): every order
 * and each kind of filter from the catalogue's own values, each search in a turn of its own, and
 * never a failure that reaches the server.
 */
import { expect, it } from 'vitest';
import { expansions, franchises, productTypes } from '~/domain/catalog.ts';
import { EMPTY_FILTERS, filtersFromQuery, filtersToQuery, pageOf, parseExploreData, SORTS, type ExploreData } from '~/domain/explore.ts';
import { searchExplore } from '~/domain/explore-query.ts';
import { prepareSearch, renderWarmUpPaths, WARM_UP_ADDRESSES, WARM_UP_ROUNDS, warmUpQueries, warmUpSearch } from '~/server/explore/warm-up.ts';
import { fakeCatalog } from '../../domain/name-matching/fake-catalog';

function fixture(): ExploreData {
  const products = fakeCatalog(300, 5).map((fake, i) => ({
    id: fake.id,
    name: fake.name,
    priceCentavos: (100 + i) * 100,
    originalPriceCentavos: null,
    stock: i % 5,
    preorder: i % 7 === 0,
    sale: i % 4 === 0,
    franchiseId: fake.franchiseId,
    expansionId: fake.expansionId,
    typeId: fake.typeId,
    image: fake.image,
    released: '2025-01-01',
    ...(i % 3 === 0 ? { card: `#${i} ~0`, rarity: 'R', offers: 'NM.en.foil LP.es.normal' } : {}),
  }));
  const data = parseExploreData(JSON.parse(JSON.stringify({ franchises, expansions, types: productTypes, products })));
  if (!data) throw new Error('fixture');
  return data;
}

const data = fixture();

it('takes every order and each kind of filter, with the catalogue’s own franchise, type, expansion and a word of its names', () => {
  const states = warmUpQueries(data).map(filtersFromQuery);
  // Each address means what it says (no value the address parser throws away); relevance is the default order.
  for (const query of warmUpQueries(data)) if (query !== '?orden=relevancia') expect(filtersToQuery(filtersFromQuery(query)), query).not.toBe('');
  expect(new Set(states.map((s) => s.sort))).toEqual(new Set(SORTS));
  const franchise = data.franchises[0]!.id;
  expect(states.some((s) => s.franchise === franchise && s.type && data.types.find((t) => t.id === s.type)?.franchiseId === franchise)).toBe(true);
  expect(states.some((s) => s.expansion === data.expansions[0]!.id)).toBe(true);
  for (const flag of ['inStock', 'preorder', 'sale'] as const)
    expect(
      states.some((s) => s[flag]),
      flag,
    ).toBe(true);
  expect(states.some((s) => s.priceMin !== null && s.priceMax !== null)).toBe(true);
  // A word that finds products, and one that finds nothing.
  const worded = states.filter((s) => s.q);
  expect(worded.map((s) => searchExplore(data, s, 0, 24).total > 0)).toEqual([true, false]);
  // The singles' filters.
  expect(states.some((s) => s.condition === 'NM')).toBe(true);
  expect(states.some((s) => s.language && s.finish)).toBe(true);
  expect(states.some((s) => s.graded)).toBe(true);
});

it("renders, as the server starts, the catalogue-free addresses on pages 2 and 3 and a 'Ver más' part, never a shopper's first page", () => {
  const paths = renderWarmUpPaths();
  expect(paths).toHaveLength((WARM_UP_ADDRESSES.length + 1) * 2);
  for (const address of paths) {
    const url = new URL(address, 'http://shop.test');
    expect(url.pathname).toBe('/explore/resultados');
    expect([2, 3]).toContain(pageOf(url.search));
  }
  // The same filters as the search's warm-up, which takes them with the catalogue's own values.
  const filters = new Set(paths.map((address) => filtersToQuery(filtersFromQuery(new URL(address, 'http://shop.test').search))));
  for (const query of WARM_UP_ADDRESSES) expect(filters).toContain(filtersToQuery(filtersFromQuery(query)));
  expect(warmUpQueries(data)).toEqual(expect.arrayContaining([...WARM_UP_ADDRESSES]));
  expect(paths.filter((address) => new URL(address, 'http://shop.test').searchParams.get('solo') === 'mas')).toHaveLength(2);
});

it('searches each address the rounds asked, one search per turn, and resolves with the count', async () => {
  let turns = 0;
  const searched = await warmUpSearch({ data, searchVersion: 1 }, 2, async () => {
    turns++;
  });
  expect(searched).toBe(2 * warmUpQueries(data).length);
  expect(turns).toBe(searched);
  // By default a few rounds, each search in a turn of the event loop of its own.
  const started = warmUpSearch({ data, searchVersion: 2 });
  let finished = false;
  void started.then(() => (finished = true));
  await Promise.resolve();
  expect(finished).toBe(false);
  expect(await started).toBe(WARM_UP_ROUNDS * warmUpQueries(data).length);
});

it('never fails, even on a catalogue the search cannot read', async () => {
  const broken = { ...data, products: [null] } as unknown as ExploreData;
  await expect(warmUpSearch({ data: broken, searchVersion: 3 }, 1, async () => {})).resolves.toBe(0);
  // Nor does preparing a catalogue's search after an edit.
  expect(() => prepareSearch({ data: broken, searchVersion: 3 })).not.toThrow();
  expect(EMPTY_FILTERS.sort).toBe('relevancia');
});
