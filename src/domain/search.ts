/**
 * Product name search for the header type-ahead. Pure functions over a compact index that the
 * build writes to /search-index.json: the browser downloads it once and every keystroke is answered
 * locally, with no backend call.
 */

/** One product in the index: id, name and image path (relative to the storage, a site path or a URL). */
export type SearchEntry = readonly [id: string, name: string, image: string];

/**
 * The file served at /search-index.json. Stored by columns; ids are written as templates over
 * their own name's words (see encodeId) and each image path's copy of its id is replaced by
 * ID_TOKEN. Product ids repeat the words of the name ('pk-tin-surging-sparks-pikachu-ex' for
 * 'Lata Pikachu ex ...'), and gzip cannot see that across columns; without these steps a
 * 10,000-product index is about 175 KB gzipped, with them about 120 KB.
 */
export interface SearchIndexFile {
  /** Format version; bumped whenever the shape changes. */
  v: 1;
  /** Supabase project URL that relative image paths resolve against. */
  storage: string;
  ids: string[];
  names: string[];
  images: string[];
}

/** A downloaded index, back in one-entry-per-product form. */
export interface SearchIndex {
  storage: string;
  entries: SearchEntry[];
}

/** Stands for the product's own id inside an image path; braces never appear unescaped in a URL. */
export const ID_TOKEN = '{id}';

/** Builds the index file from catalogue rows, sorted by name so equal-ranked results read alphabetically. */
export function buildSearchIndex(
  products: Iterable<{ id: string; name: string; image?: string | null }>,
  storage: string,
): SearchIndexFile {
  const collator = new Intl.Collator('es-MX', { sensitivity: 'base', numeric: true });
  const rows = [...products].sort(
    (a, b) => collator.compare(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return {
    v: 1,
    storage,
    ids: rows.map((p) => encodeId(p.id, p.name)),
    names: rows.map((p) => p.name),
    images: rows.map((p) => {
      const image = p.image ?? '';
      return p.id === '' || image.includes(ID_TOKEN) ? image : image.split(p.id).join(ID_TOKEN);
    }),
  };
}

/** Marks an id stored verbatim because its text would otherwise read as a template. */
const VERBATIM = '=';
const WORD_REF = /\{(\d+)(?:-(\d+))?\}/g;

/**
 * Writes an id with the parts that repeat its name's (normalized) words replaced by word
 * positions; decodeId(encodeId(id, name), name) === id for every id and name.
 * @example encodeId('pk-tin-surging-sparks-pikachu-ex', 'Pikachu ex Lata') // 'pk-tin-surging-sparks-{0-1}'
 */
export function encodeId(id: string, name: string): string {
  const words = normalize(name).split(' ');
  const parts = id.split('-');
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const at = parts[i] === '' ? -1 : words.indexOf(parts[i]!);
    if (at < 0) {
      out.push(parts[i]!);
      continue;
    }
    // Runs of consecutive words become one range, '{2-5}'.
    let end = i;
    while (end + 1 < parts.length && words[at + end + 1 - i] === parts[end + 1]) end++;
    out.push(end > i ? `{${at}-${at + end - i}}` : `{${at}}`);
    i = end;
  }
  const encoded = out.join('-');
  if (encoded !== id && decodeId(encoded, name) === id) return encoded;
  return decodeId(id, name) === id ? id : VERBATIM + id;
}

/** Reads an id written by encodeId back, given the same name. */
export function decodeId(stored: string, name: string): string {
  if (stored.startsWith(VERBATIM)) return stored.slice(VERBATIM.length);
  if (!stored.includes('{')) return stored;
  const words = normalize(name).split(' ');
  return stored.replace(WORD_REF, (ref, from: string, to: string | undefined) => {
    const start = Number(from);
    const end = to === undefined ? start : Number(to);
    return end < words.length && start <= end ? words.slice(start, end + 1).join('-') : ref;
  });
}

const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Reads a downloaded index; returns null when it is not the shape this code understands. */
export function parseSearchIndex(data: unknown): SearchIndex | null {
  if (typeof data !== 'object' || data === null) return null;
  const { v, storage, ids, names, images } = data as Record<string, unknown>;
  if (v !== 1 || typeof storage !== 'string') return null;
  if (!isStringArray(ids) || !isStringArray(names) || !isStringArray(images)) return null;
  if (names.length !== ids.length || images.length !== ids.length) return null;
  const entries = ids.map((stored, i): SearchEntry => {
    const name = names[i]!;
    const id = decodeId(stored, name);
    return [id, name, images[i]!.split(ID_TOKEN).join(id)];
  });
  return { storage, entries };
}

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

/*
 * Sharded index. With a big catalogue one file of every product grows past what a phone should
 * download before its first result, so the index is written as a tree of files keyed by the
 * query's text. The root (/search-index.json) holds the whole index while the catalogue is small
 * (at most SHARD_LIMIT products), in the same format as before. Otherwise every node is a string s
 * of one normalized word: a node matched by at most SHARD_LIMIT products is a leaf holding those
 * products (every query that starts with s matches a subset of them, so the browser answers it
 * exactly with the matcher above); a bigger node holds its own precomputed answer (first results
 * and total) and which characters continue it. Multi-word queries narrow down through the word
 * whose node is a leaf; when every word is common, the browser reads the whole index in parts.
 */

/** Most products in one leaf shard (about 55 KB gzip with the catalogue's names). */
export const SHARD_LIMIT = 10_000;

/** A node too big to be a leaf: its answer and the characters that continue it. */
export interface SearchNodeFile {
  v: 2;
  storage: string;
  /** Products matching the node's text as a query. */
  total: number;
  /** The first DEFAULT_LIMIT results, in the same column format as the leaves. */
  results: Pick<SearchIndexFile, 'ids' | 'names' | 'images'>;
  /** Characters c for which the node `text + c` exists, without repeats. */
  next: string;
  /** Parts of the whole index, loaded in order for a query none of whose words is rare (root only). */
  parts?: number;
}

/** A shard file: the whole index or a leaf (v 1), or a node (v 2). */
export type SearchShardFile = SearchIndexFile | SearchNodeFile;

/** URL of a node's file; the root is /search-index.json. Hex keeps any letter safe in a path. */
export function shardPath(text: string): string {
  if (text === '') return '/search-index.json';
  let hex = '';
  for (const byte of new TextEncoder().encode(text)) hex += byte.toString(16).padStart(2, '0');
  return `/search/${hex}.json`;
}

/** URL of part `n` (0-based) of the whole index. */
export function partPath(n: number): string {
  return `/search/all-${n}.json`;
}

/**
 * Writes the sharded index: every file by its URL path. Products are sorted as buildSearchIndex
 * sorts them, so a leaf or a part keeps the order the matcher relies on.
 */
export function buildSearchShards(
  products: Iterable<{ id: string; name: string; image?: string | null }>,
  storage: string,
  limit = SHARD_LIMIT,
): Map<string, SearchShardFile> {
  const whole = buildSearchIndex(products, storage);
  const files = new Map<string, SearchShardFile>();
  const count = whole.ids.length;
  const pick = (members: readonly number[]): SearchIndexFile => ({
    v: 1,
    storage,
    ids: members.map((i) => whole.ids[i]!),
    names: members.map((i) => whole.names[i]!),
    images: members.map((i) => whole.images[i]!),
  });
  if (count <= limit) {
    files.set(shardPath(''), whole);
    return files;
  }
  const keys = whole.names.map((name) => normalize(name));
  const entries: SearchEntry[] = whole.ids.map((stored, i) => {
    const name = whole.names[i]!;
    const id = decodeId(stored, name);
    return [id, name, whole.images[i]!.split(ID_TOKEN).join(id)];
  });

  /** Members of each continuation `text + c` among `members`. */
  const children = (text: string, members: readonly number[]) => {
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
  };
  const answer = (text: string, members: readonly number[]) => {
    const prepared: PreparedIndex = { entries: members.map((i) => entries[i]!), keys: members.map((i) => keys[i]!) };
    const { results, total } = searchWithTotal(prepared, text);
    const positions = new Map(members.map((i) => [entries[i]!, i]));
    const file = pick(results.map((entry) => positions.get(entry)!));
    return { total, results: { ids: file.ids, names: file.names, images: file.images } };
  };

  const parts = Math.ceil(count / limit);
  for (let n = 0; n < parts; n++) {
    files.set(partPath(n), pick(Array.from({ length: Math.min(limit, count - n * limit) }, (_, k) => n * limit + k)));
  }
  const all = Array.from({ length: count }, (_, i) => i);
  const queue: Array<[string, number[]]> = [['', all]];
  while (queue.length > 0) {
    const [text, members] = queue.pop()!;
    if (text !== '' && members.length <= limit) {
      files.set(shardPath(text), pick(members));
      continue;
    }
    const next = children(text, members);
    const node: SearchNodeFile = {
      v: 2,
      storage,
      ...(text === '' ? { total: count, results: { ids: [], names: [], images: [] }, parts } : answer(text, members)),
      next: [...next.keys()].sort().join(''),
    };
    files.set(shardPath(text), node);
    for (const [c, childMembers] of next) queue.push([text + c, childMembers]);
  }
  return files;
}

/** Reads a downloaded node file; null when it is not one. */
export function parseSearchNode(data: unknown): { storage: string; total: number; results: SearchEntry[]; next: string; parts: number } | null {
  if (typeof data !== 'object' || data === null) return null;
  const { v, storage, total, results, next, parts } = data as Record<string, unknown>;
  if (v !== 2 || typeof storage !== 'string' || typeof total !== 'number' || typeof next !== 'string') return null;
  const parsed = parseSearchIndex({ v: 1, storage, ...(results as object) });
  if (!parsed) return null;
  return { storage, total, results: parsed.entries, next, parts: typeof parts === 'number' ? parts : 0 };
}

/** A shard as the browser keeps it: a searchable leaf (or whole index), or a node's answer. */
export type LoadedShard =
  | { kind: 'leaf'; storage: string; index: PreparedIndex }
  | { kind: 'node'; storage: string; total: number; results: SearchEntry[]; next: string; parts: number };

/** Reads any shard file; null when it is neither shape. */
export function parseShard(data: unknown): LoadedShard | null {
  const leaf = parseSearchIndex(data);
  if (leaf) return { kind: 'leaf', storage: leaf.storage, index: prepareIndex(leaf.entries) };
  const node = parseSearchNode(data);
  return node ? { kind: 'node', ...node } : null;
}

/** What a search answers: the first results, the total and the base of relative image paths. */
export interface SearchAnswer {
  results: SearchEntry[];
  total: number;
  storage: string;
}

/**
 * Answers queries over the sharded index, loading each shard once through `load` (which fetches
 * and parses a URL path; a failure rejects and is not remembered, so the next query tries again).
 * Gives exactly what searchWithTotal gives over the whole index, with DEFAULT_LIMIT results.
 */
export class ShardedSearch {
  private readonly shards = new Map<string, Promise<LoadedShard>>();
  private whole: Promise<PreparedIndex> | null = null;

  constructor(private readonly load: (path: string) => Promise<LoadedShard>) {}

  /** The shard at `path`, from cache or loaded. */
  shard(path: string): Promise<LoadedShard> {
    let pending = this.shards.get(path);
    if (!pending) {
      pending = this.load(path).catch((error: unknown) => {
        this.shards.delete(path);
        throw error;
      });
      this.shards.set(path, pending);
    }
    return pending;
  }

  /** The root shard (/search-index.json): loaded on the first focus of the search box. */
  root(): Promise<LoadedShard> {
    return this.shard(shardPath(''));
  }

  /** The first results and the total for `query`. */
  async search(query: string): Promise<SearchAnswer> {
    const root = await this.root();
    const q = prepareQuery(query);
    if (q === null) return { results: [], total: 0, storage: root.storage };
    if (root.kind === 'leaf') return { ...searchWithTotal(root.index, query), storage: root.storage };
    // Every match holds every word, so one word's leaf holds every match.
    const resolved = await Promise.all(q.words.map((word) => this.resolve(word)));
    if (resolved.some((shard) => shard === null)) return { results: [], total: 0, storage: root.storage };
    const leaf = resolved.find((shard) => shard!.kind === 'leaf');
    if (leaf && leaf.kind === 'leaf') return { ...searchWithTotal(leaf.index, query), storage: root.storage };
    if (q.words.length === 1) {
      const node = resolved[0]!;
      if (node.kind === 'node') return { results: node.results, total: node.total, storage: root.storage };
    }
    return { ...searchWithTotal(await this.wholeIndex(root.kind === 'node' ? root.parts : 0), query), storage: root.storage };
  }

  /** The shard that answers one word: its node, or the leaf of its longest prefix with one; null when nothing holds it. */
  private async resolve(word: string): Promise<LoadedShard | null> {
    let shard = await this.root();
    for (let length = 1; length <= word.length; length++) {
      if (shard.kind === 'leaf') return shard;
      if (!shard.next.includes(word[length - 1]!)) return null;
      shard = await this.shard(shardPath(word.slice(0, length)));
    }
    return shard;
  }

  private wholeIndex(parts: number): Promise<PreparedIndex> {
    this.whole ??= Promise.all(Array.from({ length: parts }, (_, n) => this.shard(partPath(n)))).then(
      (shards) => {
        const entries: SearchEntry[] = [];
        for (const shard of shards) if (shard.kind === 'leaf') entries.push(...shard.index.entries);
        return prepareIndex(entries);
      },
      (error: unknown) => {
        this.whole = null;
        throw error;
      },
    );
    return this.whole;
  }
}
