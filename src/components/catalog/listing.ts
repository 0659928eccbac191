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

/** A franchise or listing name as the listing pages need it. */
export interface Named {
  id: string;
  name: string;
}

/** Static paths of every type listing (types and pseudo-types of each franchise), page by page. */
export function typeListingPaths(catalog: BuildCatalog) {
  return catalog.franchises.flatMap((franchise) =>
    listingTypes(catalog, franchise.id).flatMap((type) =>
      paginate(typeListing(catalog, franchise.id, type.id)).map((listing) => ({
        params: { franchiseId: franchise.id, typeId: type.id, page: listing.page },
        props: { franchise: { id: franchise.id, name: franchise.name } as Named, type: { id: type.id, name: type.name } as Named, listing },
      })),
    ),
  );
}

/** Static paths of every expansion listing of each franchise, page by page. */
export function expansionListingPaths(catalog: BuildCatalog) {
  return catalog.franchises.flatMap((franchise) =>
    catalog.expansions
      .filter((expansion) => expansion.franchiseId === franchise.id)
      .flatMap((expansion) =>
        paginate(expansionListing(catalog, franchise.id, expansion.id)).map((listing) => ({
          params: { franchiseId: franchise.id, expansionId: expansion.id, page: listing.page },
          props: {
            franchise: { id: franchise.id, name: franchise.name } as Named,
            expansion: { id: expansion.id, name: expansion.name } as Named,
            listing,
          },
        })),
      ),
  );
}
