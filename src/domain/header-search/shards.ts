/**
 * The search index as a tree of files keyed by the query's text, for catalogues too big for one
 * file: the build writes them (buildSearchShards) and the browser reads them (parseShard, through
 * ./loader.ts).
 */
import { buildSearchIndex, compareIndexed, encodedId, parseSearchIndex, storedImage, writeTags, type IndexedProduct, type SearchIndexFile } from './format.ts';
import {
  cardKeys,
  entryRank,
  isLetters,
  matchRank,
  normalize,
  patchTypoVocabulary,
  prepareIndex,
  prepareQuery,
  searchKey,
  searchPrepared,
  TYPO_PREFIX,
  typoVocabulary,
  type CardKeys,
  type PreparedIndex,
  type PreparedQuery,
  type SearchEntry,
} from '../name-matching/matching.ts';
import { runSteps, type Steps } from '../steps.ts';

/*
 * Sharded index. With a big catalogue one file of every product grows past what a phone should
 * download before its first result, so the index is written as a tree of files keyed by the
 * query's text. The root (/search-index.json) holds the whole index while the catalogue is small
 * (at most SHARD_LIMIT products), in the format of ./format.ts. Otherwise every node is a string s
 * of one normalized word: a node matched by at most SHARD_LIMIT products is a leaf holding those
 * products (every query that starts with s matches a subset of them, so the browser answers it
 * exactly with the matcher of ../name-matching/matching.ts); a bigger node holds its own precomputed answer (first results
 * and total) and which characters continue it. Multi-word queries narrow down through the word
 * whose node is a leaf; when every word is common, the browser reads the whole index in parts,
 * unless the query is a catalogue name with an answer of its own (phrasePath).
 * Beside the tree, each node of two letters has a word list (/search/words-<hex>.json): the
 * catalogue's words starting with them, from which the browser corrects a typo (matching.ts
 * corrections) when no product holds a word of the query.
 */

/**
 * Most products in one leaf shard: at most 24 KB gzip with the bench's 100,000-product catalogue.
 * A rename rewrites every leaf holding the product: leaves of 10,000 made that 15-20 MB of files
 * per rename at 100,000 products, against 1.7-5.1 MB with 3,000 (docs/benchmarks.md).
 */
const SHARD_LIMIT = 3_000;

/**
 * Most products in the whole index as one file (the root, about 51 KB gzip at 10,000 products:
 * the browser then answers every query from it), and in each part of the whole index past that.
 */
const WHOLE_INDEX_LIMIT = 10_000;

/** The most products of a leaf and of the whole index in one file; one number is both. */
export type ShardLimits = number | { leaf: number; whole: number };

/** The shop's limits: leaves of SHARD_LIMIT, the whole index in one file up to WHOLE_INDEX_LIMIT. */
export const SHARD_LIMITS: ShardLimits = { leaf: SHARD_LIMIT, whole: WHOLE_INDEX_LIMIT };

/** A node too big to be a leaf: its answer and the characters that continue it. */
export interface SearchNodeFile {
  v: 2;
  storage: string;
  /** Products matching the node's text as a query. */
  total: number;
  /** The first DEFAULT_LIMIT results, in the same column format as the leaves. */
  results: Pick<SearchIndexFile, 'ids' | 'names' | 'images' | 'cards' | 'tagTexts' | 'tags'>;
  /** Characters c for which the node `text + c` exists, without repeats. */
  next: string;
  /** Parts of the whole index, loaded in order for a query none of whose words is rare (root only). */
  parts?: number;
  /**
   * Catalogue names of several words, every one of them too common for a leaf ('one piece',
   * 'caja de sobres'), that have an answer of their own at phrasePath (root only).
   */
  phrases?: string[];
}

/** The catalogue's words starting with a node's two letters, the candidates for correcting a typo. */
export interface SearchWordsFile {
  v: 3;
  words: string[];
}

/** A shard file: the whole index or a leaf (v 1), a node (v 2), or a node's word list (v 3). */
export type SearchShardFile = SearchIndexFile | SearchNodeFile | SearchWordsFile;

/** URL of a node's file; the root is /search-index.json. Hex keeps any letter safe in a path. */
export function shardPath(text: string): string {
  if (text === '') return '/search-index.json';
  let hex = '';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return `/search/${hex}.json`;
}

/** URL of the word list of the node `prefix` (TYPO_PREFIX letters), written only where that node is not a leaf. */
export function wordsPath(prefix: string): string {
  return shardPath(prefix).replace('/search/', '/search/words-');
}

/** URL of the answer to a catalogue name of several common words (SearchNodeFile.phrases). */
export function phrasePath(phrase: string): string {
  return shardPath(phrase).replace('/search/', '/search/phrase-');
}

/** URL of part `n` (0-based) of the whole index. */
export function partPath(n: number): string {
  return `/search/all-${n}.json`;
}

/**
 * What every shard file is made from: the whole index in its order, each product's search key,
 * and the makers of a leaf (pick), a node's answer and a node's continuations, shared by
 * buildSearchShards and updateSearchShards (./shard-update.ts) so both write the same bytes.
 */
export interface ShardSource {
  storage: string;
  /** Most products of a leaf. */
  limit: number;
  /** Most products of the whole index in one file, and about the size of each of its parts. */
  wholeLimit: number;
  count: number;
  /** Each product's search key, in the index's order. */
  keys: string[];
  /** The leaf (or part) of these products, given by position in the index's order. */
  pick(members: readonly number[]): SearchIndexFile;
  /** The parts of the whole index (partPath), in order: about `wholeLimit` products each (partEnds). */
  parts(): Array<[urlPath: string, file: SearchIndexFile]>;
  /** Members of each continuation `text + c` among `members`. */
  children(text: string, members: readonly number[]): Map<string, number[]>;
  /**
   * The file of a node too big to be a leaf; the root's lists no results but its parts. `known`:
   * its answer already worked out (its total and its results' positions), else made from `members`.
   */
  node(text: string, members: readonly number[], next: Iterable<string>, known?: { total: number; positions: readonly number[] }): SearchNodeFile;
  /** A node's word list (a node of TYPO_PREFIX letters). */
  words(text: string): SearchWordsFile;
  /** The answer file of a catalogue name of several common words (`known`: as for node). */
  phrase(phrase: string, known?: { total: number; positions: readonly number[] }): SearchNodeFile;
  /** A product's position in the index's order, by its id. */
  position(id: string): number | undefined;
  /** entryRank of the product at position `i` for a query. */
  rank(i: number, query: PreparedQuery): number;
  /** The positions among `members` whose key holds `text` (keys[i].includes(text)), in their order. */
  holding(members: readonly number[], text: string): number[];
  /** Every position whose key holds `text`, in order, with no list of members to start from. */
  containing(text: string): number[];
}

/** Each row's search key, kept while the row lives (rows are never changed in place; see format.ts encodedId). */
const rowKeys = new WeakMap<IndexedProduct, string>();

/** The search key of an indexed product: its name, a single's card text and its tags (matching.ts searchKey). */
export function keyOf(row: IndexedProduct): string {
  let key = rowKeys.get(row);
  if (key === undefined) {
    key = searchKey(row.name, row.card || undefined, row.tags || undefined);
    rowKeys.set(row, key);
  }
  return key;
}

/*
 * Which letters and pairs of letters a key holds, as bits: a node's members are its parent's
 * whose key holds its text, and an update of the tree (./shard-update.ts) asks that of the same
 * keys for many texts. The bits answer a text of one or two of these characters exactly, and rule
 * out most keys for a longer one before it is looked for in the key.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
const SLOTS = ALPHABET.length;
const SLOT = new Int8Array(128).fill(-1);
for (let i = 0; i < SLOTS; i++) SLOT[ALPHABET.charCodeAt(i)] = i;
/** Words of a mask: the characters', then the pairs'. */
const PAIRS_AT = Math.ceil(SLOTS / 32);
const MASK_WORDS = PAIRS_AT + Math.ceil((SLOTS * SLOTS) / 32);

const slotOf = (code: number) => (code < 128 ? SLOT[code]! : -1);

/** Each row's mask, kept while the row lives (rows are never changed in place). */
const rowMasks = new WeakMap<IndexedProduct, Int32Array>();

/** The characters and pairs of characters of ALPHABET in a row's key, as bits. */
export function keyMask(row: IndexedProduct): Int32Array {
  let mask = rowMasks.get(row);
  if (mask) return mask;
  const key = keyOf(row);
  mask = new Int32Array(MASK_WORDS);
  let previous = -1;
  for (let k = 0; k < key.length; k++) {
    const slot = slotOf(key.charCodeAt(k));
    if (slot >= 0) {
      mask[slot >>> 5]! |= 1 << (slot & 31);
      if (previous >= 0) {
        const bit = previous * SLOTS + slot;
        mask[PAIRS_AT + (bit >>> 5)]! |= 1 << (bit & 31);
      }
    }
    previous = slot;
  }
  rowMasks.set(row, mask);
  return mask;
}

/** A part of the whole index as last made, and the rows it was made of. */
interface MadePart {
  rows: IndexedProduct[];
  file: SearchIndexFile;
}

/**
 * The parts of the whole index the last source that reuses them made (an edit's update, not a
 * build: ShardSource.parts): a part whose rows are the same objects in the same order is the same
 * file, handed out again (the same object, which a caller may keep its text by). An edit moves the rows between a product's old and new places
 * only: at 100,000 products, making the other parts again (and their text, and its fingerprint)
 * was about a third of a rename's update.
 */
let madeParts: { storage: string; limit: number; parts: MadePart[] } | null = null;

/**
 * A source's columns, by position in its order: what the next update's source carries over for
 * the rows both hold (Carried), instead of reading 100,000 rows again. A column a source never
 * made (the masks, the rows by id) is made by the next one on need.
 */
export interface SourceColumns {
  storage: string;
  /** Each row's encodeId, name, stored image, card text ('' for none), tags ('' for none) and search key. */
  ids: string[];
  names: string[];
  images: string[];
  cards: string[];
  tags: string[];
  keys: string[];
  /** Each row's id's hash (where a part of the whole index may end: partEnds). */
  hashes: number[];
  /** The key masks as columns (word w of position i at w * count + i), once made. */
  masks: Int32Array | null;
  /** The rows by id, once made: handed to the next source, which changes it for its rows. */
  byId: Map<string, IndexedProduct> | null;
  /** Each row's card keys (cardKeys of its name and card text), once made. */
  singles: Array<CardKeys | null> | null;
}

/**
 * What an update's source takes from the last one: its columns, its rows in order and, for each
 * new position, the position its row had there (-1: a new row). `changes`, when the caller knows
 * them: the rows of the last order not in this one, and this one's not in the last (a row that
 * only moved may be in both), so they are not looked for among 100,000.
 */
interface Carried {
  columns: SourceColumns;
  rows: readonly IndexedProduct[];
  from: Int32Array;
  changes?: { gone: readonly IndexedProduct[]; fresh: readonly IndexedProduct[] };
}

/**
 * Where the rows of a carried source went: the positions there of the rows not here, and the
 * positions here of the rows not there, each ascending. The rows both hold are in the same order
 * in each (ordered, ./shard-update.ts), so a column is the last one with those taken out and these
 * put in.
 */
interface Moves {
  gone: number[];
  fresh: number[];
}

/**
 * At most this many rows taken out and put in are spliced into a copy of a carried column or of
 * the last order (./shard-update.ts); more are read row by row.
 */
export const MOST_SPLICED = 16;

function movesOf(carried: Carried, before: number): Moves {
  const kept = new Uint8Array(before);
  const fresh: number[] = [];
  const { from } = carried;
  for (let i = 0; i < from.length; i++) {
    const f = from[i]!;
    if (f >= 0) kept[f] = 1;
    else fresh.push(i);
  }
  const gone: number[] = [];
  for (let f = 0; f < before; f++) if (kept[f] === 0) gone.push(f);
  return { gone, fresh };
}

/**
 * `make` of each row, or the last source's value where the row was there already. An edit moves a
 * few rows: the last column is copied and they are spliced out and in (the engine moves the rest
 * at once), rather than each of 100,000 positions read through `from`, which an edit runs once,
 * before the engine has optimized it.
 */
function carryColumn<T>(
  rows: readonly IndexedProduct[],
  carried: Carried | undefined,
  previous: readonly T[] | undefined,
  make: (row: IndexedProduct) => T,
  moves?: Moves,
): T[] {
  if (!carried || !previous) return rows.map(make);
  if (moves && moves.gone.length + moves.fresh.length <= MOST_SPLICED) {
    const out = previous.slice();
    for (let k = moves.gone.length - 1; k >= 0; k--) out.splice(moves.gone[k]!, 1);
    for (const i of moves.fresh) out.splice(i, 0, make(rows[i]!));
    return out;
  }
  const { from } = carried;
  const out = new Array<T>(rows.length);
  for (let i = 0; i < rows.length; i++) out[i] = from[i]! >= 0 ? previous[from[i]!]! : make(rows[i]!);
  return out;
}

/**
 * The mask columns of `rows`: the last source's moved run by run where it made them, each new
 * row's own. When the count is the same (an edit that renames), the last source's columns are
 * changed in place and it no longer has them: a fresh 17 MB at 100,000 products was most of the
 * time, in page faults.
 */
function maskColumnsOf(rows: readonly IndexedProduct[], carried: Carried | undefined): Int32Array {
  const count = rows.length;
  const previous = carried?.columns.masks ?? null;
  const before = carried ? carried.columns.keys.length : 0;
  const inPlace = previous !== null && before === count;
  const columns = inPlace ? previous : new Int32Array(MASK_WORDS * count);
  if (inPlace) carried!.columns.masks = null;
  // Runs of rows in the same order there: [position, its position there, length].
  const runs: Array<[number, number, number]> = [];
  const fresh: number[] = [];
  for (let i = 0; i < count;) {
    const f = previous ? carried!.from[i]! : -1;
    if (f < 0) {
      fresh.push(i++);
      continue;
    }
    let end = i + 1;
    while (end < count && carried!.from[end] === f + (end - i)) end++;
    runs.push([i, f, end - i]);
    i = end;
  }
  const move = ([i, f, length]: [number, number, number]) => {
    for (let w = 0; w < MASK_WORDS; w++) {
      if (inPlace) columns.copyWithin(w * count + i, w * count + f, w * count + f + length);
      else columns.set(previous!.subarray(w * before + f, w * before + f + length), w * count + i);
    }
  };
  // In place, the runs moving towards the start go first, from the start, and then those moving
  // towards the end, from the end: no run reads what another has written (the order is the same).
  for (const run of runs) if (run[1] >= run[0]) move(run);
  for (let r = runs.length - 1; r >= 0; r--) if (runs[r]![1] < runs[r]![0]) move(runs[r]!);
  for (const i of fresh) {
    const mask = keyMask(rows[i]!);
    for (let w = 0; w < MASK_WORDS; w++) columns[w * count + i] = mask[w]!;
  }
  return columns;
}

/** Rows whose card keys ShardSource.prepare makes between two pauses. */
const PREPARED_PER_STEP = 5000;

/** A row's card keys, as the matcher ranks it (null for a sealed product). */
const rowCardKeys = (row: IndexedProduct): CardKeys | null => cardKeys(row.name, row.card || undefined);

/** A 32-bit FNV-1a hash of a text: where a row may end a part of the whole index (partEnds). */
function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Where each part of the whole index ends (exclusive positions, in order), from its rows' ids'
 * hashes (textHash). A part ends after a row whose id's hash falls on one in half the whole limit, once it holds half the whole limit,
 * or at three times the limit (one part in 150 or so): about the limit each. The ends follow the
 * rows, not their count, so a rename, which moves one row from its old place to its new one,
 * changes the parts of those two places (and the next one, after a part ended at its most) and
 * not every part between them (at 100,000 products, half the parts and most of a rename's bytes).
 */
function partEnds(hashes: readonly number[], wholeLimit: number): number[] {
  const least = Math.max(1, Math.ceil(wholeLimit / 2));
  const every = Math.max(1, Math.floor(wholeLimit / 2));
  const ends: number[] = [];
  let start = 0;
  for (let i = 0; i < hashes.length; i++) {
    const size = i + 1 - start;
    if (size >= 3 * wholeLimit || (size >= least && hashes[i]! % every === 0)) {
      ends.push(i + 1);
      start = i + 1;
    }
  }
  if (start < hashes.length) ends.push(hashes.length);
  return ends;
}

/**
 * The source of a catalogue's shards; products are sorted as buildSearchIndex sorts them.
 * `carried`: the last update's columns, when `products` are sorted and the rows at the positions
 * `carried.from` gives are the same objects there.
 */
export function shardSource(
  products: Iterable<IndexedProduct>,
  storage: string,
  limits: ShardLimits = SHARD_LIMITS,
  { sorted = false, reuseParts = false, carried: given }: { sorted?: boolean; reuseParts?: boolean; carried?: Carried } = {},
): ShardSource & { whole: SearchIndexFile; columns: SourceColumns; prepare(): Steps<void> } {
  const limit = typeof limits === 'number' ? limits : limits.leaf;
  const wholeLimit = typeof limits === 'number' ? limits : limits.whole;
  // `sorted`: the products come in the index's order already (an update keeps it between edits).
  const rows = sorted ? [...products] : [...products].sort(compareIndexed);
  const carried = sorted && given?.columns.storage === storage && given.from.length === rows.length ? given : undefined;
  const count = rows.length;
  const was = carried?.columns;
  const moves = carried && was ? movesOf(carried, carried.rows.length) : undefined;
  const own: SourceColumns = {
    storage,
    ids: carryColumn(rows, carried, was?.ids, encodedId, moves),
    names: carryColumn(rows, carried, was?.names, (row) => row.name, moves),
    images: carryColumn(rows, carried, was?.images, storedImage, moves),
    cards: carryColumn(rows, carried, was?.cards, (row) => row.card ?? '', moves),
    tags: carryColumn(rows, carried, was?.tags, (row) => row.tags || '', moves),
    keys: carryColumn(rows, carried, was?.keys, keyOf, moves),
    hashes: carryColumn(rows, carried, was?.hashes, (row) => textHash(row.id), moves),
    masks: null,
    byId: null,
    singles: null,
  };
  const { ids: idColumn, names, images, keys } = own;
  // A file without singles leaves the column out, as buildSearchIndex does.
  const cards = own.cards.some(Boolean) ? own.cards : undefined;
  const tags = own.tags;
  /** The rows that were there and are not here, and those here that were not (a carried source's). */
  let changes: { gone: readonly IndexedProduct[]; fresh: readonly IndexedProduct[] } | null = carried?.changes ?? null;
  const changed = (previous: readonly IndexedProduct[]) => {
    if (changes) return changes;
    const kept = new Uint8Array(previous.length);
    const fresh: IndexedProduct[] = [];
    for (let i = 0; i < count; i++) {
      if (carried!.from[i]! >= 0) kept[carried!.from[i]!] = 1;
      else fresh.push(rows[i]!);
    }
    changes = { gone: previous.filter((_, i) => !kept[i]), fresh };
    return changes;
  };
  const pick = (members: readonly number[]): SearchIndexFile => {
    const file: SearchIndexFile = {
      v: 1,
      storage,
      ids: members.map((i) => idColumn[i]!),
      names: members.map((i) => names[i]!),
      images: members.map((i) => images[i]!),
    };
    // A file without singles leaves the column out, as buildSearchIndex does; tags likewise.
    if (cards && members.some((i) => cards[i])) file.cards = members.map((i) => cards[i]!);
    writeTags(
      file,
      members.map((i) => tags[i]),
    );
    return file;
  };
  /**
   * Each position's card keys (cardKeys), made once: carried from the last update's source where
   * it made them, else every row's, in slices (about 150 ms of a core at 100,000 products).
   */
  function* singlesInSteps(): Steps<Array<CardKeys | null>> {
    if (own.singles) return own.singles;
    if (was?.singles) return (own.singles = carryColumn(rows, carried, was.singles, rowCardKeys, moves));
    const made = new Array<CardKeys | null>(count);
    for (let i = 0; i < count; i++) {
      made[i] = rowCardKeys(rows[i]!);
      if ((i + 1) % PREPARED_PER_STEP === 0) yield;
    }
    return (own.singles = made);
  }
  const singles = (): Array<CardKeys | null> => own.singles ?? runSteps(singlesInSteps());
  let identity: number[] | null = null;
  /** Each position's own number: what an answer over the columns lists. */
  const everyPosition = () => (identity ??= Array.from({ length: count }, (_, i) => i));
  const answerOf = (total: number, positions: readonly number[]) => {
    const { v: _v, storage: _storage, ...results } = pick(positions);
    return { total, results };
  };
  /**
   * The answer to `text` (taken literally: no alias, no typo) over the positions `within` (a
   * node's members, whose keys hold its text), or over every position when null: the matcher
   * ranks positions, and only the answer's results are read as entries (pick). Whether a product
   * matches is its key's alone (matchRank of a reading), so over every position the others are
   * left out first: a phrase's answer over 100,000 products made every product's entry and card
   * keys (240 ms of a rename's update).
   */
  const searched = (text: string, within: readonly number[] | null) => {
    const query = prepareQuery(text, false)!;
    let matching = within;
    if (!matching) {
      const found: number[] = [];
      for (let i = 0; i < count; i++) if (query.variants.some((variant) => matchRank(keys[i]!, variant) >= 0)) found.push(i);
      matching = found;
    }
    // Over the columns at those positions: no copy of them per node (a whole build at 100,000
    // products answers thousands of nodes of thousands of products).
    const { results, total } = searchPrepared({ entries: everyPosition(), keys, cards: singles(), positions: matching }, query);
    return answerOf(total, results);
  };
  /** Each word of the masks as a column (word w of position i at w * count + i): a text's test reads one column in order. */
  const maskColumns = (): Int32Array => (own.masks ??= maskColumnsOf(rows, carried));
  /** The rows by id: the last source's, changed for the rows that came and went, else made. */
  const byId = (): Map<string, IndexedProduct> => {
    if (own.byId) return own.byId;
    const previous = carried?.columns.byId;
    if (carried && previous) {
      // Handed over: the last source is not asked again.
      carried.columns.byId = null;
      const { gone, fresh } = changed(carried.rows);
      for (const row of gone) if (previous.get(row.id) === row) previous.delete(row.id);
      for (const row of fresh) previous.set(row.id, row);
      own.byId = previous;
    } else own.byId = new Map(rows.map((row) => [row.id, row]));
    return own.byId;
  };
  let whole: SearchIndexFile | null = null;
  let ends: number[] | null = null;
  const partEndsOf = () => (ends ??= partEnds(own.hashes, wholeLimit));
  return {
    storage,
    limit,
    wholeLimit,
    count,
    keys,
    columns: own,
    /** Makes now, in steps, what an update reads of every row (the masks, the card keys, the typo vocabulary, the rows by id). */
    *prepare() {
      maskColumns();
      yield;
      yield* singlesInSteps();
      yield;
      typoVocabulary(keys);
      // The first edit's answers look their products up by id.
      byId();
    },
    get whole() {
      return (whole ??= buildSearchIndex(rows, storage, { sorted: true }));
    },
    pick,
    parts() {
      const made = reuseParts && madeParts?.storage === storage && madeParts.limit === wholeLimit ? madeParts.parts : [];
      let start = 0;
      const parts = partEndsOf().map((end, n): MadePart => {
        const members = rows.slice(start, end);
        const first = start;
        start = end;
        const known = made[n];
        if (known && known.rows.length === members.length && known.rows.every((row, k) => row === members[k])) return known;
        return { rows: members, file: pick(Array.from({ length: members.length }, (_, k) => first + k)) };
      });
      if (reuseParts) madeParts = { storage, limit: wholeLimit, parts };
      return parts.map(({ file }, n) => [partPath(n), file]);
    },
    children(text, members) {
      const next = new Map<string, number[]>();
      for (const i of members) {
        const key = keys[i]!;
        // (An empty text is found at every position, the end included: stop there.)
        for (let at = key.indexOf(text); at >= 0 && at < key.length; at = key.indexOf(text, at + 1)) {
          const c = key[at + text.length];
          if (c === undefined || c === ' ') continue;
          const list = next.get(c) ?? next.set(c, []).get(c)!;
          // A key holding `text + c` twice is listed once.
          if (list[list.length - 1] !== i) list.push(i);
        }
      }
      return next;
    },
    node(text, members, next, known) {
      return {
        v: 2,
        storage,
        ...(text === ''
          ? { total: count, results: { ids: [], names: [], images: [] }, parts: partEndsOf().length }
          : known
            ? answerOf(known.total, known.positions)
            : // The browser uses a node's answer only for a word read as typed.
              searched(text, members)),
        next: [...next].sort().join(''),
      };
    },
    words(text) {
      if (carried) {
        // The last source's vocabulary, if it made it, with the words of the rows that came and went.
        const { gone, fresh } = changed(carried.rows);
        patchTypoVocabulary(carried.columns.keys, keys, { removed: gone.map(keyOf), added: fresh.map(keyOf) });
      }
      return { v: 3, words: [...(typoVocabulary(keys).get(text) ?? [])].sort() };
    },
    phrase(phrase, known) {
      if (known) return { v: 2, storage, ...answerOf(known.total, known.positions), next: '' };
      // Over every product when the answer is not known (a whole build, or an edited product
      // among the phrase's results).
      return { v: 2, storage, ...searched(phrase, null), next: '' };
    },
    position(id) {
      // The index's order is compareIndexed's, which no two rows tie in (ids differ).
      const row = byId().get(id);
      if (!row) return undefined;
      let low = 0;
      let high = count;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareIndexed(rows[middle]!, row) < 0) low = middle + 1;
        else high = middle;
      }
      return rows[low] === row ? low : undefined;
    },
    rank(i, query) {
      return entryRank(keys[i]!, singles()[i]!, query);
    },
    holding(members, text) {
      const bits = maskColumns();
      const out: number[] = [];
      const n = text.length;
      const last = n > 0 ? slotOf(text.charCodeAt(n - 1)) : -1;
      const before = n > 1 ? slotOf(text.charCodeAt(n - 2)) : -1;
      // One character of ALPHABET: its bit answers.
      if (n === 1 && last >= 0) {
        const [at, bit] = [(last >>> 5) * count, 1 << (last & 31)];
        for (const i of members) if (bits[at + i]! & bit) out.push(i);
        return out;
      }
      // Ending in a pair of ALPHABET: the pair's bit answers two characters, and rules keys out for more.
      if (before >= 0 && last >= 0) {
        const pair = before * SLOTS + last;
        const [at, bit] = [(PAIRS_AT + (pair >>> 5)) * count, 1 << (pair & 31)];
        for (const i of members) if (bits[at + i]! & bit && (n === 2 || keys[i]!.includes(text))) out.push(i);
        return out;
      }
      for (const i of members) if (keys[i]!.includes(text)) out.push(i);
      return out;
    },
    containing(text) {
      const bits = maskColumns();
      // The columns of each pair of characters of ALPHABET in the text, and of each such character
      // no pair holds, are tested position by position in one pass, pairs first (they rule out the
      // most keys); the keys themselves decide what the bits cannot.
      const tests: number[] = [];
      const paired = new Set<number>();
      let exact = text.length > 0 && text.length <= 2;
      for (let k = 0; k < text.length; k++) {
        const slot = slotOf(text.charCodeAt(k));
        const previous = k > 0 ? slotOf(text.charCodeAt(k - 1)) : -1;
        if (slot < 0) exact = false;
        else if (previous >= 0) {
          const pair = previous * SLOTS + slot;
          tests.push((PAIRS_AT + (pair >>> 5)) * count, 1 << (pair & 31));
          paired.add(previous).add(slot);
        }
      }
      for (let k = 0; k < text.length; k++) {
        const slot = slotOf(text.charCodeAt(k));
        if (slot < 0 || paired.has(slot)) continue;
        tests.push((slot >>> 5) * count, 1 << (slot & 31));
        paired.add(slot);
      }
      const out: number[] = [];
      next: for (let i = 0; i < count; i++) {
        for (let t = 0; t < tests.length; t += 2) if (!(bits[tests[t]! + i]! & tests[t + 1]!)) continue next;
        // One character, or two, of ALPHABET: the bits answer exactly.
        if (exact || keys[i]!.includes(text)) out.push(i);
      }
      return out;
    },
  };
}

/** The catalogue names of several words, every one a node too big to be a leaf (`isNode`), that get an answer file. */
export function commonPhrases(phrases: Iterable<string>, isNode: (word: string) => boolean): string[] {
  return [...new Set([...phrases].map(normalize))].filter((phrase) => phrase.includes(' ') && phrase.split(' ').every(isNode));
}

/**
 * Writes the tree below the node `text` whose members are `members` (the whole tree from the
 * root): a leaf for a node of at most `limit` products, else the node, its word list and its
 * continuations, each in turn.
 */
export function growTree(source: ShardSource, text: string, members: number[], files: Map<string, SearchShardFile>): void {
  const queue: Array<[string, number[]]> = [[text, members]];
  while (queue.length > 0) {
    const [at, within] = queue.pop()!;
    if (at !== '' && within.length <= source.limit) {
      files.set(shardPath(at), source.pick(within));
      continue;
    }
    const next = source.children(at, within);
    files.set(shardPath(at), source.node(at, within, next.keys()));
    if (at.length === TYPO_PREFIX && isLetters(at)) files.set(wordsPath(at), source.words(at));
    for (const [c, childMembers] of next) queue.push([at + c, childMembers]);
  }
}

/**
 * Writes the sharded index: every file by its URL path. Products are sorted as buildSearchIndex
 * sorts them, so a leaf or a part keeps the order the matcher relies on. `phrases` are the
 * catalogue's franchise, expansion and type names: those whose words are all too common for a
 * leaf get an answer file of their own, so typing one never needs the whole index.
 */
export function buildSearchShards(
  products: Iterable<IndexedProduct>,
  storage: string,
  limits: ShardLimits = SHARD_LIMITS,
  phrases: Iterable<string> = [],
): Map<string, SearchShardFile> {
  const source = shardSource(products, storage, limits);
  const files = new Map<string, SearchShardFile>();
  const { count } = source;
  if (count <= source.wholeLimit) {
    files.set(shardPath(''), source.whole);
    return files;
  }
  for (const [urlPath, part] of source.parts()) files.set(urlPath, part);
  growTree(
    source,
    '',
    Array.from({ length: count }, (_, i) => i),
    files,
  );
  const common = commonPhrases(phrases, (word) => files.get(shardPath(word))?.v === 2);
  if (common.length > 0) {
    (files.get(shardPath('')) as SearchNodeFile).phrases = common;
    for (const phrase of common) files.set(phrasePath(phrase), source.phrase(phrase));
  }
  return files;
}

/** Reads a downloaded node file; null when it is not one. */
export function parseSearchNode(
  data: unknown,
): { storage: string; total: number; results: SearchEntry[]; next: string; parts: number; phrases: string[] } | null {
  if (typeof data !== 'object' || data === null) return null;
  const { v, storage, total, results, next, parts, phrases } = data as Record<string, unknown>;
  if (v !== 2 || typeof storage !== 'string' || typeof total !== 'number' || typeof next !== 'string') return null;
  const parsed = parseSearchIndex({ v: 1, storage, ...(results as object) });
  if (!parsed) return null;
  const names = Array.isArray(phrases) ? phrases.filter((phrase): phrase is string => typeof phrase === 'string') : [];
  return { storage, total, results: parsed.entries, next, parts: typeof parts === 'number' ? parts : 0, phrases: names };
}

/** A shard as the browser keeps it: a searchable leaf (or whole index), a node's answer, or a word list. */
export type LoadedShard =
  | { kind: 'leaf'; storage: string; index: PreparedIndex }
  | { kind: 'node'; storage: string; total: number; results: SearchEntry[]; next: string; parts: number; phrases: string[] }
  | { kind: 'words'; words: string[] };

/** Reads any shard file; null when it is none of the shapes. */
export function parseShard(data: unknown): LoadedShard | null {
  if (typeof data === 'object' && data !== null && (data as { v?: unknown }).v === 3) {
    const words = (data as { words?: unknown }).words;
    return Array.isArray(words) && words.every((word) => typeof word === 'string') ? { kind: 'words', words } : null;
  }
  const leaf = parseSearchIndex(data);
  if (leaf) return { kind: 'leaf', storage: leaf.storage, index: prepareIndex(leaf.entries) };
  const node = parseSearchNode(data);
  return node ? { kind: 'node', ...node } : null;
}
