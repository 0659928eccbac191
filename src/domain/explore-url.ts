/**
 * /explore's filter state and its address: what the page's small script needs in the browser,
 * apart from the catalogue code of ./explore.ts (which re-exports all of it).
 */
import { type Centavos, pesosInputToCentavos, wholePesos } from './money.ts';
import { facetsFromQuery, facetsToParams, NO_FACETS, type FacetFilters } from './singles-facets.ts';

export const SORTS = ['relevancia', 'precio-asc', 'precio-desc', 'nuevos', 'nombre'] as const;
/** How results are ordered. */
export type Sort = (typeof SORTS)[number];

/** Every filter of the explore page, the singles filters (search/facets.ts) included. */
export interface ExploreFilters extends FacetFilters {
  /** Words to find in product names, matched like the header search ('' = all). */
  q: string;
  franchise: string;
  type: string;
  expansion: string;
  inStock: boolean;
  preorder: boolean;
  sale: boolean;
  /** The price range in centavos, each end included; null = no limit. */
  priceMin: Centavos | null;
  priceMax: Centavos | null;
  sort: Sort;
}

/** No filters, default order. */
export const EMPTY_FILTERS: ExploreFilters = {
  q: '',
  franchise: '',
  type: '',
  expansion: '',
  inStock: false,
  preorder: false,
  sale: false,
  priceMin: null,
  priceMax: null,
  sort: 'relevancia',
  ...NO_FACETS,
};

const SLUG = /^[a-z0-9][a-z0-9-]{0,63}$/;
const slugOrEmpty = (value: string | null) => (value && SLUG.test(value) ? value : '');
const flag = (value: string | null) => value === '1' || value === 'true';
/** The price range's query-string names; their values are whole pesos. */
export const PRICE_PARAMS = { min: 'precio_min', max: 'precio_max' } as const;
const MAX_PESOS = 10_000_000;
/** A price limit from the address in whole pesos ('500'), as centavos; null when absent or not a number. */
function pesosOrNull(value: string | null): Centavos | null {
  if (value === null || !/^\d{1,8}$/.test(value.trim())) return null;
  return Number(value.trim()) <= MAX_PESOS ? pesosInputToCentavos(value) : null;
}

/** Filters from a query string; unknown or malformed values are ignored. */
export function filtersFromQuery(search: string): ExploreFilters {
  const params = new URLSearchParams(search);
  const sort = params.get('orden');
  return {
    q: (params.get('q') ?? '').trim().slice(0, 100),
    franchise: slugOrEmpty(params.get('franquicia')),
    type: slugOrEmpty(params.get('tipo')),
    expansion: slugOrEmpty(params.get('expansion')),
    inStock: flag(params.get('disponible')),
    preorder: flag(params.get('preventa')),
    sale: flag(params.get('oferta')),
    priceMin: pesosOrNull(params.get(PRICE_PARAMS.min)),
    priceMax: pesosOrNull(params.get(PRICE_PARAMS.max)),
    sort: (SORTS as readonly string[]).includes(sort ?? '') ? (sort as Sort) : 'relevancia',
    ...facetsFromQuery(params),
  };
}

/** The query string of a filter state ('' when nothing is set), stable in key order. */
export function filtersToQuery(filters: ExploreFilters): string {
  const params = new URLSearchParams();
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.franchise) params.set('franquicia', filters.franchise);
  if (filters.type) params.set('tipo', filters.type);
  if (filters.expansion) params.set('expansion', filters.expansion);
  if (filters.inStock) params.set('disponible', '1');
  if (filters.preorder) params.set('preventa', '1');
  if (filters.sale) params.set('oferta', '1');
  facetsToParams(filters, params);
  if (filters.priceMin !== null) params.set(PRICE_PARAMS.min, String(wholePesos(filters.priceMin)));
  if (filters.priceMax !== null) params.set(PRICE_PARAMS.max, String(wholePesos(filters.priceMax)));
  if (filters.sort !== 'relevancia') params.set('orden', filters.sort);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** How many pages of results an address may ask for at once (`pagina`). */
export const MAX_PAGES = 20;

/** The page number of an address ('pagina=3'): 1 when absent or not a number, at most MAX_PAGES. */
export function pageOf(search: string): number {
  const value = Number(new URLSearchParams(search).get('pagina'));
  return Number.isInteger(value) && value > 1 ? Math.min(value, MAX_PAGES) : 1;
}

/** How many filters narrow the results (the words searched and the order are not filters; the price range is one): 'Filtros (2)'. */
export function activeFilterCount(filters: ExploreFilters): number {
  const chosen = [filters.franchise, filters.type, filters.expansion, filters.rarity, filters.condition, filters.language, filters.finish];
  const flags = [filters.inStock, filters.preorder, filters.sale, filters.graded, filters.priceMin !== null || filters.priceMax !== null];
  return chosen.filter((value) => value !== '').length + flags.filter(Boolean).length;
}
