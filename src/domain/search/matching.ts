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

/** What ranks a single: its collector key and the text of its card names and number (see cardText). */
export interface CardKeys {
  /** The collector key ('op05119'); '' when the card has none. */
  collector: string;
  /** The card's names and collector key, normalized: a query matching here found the card itself. */
  cardKey: string;
}

/** An index ready to be searched: entries with their search keys (searchKey) and card keys made once. */
export interface PreparedIndex {
  readonly entries: readonly SearchEntry[];
  readonly keys: readonly string[];
  /** Each entry's card keys, null for a sealed product. Absent: no singles. */
  readonly cards?: ReadonlyArray<CardKeys | null>;
}

/** Marks a card text: what follows is the collector key, then the card's names. */
const CARD_MARK = '#';
/** Marks how many first words of the product name are the card's name: '~3'. */
const NAME_WORDS = '~';

/**
 * The card text a single adds to the index, as short as it can be: '#' and its collector key as
 * the database indexes it (normalizeCollectorNumber: 'OP05-119' → 'op05119'); then '~n' when the
 * product name starts with the card's name (its first n words), and the card names (English,
 * Spanish) the product name does not start with. A query matching the names or the number found
 * the card itself, and ranks it above products that merely mention the words (entryRank).
 * @example cardText('Monkey.D.Luffy (OP05-119)', 'op05119', ['Monkey.D.Luffy', null]) // '#op05119 ~3'
 * @example cardText('Clefairy ex de Lillie 056/159', 'sv09056', ["Lillie's Clefairy ex", 'Clefairy ex de Lillie']) // '#sv09056 ~4 lillie s clefairy ex'
 */
export function cardText(name: string, collectorKey: string, names: ReadonlyArray<string | null | undefined>): string {
  const head = `${CARD_MARK}${collectorKey}`;
  const key = normalize(name);
  let prefix = 0;
  const extra: string[] = [];
  for (const other of names) {
    const text = other ? normalize(other) : '';
    if (!text) continue;
    if (key === text || key.startsWith(`${text} `)) prefix = Math.max(prefix, text.split(' ').length);
    else if (!extra.includes(text)) extra.push(text);
  }
  return [head, ...(prefix > 0 ? [`${NAME_WORDS}${prefix}`] : []), ...extra].join(' ');
}

/** A single's card keys from its name and card text; null for a sealed product (no card text). */
export function cardKeys(name: string, card: string | undefined): CardKeys | null {
  if (!card || !card.startsWith(CARD_MARK)) return null;
  const parts = card.slice(CARD_MARK.length).split(' ');
  const collector = parts[0] ?? '';
  let words = 0;
  let rest = parts.slice(1);
  if (rest[0]?.startsWith(NAME_WORDS)) {
    words = Number(rest[0].slice(NAME_WORDS.length)) || 0;
    rest = rest.slice(1);
  }
  const own = words > 0 ? normalize(name).split(' ').slice(0, words).join(' ') : '';
  return { collector, cardKey: [own, collector, ...rest].filter(Boolean).join(' ') };
}

/** The card names a card text holds beside the product name's own words (the part searchKey adds). */
function cardExtra(card: string): string {
  const parts = card.slice(CARD_MARK.length).split(' ');
  const rest = parts.slice(1).filter((part, i) => !(i === 0 && part.startsWith(NAME_WORDS)));
  return [parts[0] ?? '', ...rest].filter(Boolean).join(' ');
}

/** What a query is matched against: the normalized name, then a single's collector key and other names. */
export function searchKey(name: string, card?: string): string {
  const key = normalize(name);
  if (!card || !card.startsWith(CARD_MARK)) return key;
  const extra = cardExtra(card);
  return extra ? `${key} ${extra}` : key;
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
  return { entries, keys, cards: entries.map((e) => cardKeys(e[1], e[3])) };
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

/** How many ranks entryRank gives: the collector number, then matchRank's four for cards found by name, then for the rest. */
export const ENTRY_RANKS = 9;

/**
 * Where a product ranks for a query, lowest first; -1 no match. A single whose collector number
 * is the query ('OP05-119', 'op05 119', '199/165') comes first; then singles the query finds by
 * their card names or number; then every other match (sealed products, and singles that merely
 * mention the words, e.g. their expansion's name), each by matchRank.
 * `card` is the entry's card keys, null for a sealed product (cardKeys).
 */
export function entryRank(key: string, card: CardKeys | null | undefined, q: PreparedQuery): number {
  const rank = matchRank(key, q);
  if (rank < 0) return -1;
  if (!card) return 5 + rank;
  if (card.collector !== '' && card.collector === q.compact) return 0;
  return matchRank(card.cardKey, q) >= 0 ? 1 + rank : 5 + rank;
}

/**
 * Products whose name (or a single's card text) contains the query, ignoring case and accents.
 * A single found by its collector number comes first, then singles found by their card names,
 * then the rest (entryRank); within each, names that start with the query come first, then
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
  // The ranks of entryRank: collector number; cards found by name, then the rest, each by prefix, word start, anywhere, all words in any order.
  const ranks: SearchEntry[][] = Array.from({ length: ENTRY_RANKS }, () => []);
  const { keys, entries, cards } = index;
  let total = 0;
  for (let i = 0; i < keys.length; i++) {
    const rank = entryRank(keys[i]!, cards ? cards[i] : null, q);
    if (rank < 0) continue;
    total += 1;
    const bucket = ranks[rank]!;
    if (bucket.length < limit) bucket.push(entries[i]!);
  }
  return { results: ranks.flat().slice(0, limit), total };
}
