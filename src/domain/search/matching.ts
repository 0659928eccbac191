/**
 * Product name search for the header type-ahead and /explore?q=: how a query matches a product
 * name (ignoring case, accents and punctuation) and how matches are ranked. Pure functions over
 * entries already in memory; the index files they come from are ./format.ts and ./shards.ts.
 */

/**
 * One product in the index: id, name, image path (relative to the storage, a site path or a URL)
 * and, for a single card, its card text (see cardText): absent or '' for sealed products.
 */
export type SearchEntry = readonly [id: string, name: string, image: string, card?: string];

/** An index ready to be searched: entries with their search keys (searchKey) and collector keys made once. */
export interface PreparedIndex {
  readonly entries: readonly SearchEntry[];
  readonly keys: readonly string[];
  /** Each entry's collector key (collectorOf): null for a sealed product. Absent: no singles. */
  readonly collectors?: ReadonlyArray<string | null>;
}

/** Marks a card text: what follows is the collector key, then the card's other names. */
const CARD_MARK = '#';

/**
 * The card text a single adds to the index: '#' and its collector key as the database indexes it
 * (normalizeCollectorNumber: 'OP05-119' → 'op05119'), then its English or Spanish name when the
 * product's name does not already hold it; '' for a sealed product. Everything in it is searched
 * like the name, so 'op05119', 'op05 119' and the other language's name find the card.
 * @example cardText('Monkey.D.Luffy (OP05-119)', 'op05119', ['Monkey D. Luffy', 'Monkey D. Luffy']) // '#op05119'
 */
export function cardText(name: string, collectorKey: string, names: ReadonlyArray<string | null | undefined>): string {
  const key = normalize(name);
  const extra: string[] = [];
  for (const other of names) {
    const text = other ? normalize(other) : '';
    if (text && !` ${key} `.includes(` ${text} `) && !extra.includes(text)) extra.push(text);
  }
  return [`${CARD_MARK}${collectorKey}`, ...extra].join(' ');
}

/** The collector key in a card text ('' when the card has none); null for a sealed product. */
export function collectorOf(card: string | undefined): string | null {
  if (!card || !card.startsWith(CARD_MARK)) return null;
  const end = card.indexOf(' ');
  return card.slice(CARD_MARK.length, end < 0 ? undefined : end);
}

/** What a query is matched against: the normalized name, then the card text of a single. */
export function searchKey(name: string, card?: string): string {
  return card ? normalize(`${name} ${card}`) : normalize(name);
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
  const keys = entries.map((e) => searchKey(e[1], e[3]));
  if (!entries.some((e) => e[3])) return { entries, keys };
  return { entries, keys, collectors: entries.map((e) => collectorOf(e[3])) };
}

/** A query made ready for matchRank: normalized once, split into words. */
export interface PreparedQuery {
  text: string;
  words: string[];
  wordStart: string;
  /** The query as a collector key: its letters and digits only ('op05 119' → 'op05119'). */
  compact: string;
}

/** Normalizes a query for matchRank; null when nothing is left to search for. */
export function prepareQuery(query: string): PreparedQuery | null {
  const text = normalize(query.slice(0, MAX_QUERY_LENGTH));
  if (text === '') return null;
  return { text, words: text.split(' '), wordStart: ` ${text}`, compact: text.replaceAll(' ', '') };
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

/** How many ranks entryRank gives: the collector number, then matchRank's four for singles, then for sealed products. */
export const ENTRY_RANKS = 9;

/**
 * Where a product ranks for a query, lowest first; -1 no match. A single whose collector number
 * is the query ('OP05-119', 'op05 119', '199/165') comes first; then singles matched by their
 * names or number, then sealed products that merely mention the words, each by matchRank.
 * `collector` is the entry's collector key, null for a sealed product (collectorOf).
 */
export function entryRank(key: string, collector: string | null | undefined, q: PreparedQuery): number {
  const rank = matchRank(key, q);
  if (rank < 0) return -1;
  if (collector === null || collector === undefined) return 5 + rank;
  return collector !== '' && collector === q.compact ? 0 : 1 + rank;
}

/**
 * Products whose name (or a single's card text) contains the query, ignoring case and accents.
 * A single found by its collector number comes first, then the other singles that match, then
 * sealed products (entryRank); within each, names that start with the query come first, then
 * names with a word starting with it, then any other place; a query of several words also
 * matches names holding all of them in another order, after the rest.
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
  // The ranks of entryRank: collector number; singles, then sealed, each by prefix, word start, anywhere, all words in any order.
  const ranks: SearchEntry[][] = Array.from({ length: ENTRY_RANKS }, () => []);
  const { keys, entries, collectors } = index;
  let total = 0;
  for (let i = 0; i < keys.length; i++) {
    const rank = entryRank(keys[i]!, collectors ? collectors[i] : null, q);
    if (rank < 0) continue;
    total += 1;
    const bucket = ranks[rank]!;
    if (bucket.length < limit) bucket.push(entries[i]!);
  }
  return { results: ranks.flat().slice(0, limit), total };
}
