/**
 * Static listing pages: which listings exist and how they split into pages of 48 products.
 */
import { pseudoTypes } from '../../domain/catalog.ts';
import { productsForListing, type Product } from '../../domain/products.ts';
import type { BuildCatalog } from '../../lib/snapshot/catalog.ts';

/** Products per static listing page. */
export const LISTING_PAGE_SIZE = 48;

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

/** Href of page `n` of a listing whose first page is `base`. */
export function pageHref(base: string, n: number): string {
  return n <= 1 ? base : `${base}/${n}`;
}

/** The product types a franchise lists (its own types plus the preorder and sale pseudo-types). */
export function listingTypes(catalog: BuildCatalog, franchiseId: string): Array<{ id: string; name: string }> {
  const own = catalog.productTypes.filter((type) => type.franchiseId === franchiseId);
  return [...own, ...pseudoTypes.map((type) => ({ id: type.id, name: type.name }))];
}

/** Products of a type listing (real type or pseudo-type) within a franchise. */
export function typeListing(catalog: BuildCatalog, franchiseId: string, typeId: string): Product[] {
  return productsForListing(catalog.products, { franchiseId, typeId });
}

/** Products of an expansion listing within a franchise. */
export function expansionListing(catalog: BuildCatalog, franchiseId: string, expansionId: string): Product[] {
  return productsForListing(catalog.products, { franchiseId, expansionId });
}
