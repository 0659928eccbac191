/**
 * /explore's search warmed up as the server starts. The JavaScript engine compiles the search's
 * code for speed only after it has run it many times, so a fresh server's first searches are slow:
 * at 100,000 products a filtered search took 20–40 ms in a server just started and 7–14 ms once
 * it had run a few dozen (curl, one address at a time, 2026-11-26). Here, after the first answer,
 * the server runs each kind of search a few times in the background (every order, each filter, a
 * word, a price range, the singles' filters), one per turn of the event loop so a shopper's
 * request never waits behind more than one, and throws the results away: the answers a shopper
 * gets are searched for them as before.
 */
import { EMPTY_FILTERS, filtersFromQuery, SORTS, type ExploreData } from '~/domain/explore.ts';
import { searchExplore } from '~/domain/explore-query.ts';
import type { LiveCatalog } from './catalog.ts';

/** How many times each address of warmUpQueries is searched. */
export const WARM_UP_ROUNDS = 3;

/**
 * The addresses of warmUpQueries that need none of the catalogue's values: every order, each flag,
 * a price range, a word that finds nothing and the singles' filters.
 */
export const WARM_UP_ADDRESSES: readonly string[] = [
  ...SORTS.map((sort) => `?orden=${sort}`),
  '?disponible=1',
  '?oferta=1&orden=precio-desc',
  '?preventa=1',
  '?precio_min=100&precio_max=500',
  '?q=zzzzqx',
  '?condicion=NM',
  '?idioma=en&acabado=foil',
  '?graduadas=1',
];

/**
 * What scripts/serve.mjs asks its own /explore for as it starts, so the render's code (not only
 * the search's) is compiled before shoppers come: WARM_UP_ADDRESSES' results on pages 2 and 3 (48
 * and 72 cards) and a 'Ver más' part. At 100,000 products the first filtered answer after a start
 * spent 14 ms rendering beyond its search without it and 2.6 ms with it, the next few 2–7 ms
 * against 1–5 ms (Server-Timing, curl, 2026-12-04). Those answers are kept like any other; a
 * shopper's first page of the same filters is another answer.
 */
export function renderWarmUpPaths(): string[] {
  return [2, 3].flatMap((page) => [...WARM_UP_ADDRESSES, '?solo=mas'].map((query) => `/explore/resultados${query}&pagina=${page}`));
}

/** Addresses (query strings) that take each path of the search once, from the catalogue's own values. */
export function warmUpQueries(data: ExploreData): string[] {
  const queries: string[] = [];
  const franchise = data.franchises[0]?.id;
  if (franchise) {
    queries.push(`?franquicia=${franchise}`, `?franquicia=${franchise}&disponible=1&orden=precio-asc`);
    const type = data.types.find((t) => t.franchiseId === franchise)?.id;
    if (type) queries.push(`?franquicia=${franchise}&tipo=${type}`);
  }
  const expansion = data.expansions[0]?.id;
  if (expansion) queries.push(`?expansion=${expansion}&orden=nuevos`);
  // A word: the first of a product's name.
  const word = data.products[0]?.name.split(/\s+/).find((w) => w.length >= 4);
  if (word) queries.push(`?q=${encodeURIComponent(word.toLowerCase())}`);
  return [...queries, ...WARM_UP_ADDRESSES];
}

/**
 * Searches each address of warmUpQueries `rounds` times over `catalogue`, one search per
 * `schedule` call (the next turn of the event loop by default). Resolves with how many searches
 * ran; a failing search is skipped (warming up must never break the server).
 */
export async function warmUpSearch(
  catalog: Pick<LiveCatalog, 'data' | 'searchVersion'>,
  rounds: number = WARM_UP_ROUNDS,
  schedule: () => Promise<void> = nextTurn,
): Promise<number> {
  const filters = warmUpQueries(catalog.data).map(filtersFromQuery);
  let searched = 0;
  for (let round = 0; round < rounds; round++) {
    for (const state of filters) {
      await schedule();
      try {
        searchExplore(catalog.data, state, 0, 24, catalog.searchVersion);
        searched++;
      } catch {
        // The real search of the same address reports its own failure.
      }
    }
  }
  return searched;
}

/** A turn of the event loop that never keeps the process alive. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0).unref());
}

/**
 * The search's columns and orders of the catalogue served now, made now (one search, thrown
 * away) rather than by a shopper's first search: at 100,000 products, after an edit, 85–112 ms.
 */
export function prepareSearch(catalog: Pick<LiveCatalog, 'data' | 'searchVersion'>): void {
  try {
    searchExplore(catalog.data, EMPTY_FILTERS, 0, 0, catalog.searchVersion);
  } catch {
    // A shopper's search of the same catalogue reports its own failure.
  }
}

let warming: Promise<number> | null = null;

/** Starts warmUpSearch once per process, in the background. */
export function warmUpOnce(catalog: Pick<LiveCatalog, 'data' | 'searchVersion'>): void {
  warming ??= warmUpSearch(catalog).catch(() => 0);
}
