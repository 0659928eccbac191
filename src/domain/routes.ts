/**
 * The catalogue's URLs in one place: route templates (product, franchise pickers, listings and
 * their page numbers), which listings exist, how they split into static pages, and which products
 * each page shows. Pages, components and the incremental rebuild all read them from here, so "the
 * pages that show product X" is computed by the same code that builds those pages.
 */
import { pseudoTypes } from './catalog.ts';
import { discountPercent, isListed, productsForListing, type Product } from './products.ts';

/** Products per static listing page. */
export const LISTING_PAGE_SIZE = 48;

/** The home page. */
export const HOME_PATH = '/';

/** A product's page. */
export function productPath(id: string): string {
  return `/product/${encodeURIComponent(id)}`;
}

/** A franchise's product-type picker. */
export function franchiseTypesPath(franchiseId: string): string {
  return `/franchise/${franchiseId}/product-types`;
}

/** A franchise's expansion picker. */
export function franchiseExpansionsPath(franchiseId: string): string {
  return `/franchise/${franchiseId}/expansions`;
}

/** First page of a type listing (real type or the 'preorder' / 'sale' pseudo-types). */
export function typeListingPath(franchiseId: string, typeId: string): string {
  return `/franchise/${franchiseId}/product-types/${typeId}/products`;
}

/** First page of an expansion listing. */
export function expansionListingPath(franchiseId: string, expansionId: string): string {
  return `/franchise/${franchiseId}/expansions/${expansionId}/products`;
}

/** Href of page `n` of a listing whose first page is `base`. */
export function pageHref(base: string, n: number): string {
  return n <= 1 ? base : `${base}/${n}`;
}

/** One static page of a listing. */
export interface ListingPage {
  /** Rest parameter of the route: undefined for page 1, '2', '3'… after. */
  page: string | undefined;
  pageNumber: number;
  pageCount: number;
  total: number;
  products: Product[];
}

/** Splits a listing into pages of `size`; an empty listing still has its first page. */
export function paginate(products: readonly Product[], size = LISTING_PAGE_SIZE): ListingPage[] {
  const pageCount = Math.max(1, Math.ceil(products.length / size));
  return Array.from({ length: pageCount }, (_, index) => ({
    page: index === 0 ? undefined : String(index + 1),
    pageNumber: index + 1,
    pageCount,
    total: products.length,
    products: products.slice(index * size, (index + 1) * size),
  }));
}

/** A franchise, expansion or type as the routes need it. */
export interface Named {
  id: string;
  name: string;
}

/** The part of the build's catalogue the routes read. */
export interface RouteCatalog {
  products: readonly Product[];
  franchises: readonly Named[];
  expansions: ReadonlyArray<Named & { franchiseId: string }>;
  productTypes: ReadonlyArray<Named & { franchiseId: string }>;
}

/** The product types a franchise lists (its own types plus the preorder and sale pseudo-types). */
export function listingTypes(catalog: RouteCatalog, franchiseId: string): Named[] {
  const own = catalog.productTypes.filter((type) => type.franchiseId === franchiseId).map(({ id, name }) => ({ id, name }));
  return [...own, ...pseudoTypes.map((type) => ({ id: type.id, name: type.name }))];
}

/** One listing (all its pages): the franchise, what it lists and its first page's path. */
export interface Listing {
  kind: 'type' | 'expansion';
  franchise: Named;
  subject: Named;
  base: string;
  pages: ListingPage[];
}

/**
 * Every listing of the catalogue with its pages: for each franchise its types and pseudo-types,
 * then its expansions. One pass over the products per franchise groups them, so this stays linear
 * in the catalogue's size.
 */
export function listings(catalog: RouteCatalog): Listing[] {
  const known = listed.get(catalog);
  if (known) return known;
  const out = listingsOf(catalog);
  listed.set(catalog, out);
  return out;
}

/** The listings of each catalogue, made once: planning, rendering and fingerprinting an edit all read them. Catalogues are never changed in place. */
const listed = new WeakMap<RouteCatalog, Listing[]>();

/**
 * Makes listings(after) from listings(before), when `after` is `before` with the products at the
 * positions `replaced` swapped for products of the same id, franchise, type and expansion, and
 * the same tables (an edit the running server publishes): every listing of a type or an expansion
 * holds the same products in the same order, so only its pages that show a swapped product get
 * the new one, and a pseudo-type's listing of a swapped product's franchise is made again only
 * when a swapped product joins or leaves it (a discount, a preorder). Does nothing when it cannot tell.
 */
export function relistAfterEdit(before: RouteCatalog, after: RouteCatalog, replaced: readonly number[]): void {
  const old = listed.get(before);
  const sameTables = before.franchises === after.franchises && before.expansions === after.expansions && before.productTypes === after.productTypes;
  if (!old || listed.has(after) || !sameTables || before.products.length !== after.products.length) return;
  const swapped = new Map<Product, Product>();
  const franchises = new Set<string>();
  for (const i of replaced) {
    const [was, now] = [before.products[i], after.products[i]];
    if (
      !was ||
      !now ||
      was.id !== now.id ||
      was.franchise_id !== now.franchise_id ||
      was.product_type_id !== now.product_type_id ||
      was.expansion_id !== now.expansion_id
    )
      return;
    swapped.set(was, now);
    if (now.franchise_id) franchises.add(now.franchise_id);
  }
  const shows = (page: ListingPage) => page.products.some((product) => swapped.has(product));
  // The type and expansion a swapped product is listed under, by franchise: no other listing but
  // the pseudo-types' holds it, so no other is read (at 100,000 products, each product is listed
  // three or four times).
  const subjects = new Set(
    [...swapped.values()].flatMap((now) => [`type/${now.franchise_id}/${now.product_type_id}`, `expansion/${now.franchise_id}/${now.expansion_id}`]),
  );
  const out = old.map((listing): Listing => {
    const pseudo = listing.kind === 'type' ? pseudoTypes.find((item) => item.id === listing.subject.id) : undefined;
    if (!pseudo && !subjects.has(`${listing.kind}/${listing.franchise.id}/${listing.subject.id}`)) return listing;
    if (pseudo) {
      if (!franchises.has(listing.franchise.id)) return listing;
      // A swapped product that joins or leaves it (a discount, a preorder): made again from the
      // catalogue. Otherwise it holds the same products in the same order, as the others.
      const moves = [...swapped].some(([was, now]) => now.franchise_id === listing.franchise.id && pseudo.matches(was) !== pseudo.matches(now));
      if (moves) return { ...listing, pages: paginate(productsForListing(after.products, { franchiseId: listing.franchise.id, typeId: pseudo.id })) };
    }
    if (!listing.pages.some(shows)) return listing;
    return {
      ...listing,
      pages: listing.pages.map((page) => (shows(page) ? { ...page, products: page.products.map((product) => swapped.get(product) ?? product) } : page)),
    };
  });
  listed.set(after, out);
}

function listingsOf(catalog: RouteCatalog): Listing[] {
  const out: Listing[] = [];
  for (const franchise of catalog.franchises) {
    const own = catalog.products.filter((product) => product.franchise_id === franchise.id);
    const byType = new Map<string, Product[]>();
    const byExpansion = new Map<string, Product[]>();
    for (const product of own) {
      if (product.product_type_id) (byType.get(product.product_type_id) ?? byType.set(product.product_type_id, []).get(product.product_type_id)!).push(product);
      if (product.expansion_id) (byExpansion.get(product.expansion_id) ?? byExpansion.set(product.expansion_id, []).get(product.expansion_id)!).push(product);
    }
    const named = { id: franchise.id, name: franchise.name };
    for (const type of listingTypes(catalog, franchise.id)) {
      const pseudo = pseudoTypes.find((item) => item.id === type.id);
      // Same rule as productsForListing: a pseudo-type filters the franchise's products.
      const products = pseudo ? productsForListing(own, { franchiseId: franchise.id, typeId: type.id }) : (byType.get(type.id) ?? []);
      out.push({ kind: 'type', franchise: named, subject: type, base: typeListingPath(franchise.id, type.id), pages: paginate(products) });
    }
    for (const expansion of catalog.expansions) {
      if (expansion.franchiseId !== franchise.id) continue;
      const subject = { id: expansion.id, name: expansion.name };
      out.push({
        kind: 'expansion',
        franchise: named,
        subject,
        base: expansionListingPath(franchise.id, expansion.id),
        pages: paginate(byExpansion.get(expansion.id) ?? []),
      });
    }
  }
  return out;
}

/** Products the home page lists, each list possibly empty (then its slider is not shown). */
export interface HomeLists {
  /** Discounted new arrivals ('Ofertas Especiales'). */
  specialOffers: Product[];
  destinedRivals: Product[];
  journeyTogether: Product[];
  newArrivals: Product[];
}

const isNewArrival = (product: Product) => product.type === 'newArrivals';
const isDiscounted = (product: Product) => product.discount || discountPercent(product) !== null;

/** Splits the catalogue into the home page's lists (at most `limit` products each). */
export function homeLists(products: readonly Product[], limit = 12): HomeLists {
  const lists: HomeLists = { specialOffers: [], destinedRivals: [], journeyTogether: [], newArrivals: [] };
  let full = 0;
  const add = (list: Product[], product: Product) => {
    if (list.length >= limit) return;
    list.push(product);
    if (list.length === limit) full += 1;
  };
  // One pass in the catalogue's order, until every list is full.
  for (let i = 0; i < products.length && full < 4; i++) {
    const product = products[i]!;
    if (!isListed(product)) continue;
    if (isNewArrival(product)) {
      add(lists.newArrivals, product);
      if (lists.specialOffers.length < limit && isDiscounted(product)) add(lists.specialOffers, product);
    }
    if (product.expansion_id === 'destined-rivals') add(lists.destinedRivals, product);
    else if (product.expansion_id === 'journey-together') add(lists.journeyTogether, product);
  }
  return lists;
}

/** The product the home carousel features, and the products whose pictures its slides show. */
export const HOME_HERO_PRODUCT = 'pk-boosterbox-journey-together';
export const HOME_HERO_IMAGES = ['pk-etb-journey-together', 'pk-etb-destined-rivals', HOME_HERO_PRODUCT] as const;

/** The catalogue's products among HOME_HERO_IMAGES, by id: one pass, no map of the whole catalogue. */
export function homeHeroes(products: readonly Product[]): Map<string, Product> {
  const ids = new Set<string>(HOME_HERO_IMAGES);
  return new Map(products.filter((product) => ids.has(product.id)).map((product) => [product.id, product]));
}

/** A prebuilt catalogue page and the products it shows, in order. */
export interface CatalogPage {
  path: string;
  productIds: string[];
  /** What else the page prints that a product change can alter (counts, page numbers). */
  extra: string;
}

/**
 * Every prebuilt catalogue page that shows products: the home page, each product page and each
 * page of each listing, with the products each one shows. The franchise pickers show counts of
 * types and expansions only, which products do not change, so they are not listed.
 */
export function catalogPages(catalog: RouteCatalog): CatalogPage[] {
  const pages: CatalogPage[] = [];
  const lists = homeLists(catalog.products);
  const home = [...lists.specialOffers, ...lists.destinedRivals, ...lists.journeyTogether, ...lists.newArrivals].map((product) => product.id);
  pages.push({ path: HOME_PATH, productIds: [...home, ...HOME_HERO_IMAGES.filter((id) => catalog.products.some((product) => product.id === id))], extra: '' });
  for (const product of catalog.products) pages.push({ path: productPath(product.id), productIds: [product.id], extra: '' });
  for (const listing of listings(catalog)) {
    for (const page of listing.pages) {
      pages.push({
        path: pageHref(listing.base, page.pageNumber),
        productIds: page.products.map((product) => product.id),
        extra: `${page.pageNumber}/${page.pageCount}/${page.total}`,
      });
    }
  }
  return pages;
}

/** Paths of the catalogue pages that show at least one of `productIds`. */
export function pagesShowing(catalog: RouteCatalog, productIds: Iterable<string>): string[] {
  const wanted = new Set(productIds);
  return catalogPages(catalog)
    .filter((page) => page.productIds.some((id) => wanted.has(id)))
    .map((page) => page.path);
}
