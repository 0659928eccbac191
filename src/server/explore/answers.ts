/**
 * /explore's answers on the server: the search of src/domain/explore-query.ts over the catalogue
 * in memory (./catalog.ts, with live stock), remembered by address until the catalogue changes,
 * so a popular address costs one search however many shoppers open it.
 */
import { filtersFromQuery, filtersToQuery, EXPLORE_PAGE, MAX_PAGES, pageOf, type ExploreData, type ExploreFilters } from '~/domain/explore.ts';
import { searchExplore, type ExploreAnswer } from '~/domain/explore-query.ts';
import { exploreCatalog, type LiveCatalog } from './catalog.ts';
import { warmUpOnce } from './warm-up.ts';

export { MAX_PAGES, pageOf };

/**
 * Answers kept, by the catalogue's search version and address: an answer stays right until a
 * change that can alter a search (a product sold out or back, a single's copies), so a popular
 * address costs one search per such change. Its products are the catalogue's own objects, whose
 * stock the catalogue updates in place, so a card rendered from a kept answer shows the stock of now.
 */
const CACHE_SIZE = 500;
/** How long a CDN may keep an answer: about the time the server takes to see a sale. */
const CDN_SECONDS = 3;

const answers = new Map<string, ExploreAnswer>();

/** What /explore shows for `filters` in `catalogue`: results `offset` to `offset + limit`, the total and the counts. */
export function exploreAnswer(catalog: LiveCatalog, filters: ExploreFilters, offset: number, limit: number = EXPLORE_PAGE): ExploreAnswer {
  const { data, searchVersion: version } = catalog;
  const key = `${version}|${filtersToQuery(filters)}|${filters.sort}|${offset}|${limit}`;
  const cached = answers.get(key);
  if (cached) {
    // Most recently used last: the Map's first key is the one to drop.
    answers.delete(key);
    answers.set(key, cached);
    return cached;
  }
  const answer = searchExplore(data, filters, offset, limit, version);
  answers.set(key, answer);
  // The least recently used answer goes first (a Map keeps insertion order).
  if (answers.size > CACHE_SIZE) answers.delete(answers.keys().next().value!);
  return answer;
}

const typesWithProducts = new WeakMap<ExploreData['products'], Set<string>>();

/** The product types that have products, for the index of the whole catalogue. */
export function productTypesInUse(data: ExploreData): Set<string> {
  let found = typesWithProducts.get(data.products);
  if (!found) {
    found = new Set(data.products.flatMap((product) => (product.typeId ? [product.typeId] : [])));
    typesWithProducts.set(data.products, found);
  }
  return found;
}

/** What an /explore address shows: its filters, how many pages, the answer and the next page's address. */
export interface ExploreView {
  filters: ExploreFilters;
  page: number;
  answer: ExploreAnswer;
  data: ExploreData;
  moreHref: string | null;
}

/** The address of page `page` of the results of `filters`. */
export function explorePageHref(filters: ExploreFilters, page: number): string {
  const query = filtersToQuery(filters);
  if (page <= 1) return `/explore${query}`;
  return `/explore${query}${query ? '&' : '?'}pagina=${page}`;
}

/**
 * /explore for an address (its query string): the first `pagina` pages of results at once, or
 * with `only` that page alone ('Ver más' asks for the next 24 cards).
 */
export async function exploreView(search: string, only = false): Promise<ExploreView> {
  const catalog = await exploreCatalog();
  const filters = filtersFromQuery(search);
  const page = pageOf(search);
  const offset = only ? (page - 1) * EXPLORE_PAGE : 0;
  const answer = exploreAnswer(catalog, filters, offset, only ? EXPLORE_PAGE : page * EXPLORE_PAGE);
  const moreHref = answer.total > page * EXPLORE_PAGE && page < MAX_PAGES ? explorePageHref(filters, page + 1) : null;
  // After the first answer (the server's own, as it starts), the search is warmed up in the background.
  warmUpOnce(catalog);
  return { filters, page, answer, data: catalog.data, moreHref };
}

/**
 * /explore's answers may be kept by a CDN for as long as the server keeps them (stock read within
 * seconds stays right within seconds), never by the browser, which asks again on each change.
 */
export const EXPLORE_CACHE_CONTROL = `public, max-age=0, s-maxage=${CDN_SECONDS}, stale-while-revalidate=10`;
