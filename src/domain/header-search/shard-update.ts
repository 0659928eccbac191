/**
 * The header search's files after an edit of some products, made again only where the edit shows:
 * the same files, byte for byte, that buildSearchShards (./shards.ts) writes for the catalogue
 * after the edit, without making the whole tree again. The running server publishes an edit's
 * search files this way (src/server/rebuild/fast-edit.ts).
 *
 * A product belongs to every node whose text its search key contains. An edit of a product whose
 * key holds neither before nor after the text of a node leaves that node's members, and so its
 * file, as they were (the index's order of the others does not change). So only the nodes whose
 * text is in an edited product's key, before or after, are made again: walking down from the root
 * through them, each one's members are its parent's that still hold its text, and its
 * continuations are the served file's, less those left with no product, plus those the new keys
 * bring. The parts of the whole index are all made again (they follow the order, which a new name
 * changes); the phrase answers, where an edited product matched the phrase before or after.
 *
 * A node that falls under the limit becomes a leaf and the files below it go; a leaf that grows
 * past it becomes a node with its subtree made whole. The answer is null only when the served
 * files are not a tree this code wrote (no root node): a build makes the whole tree.
 */
import { compareIndexed, decodeId, encodedId, type IndexedProduct } from './format.ts';
import {
  commonPhrases,
  growTree,
  keyMask,
  keyOf,
  MOST_SPLICED,
  partPath,
  phrasePath,
  shardPath,
  wordsPath,
  type SearchNodeFile,
  type SearchShardFile,
  shardSource,
  type ShardSource,
  type SourceColumns,
  SHARD_LIMITS,
  type ShardLimits,
} from './shards.ts';
import { sortInSteps, type Steps } from '../steps.ts';
import { cardKeys, DEFAULT_LIMIT, entryRank, isLetters, prepareQuery, TYPO_PREFIX, type CardKeys } from '../name-matching/matching.ts';

/** What the update reads of the files served now. */
export interface ServedShards {
  /** The kind of the served file at a URL path: a leaf or the whole index (v 1), a node (v 2); null when there is none. */
  kind(urlPath: string): 'leaf' | 'node' | null;
  /** A served node's file (its continuations; the root's phrases), or null. */
  node(urlPath: string): SearchNodeFile | null;
}

/** An edited product, as the index had it and as it has it now (the same id). */
export interface ShardEdit {
  before: IndexedProduct;
  after: IndexedProduct;
}

/** The files to write (made again; some may be unchanged) and the URL paths to remove. */
export interface ShardUpdate {
  files: Map<string, SearchShardFile>;
  removed: string[];
}

/** Most rows that may be new since the last update for its order to be patched rather than sorted again. */
const MOST_MOVED = 64;

/**
 * The last update's rows as given (`input`), in the index's order (compareIndexed), and its
 * source's columns (carried to the next).
 */
let last: { input: IndexedProduct[]; rows: IndexedProduct[]; columns: SourceColumns | null } | null = null;

/**
 * The rows of `list` that `input` (the last update's rows) did not hold, and those of `input` that
 * `list` does not: read place by place when the catalogue kept its order (an edit replaces its
 * products where they are; a row that changed places is then in both), else through sets of both.
 * Null past MOST_MOVED new rows.
 */
function changesSince(input: readonly IndexedProduct[], list: readonly IndexedProduct[]): { fresh: IndexedProduct[]; gone: Set<IndexedProduct> } | null {
  const came: IndexedProduct[] = [];
  const went: IndexedProduct[] = [];
  for (let i = 0; i < list.length && came.length <= MOST_MOVED; i++) {
    if (list[i] === input[i]) continue;
    came.push(list[i]!);
    went.push(input[i]!);
  }
  // A row that only changed places is in both: taken out and put back in its place.
  if (came.length <= MOST_MOVED) return { fresh: came, gone: new Set(went) };
  const known = new Set(input);
  const fresh = list.filter((row) => !known.has(row));
  if (fresh.length > MOST_MOVED) return null;
  const present = new Set(list);
  return { fresh, gone: new Set(input.filter((row) => !present.has(row))) };
}

/** The rows in the index's order; when patched, where each was in the last order and the rows that came and went (ordered). */
interface Order {
  rows: IndexedProduct[];
  from: Int32Array | null;
  changes: { gone: IndexedProduct[]; fresh: IndexedProduct[] } | null;
}

/**
 * `products` in the index's order: the last update's order with the rows that are new since put in
 * their places, when only a few are (a sort of 100,000 names by the Spanish collator is a third of
 * a second of one core); else sorted whole. Rows are never changed in place. `from`, when the order
 * was patched: each position's row's position in the last order, -1 for a new row.
 */
function* ordered(list: IndexedProduct[]): Steps<Order> {
  const changes = last && last.input.length === list.length ? changesSince(last.input, list) : null;
  if (last && changes) {
    const before = last.rows;
    const { fresh, gone } = changes;
    // A few rows gone are found and spliced out (the engine's own loops), not 100,000 looked up.
    let kept: IndexedProduct[];
    if (gone.size > MOST_SPLICED) kept = before.filter((row) => !gone.has(row));
    else {
      kept = before.slice();
      for (const row of gone) {
        const at = kept.indexOf(row);
        if (at >= 0) kept.splice(at, 1);
      }
    }
    for (const row of fresh) {
      let low = 0;
      let high = kept.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if (compareIndexed(kept[middle]!, row) < 0) low = middle + 1;
        else high = middle;
      }
      kept.splice(low, 0, row);
    }
    // The rows both orders hold are in the same order in each: one walk pairs them.
    const from = new Int32Array(kept.length);
    for (let i = 0, j = 0; i < kept.length; i++) {
      while (j < before.length && before[j] !== kept[i] && gone.has(before[j]!)) j++;
      from[i] = j < before.length && before[j] === kept[i] ? j++ : -1;
    }
    return { rows: kept, from, changes: { gone: [...gone], fresh } };
  }
  return { rows: yield* sortInSteps(list, compareIndexed), from: null, changes: null };
}

/** The source of an update over `rows` (ordered's), with what it carries from the last update's; kept for the next. */
function updateSource(input: IndexedProduct[], order: Order, storage: string, limits: ShardLimits) {
  const carried = order.from && last?.columns ? { columns: last.columns, rows: last.rows, from: order.from, changes: order.changes ?? undefined } : undefined;
  const source = shardSource(order.rows, storage, limits, { sorted: true, reuseParts: true, carried });
  last = { input, rows: order.rows, columns: source.columns };
  return source;
}

/**
 * Works out ahead what an update reads of every row (the index's order, each row's key, stored id,
 * masks and card keys, the rows by id) and the parts of the whole index, so that the first edit after a
 * build costs what the next ones do. Returns those parts (none when the index is one file): the
 * first update gives back the same objects for the parts it does not change.
 */
export function* prepareSearchUpdate(
  products: Iterable<IndexedProduct>,
  storage: string,
  limits: ShardLimits = SHARD_LIMITS,
): Steps<Array<[urlPath: string, file: SearchShardFile]>> {
  const input = [...products];
  const order = yield* ordered(input);
  let count = 0;
  for (const row of order.rows) {
    keyMask(row);
    encodedId(row);
    if (++count % ROWS_PER_STEP === 0) yield;
  }
  yield;
  const source = updateSource(input, order, storage, limits);
  yield* source.prepare();
  yield;
  return source.count > source.wholeLimit ? source.parts() : [];
}

/** Rows keyed between two pauses of prepareSearchUpdate. */
const ROWS_PER_STEP = 2000;

/** An edited product's search key and card keys, before and after. */
interface KeyedEdit {
  id: string;
  before: { key: string; card: CardKeys | null };
  after: { key: string; card: CardKeys | null };
}

/**
 * A served node's answer after the edits, worked out from the one served (its first results are
 * the members of best rank, then first in the index's order, and the others keep their order):
 * null when an edited product is among those results, whose place a product outside them may take.
 */
function patchAnswer(
  source: ShardSource,
  text: string,
  file: SearchNodeFile,
  edits: readonly KeyedEdit[],
  member: (key: string) => boolean = (key) => key.includes(text),
): { total: number; positions: number[] } | null {
  const query = prepareQuery(text, false)!;
  const edited = new Set(edits.map((edit) => edit.id));
  const shown: Array<[rank: number, position: number]> = [];
  for (let k = 0; k < file.results.ids.length; k++) {
    const id = decodeId(file.results.ids[k]!, file.results.names[k]!);
    const position = source.position(id);
    if (edited.has(id) || position === undefined) return null;
    shown.push([source.rank(position, query), position]);
  }
  // The answer counts the members the query matches: for a node, the products whose key holds its text.
  const rankOf = ({ key, card }: KeyedEdit['before']) => (member(key) ? entryRank(key, card, query) : -1);
  let total = file.total;
  for (const edit of edits) {
    if (rankOf(edit.before) >= 0) total -= 1;
    const rank = rankOf(edit.after);
    if (rank < 0) continue;
    total += 1;
    shown.push([rank, source.position(edit.id)!]);
  }
  shown.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { total, positions: shown.slice(0, DEFAULT_LIMIT).map(([, position]) => position) };
}

/**
 * The files of `products` (the whole catalogue after the edit) that `edits` change, given the
 * files served now; null when only a whole build can make them (see above). The catalogue's
 * products are the same before and after but for the edited ones.
 *
 * Written as steps (Steps, ../steps.ts): it yields after reading the index's
 * order, after each node it walks and after each phrase, so a server can answer between them (at
 * 100,000 products a rename's update takes about 300 ms of one core).
 */
export function* updateSearchShards(
  products: Iterable<IndexedProduct>,
  edits: readonly ShardEdit[],
  served: ServedShards,
  storage: string,
  limits: ShardLimits = SHARD_LIMITS,
  phrases: Iterable<string> = [],
): Steps<ShardUpdate | null> {
  const input = [...products];
  const order = yield* ordered(input);
  yield;
  const source = updateSource(input, order, storage, limits);
  yield;
  const files = new Map<string, SearchShardFile>();
  const removed: string[] = [];
  const rootPath = shardPath('');
  if (source.count <= source.wholeLimit) {
    if (served.kind(rootPath) !== 'leaf') return null;
    files.set(rootPath, source.whole);
    return { files, removed };
  }
  const root = served.node(rootPath);
  if (!root) return null;
  const parts = source.parts();
  for (const [urlPath, part] of parts) files.set(urlPath, part);
  // The parts end where their rows say (shards.ts partEnds): an edit may leave fewer of them.
  for (let n = parts.length; n < (root.parts ?? 0); n++) removed.push(partPath(n));
  yield;
  const keyed = edits.map(({ before, after }): KeyedEdit => ({
    id: after.id,
    before: { key: keyOf(before), card: cardKeys(before.name, before.card || undefined) },
    after: { key: keyOf(after), card: cardKeys(after.name, after.card || undefined) },
  }));
  const affected = (text: string) => keyed.some(({ before, after }) => before.key.includes(text) || after.key.includes(text));
  if (!(yield* walk(source, served, affected, keyed, files, removed))) return null;

  const gone = new Set(removed);
  const isNode = (word: string) => {
    const made = files.get(shardPath(word));
    return made ? made.v === 2 : !gone.has(shardPath(word)) && served.kind(shardPath(word)) === 'node';
  };
  const common = commonPhrases(phrases, isNode);
  const rootFile = files.get(rootPath) as SearchNodeFile;
  if (common.length > 0) rootFile.phrases = common;
  const was = new Set(root.phrases ?? []);
  for (const phrase of common) {
    const query = prepareQuery(phrase, false)!;
    const matches = keyed.some(({ before, after }) => entryRank(before.key, before.card, query) >= 0 || entryRank(after.key, after.card, query) >= 0);
    if (!matches && was.has(phrase)) continue;
    // A phrase's answer is over every product.
    const file = was.has(phrase) ? served.node(phrasePath(phrase)) : null;
    const known = file ? patchAnswer(source, phrase, file, keyed, () => true) : null;
    files.set(phrasePath(phrase), source.phrase(phrase, known ?? undefined));
    yield;
  }
  for (const phrase of was) if (!common.includes(phrase)) removed.push(phrasePath(phrase));
  return { files, removed };
}

/**
 * Makes again every node whose text `affected` says an edit's key holds, from the root down. A
 * node that becomes a leaf drops the served files below it; a leaf (or a new text) that becomes a
 * node gets its whole subtree made (growTree, as buildSearchShards makes it). False when a served
 * node cannot be read.
 *
 * A text every edit leaves held or not held alike keeps its members, so its kind (leaf or node)
 * is the served one and its members are not looked for unless its file needs them (a leaf, or a
 * node whose answer cannot be patched). The members of a text are found from its parent's when
 * those were needed, else from every product (ShardSource.containing): the long chains of common
 * words (p, po, pok… pokemon) are walked without going through their tens of thousands of
 * members at each step.
 */
function* walk(
  source: ShardSource,
  served: ServedShards,
  affected: (text: string) => boolean,
  edits: readonly KeyedEdit[],
  files: Map<string, SearchShardFile>,
  removed: string[],
): Steps<boolean> {
  /** Removes the served files below the served node `text`, and its word list. */
  const dropBelow = (text: string) => {
    if (text.length === TYPO_PREFIX && isLetters(text)) removed.push(wordsPath(text));
    for (const c of served.node(shardPath(text))?.next ?? '') {
      const child = shardPath(text + c);
      if (served.kind(child) === 'node') dropBelow(text + c);
      removed.push(child);
    }
  };
  const stable = (text: string) => edits.every(({ before, after }) => before.key.includes(text) === after.key.includes(text));
  const found = new Map<string, number[]>([['', Array.from({ length: source.count }, (_, i) => i)]]);
  const membersOf = (text: string): number[] => {
    let members = found.get(text);
    if (!members) {
      const parent = found.get(text.slice(0, -1));
      members = parent ? source.holding(parent, text) : source.containing(text);
      found.set(text, members);
    }
    return members;
  };
  const queue: string[] = [''];
  while (queue.length > 0) {
    // A pause may go between two files.
    yield;
    const text = queue.pop()!;
    const urlPath = shardPath(text);
    const was = served.kind(urlPath);
    // Its members as served (none when it is not served): its kind stays.
    const same = text === '' || (was !== null && stable(text));
    const file = was === 'node' ? served.node(urlPath) : null;
    // A served answer counts some of the node's members (those its text matches), and each edit
    // takes one member at most: past the limit by more than the edits, the node stays one
    // whatever they did, and its members need not be found (tens of thousands for a letter).
    const staysNode = file !== null && file.total - edits.length > source.limit;
    if (text !== '' && (same ? was === 'leaf' : !staysNode && membersOf(text).length <= source.limit)) {
      const members = membersOf(text);
      if (was === 'node') dropBelow(text);
      if (members.length > 0) files.set(urlPath, source.pick(members));
      else if (was) removed.push(urlPath);
      continue;
    }
    if (was === 'node' && !file) return false;
    if (!file) {
      // A new node (or a leaf grown past the limit): nothing is served below it, its tree is made whole.
      growTree(source, text, membersOf(text), files);
      continue;
    }
    // The continuations: the served ones, and those an edited product's new key brings.
    const next = new Set(file.next);
    for (const {
      after: { key },
    } of edits) {
      for (let at = key.indexOf(text); at >= 0 && at < key.length; at = key.indexOf(text, at + 1)) {
        const c = key[at + text.length];
        if (c !== undefined && c !== ' ') next.add(c);
      }
    }
    const kept: string[] = [];
    for (const c of next) {
      const child = text + c;
      if (!affected(child)) {
        kept.push(c);
        continue;
      }
      // A continuation the served node does not list had no member (every product whose key holds
      // `child` holds `text`): its members are the edited products whose key now holds it, not
      // looked for among every product.
      if (!file.next.includes(c) && !found.has(child)) found.set(child, newMembers(source, edits, child));
      // A served continuation every edit leaves alike still has its members, a served node had
      // more than the limit (each edit takes one at most), and one in an edited product's new key
      // has that product; any other is counted.
      const still = file.next.includes(c) && (stable(child) || (edits.length <= source.limit && served.kind(shardPath(child)) === 'node'));
      if (still || edits.some(({ after }) => after.key.includes(child)) || membersOf(child).length > 0) kept.push(c);
      queue.push(child);
    }
    const known = text === '' ? undefined : (patchAnswer(source, text, file, edits) ?? undefined);
    files.set(urlPath, source.node(text, known || text === '' ? [] : membersOf(text), kept, known));
    if (text.length === TYPO_PREFIX && isLetters(text)) files.set(wordsPath(text), source.words(text));
  }
  return true;
}

/** The positions, in order, of the edited products whose key after the edit holds `text`. */
function newMembers(source: ShardSource, edits: readonly KeyedEdit[], text: string): number[] {
  const positions = new Set<number>();
  for (const { id, after } of edits) {
    const position = after.key.includes(text) ? source.position(id) : undefined;
    if (position !== undefined) positions.add(position);
  }
  return [...positions].sort((a, b) => a - b);
}
