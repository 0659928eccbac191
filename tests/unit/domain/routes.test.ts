import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import {
  LISTING_PAGE_SIZE,
  catalogPages,
  expansionListingPath,
  homeLists,
  listings,
  pageHref,
  pagesShowing,
  productPath,
  relistAfterEdit,
  typeListingPath,
  type RouteCatalog,
} from '~/domain/routes.ts';

function product(overrides: Record<string, unknown>): Product {
  const parsed = parseProduct({ id: 'p', name: 'Producto', price: 100, stock: 5, franchise_id: 'pokemon', ...overrides });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

// 60 Destined Rivals booster packs (two listing pages), 3 One Piece boxes, 1 Pokémon ETB on sale.
const packs = Array.from({ length: 60 }, (_, i) =>
  product({ id: `pk-dr-${String(i).padStart(2, '0')}`, expansion_id: 'destined-rivals', product_type_id: 'booster-pack' }),
);
const boxes = Array.from({ length: 3 }, (_, i) =>
  product({ id: `op-box-${i}`, franchise_id: 'one-piece', expansion_id: 'op-01', product_type_id: 'op-booster-box' }),
);
const etb = product({ id: 'pk-etb-sale', expansion_id: 'surging-sparks', product_type_id: 'elite-trainer-box', original_price: 2000, price: 1500 });
const catalog: RouteCatalog = {
  products: [...packs, ...boxes, etb],
  franchises: [
    { id: 'pokemon', name: 'Pokémon' },
    { id: 'one-piece', name: 'One Piece' },
  ],
  expansions: [
    { id: 'destined-rivals', name: 'Destined Rivals', franchiseId: 'pokemon' },
    { id: 'surging-sparks', name: 'Surging Sparks', franchiseId: 'pokemon' },
    { id: 'op-01', name: 'Romance Dawn', franchiseId: 'one-piece' },
  ],
  productTypes: [
    { id: 'booster-pack', name: 'Sobres', franchiseId: 'pokemon' },
    { id: 'elite-trainer-box', name: 'Elite Trainer Box', franchiseId: 'pokemon' },
    { id: 'op-booster-box', name: 'Caja de sobres', franchiseId: 'one-piece' },
  ],
};

describe('route templates', () => {
  it('builds the listing, page and product paths the pages use', () => {
    expect(typeListingPath('pokemon', 'sale')).toBe('/franchise/pokemon/product-types/sale/products');
    expect(expansionListingPath('one-piece', 'op-01')).toBe('/franchise/one-piece/expansions/op-01/products');
    expect(pageHref('/x/products', 1)).toBe('/x/products');
    expect(pageHref('/x/products', 3)).toBe('/x/products/3');
    expect(productPath('pk-etb-sale')).toBe('/product/pk-etb-sale');
  });
});

describe('which pages show a product', () => {
  it('a pack on the second page: its product page and the second page of its expansion and type listings, not the home page', () => {
    const last = packs[LISTING_PAGE_SIZE + 2]!.id;
    expect(pagesShowing(catalog, [last]).sort()).toEqual(
      [productPath(last), `${expansionListingPath('pokemon', 'destined-rivals')}/2`, `${typeListingPath('pokemon', 'booster-pack')}/2`].sort(),
    );
  });

  it('a pack on the first page is not on the second page, and a pack past the home slider is not on the home page', () => {
    const first = pagesShowing(catalog, [packs[0]!.id]);
    expect(first).toContain(expansionListingPath('pokemon', 'destined-rivals'));
    expect(first).not.toContain(`${expansionListingPath('pokemon', 'destined-rivals')}/2`);
    expect(first).toContain('/'); // the first 12 Destined Rivals products are a home slider
    expect(pagesShowing(catalog, [packs[20]!.id])).not.toContain('/');
  });

  it('a discounted product is also on its franchise’s sale listing, and nothing of another franchise', () => {
    const pages = pagesShowing(catalog, ['pk-etb-sale']);
    expect(pages).toContain(typeListingPath('pokemon', 'sale'));
    expect(pages).toContain(typeListingPath('pokemon', 'elite-trainer-box'));
    expect(pages).toContain(expansionListingPath('pokemon', 'surging-sparks'));
    expect(pages.some((page) => page.includes('one-piece'))).toBe(false);
  });

  it('an unknown id is on no page; several ids give the union of their pages', () => {
    expect(pagesShowing(catalog, ['no-existe'])).toEqual([]);
    const both = pagesShowing(catalog, ['op-box-1', 'pk-etb-sale']);
    expect(both).toContain(productPath('op-box-1'));
    expect(both).toContain(expansionListingPath('one-piece', 'op-01'));
    expect(both).toContain(productPath('pk-etb-sale'));
  });

  it('lists every page of every listing once, with its page numbers', () => {
    const pages = catalogPages(catalog);
    const paths = pages.map((page) => page.path);
    expect(new Set(paths).size).toBe(paths.length);
    const second = pages.find((page) => page.path === `${expansionListingPath('pokemon', 'destined-rivals')}/2`)!;
    expect(second.productIds).toEqual(packs.slice(LISTING_PAGE_SIZE).map((p) => p.id));
    expect(second.extra).toBe('2/2/60');
  });
});

describe('listings after an edit that swaps products in place', () => {
  // Each edit swaps products at their positions for edited copies (same id, franchise, type and expansion).
  const edits: Array<[string, Array<[number, Record<string, unknown>]>]> = [
    ['a price on the second page', [[30, { price: 77 }]]],
    ['a discount starting (the sale listing gains it)', [[2, { original_price: 900, price: 500 }]]],
    [
      'a preorder and a rename in two franchises',
      [
        [61, { preorder: true, release_date: '2031-01-01' }],
        [5, { name: 'Sobre renombrado' }],
      ],
    ],
    ['the sale ending', [[63, { original_price: null, price: 1500 }]]],
  ];
  const raw = (p: Product) => ({ ...p, price: p.priceCentavos, original_price: p.originalPriceCentavos });

  for (const [label, swaps] of edits) {
    it(`equal the listings made anew, and keep the pages the edit does not show: ${label}`, () => {
      const before: RouteCatalog = { ...catalog, products: [...catalog.products] };
      const old = listings(before);
      const products = [...before.products];
      for (const [i, fields] of swaps) products[i] = product({ ...raw(products[i]!), ...fields });
      const after: RouteCatalog = { ...before, products };
      relistAfterEdit(
        before,
        after,
        swaps.map(([i]) => i),
      );
      const made = listings(after);
      expect(made).toEqual(listings({ ...after }));
      // One Piece's expansion listing shows no Pokémon product: the same page objects as before.
      const untouched = made.findIndex((listing) => listing.base === expansionListingPath('one-piece', 'op-01'));
      if (!swaps.some(([i]) => products[i]!.franchise_id === 'one-piece')) expect(made[untouched]!.pages[0]).toBe(old[untouched]!.pages[0]);
    });
  }

  it('leaves a product moved to another expansion to listings made anew', () => {
    const before: RouteCatalog = { ...catalog, products: [...catalog.products] };
    listings(before);
    const products = [...before.products];
    products[0] = product({ ...raw(products[0]!), expansion_id: 'surging-sparks' });
    const after: RouteCatalog = { ...before, products };
    relistAfterEdit(before, after, [0]);
    expect(listings(after)).toEqual(listings({ ...after }));
    const sparks = listings(after).find((listing) => listing.base === expansionListingPath('pokemon', 'surging-sparks'))!;
    expect(sparks.pages[0]!.products.map((p) => p.id)).toContain(products[0]!.id);
  });
});

describe("the home page's lists", () => {
  it('take the first products of each list in the catalogue’s order, at most the limit each, unlisted ones left out', () => {
    const products = Array.from({ length: 40 }, (_, i) =>
      product({
        id: `p-${i}`,
        type: i % 4 === 3 ? null : 'newArrivals',
        expansion_id: i % 2 === 0 ? 'destined-rivals' : 'journey-together',
        ...(i % 3 === 0 ? { original_price: 900, price: 500 } : {}),
        ...(i === 6 ? { available: false } : {}),
      }),
    );
    const listed = products.filter((p) => p.id !== 'p-6');
    const lists = homeLists(products, 5);
    const first = (keep: (p: Product) => boolean) =>
      listed
        .filter(keep)
        .slice(0, 5)
        .map((p) => p.id);
    expect(lists.newArrivals.map((p) => p.id)).toEqual(first((p) => p.type === 'newArrivals'));
    expect(lists.specialOffers.map((p) => p.id)).toEqual(first((p) => p.type === 'newArrivals' && p.originalPriceCentavos !== null));
    expect(lists.destinedRivals.map((p) => p.id)).toEqual(first((p) => p.expansion_id === 'destined-rivals'));
    expect(lists.journeyTogether.map((p) => p.id)).toEqual(first((p) => p.expansion_id === 'journey-together'));
    expect(lists.specialOffers.map((p) => p.id)).not.toContain('p-6');
  });
});
