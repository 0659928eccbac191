/**
 * /explore's answers on the server: kept by what the page shows until the catalogue's search
 * version moves, and the view of an address (its pages at once or one page, the next page's address).
 */
import { describe, expect, it, vi } from 'vitest';
import { EMPTY_FILTERS, EXPLORE_PAGE, filtersFromQuery, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import type { LiveCatalog } from '~/server/explore/catalog.ts';

const state = vi.hoisted(() => ({ catalog: null as LiveCatalog | null, warmed: 0 }));
vi.mock('~/server/explore/catalog.ts', () => ({ exploreCatalog: async () => state.catalog }));
vi.mock('~/server/explore/warm-up.ts', () => ({ warmUpOnce: () => void state.warmed++ }));

const { EXPLORE_CACHE_CONTROL, exploreAnswer, explorePageHref, exploreView, MAX_PAGES, productTypesInUse } = await import('~/server/explore/answers.ts');

function product(i: number, fields: Partial<ExploreProduct> = {}): ExploreProduct {
  return {
    id: `p${String(i).padStart(3, '0')}`,
    name: `Sobre ${i}`,
    priceCentavos: 10_000 + i,
    originalPriceCentavos: null,
    stock: 3,
    preorder: false,
    sale: false,
    franchiseId: 'pokemon',
    expansionId: null,
    typeId: i % 2 ? 'booster-pack' : null,
    image: '',
    released: '',
    ...fields,
  } as ExploreProduct;
}

function catalog(count: number, searchVersion = 1): LiveCatalog {
  const data: ExploreData = {
    franchises: [{ id: 'pokemon', name: 'Pokémon' }],
    expansions: [],
    types: [],
    products: Array.from({ length: count }, (_, i) => product(i)),
  };
  return { data, version: searchVersion, searchVersion, catalogVersion: 1, changedAt: () => 0 };
}

describe('exploreAnswer', () => {
  it('hands out the same answer for the same filters and page, and searches again after a change a search can see', () => {
    const live = catalog(30, 101);
    const first = exploreAnswer(live, EMPTY_FILTERS, 0, 24);
    expect(first.total).toBe(30);
    expect(first.products).toHaveLength(24);
    expect(exploreAnswer(live, { ...EMPTY_FILTERS }, 0, 24)).toBe(first);
    expect(exploreAnswer(live, EMPTY_FILTERS, 24, 24)).not.toBe(first);
    expect(exploreAnswer(live, { ...EMPTY_FILTERS, sort: 'nombre' }, 0, 24)).not.toBe(first);
    const sold = { ...live, searchVersion: 102 };
    expect(exploreAnswer(sold, EMPTY_FILTERS, 0, 24)).not.toBe(first);
  });
});

describe('productTypesInUse', () => {
  it('lists the types that have products', () => {
    expect([...productTypesInUse(catalog(4).data)]).toEqual(['booster-pack']);
  });
});

describe('explorePageHref', () => {
  it('writes the filters, and the page after them from the second on', () => {
    expect(explorePageHref(EMPTY_FILTERS, 1)).toBe('/explore');
    expect(explorePageHref(EMPTY_FILTERS, 2)).toBe('/explore?pagina=2');
    expect(explorePageHref(filtersFromQuery('?q=sobre&disponible=1'), 3)).toBe('/explore?q=sobre&disponible=1&pagina=3');
  });
});

describe('exploreView', () => {
  it('shows the first pages at once, with the next page’s address while there are more results', async () => {
    state.catalog = catalog(EXPLORE_PAGE * 2 + 5, 201);
    const view = await exploreView('?pagina=2');
    expect(view.page).toBe(2);
    expect(view.answer.products).toHaveLength(EXPLORE_PAGE * 2);
    expect(view.moreHref).toBe('/explore?pagina=3');
    expect(state.warmed).toBeGreaterThan(0);
  });

  it("shows one page alone for 'Ver más', and no next address after the last", async () => {
    state.catalog = catalog(EXPLORE_PAGE * 2 + 5, 202);
    const view = await exploreView('?pagina=3', true);
    expect(view.answer.products).toHaveLength(5);
    // The last five of the relevance order: page 3 alone.
    expect(view.answer.products[0]).not.toBe(state.catalog!.data.products[0]);
    expect(view.moreHref).toBeNull();
  });

  it('never offers a page past MAX_PAGES', async () => {
    state.catalog = catalog(EXPLORE_PAGE * (MAX_PAGES + 1), 203);
    const view = await exploreView(`?pagina=${MAX_PAGES}`, true);
    expect(view.page).toBe(MAX_PAGES);
    expect(view.moreHref).toBeNull();
  });
});

it('lets a CDN keep an answer a few seconds, never the browser', () => {
  expect(EXPLORE_CACHE_CONTROL).toMatch(/^public, max-age=0, s-maxage=\d+/);
});
