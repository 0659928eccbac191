/**
 * The /explore addresses of `npm run load` (scripts/load/explore.ts): at least 40 distinct ones,
 * each under /explore, every filter value one the catalogue has, and every kind of visit a
 * shopper makes: one filter, two or three, each order, a price range, words, 'Ver más' (the page
 * and the next cards alone) and a word that finds nothing.
 */
import { describe, expect, it } from 'vitest';
import { EXPLORE_SORTS, exploreAddresses, NONSENSE_WORD, type AddressKind, type ExploreCatalog } from '../../../scripts/load/explore.ts';
import { applyFilters, filtersFromQuery, filtersToQuery, parseExploreData } from '../../../src/domain/explore.ts';

const KINDS: AddressKind[] = ['todo', 'un-filtro', 'filtros-combinados', 'orden', 'precio', 'palabras', 'ver-mas', 'sin-resultados'];
/** The query-string names that choose results (not the page or the order). */
const FILTERS = [
  'q',
  'franquicia',
  'tipo',
  'expansion',
  'disponible',
  'preventa',
  'oferta',
  'rareza',
  'condicion',
  'idioma',
  'acabado',
  'graduadas',
  'precio_min',
  'precio_max',
];

/** A catalogue like the shop's seed: sealed products in three franchises, and singles with offers when `singles`. */
function catalog(singles: boolean): ExploreCatalog {
  const sets = [
    { id: 'journey-together', name: 'Journey Together', franchiseId: 'pokemon' },
    { id: 'destined-rivals', name: 'Destined Rivals', franchiseId: 'pokemon' },
    { id: 'prismatic-evolutions', name: 'Evoluciones Prismáticas', franchiseId: 'pokemon' },
    { id: 'op-01', name: 'Romance Dawn', franchiseId: 'one-piece' },
    { id: 'origins', name: 'Origins', franchiseId: 'riftbound' },
  ];
  const types = [
    { id: 'booster-box', name: 'Caja de sobres', franchiseId: 'pokemon' },
    { id: 'booster-pack', name: 'Sobre', franchiseId: 'pokemon' },
    { id: 'elite-trainer-box', name: 'Elite Trainer Box', franchiseId: 'pokemon' },
    { id: 'single-card', name: 'Carta individual', franchiseId: 'pokemon' },
    { id: 'op-booster-box', name: 'Caja de sobres', franchiseId: 'one-piece' },
    { id: 'rb-booster-pack', name: 'Sobre', franchiseId: 'riftbound' },
  ];
  const products: Array<Record<string, unknown>> = [];
  let n = 0;
  const product = (name: string, franchiseId: string, expansionId: string, typeId: string, extra: Record<string, unknown> = {}) => {
    n += 1;
    products.push({
      id: `p-${n}`,
      name,
      priceCentavos: 5_000 + ((n * 37_700) % 600_000),
      originalPriceCentavos: n % 4 === 0 ? 700_000 : null,
      stock: n % 5 === 0 ? 0 : n % 7,
      preorder: n % 9 === 0,
      sale: n % 4 === 0,
      franchiseId,
      expansionId,
      typeId,
      image: '',
      released: `2025-0${1 + (n % 9)}-01`,
      ...extra,
    });
  };
  for (const set of sets.slice(0, 3)) {
    product(`Caja de sobres ${set.name} (36 sobres)`, 'pokemon', set.id, 'booster-box');
    product(`Sobre ${set.name}`, 'pokemon', set.id, 'booster-pack');
    product(`Elite Trainer Box ${set.name}`, 'pokemon', set.id, 'elite-trainer-box');
  }
  product('Caja de sobres OP-01 Romance Dawn (24 sobres)', 'one-piece', 'op-01', 'op-booster-box');
  product('Caja de sobres OP-01 Romance Dawn edición especial', 'one-piece', 'op-01', 'op-booster-box');
  product('Sobre Riftbound Origins', 'riftbound', 'origins', 'rb-booster-pack');
  if (singles) {
    for (const [name, offers] of [
      ['Pikachu ex', 'NM.en.normal LP.es.holo'],
      ['Charizard ex', 'NM.en.holo G.en.holo'],
      ['Umbreon ex', 'LP.ja.normal'],
    ] as const) {
      product(`${name} (Carta individual)`, 'pokemon', 'prismatic-evolutions', 'single-card', { card: name, rarity: 'SIR', offers });
    }
  }
  return {
    franchises: [
      { id: 'pokemon', name: 'Pokémon' },
      { id: 'one-piece', name: 'One Piece' },
      { id: 'riftbound', name: 'Riftbound' },
    ],
    expansions: sets,
    types,
    products: products as unknown as ExploreCatalog['products'],
  };
}

const paramsOf = (path: string) => new URL(path, 'http://tienda.test').searchParams;
const filterNames = (path: string) => [...paramsOf(path).keys()].filter((name) => FILTERS.includes(name));

describe.each([
  ['sealed products only', false],
  ['with singles', true],
])('exploreAddresses (%s)', (_name, singles) => {
  const data = catalog(singles);
  const addresses = exploreAddresses(data);
  const paths = addresses.map((a) => a.path);

  it('gives at least 40 distinct addresses, every one under /explore', () => {
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths.length).toBeGreaterThanOrEqual(40);
    for (const path of paths) expect(path).toMatch(/^\/explore(\/resultados)?(\?|$)/);
  });

  it('is the same list for the same catalogue', () => {
    expect(exploreAddresses(catalog(singles))).toEqual(addresses);
  });

  it('labels every kind of visit', () => {
    expect(new Set(addresses.map((a) => a.kind))).toEqual(new Set(KINDS));
  });

  it('asks for pages and for the results the page script fetches', () => {
    expect(paths.filter((p) => p === '/explore' || p.startsWith('/explore?')).length).toBeGreaterThanOrEqual(15);
    expect(paths.filter((p) => p.startsWith('/explore/resultados')).length).toBeGreaterThanOrEqual(15);
  });

  it('chooses only franchises, types and expansions the catalogue has, and the shop reads every parameter', () => {
    const ids = { franquicia: data.franchises, tipo: data.types, expansion: data.expansions };
    for (const path of paths) {
      const params = paramsOf(path);
      for (const [name, options] of Object.entries(ids)) {
        const value = params.get(name);
        if (value !== null) expect(options.map((o) => o.id)).toContain(value);
      }
      // Nothing is dropped as malformed: the shop's own reading writes the same filters back.
      const chosen = new URLSearchParams([...params].filter(([name]) => name !== 'pagina' && name !== 'solo'));
      const written = new URLSearchParams(filtersToQuery(filtersFromQuery(`?${chosen}`)));
      expect([...written].sort(), path).toEqual([...chosen].sort());
    }
  });

  it('has single filters and two or three combined', () => {
    const counts = paths.map((p) => filterNames(p).length);
    expect(paths.some((p) => p === '/explore')).toBe(true);
    for (const name of ['franquicia', 'tipo', 'expansion', 'disponible', 'preventa', 'oferta']) {
      expect(
        paths.some((p) => filterNames(p).length === 1 && paramsOf(p).has(name)),
        name,
      ).toBe(true);
    }
    expect(counts.filter((c) => c === 2).length).toBeGreaterThanOrEqual(4);
    expect(counts.filter((c) => c === 3).length).toBeGreaterThanOrEqual(2);
    if (singles) {
      for (const name of ['rareza', 'condicion', 'idioma', 'acabado', 'graduadas'])
        expect(
          paths.some((p) => paramsOf(p).has(name)),
          name,
        ).toBe(true);
    }
  });

  it('has each order, price ranges and words', () => {
    for (const sort of EXPLORE_SORTS) expect(paths.some((p) => paramsOf(p).get('orden') === sort)).toBe(true);
    expect(paths.some((p) => paramsOf(p).has('precio_min') && paramsOf(p).has('precio_max'))).toBe(true);
    expect(paths.some((p) => paramsOf(p).has('precio_min') && !paramsOf(p).has('precio_max'))).toBe(true);
    expect(paths.some((p) => !paramsOf(p).has('precio_min') && paramsOf(p).has('precio_max'))).toBe(true);
    const words = new Set(paths.map((p) => paramsOf(p).get('q')).filter((q): q is string => q !== null && q !== NONSENSE_WORD));
    expect(words.size).toBeGreaterThanOrEqual(4);
    expect([...words].some((q) => q.includes(' '))).toBe(true);
  });

  it("has 'Ver más': the page with two pages and the next cards alone", () => {
    expect(paths.some((p) => p.startsWith('/explore?') && paramsOf(p).get('pagina') === '2' && !paramsOf(p).has('solo'))).toBe(true);
    const more = paths.filter((p) => p.startsWith('/explore/resultados?') && paramsOf(p).get('pagina') === '2' && paramsOf(p).get('solo') === 'mas');
    expect(more.length).toBeGreaterThanOrEqual(2);
    expect(more.some((p) => filterNames(p).length > 0)).toBe(true);
  });

  it('finds products for its words and price ranges, and nothing for the nonsense word', () => {
    const products = parseExploreData(data)!.products;
    const found = (path: string) => applyFilters(products, filtersFromQuery(paramsOf(path).toString())).length;
    const nonsense = addresses.filter((a) => a.kind === 'sin-resultados');
    expect(nonsense.length).toBeGreaterThanOrEqual(2);
    for (const { path } of nonsense) {
      expect(paramsOf(path).get('q')).toBe(NONSENSE_WORD);
      expect(found(path), path).toBe(0);
    }
    for (const { path } of addresses.filter((a) => a.kind === 'palabras' || a.kind === 'precio' || a.kind === 'un-filtro')) {
      // 'preventa' and 'oferta' may find nothing in a small catalogue; the others come from it.
      if (paramsOf(path).has('preventa')) continue;
      expect(found(path), path).toBeGreaterThan(0);
    }
  });
});

it('still gives addresses of every kind for an empty catalogue', () => {
  const addresses = exploreAddresses({ franchises: [], expansions: [], types: [], products: [] });
  for (const { path } of addresses) expect(path).toMatch(/^\/explore(\/resultados)?(\?|$)/);
  expect(new Set(addresses.map((a) => a.kind))).toEqual(new Set(['todo', 'un-filtro', 'orden', 'precio', 'ver-mas', 'sin-resultados']));
});
