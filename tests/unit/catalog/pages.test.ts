import { describe, expect, it } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';
import { expansionListingPaths, listingExploreHref, pageHref, typeListingPaths } from '~/components/catalog/listing.ts';
import { LISTING_PAGE_SIZE, paginate } from '~/domain/routes.ts';
import type { BuildCatalog } from '~/server/snapshot/catalog.ts';
import { mergeSnapshot } from '~/server/snapshot/model.ts';
import { homeLists } from '~/components/catalog/home/homeLists.ts';
import { shouldLoop, SLIDER_BREAKPOINTS } from '~/scripts/swiper-enhance.ts';
import { availabilityOf, formatLongDate, ESTIMATED_RELEASE, productJsonLd, productMetaDescription } from '~/domain/product-seo.ts';
import { applyFilters, EMPTY_FILTERS, filtersFromQuery, filtersToQuery, optionsFor, toExploreProduct } from '~/domain/explore.ts';

function product(overrides: Record<string, unknown>): Product {
  const parsed = parseProduct({ id: 'p', name: 'Producto', price: 100, stock: 5, franchise_id: 'pokemon', ...overrides });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

describe('listing pages', () => {
  it('splits 100 products into pages of 48, 48 and 4', () => {
    const products = Array.from({ length: 100 }, (_, i) => product({ id: `p${i}` }));
    const pages = paginate(products);
    expect(LISTING_PAGE_SIZE).toBe(48);
    expect(pages.map((p) => p.products.length)).toEqual([48, 48, 4]);
    expect(pages.map((p) => p.page)).toEqual([undefined, '2', '3']);
    expect(pages.every((p) => p.total === 100 && p.pageCount === 3)).toBe(true);
    expect(pages[1]!.products[0]!.id).toBe('p48');
  });

  it('keeps one empty page for an empty listing and exactly one for 48', () => {
    expect(paginate([])).toEqual([{ page: undefined, pageNumber: 1, pageCount: 1, total: 0, products: [] }]);
    expect(paginate(Array.from({ length: 48 }, (_, i) => product({ id: `p${i}` })))).toHaveLength(1);
  });

  it('opens the whole listing on /explore, where its filters cover every page', () => {
    expect(listingExploreHref('/franchise/one-piece/product-types/op-single-card/products')).toBe('/explore?franquicia=one-piece&tipo=op-single-card');
    expect(listingExploreHref('/franchise/pokemon/expansions/surging-sparks/products')).toBe('/explore?franquicia=pokemon&expansion=surging-sparks');
    expect(listingExploreHref('/franchise/pokemon/product-types/preorder/products')).toBe('/explore?franquicia=pokemon&preventa=1');
    expect(listingExploreHref('/franchise/pokemon/product-types/sale/products')).toBe('/explore?franquicia=pokemon&oferta=1');
    expect(listingExploreHref('/otra')).toBe('/explore');
  });

  it('links page 1 to the base and later pages below it', () => {
    expect(pageHref('/franchise/pokemon/expansions/x/products', 1)).toBe('/franchise/pokemon/expansions/x/products');
    expect(pageHref('/franchise/pokemon/expansions/x/products', 3)).toBe('/franchise/pokemon/expansions/x/products/3');
  });
});

describe('home lists', () => {
  const catalog = [
    product({ id: 'dr-sale', expansion_id: 'destined-rivals', type: 'newArrivals', discount: true, original_price: 120 }),
    product({ id: 'dr', expansion_id: 'destined-rivals', type: 'newArrivals' }),
    product({ id: 'jt', expansion_id: 'journey-together', type: 'newArrivals' }),
    product({ id: 'old-sale', expansion_id: 'team-up', discount: true, original_price: 150 }),
    product({ id: 'hidden', expansion_id: 'destined-rivals', available: false }),
  ];

  it('Ofertas Especiales has only discounted new arrivals', () => {
    const lists = homeLists(catalog);
    expect(lists.specialOffers.map((p) => p.id)).toEqual(['dr-sale']);
    expect(lists.destinedRivals.map((p) => p.id)).toEqual(['dr-sale', 'dr']);
    expect(lists.journeyTogether.map((p) => p.id)).toEqual(['jt']);
    expect(lists.newArrivals.map((p) => p.id)).toEqual(['dr-sale', 'dr', 'jt']);
  });

  it('lists are empty when nothing matches, so their sliders are not shown', () => {
    const lists = homeLists([product({ id: 'x', expansion_id: 'team-up' })]);
    expect(lists.specialOffers).toEqual([]);
    expect(lists.destinedRivals).toEqual([]);
  });

  it('sliders loop only with more than 5 products and follow the breakpoints', () => {
    expect(shouldLoop(5)).toBe(false);
    expect(shouldLoop(6)).toBe(true);
    expect(SLIDER_BREAKPOINTS[1281].slidesPerView).toBe(5);
    expect(SLIDER_BREAKPOINTS[1025].slidesPerView).toBe(4);
    expect(SLIDER_BREAKPOINTS[769].slidesPerView).toBe(3);
    expect(SLIDER_BREAKPOINTS[521].slidesPerView).toBe(2);
    expect(SLIDER_BREAKPOINTS[0].slidesPerView).toBe(1);
  });
});

describe('product page metadata', () => {
  it('formats the fixed release date in Mexican Spanish', () => {
    expect(formatLongDate(ESTIMATED_RELEASE)).toBe('30 de mayo de 2025');
  });

  it('maps stock and preorder to schema.org availability', () => {
    expect(availabilityOf({ stock: 0, preorder: true })).toBe('https://schema.org/OutOfStock');
    expect(availabilityOf({ stock: 3, preorder: true })).toBe('https://schema.org/PreOrder');
    expect(availabilityOf({ stock: 3, preorder: false })).toBe('https://schema.org/InStock');
  });

  it('writes a Product with an MXN Offer and a breadcrumb list, safe inside a script tag', () => {
    const p = product({ id: 'pk-x', name: 'Caja </script><b>', price: '1299.5' });
    const json = productJsonLd(p, {
      url: 'https://tienda.mx/product/pk-x',
      images: ['https://img/x.svg'],
      brand: 'Pokémon',
      site: 'https://tienda.mx',
      crumbs: [
        { name: 'Inicio', href: '/' },
        { name: 'Caja', href: '/product/pk-x' },
      ],
    });
    expect(json).not.toContain('</script>');
    const data = JSON.parse(json) as { '@graph': Array<Record<string, any>> };
    const [productLd, crumbs] = data['@graph'];
    expect(productLd!.offers).toMatchObject({ price: '1299.50', priceCurrency: 'MXN', availability: 'https://schema.org/InStock' });
    expect(productLd!.name).toBe('Caja </script><b>');
    expect(crumbs!.itemListElement[1]).toMatchObject({ position: 2, item: 'https://tienda.mx/product/pk-x' });
  });

  it('keeps meta descriptions short', () => {
    const text = productMetaDescription({ name: 'Caja', description: 'palabra '.repeat(60) }, '$1,299.00');
    expect(text.length).toBeLessThanOrEqual(156);
    expect(text.startsWith('Caja por $1,299.00.')).toBe(true);
  });
});

describe('explore filters', () => {
  const items = [
    toExploreProduct(product({ id: 'a', name: 'Beta', price: 300, stock: 0, expansion_id: 'x', product_type_id: 't1', release_date: '2025-01-01' }), ''),
    toExploreProduct(product({ id: 'b', name: 'alfa', price: 100, preorder: true, expansion_id: 'y', product_type_id: 't2', release_date: '2025-05-01' }), ''),
    toExploreProduct(product({ id: 'c', name: 'Gama', price: 200, discount: true, original_price: 250, franchise_id: 'one-piece' }), ''),
  ];

  it('round-trips through the query string and ignores junk', () => {
    const filters = { ...EMPTY_FILTERS, franchise: 'pokemon', inStock: true, sale: true, sort: 'precio-desc' as const };
    const query = filtersToQuery(filters);
    expect(query).toBe('?franquicia=pokemon&disponible=1&oferta=1&orden=precio-desc');
    expect(filtersFromQuery(query)).toEqual(filters);
    expect(filtersFromQuery('?franquicia=<script>&orden=raro&preventa=si')).toEqual(EMPTY_FILTERS);
    expect(filtersToQuery(EMPTY_FILTERS)).toBe('');
  });

  it('filters by franchise, stock, preorder and sale', () => {
    expect(applyFilters(items, { ...EMPTY_FILTERS, franchise: 'pokemon' }).map((p) => p.id)).toEqual(['a', 'b']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, inStock: true }).map((p) => p.id)).toEqual(['b', 'c']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, preorder: true }).map((p) => p.id)).toEqual(['b']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, sale: true }).map((p) => p.id)).toEqual(['c']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, expansion: 'x', type: 't1' }).map((p) => p.id)).toEqual(['a']);
  });

  it('sorts by price, newest and name', () => {
    expect(applyFilters(items, { ...EMPTY_FILTERS, sort: 'precio-asc' }).map((p) => p.id)).toEqual(['b', 'c', 'a']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, sort: 'precio-desc' }).map((p) => p.id)).toEqual(['a', 'c', 'b']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, sort: 'nuevos' }).map((p) => p.id)).toEqual(['b', 'a', 'c']);
    expect(applyFilters(items, { ...EMPTY_FILTERS, sort: 'nombre' }).map((p) => p.id)).toEqual(['b', 'a', 'c']);
  });

  it('narrows options to a franchise', () => {
    const options = [
      { id: 'x', name: 'X', franchiseId: 'pokemon' },
      { id: 'y', name: 'Y', franchiseId: 'one-piece' },
    ];
    expect(optionsFor(options, 'one-piece').map((o) => o.id)).toEqual(['y']);
    expect(optionsFor(options, '')).toHaveLength(2);
  });
});

describe('listing paths for a large catalogue', () => {
  // 100 Destined Rivals booster packs, every third one on preorder.
  const products = Array.from({ length: 100 }, (_, i) =>
    product({ id: `pk-dr-${String(i).padStart(3, '0')}`, expansion_id: 'destined-rivals', product_type_id: 'booster-pack', preorder: i % 3 === 0 }),
  );
  const { snapshot } = mergeSnapshot({ franchises: [], collections: [], expansions: [], productTypes: [], products: [] }, null);
  const catalog: BuildCatalog = {
    ...snapshot,
    products,
    productById: new Map(products.map((p) => [p.id, p])),
    franchiseById: new Map(snapshot.franchises.map((f) => [f.id, f])),
    expansionById: new Map(snapshot.expansions.map((e) => [e.id, e])),
    productTypeById: new Map(snapshot.productTypes.map((t) => [t.id, t])),
    renders: () => true,
  };

  it('splits an expansion of 100 products into /products, /products/2 and /products/3', () => {
    const paths = expansionListingPaths(catalog).filter((p) => p.params.expansionId === 'destined-rivals');
    expect(paths.map((p) => p.params.page)).toEqual([undefined, '2', '3']);
    expect(paths.map((p) => p.props.listing.products.length)).toEqual([48, 48, 4]);
    expect(paths.every((p) => p.props.listing.total === 100 && p.props.franchise.name === 'Pokémon')).toBe(true);
    // Every product appears on exactly one page.
    expect(new Set(paths.flatMap((p) => p.props.listing.products.map((x) => x.id))).size).toBe(100);
  });

  it('builds one empty page for expansions without products', () => {
    const empty = expansionListingPaths(catalog).filter((p) => p.params.expansionId === 'journey-together');
    expect(empty).toHaveLength(1);
    expect(empty[0]!.props.listing).toMatchObject({ total: 0, pageCount: 1, products: [] });
  });

  it('lists every product type and both pseudo-types of each franchise', () => {
    const paths = typeListingPaths(catalog);
    const pokemon = paths.filter((p) => p.params.franchiseId === 'pokemon' && p.params.page === undefined).map((p) => p.params.typeId);
    expect(pokemon).toContain('booster-pack');
    expect(pokemon).toContain('preorder');
    expect(pokemon).toContain('sale');
    const preorder = paths.filter((p) => p.params.franchiseId === 'pokemon' && p.params.typeId === 'preorder');
    expect(preorder.map((p) => p.props.listing.total)).toEqual([34]);
    const packs = paths.filter((p) => p.params.typeId === 'booster-pack');
    expect(packs.map((p) => p.params.page)).toEqual([undefined, '2', '3']);
    const onePieceSale = paths.find((p) => p.params.franchiseId === 'one-piece' && p.params.typeId === 'sale');
    expect(onePieceSale?.props.listing.total).toBe(0);
  });
});
