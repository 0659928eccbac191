/**
 * The singles filters of listings and /explore: rarity (Rareza), condition (Condición), language
 * (Idioma), finish (Acabado) and 'Solo graduadas'. Pure, so the build (which writes each card's
 * facets), the listing pages' small script and the /explore island share one rule.
 *
 * The rule: a single matches when its rarity is the chosen one and at least one of its offers
 * IN STOCK has every chosen condition, language and finish at once (and is a slab when 'Solo
 * graduadas' is on). A sold-out offer never makes a card match: a shopper filtering 'LP · Inglés'
 * wants a copy they can buy. Stock is as of the last build; the product page shows live stock.
 * Sealed products (no printing and no offers) match no singles filter. What a card carries is
 * made from the product by ./header-search/cards.ts; this file is what the browser needs to filter.
 */
import { CARD_CONDITIONS, CONDITION_LABELS, finishLabel, FINISH_LABELS, languageLabel, LANGUAGE_LABELS, type Choice } from './singles.ts';

/** The condition written for a slab in an offer token: it has a grade, not a condition. */
export const SLAB = 'G';

/** The chosen singles filters; '' = any. */
export interface FacetFilters {
  rarity: string;
  condition: string;
  language: string;
  finish: string;
  graded: boolean;
}

/** No singles filter. */
export const NO_FACETS: FacetFilters = { rarity: '', condition: '', language: '', finish: '', graded: false };

/** The query-string names of the filters, as the listing form names its fields too. */
export const FACET_PARAMS = { rarity: 'rareza', condition: 'condicion', language: 'idioma', finish: 'acabado', graded: 'graduadas' } as const;

/** What a card carries for the filters: its rarity and its in-stock offers as tokens ('LP.en.parallel', 'G.en.normal'). */
export interface CardFacets {
  rarity: string;
  offers: string;
}

/** Whether any singles filter is chosen. */
export function hasFacetFilter(filters: FacetFilters): boolean {
  return filters.rarity !== '' || filters.condition !== '' || filters.language !== '' || filters.finish !== '' || filters.graded;
}

/** Whether a card with these facets passes the filters (the rule at the top of this file). */
export function matchesFacets(facets: CardFacets | null | undefined, filters: FacetFilters): boolean {
  if (!hasFacetFilter(filters)) return true;
  if (!facets) return false;
  if (filters.rarity && facets.rarity !== filters.rarity) return false;
  if (!filters.condition && !filters.language && !filters.finish && !filters.graded) return true;
  return facets.offers.split(' ').some((token) => {
    const [condition = '', language = '', finish = ''] = token.split('.');
    if (token === '') return false;
    if (filters.graded && condition !== SLAB) return false;
    if (filters.condition && condition !== filters.condition) return false;
    if (filters.language && language !== filters.language) return false;
    return !filters.finish || finish === filters.finish;
  });
}

const CODE = /^[A-Za-z0-9-]{1,32}$/;
const code = (value: string | null) => (value && CODE.test(value) ? value : '');

/** The filters named in a query string; unknown or malformed values are ignored. */
export function facetsFromQuery(params: URLSearchParams): FacetFilters {
  const condition = params.get(FACET_PARAMS.condition)?.toUpperCase() ?? '';
  const graded = params.get(FACET_PARAMS.graded);
  return {
    rarity: code(params.get(FACET_PARAMS.rarity)),
    condition: (CARD_CONDITIONS as readonly string[]).includes(condition) ? condition : '',
    language: code(params.get(FACET_PARAMS.language)).toLowerCase(),
    finish: code(params.get(FACET_PARAMS.finish)).toLowerCase(),
    graded: graded === '1' || graded === 'true',
  };
}

/** Writes the filters into `params`, removing the ones not chosen; other parameters are kept. */
export function facetsToParams(filters: FacetFilters, params: URLSearchParams): URLSearchParams {
  const set = (name: string, value: string) => (value ? params.set(name, value) : params.delete(name));
  set(FACET_PARAMS.rarity, filters.rarity);
  set(FACET_PARAMS.condition, filters.condition);
  set(FACET_PARAMS.language, filters.language);
  set(FACET_PARAMS.finish, filters.finish);
  set(FACET_PARAMS.graded, filters.graded ? '1' : '');
  return params;
}

/** The values a set of cards offers for each filter, labelled, in the order shops list them. */
export interface FacetOptions {
  rarities: Choice[];
  conditions: Choice[];
  languages: Choice[];
  finishes: Choice[];
  /** Whether any card has a slab in stock ('Solo graduadas' is offered). */
  graded: boolean;
}

/**
 * The filter values present among `cards` (sold-out offers left out, as they never match).
 * `rarityName` labels a rarity code (singles.ts rarityLabel with the card's franchise);
 * rarities keep the order in which `rarityOrder` lists them, unknown ones last.
 */
export function facetOptions(
  cards: ReadonlyArray<CardFacets | null | undefined>,
  rarityName: (code: string) => string,
  rarityOrder: readonly string[] = [],
): FacetOptions {
  const rarities = new Set<string>();
  const conditions = new Set<string>();
  const languages = new Set<string>();
  const finishes = new Set<string>();
  let graded = false;
  for (const card of cards) {
    if (!card) continue;
    if (card.rarity) rarities.add(card.rarity);
    for (const token of card.offers.split(' ')) {
      if (token === '') continue;
      const [condition = '', language = '', finish = ''] = token.split('.');
      if (condition === SLAB) graded = true;
      else if (condition) conditions.add(condition);
      if (language) languages.add(language);
      if (finish) finishes.add(finish);
    }
  }
  const ordered = (values: Set<string>, order: readonly string[]) => {
    const rank = (value: string) => (order.includes(value) ? order.indexOf(value) : order.length);
    return [...values].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  };
  return {
    rarities: ordered(rarities, rarityOrder).map((value) => ({ code: value, label: rarityName(value) })),
    conditions: ordered(conditions, CARD_CONDITIONS).map((value) => ({
      code: value,
      label: CONDITION_LABELS[value as keyof typeof CONDITION_LABELS] ?? value,
    })),
    languages: ordered(languages, Object.keys(LANGUAGE_LABELS)).map((value) => ({ code: value, label: languageLabel(value) })),
    finishes: ordered(finishes, Object.keys(FINISH_LABELS)).map((value) => ({ code: value, label: finishLabel(value) })),
    graded,
  };
}
