/**
 * Catalogue pages the running server renders after an edit (fast-edit.ts): the page's props wait
 * here under a random token until its render route (src/pages/catalog-render/) takes them. The
 * routes answer 404 to any request without a waiting token, so from outside they show nothing.
 * On globalThis: the endpoint and the routes are separate chunks of the server bundle.
 */
import { randomUUID } from 'node:crypto';
import type { ListingPage, Named } from '~/domain/routes.ts';
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
