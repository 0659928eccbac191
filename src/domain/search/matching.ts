/**
 * Product name search for the header type-ahead and /explore?q=: how a query matches a product
 * name (ignoring case, accents and punctuation) and how matches are ranked. Pure functions over
 * entries already in memory; the index files they come from are ./format.ts and ./shards.ts.
 */

/** One product in the index: id, name and image path (relative to the storage, a site path or a URL). */
export type SearchEntry = readonly [id: string, name: string, image: string];

/** An index ready to be searched: entries with their names normalized once. */
export interface PreparedIndex {
  readonly entries: readonly SearchEntry[];
  readonly keys: readonly string[];
}

/** Results shown in the dropdown unless the caller asks for another number. */
export const DEFAULT_LIMIT = 8;

/** Longest query looked at; longer text cannot match a product name anyway. */
const MAX_QUERY_LENGTH = 100;

const COMBINING_MARKS = /\p{M}/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/gu;

/**
 * Lower-cases, removes accents and turns punctuation into single spaces, so 'Pokémon' and
 * 'pokemon', or 'Evolución—Prismática' and 'evolucion prismatica', compare equal.
 * @example normalize('  Pokémon: ETB ') // 'pokemon etb'
 */
export function normalize(text: string): string {
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase().replace(NOT_WORD, ' ').trim();
}

/** Normalizes every name once, so a keystroke costs one pass of substring tests. */
export function prepareIndex(entries: readonly SearchEntry[]): PreparedIndex {
  return { entries, keys: entries.map((e) => normalize(e[1])) };
}

/** A query made ready for matchRank: normalized once, split into words. */
export interface PreparedQuery {
  text: string;
  words: string[];
  wordStart: string;
}

/** Normalizes a query for matchRank; null when nothing is left to search for. */
export function prepareQuery(query: string): PreparedQuery | null {
  const text = normalize(query.slice(0, MAX_QUERY_LENGTH));
  if (text === '') return null;
  return { text, words: text.split(' '), wordStart: ` ${text}` };
}

/**
 * How a normalized name matches a query: 0 the name starts with it, 1 a word starts with it, 2 it
 * is anywhere, 3 a query of several words has all of them in another order; -1 no match. The
 * header search and /explore?q= both rank with this, so they always agree.
 */
export function matchRank(key: string, q: PreparedQuery): number {
  const at = key.indexOf(q.text);
  if (at === 0) return 0;
  if (at > 0) return key.includes(q.wordStart) ? 1 : 2;
  if (q.words.length > 1 && q.words.every((w) => key.includes(w))) return 3;
  return -1;
}

/**
 * Products whose name contains the query, ignoring case and accents. Names that start with the
 * query come first, then names with a word starting with it, then any other place; a query of
 * several words also matches names holding all of them in another order, after the rest.
 * Within a rank the index order (alphabetical) is kept.
 * @example searchProducts(prepareIndex([['a', 'Sobre Fuerzas Temporales', '']]), 'fuerzas') // [['a', ...]]
 */
export function searchProducts(index: PreparedIndex, query: string, limit = DEFAULT_LIMIT): SearchEntry[] {
  return searchWithTotal(index, query, limit).results;
}

/**
 * Like searchProducts, plus how many products match in all ('Ver todos los resultados (n)').
 */
export function searchWithTotal(index: PreparedIndex, query: string, limit = DEFAULT_LIMIT): { results: SearchEntry[]; total: number } {
  const q = prepareQuery(query);
  if (q === null || limit <= 0) return { results: [], total: 0 };
  // Four ranks: prefix, word start, anywhere, all words in any order.
  const ranks: SearchEntry[][] = [[], [], [], []];
  const { keys, entries } = index;
  let total = 0;
  for (let i = 0; i < keys.length; i++) {
    const rank = matchRank(keys[i]!, q);
    if (rank < 0) continue;
    total += 1;
    const bucket = ranks[rank]!;
    if (bucket.length < limit) bucket.push(entries[i]!);
  }
  return { results: ranks.flat().slice(0, limit), total };
}
