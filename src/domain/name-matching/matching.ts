/**
 * Product name search for the header type-ahead and /explore?q=: how a query matches a product
 * name (ignoring case, accents and punctuation), its franchise, expansion and product type names
 * and their abbreviations (./aliases.ts), with one typo forgiven in a longer word, and how matches
 * are ranked. Pure functions over entries already in memory; the index files they come from are
 * ../header-search/format.ts and ../header-search/shards.ts.
 */
import { ALIAS_MAX_WORDS, SEARCH_ALIASES } from './aliases.ts';

/**
 * One product in the index: id, name, image path (relative to the storage, a site path or a URL),
 * for a single card its card text (see cardText: absent or '' for sealed products), and the names
 * of its franchise, expansion and product type its name lacks (catalogTags; absent or '' if none).
 */
export type SearchEntry = readonly [id: string, name: string, image: string, card?: string, tags?: string];

/** What ranks a single: its collector key and the text of its card names and number (see cardText). */
export interface CardKeys {
  /** The collector key ('op05119'); '' when the card has none. */
  collector: string;
  /** The card's names and collector key, normalized: a query matching here found the card itself. */
  cardKey: string;
}

/** An index ready to be searched: entries with their search keys (searchKey) and card keys made once. */
export interface PreparedIndex<Entry = SearchEntry> {
  readonly entries: readonly Entry[];
  readonly keys: readonly string[];
  /** Each entry's card keys, null for a sealed product. Absent: no singles. */
  readonly cards?: ReadonlyArray<CardKeys | null>;
  /** Only the entries at these positions, in this order; absent: every entry. */
  readonly positions?: readonly number[];
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

/**
 * What a query is matched against: the normalized name, then a single's collector key and other
 * names, then the product's franchise, expansion and type names its name lacks (`tags`, catalogTags).
 */
export function searchKey(name: string, card?: string, tags?: string): string {
  let key = normalize(name);
  if (card && card.startsWith(CARD_MARK)) {
    const extra = cardExtra(card);
    if (extra) key = `${key} ${extra}`;
  }
  return tags ? `${key} ${tags}` : key;
}

/**
 * The catalogue names a product is also found by: its franchise, expansion and product type
 * names, normalized, leaving out those its name already holds, so 'one piece' finds a card named
 * 'Monkey.D.Luffy (OP05-119)' and 'elite trainer box' does not repeat in an ETB's text.
 * @example catalogTags('Sobre Corona Astral', ['Pokémon', 'Corona Astral', 'Sobre']) // 'pokemon'
 * @internal The build reads the names through catalogTagger; the search tests build their fixtures with this.
 */
export function catalogTags(name: string, names: ReadonlyArray<string | null | undefined>): string {
  return tagsBeside(
    normalize(name),
    names.map((other) => (other ? normalize(other) : '')),
  );
}

/** catalogTags with the name and the catalogue names already normalized. */
function tagsBeside(name: string, texts: ReadonlyArray<string>): string {
  const key = ` ${name} `;
  const tags: string[] = [];
  for (const text of texts) {
    if (text && !key.includes(` ${text} `) && !tags.includes(text)) tags.push(text);
  }
  return tags.join(' ');
}

/** Anything named in the catalogue: a franchise, an expansion or a product type. */
interface Named {
  id: string;
  name: string;
}

/**
 * catalogTags for products given by their franchise, expansion and type ids, with the names
 * looked up and normalized once (not once per product): the header search's index and /explore
 * make a product's tags the same way.
 */
export function catalogTagger(
  franchises: readonly Named[],
  expansions: readonly Named[],
  types: readonly Named[],
): (name: string, franchiseId: string | null | undefined, expansionId: string | null | undefined, typeId: string | null | undefined) => string {
  const lookup = (items: readonly Named[]) => {
    const names = new Map(items.map((item) => [item.id, item.name ? normalize(item.name) : '']));
    return (id: string | null | undefined) => (id ? (names.get(id) ?? '') : '');
  };
  const [franchise, expansion, type] = [lookup(franchises), lookup(expansions), lookup(types)];
  return (name, franchiseId, expansionId, typeId) => tagsBeside(normalize(name), [franchise(franchiseId), expansion(expansionId), type(typeId)]);
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
  const keys = entries.map((e) => searchKey(e[1], e[3], e[4]));
  if (!entries.some((e) => e[3])) return { entries, keys };
  return { entries, keys, cards: entries.map((e) => cardKeys(e[1], e[3])) };
}

/** A text a query is matched as: normalized, split into words. */
export interface QueryText {
  text: string;
  /** The words a key must all hold to match a text of several words in any order (anyOrderWords). */
  words: string[];
  /** ' ' + text: found in a key where a word starts with the text. */
  wordStart: string;
}

/** One word of a query, or the words of an alias ('op 05'), and what else stands for it. */
export interface QueryGroup {
  /** The text typed, normalized. */
  text: string;
  /** The catalogue names its alias points at (./aliases.ts), normalized. */
  aliases: string[];
  /** Catalogue words one typo away, when `text` is no word of the catalogue (withTypos): matches through them rank after exact ones. */
  typos: string[];
}

/** One way of reading a query: the words as typed, with an alias's name, or with a typo corrected. */
export interface QueryVariant extends QueryText {
  /** Whether a typo was corrected: such matches rank after every exact one. */
  typo: boolean;
}

/** A query made ready for entryRank: normalized once, split into words and its readings. */
export interface PreparedQuery extends QueryText {
  /** The query as a collector key: its letters and digits only ('op05 119' → 'op05119'). */
  compact: string;
  /**
   * The words (or alias phrases) a match must hold, each once: the query's own, its one-letter
   * words left out when it has longer ones, at most MAX_QUERY_WORDS (boundedGroups).
   */
  groups: QueryGroup[];
  /** The query as typed, group by group: the place in `groups` of a group it holds, or the text of one left out. */
  spelled: ReadonlyArray<number | string>;
  /** Every reading a product may match, the query as typed first; at most MAX_VARIANTS, MAX_QUERY_TESTS tests in all (queryCost). */
  variants: QueryVariant[];
}

/** Most readings of one query (each alias or corrected word multiplies them). */
const MAX_VARIANTS = 16;
/**
 * Most words (or alias phrases) of a query a match must hold: the first ones, each once, not
 * counting one-letter words beside longer ones. Later words still count in the phrase as typed.
 */
export const MAX_QUERY_WORDS = 6;
/**
 * Most substring tests a query may cost per product (queryCost): the readings past it are left
 * out, exact ones before corrected ones, the query as typed always kept. A query of a word costs
 * 1; 'etb pokemon', read also as 'elite trainer box pokemon', 8; two misspelt words with four
 * corrections each keep 10 of their 16 readings of 3 tests.
 */
export const MAX_QUERY_TESTS = 32;

const compactText = (text: string) => text.replaceAll(' ', '');

/** The alias table by key without spaces ('op05'), each with its target normalized. */
const ALIASES: ReadonlyMap<string, string> = new Map(Object.entries(SEARCH_ALIASES).map(([key, name]) => [compactText(normalize(key)), normalize(name)]));

const queryText = (text: string): QueryText => ({ text, words: text.split(' '), wordStart: ` ${text}` });

/**
 * The words a product must all hold to match a reading in any order: each once, one-letter words
 * left out beside longer ones (nearly every name holds any letter, and testing for it costs as
 * much as for a word).
 */
function anyOrderWords(text: string): string[] {
  const words = [...new Set(text.split(' '))];
  const longer = words.filter((word) => word.length > 1);
  return longer.length > 0 ? longer : words;
}

/** Whether a text is of several words (its words are not the text itself), so it also matches them in any order. */
function severalWords(q: QueryText): boolean {
  return q.words.length > 1 || q.words[0] !== q.text;
}

/** How many substring tests matchRank makes at most for a reading: the phrase, then each of its words when it has several. */
function readingCost(v: QueryText): number {
  return 1 + (severalWords(v) ? v.words.length : 0);
}

/**
 * The most substring tests entryRank makes for one product with this query: what a search of the
 * whole catalogue costs per product, at most MAX_QUERY_TESTS.
 * @internal What tests/unit/catalog/search-cost.test.ts measures a query's cost with.
 */
export function queryCost(q: PreparedQuery): number {
  return q.variants.reduce((sum, v) => sum + readingCost(v), 0);
}

/**
 * The groups a match must hold, each once, one-letter words left out beside longer ones, at most
 * MAX_QUERY_WORDS; and the query as typed in their terms: each typed group is the place of the
 * group it is, or its own text when left out (it still counts in the phrase as typed).
 */
function boundedGroups(typed: readonly QueryGroup[]): { groups: QueryGroup[]; spelled: Array<number | string> } {
  const longer = typed.some((group) => group.text.length > 1);
  const groups: QueryGroup[] = [];
  const spelled = typed.map((group) => {
    const found = groups.findIndex((kept) => kept.text === group.text);
    if (found >= 0) return found;
    if ((longer && group.text.length === 1) || groups.length >= MAX_QUERY_WORDS) return group.text;
    groups.push(group);
    return groups.length - 1;
  });
  return { groups, spelled };
}

/** The query's words as groups: runs of up to ALIAS_MAX_WORDS words that spell an alias become one group. */
function queryGroups(words: readonly string[], aliases: boolean): QueryGroup[] {
  const groups: QueryGroup[] = [];
  for (let i = 0; i < words.length;) {
    let span = 1;
    let target: string | undefined;
    for (let n = Math.min(ALIAS_MAX_WORDS, words.length - i); aliases && n >= 1; n--) {
      target = ALIASES.get(words.slice(i, i + n).join(''));
      if (target !== undefined) {
        span = n;
        break;
      }
    }
    const text = words.slice(i, i + span).join(' ');
    groups.push({ text, aliases: target !== undefined && target !== text ? [target] : [], typos: [] });
    i += span;
  }
  return groups;
}

/**
 * Every reading of the groups: each group as typed, by its alias, or by one of its corrections;
 * the phrase is the query as typed (`spelled`) with those texts in place, the words to hold in any
 * order those of the groups (anyOrderWords). At most MAX_VARIANTS readings and MAX_QUERY_TESTS
 * tests, exact readings first.
 */
function queryVariants(groups: readonly QueryGroup[], spelled: ReadonlyArray<number | string>): QueryVariant[] {
  let partial: Array<{ parts: string[]; typo: boolean }> = [{ parts: [], typo: false }];
  for (const group of groups) {
    const options = [...[group.text, ...group.aliases].map((text) => ({ text, typo: false })), ...group.typos.map((text) => ({ text, typo: true }))];
    const next: typeof partial = [];
    for (const base of partial) for (const option of options) next.push({ parts: [...base.parts, option.text], typo: base.typo || option.typo });
    partial = next.slice(0, MAX_VARIANTS);
  }
  // Exact readings first, so the cut above and the ranking prefer them.
  const readings = partial
    .map(({ parts, typo }) => {
      const text = spelled.map((place) => (typeof place === 'number' ? parts[place]! : place)).join(' ');
      return { text, words: anyOrderWords(parts.join(' ')), wordStart: ` ${text}`, typo };
    })
    .sort((a, b) => Number(a.typo) - Number(b.typo));
  const kept: QueryVariant[] = [];
  let cost = 0;
  for (const reading of readings) {
    cost += readingCost(reading);
    if (kept.length > 0 && cost > MAX_QUERY_TESTS) break;
    kept.push(reading);
  }
  return kept;
}

/**
 * Normalizes a query; null when nothing is left to search for. Its aliases are read from
 * ./aliases.ts (unless `aliases` is false: the query taken literally, as the build's precomputed
 * shard answers are); typos are corrected by withTypos, which needs the catalogue's words.
 */
export function prepareQuery(query: string, aliases = true): PreparedQuery | null {
  const text = normalize(query.slice(0, MAX_QUERY_LENGTH));
  if (text === '') return null;
  const { groups, spelled } = boundedGroups(queryGroups(text.split(' '), aliases));
  const variants = queryVariants(groups, spelled);
  return { ...queryText(text), words: variants[0]!.words, compact: compactText(text), groups, spelled, variants };
}

/** Shortest word a typo is forgiven in. */
export const TYPO_MIN_LENGTH = 5;
/** Letters a corrected word must share with the word typed, from its start. */
export const TYPO_PREFIX = 2;
/** Most corrections taken for one word. */
const MAX_TYPOS = 4;
/** Most words of a query corrected (each multiplies the readings). */
const MAX_TYPO_WORDS = 2;

const LETTERS = /^\p{L}+$/u;

/** Whether a normalized text is letters only (no digits, no spaces). */
export function isLetters(text: string): boolean {
  return LETTERS.test(text);
}

/** Whether a catalogue word can be a correction: letters only, TYPO_MIN_LENGTH letters or more (as the word typed). */
export function isTypoWord(word: string): boolean {
  return word.length >= TYPO_MIN_LENGTH && LETTERS.test(word);
}

/**
 * The query's words that get corrections unless they are words of the catalogue: single words
 * (not aliases) of TYPO_MIN_LENGTH letters or more; numbers and collector numbers are never corrected.
 */
export function typoCandidates(q: PreparedQuery): string[] {
  const words: string[] = [];
  for (const group of q.groups) {
    if (group.aliases.length === 0 && group.text.length >= TYPO_MIN_LENGTH && LETTERS.test(group.text) && !words.includes(group.text)) words.push(group.text);
  }
  return words;
}

/** Whether `a` becomes `b` by at most one substitution, insertion, deletion or swap of two neighbouring letters. */
export function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i === a.length && i === b.length) return true;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * The catalogue words `typed` may be a typo of: they start with its first TYPO_PREFIX letters,
 * some start of them is one edit from it ('pikahcu' → 'pikachu'; 'pikahc', still being typed,
 * too) and they do not hold it (those match it exactly); alphabetical, at most MAX_TYPOS.
 * `vocabulary` may hold any words: the others are ignored.
 */
export function corrections(typed: string, vocabulary: Iterable<string>): string[] {
  const prefix = typed.slice(0, TYPO_PREFIX);
  const found = new Set<string>();
  for (const word of vocabulary) {
    if (found.has(word) || !word.startsWith(prefix) || !isTypoWord(word) || word.includes(typed)) continue;
    for (let length = Math.max(typed.length - 1, TYPO_MIN_LENGTH); length <= typed.length + 1 && length <= word.length; length++) {
      if (oneEditApart(typed, word.slice(0, length))) {
        found.add(word);
        break;
      }
    }
  }
  return [...found].sort().slice(0, MAX_TYPOS);
}

/**
 * The query with its typos corrected: `fixes` gives each word of typoCandidates that is no word
 * of the catalogue its corrections (a word missing from `fixes` has none). The word is still
 * matched as typed too; readings with a corrected word rank after every exact match.
 */
export function withTypos(q: PreparedQuery, fixes: ReadonlyMap<string, readonly string[]>): PreparedQuery {
  let corrected = 0;
  const groups = q.groups.map((group) => {
    const typos = fixes.get(group.text);
    if (!typos || typos.length === 0 || corrected >= MAX_TYPO_WORDS) return group;
    corrected += 1;
    return { ...group, typos: [...typos] };
  });
  return corrected === 0 ? q : { ...q, groups, variants: queryVariants(groups, q.spelled) };
}

/** Each index's catalogue words by their first TYPO_PREFIX letters, made on first need. */
const vocabularies = new WeakMap<readonly string[], Map<string, string[]>>();

/** The words of `keys` that can be corrections (isTypoWord), by their first TYPO_PREFIX letters. */
export function typoVocabulary(keys: readonly string[]): Map<string, string[]> {
  let byPrefix = vocabularies.get(keys);
  if (!byPrefix) {
    const seen = new Set<string>();
    byPrefix = new Map();
    for (const key of keys) {
      for (const word of key.split(' ')) {
        if (seen.has(word)) continue;
        seen.add(word);
        if (!isTypoWord(word)) continue;
        const prefix = word.slice(0, TYPO_PREFIX);
        const list = byPrefix.get(prefix) ?? byPrefix.set(prefix, []).get(prefix)!;
        list.push(word);
      }
    }
    vocabularies.set(keys, byPrefix);
  }
  return byPrefix;
}

/**
 * Makes the typo vocabulary of `after` from `before`'s, when that one was made (else typoVocabulary
 * makes it on first need): `after` holds the same keys but at the `changed` positions (a catalogue
 * read again after an edit), or but for the `removed` keys and with the `added` ones (keys that
 * moved: the header search's index after a rename). Their new words are added, and their old words
 * no other key holds any longer are taken out, so the vocabulary is the one typoVocabulary(after)
 * would make (in another order within a prefix: corrections sorts what it finds). Making it whole
 * went over every key's words, about 80 ms at 100,000 products, on the first search after every edit.
 */
export function patchTypoVocabulary(
  before: readonly string[],
  after: readonly string[],
  changed: readonly number[] | { removed: readonly string[]; added: readonly string[] },
): void {
  const known = vocabularies.get(before);
  if (!known || vocabularies.has(after)) return;
  const [removedKeys, addedKeys] =
    'removed' in changed ? [changed.removed, changed.added] : [changed.map((i) => before[i] ?? ''), changed.map((i) => after[i] ?? '')];
  const byPrefix = new Map(known);
  // The prefixes' lists this patch changes are copies: `known` stays as it was.
  const copied = new Set<string>();
  const listOf = (prefix: string): string[] => {
    if (!copied.has(prefix)) {
      copied.add(prefix);
      byPrefix.set(prefix, [...(known.get(prefix) ?? [])]);
    }
    return byPrefix.get(prefix)!;
  };
  const added = new Set(addedKeys.flatMap((key) => key.split(' ').filter(isTypoWord)));
  for (const word of added) {
    const prefix = word.slice(0, TYPO_PREFIX);
    if (!known.get(prefix)?.includes(word)) listOf(prefix).push(word);
  }
  const gone = new Set(removedKeys.flatMap((key) => key.split(' ').filter((word) => isTypoWord(word) && !added.has(word))));
  for (const word of gone) {
    const prefix = word.slice(0, TYPO_PREFIX);
    if (!known.get(prefix)?.includes(word) || holdsWord(after, word)) continue;
    const list = listOf(prefix);
    list.splice(list.indexOf(word), 1);
    if (list.length === 0) byPrefix.delete(prefix);
  }
  vocabularies.set(after, byPrefix);
}

/** Whether any of `keys` has `word` as one of its space-separated words. */
function holdsWord(keys: readonly string[], word: string): boolean {
  for (const key of keys) {
    for (let at = key.indexOf(word); at >= 0; at = key.indexOf(word, at + 1)) {
      const end = at + word.length;
      if ((at === 0 || key[at - 1] === ' ') && (end === key.length || key[end] === ' ')) return true;
    }
  }
  return false;
}

/**
 * The corrections of the query's words (typoCandidates) that are no word of the catalogue, given
 * the catalogue's words starting with a word's first TYPO_PREFIX letters (`vocabulary`, which may
 * hold others too). Shared by every search, so all read a query alike.
 */
export function typoFixes(word: string, vocabulary: readonly string[]): string[] {
  return vocabulary.includes(word) ? [] : corrections(word, vocabulary);
}

/** The query read over products whose search keys are `keys`: aliases, and corrections for words of no product name. */
export function resolveQuery(keys: readonly string[], query: string): PreparedQuery | null {
  const q = prepareQuery(query);
  if (q === null) return null;
  const fixes = new Map<string, string[]>();
  for (const word of typoCandidates(q)) fixes.set(word, typoFixes(word, typoVocabulary(keys).get(word.slice(0, TYPO_PREFIX)) ?? []));
  return withTypos(q, fixes);
}

/**
 * How a normalized name matches a text: 0 the name starts with it, 1 a word starts with it, 2 it
 * is anywhere, 3 a text of several words has all of them in another order; -1 no match. The
 * header search and /explore?q= both rank with this (through entryRank), so they always agree.
 */
export function matchRank(key: string, q: QueryText): number {
  const at = key.indexOf(q.text);
  if (at === 0) return 0;
  if (at > 0) return key.includes(q.wordStart) ? 1 : 2;
  if (severalWords(q) && q.words.every((w) => key.includes(w))) return 3;
  return -1;
}

/** Ranks of exact matches: the collector number, then matchRank's four for cards found by name, then for the rest. */
const EXACT_RANKS = 9;

/** How many ranks entryRank gives: the exact ones, then the same eight again for matches through a corrected typo. */
export const ENTRY_RANKS = EXACT_RANKS + 8;

/** A single reading's rank: cards found by name first, then the rest; typo readings after every exact rank. */
function variantRank(key: string, card: CardKeys | null | undefined, v: QueryVariant): number {
  const rank = matchRank(key, v);
  if (rank < 0) return -1;
  const base = v.typo ? EXACT_RANKS : 1;
  return card && matchRank(card.cardKey, v) >= 0 ? base + rank : base + 4 + rank;
}

/**
 * Where a product ranks for a query, lowest first; -1 no match. A single whose collector number
 * is the query ('OP05-119', 'op05 119', '199/165') comes first; then singles the query finds by
 * their card names or number; then every other match (sealed products, and singles that merely
 * mention the words, e.g. their expansion's name), each by matchRank; the query read through an
 * alias counts as typed. Matches only through a corrected typo come after all of these, in the
 * same order. `card` is the entry's card keys, null for a sealed product (cardKeys).
 */
export function entryRank(key: string, card: CardKeys | null | undefined, q: PreparedQuery): number {
  let best = -1;
  for (const variant of q.variants) {
    const rank = variantRank(key, card, variant);
    if (rank >= 0 && (best < 0 || rank < best)) best = rank;
    // A reading that matches as typed ranks this product: later ones are aliases and typos.
    if (best === 1) break;
  }
  if (best < 0) return -1;
  if (card && card.collector !== '' && card.collector === q.compact) return 0;
  return best;
}

/**
 * Products whose name (or a single's card text, or its franchise, expansion and type names)
 * contains the query, ignoring case and accents, also read through its abbreviations and with a
 * typo corrected (resolveQuery). A single found by its collector number comes first, then singles
 * found by their card names, then the rest (entryRank); within each, names that start with the
 * query come first, then names with a word starting with it, then any other place; a query of
 * several words also matches names holding all of them in another order, after the rest; matches
 * only through a corrected typo come last. Within a rank the index order (alphabetical) is kept.
 * @example searchProducts(prepareIndex([['a', 'Sobre Fuerzas Temporales', '']]), 'fuerzas') // [['a', ...]]
 */
export function searchProducts(index: PreparedIndex, query: string, limit = DEFAULT_LIMIT): SearchEntry[] {
  return searchWithTotal(index, query, limit).results;
}

/**
 * Like searchProducts, plus how many products match in all ('Ver todos los resultados (n)').
 */
export function searchWithTotal(index: PreparedIndex, query: string, limit = DEFAULT_LIMIT): { results: SearchEntry[]; total: number } {
  const q = resolveQuery(index.keys, query);
  if (q === null) return { results: [], total: 0 };
  return searchPrepared(index, q, limit);
}

/**
 * Like searchWithTotal for a query already read (prepareQuery, withTypos): the sharded search
 * reads it from the shards it loads and answers it over some of them. `typosOnly`: only the
 * products found through a corrected typo and not as typed. The entries may be anything the
 * caller reads its results by (the files' builder gives positions: src/domain/header-search/shards.ts).
 */
export function searchPrepared<Entry = SearchEntry>(
  index: PreparedIndex<Entry>,
  q: PreparedQuery,
  limit = DEFAULT_LIMIT,
  typosOnly = false,
): { results: Entry[]; total: number } {
  if (limit <= 0) return { results: [], total: 0 };
  // The ranks of entryRank: collector number; cards found by name, then the rest, each by prefix, word start, anywhere, all words in any order.
  const ranks: Entry[][] = Array.from({ length: ENTRY_RANKS }, () => []);
  const { keys, entries, cards, positions } = index;
  const count = positions ? positions.length : keys.length;
  let total = 0;
  for (let k = 0; k < count; k++) {
    const i = positions ? positions[k]! : k;
    const rank = entryRank(keys[i]!, cards ? cards[i] : null, q);
    if (rank < (typosOnly ? EXACT_RANKS : 0)) continue;
    total += 1;
    const bucket = ranks[rank]!;
    if (bucket.length < limit) bucket.push(entries[i]!);
  }
  return { results: ranks.flat().slice(0, limit), total };
}
