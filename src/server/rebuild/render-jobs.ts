/**
 * Catalogue pages the running server renders after an edit (fast-edit.ts): the page's props wait
 * here under a random token until its render route (src/pages/catalog-render/) takes them. The
 * routes answer 404 to any request without a waiting token, so from outside they show nothing.
 * On globalThis: the endpoint and the routes are separate chunks of the server bundle.
 */
import { randomUUID } from 'node:crypto';
import { HOME_PATH, listings, pageHref, productPath, type ListingPage, type Named, type RouteCatalog } from '~/domain/routes.ts';
import type { SnapshotExpansion, SnapshotFranchise, SnapshotProductType } from '../snapshot/model.ts';
import type { Product } from '~/domain/products.ts';

/** The request header that carries a render job's token. */
export const RENDER_TOKEN_HEADER = 'x-catalog-render';

/** Props of each kind of catalogue page, as its prebuilt route hands them to its component. */
export interface RenderProps {
  product: { product: Product; franchise?: Named; expansion?: Named; productType?: Named };
  'expansion-listing': { franchise: Named; expansion: Named; listing: ListingPage };
  'type-listing': { franchise: Named; type: Named; listing: ListingPage };
  home: { products: Product[] };
}

export type RenderKind = keyof RenderProps;

/** A page to render: its kind, the path the build prerenders it at, and its props. */
export type RenderJob = { [K in RenderKind]: { kind: K; path: string; props: RenderProps[K] } }[RenderKind];

const KEY = Symbol.for('tienda-cartas.catalog-render-jobs');

function jobs(): Map<string, RenderJob> {
  const store = globalThis as Record<symbol, Map<string, RenderJob> | undefined>;
  return (store[KEY] ??= new Map());
}

/** Leaves a page's props for its render route; the returned token names them once. */
export function putRenderJob(job: RenderJob): string {
  const token = randomUUID();
  jobs().set(token, job);
  return token;
}

/** Forgets a job its route never took (the request failed). */
export function dropRenderJob(token: string): void {
  jobs().delete(token);
}

/** The job waiting under `token` if it is of `kind`, taken (a token works once); else null. */
export function takeRenderJob<K extends RenderKind>(token: string | null, kind: K): Extract<RenderJob, { kind: K }> | null {
  if (!token) return null;
  const job = jobs().get(token);
  if (!job || job.kind !== kind) return null;
  jobs().delete(token);
  return job as Extract<RenderJob, { kind: K }>;
}

/** Runs `work` over `items`, at most `limit` at once, keeping their order in the answer. */
export async function inBatches<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      out[at] = await work(items[at]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The catalogue as the pages read it: what the prebuilt routes get from getBuildCatalog. */
export interface PageCatalog extends RouteCatalog {
  products: Product[];
  franchises: SnapshotFranchise[];
  expansions: SnapshotExpansion[];
  productTypes: SnapshotProductType[];
  readFrom: string | null;
}

/**
 * The render jobs of the planned paths, or the first path no render route makes. `find` gives a
 * listed product by id (the server keeps where each is); without it the catalogue is looked through.
 */
export function renderJobs(
  paths: readonly string[],
  catalog: PageCatalog,
  find?: (id: string) => Product | undefined,
): { jobs: RenderJob[] } | { missing: string } {
  const wanted = new Set(paths);
  const jobs: RenderJob[] = [];
  // The path each page is prerendered at (directory format: Astro.url ends in '/').
  const at = (urlPath: string) => (urlPath.endsWith('/') ? urlPath : `${urlPath}/`);
  const byId = <T extends { id: string }>(items: readonly T[], id: string | null | undefined) => (id ? items.find((item) => item.id === id) : undefined);
  // Product pages by id: no path made for every product of the catalogue.
  const prefix = productPath('');
  const ids = new Set([...wanted].filter((urlPath) => urlPath.startsWith(prefix)).map((urlPath) => decodeURIComponent(urlPath.slice(prefix.length))));
  const products = find ? [...ids].flatMap((id) => find(id) ?? []) : ids.size > 0 ? catalog.products.filter((product) => ids.has(product.id)) : [];
  for (const product of products) {
    const urlPath = productPath(product.id);
    wanted.delete(urlPath);
    jobs.push({
      kind: 'product',
      path: at(urlPath),
      props: {
        product,
        franchise: byId(catalog.franchises, product.franchise_id),
        expansion: byId(catalog.expansions, product.expansion_id),
        productType: byId(catalog.productTypes, product.product_type_id),
      },
    });
  }
  if (wanted.delete(HOME_PATH)) jobs.push({ kind: 'home', path: HOME_PATH, props: { products: catalog.products } });
  // The listings are looked at only for a listing page (made from the whole catalogue when not made yet).
  for (const listing of wanted.size > 0 ? listings(catalog) : []) {
    for (const page of listing.pages) {
      const urlPath = pageHref(listing.base, page.pageNumber);
      if (!wanted.delete(urlPath)) continue;
      jobs.push(
        listing.kind === 'expansion'
          ? { kind: 'expansion-listing', path: at(urlPath), props: { franchise: listing.franchise, expansion: listing.subject, listing: page } }
          : { kind: 'type-listing', path: at(urlPath), props: { franchise: listing.franchise, type: listing.subject, listing: page } },
      );
    }
  }
  const [missing] = wanted;
  return missing === undefined ? { jobs } : { missing };
}
