/**
 * Static listing pages for the listing routes' getStaticPaths: the listings and page numbers come
 * from src/domain/routes.ts, shared with the incremental rebuild.
 */
import { listings, type Named, type RouteCatalog } from '~/domain/routes.ts';

export { pageHref, type ListingPage } from '~/domain/routes.ts';

/** Static paths of every type listing (types and pseudo-types of each franchise), page by page. */
export function typeListingPaths(catalog: RouteCatalog, keep: (path: string) => boolean = () => true) {
  return listingPaths(catalog, 'type', keep).map(({ listing, page }) => ({
    params: { franchiseId: listing.franchise.id, typeId: listing.subject.id, page: page.page },
    props: { franchise: listing.franchise as Named, type: listing.subject as Named, listing: page },
  }));
}

/** Static paths of every expansion listing of each franchise, page by page. */
export function expansionListingPaths(catalog: RouteCatalog, keep: (path: string) => boolean = () => true) {
  return listingPaths(catalog, 'expansion', keep).map(({ listing, page }) => ({
    params: { franchiseId: listing.franchise.id, expansionId: listing.subject.id, page: page.page },
    props: { franchise: listing.franchise as Named, expansion: listing.subject as Named, listing: page },
  }));
}

function listingPaths(catalog: RouteCatalog, kind: 'type' | 'expansion', keep: (path: string) => boolean) {
  return listings(catalog)
    .filter((listing) => listing.kind === kind)
    .flatMap((listing) => listing.pages.map((page) => ({ listing, page })))
    .filter(({ listing, page }) => keep(page.pageNumber <= 1 ? listing.base : `${listing.base}/${page.pageNumber}`));
}

const LISTING_BASE = /^\/franchise\/([a-z0-9-]+)\/(product-types|expansions)\/([a-z0-9-]+)\/products$/;

/**
 * /explore showing the whole listing whose first page is `base` (every page, not only this one),
 * where the singles filters apply to all its products: '/explore?franquicia=one-piece&tipo=op-single-card'.
 */
export function listingExploreHref(base: string): string {
  const match = LISTING_BASE.exec(base);
  if (!match) return '/explore';
  const [, franchise, kind, id] = match as unknown as [string, string, string, string];
  const params = new URLSearchParams({ franquicia: franchise });
  if (kind === 'expansions') params.set('expansion', id);
  else if (id === 'preorder') params.set('preventa', '1');
  else if (id === 'sale') params.set('oferta', '1');
  else params.set('tipo', id);
  return `/explore?${params.toString()}`;
}
