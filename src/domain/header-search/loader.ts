/**
 * The browser's side of the sharded index: loads the shards a query needs, once each, and answers
 * it exactly as the whole index would. Pure: the fetching is passed in (src/islands/header-search/load-index.ts).
 */
import { compareIndexed } from './format.ts';
import {
  DEFAULT_LIMIT,
  prepareIndex,
  prepareQuery,
  searchPrepared,
  searchWithTotal,
  TYPO_PREFIX,
  typoCandidates,
  typoFixes,
  typoVocabulary,
  withTypos,
  type PreparedIndex,
  type SearchEntry,
} from '../name-matching/matching.ts';
import { partPath, phrasePath, shardPath, wordsPath, type LoadedShard } from './shards.ts';

type Leaf = LoadedShard & { kind: 'leaf' };
type NodeShard = LoadedShard & { kind: 'node' };

/** How many products some leaves hold (counting a product in two of them twice). */
const size = (leaves: readonly Leaf[]) => leaves.reduce((sum, leaf) => sum + leaf.index.entries.length, 0);

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
  private readonly leafIds = new Map<LoadedShard, number>();
  private readonly unions = new Map<string, PreparedIndex>();

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
    if (root.kind === 'words') throw new Error('search index: the root is a word list');
    const empty = { results: [], total: 0, storage: root.storage };
    const typed = prepareQuery(query);
    if (typed === null) return empty;
    if (root.kind === 'leaf') return { ...searchWithTotal(root.index, query), storage: root.storage };
    // A word that is no word of the catalogue is also read as the words one typo away, from the
    // word list of its first letters.
    const fixes = new Map<string, string[]>();
    for (const word of typoCandidates(typed)) fixes.set(word, typoFixes(word, await this.vocabulary(word.slice(0, TYPO_PREFIX))));
    const q = withTypos(typed, fixes);
    // A catalogue name of several common words read only as typed: its own answer.
    if (q.variants.length === 1 && root.phrases.includes(q.text)) {
      const phrase = await this.shard(phrasePath(q.text));
      if (phrase.kind === 'node') return { results: phrase.results, total: phrase.total, storage: root.storage };
    }

    // Every match holds, for each group of the query, every word of one of its texts (as typed,
    // an alias's name or a correction): the leaves of one group's texts hold every match.
    let best: Leaf[] | null = null;
    let common: { node: NodeShard; typos: Leaf[] } | null = null;
    for (const group of q.groups) {
      const texts = [group.text, ...group.aliases];
      const exact = await Promise.all(texts.map((text) => this.resolveText(text)));
      const typos = await Promise.all(group.typos.map((text) => this.resolveText(text)));
      const live = [...exact, ...typos].filter((shard) => shard !== null);
      if (live.length === 0) return empty;
      if (live.every((shard) => shard.kind === 'leaf')) {
        const leaves = [...new Set(live as Leaf[])];
        if (best === null || size(leaves) < size(best)) best = leaves;
        continue;
      }
      if (q.groups.length > 1) continue;
      // One text held by too many products for a leaf (a word, or a catalogue name with an answer
      // of its own): its answer, then the matches of the corrections (ranked after it).
      const liveExact = texts.filter((_, i) => exact[i] !== null);
      const liveTypos = group.typos.filter((_, i) => typos[i] !== null);
      const typoLeaves = typos.filter((shard) => shard !== null && shard.kind === 'leaf') as Leaf[];
      if (liveExact.length === 1 && typoLeaves.length === liveTypos.length) {
        const node = await this.answer(liveExact[0]!, exact[texts.indexOf(liveExact[0]!)]!, root.phrases);
        if (node) common = { node, typos: typoLeaves };
      } else if (liveExact.length === 0 && liveTypos.length === 1) {
        const node = await this.answer(liveTypos[0]!, typos[group.typos.indexOf(liveTypos[0]!)]!, root.phrases);
        if (node) common = { node, typos: [] };
      }
    }
    if (best) return { ...searchPrepared(this.merged(best), q), storage: root.storage };
    if (common) {
      const { node } = common;
      if (common.typos.length === 0) return { results: node.results, total: node.total, storage: root.storage };
      const typoMatches = searchPrepared(this.merged([...new Set(common.typos)]), q, DEFAULT_LIMIT, true);
      const results = [...node.results, ...typoMatches.results].slice(0, DEFAULT_LIMIT);
      return { results, total: node.total + typoMatches.total, storage: root.storage };
    }
    return { ...searchPrepared(await this.wholeIndex(root.parts), q), storage: root.storage };
  }

  /** The build's answer to `text` read literally: its node when it is one word, its phrase file when it is a catalogue name; else null. */
  private async answer(text: string, shard: LoadedShard, phrases: readonly string[]): Promise<NodeShard | null> {
    if (!text.includes(' ')) return shard.kind === 'node' ? shard : null;
    if (!phrases.includes(text)) return null;
    const phrase = await this.shard(phrasePath(text));
    return phrase.kind === 'node' ? phrase : null;
  }

  /** The catalogue words starting with `prefix` (TYPO_PREFIX letters), or a superset: a leaf's words, or the node's word list. */
  private async vocabulary(prefix: string): Promise<readonly string[]> {
    const shard = await this.resolve(prefix);
    if (shard === null) return [];
    if (shard.kind === 'leaf') return typoVocabulary(shard.index.keys).get(prefix) ?? [];
    const words = await this.shard(wordsPath(prefix));
    return words.kind === 'words' ? words.words : [];
  }

  /**
   * The shard that holds every product with all the words of `text`: a leaf (the smallest among
   * its words'), else a node; null when no product holds them all (as far as the shards tell).
   */
  private async resolveText(text: string): Promise<LoadedShard | null> {
    const words = text.split(' ');
    const shards = await Promise.all(words.map((word) => this.resolve(word)));
    if (shards.some((shard) => shard === null)) return null;
    let leaf: Leaf | null = null;
    for (const shard of shards) if (shard!.kind === 'leaf' && (leaf === null || shard!.index.entries.length < leaf.index.entries.length)) leaf = shard!;
    if (leaf === null) return shards[0]!;
    return leaf.index.keys.some((key) => words.every((word) => key.includes(word))) ? leaf : null;
  }

  /** One index of the products of several leaves, in the whole index's order, made once per set of leaves. */
  private merged(leaves: readonly Leaf[]): PreparedIndex {
    if (leaves.length === 1) return leaves[0]!.index;
    const key = leaves
      .map((leaf) => this.leafIds.get(leaf) ?? this.leafIds.set(leaf, this.leafIds.size).get(leaf)!)
      .sort((a, b) => a - b)
      .join(',');
    let index = this.unions.get(key);
    if (!index) {
      const byId = new Map<string, SearchEntry>();
      for (const leaf of leaves) for (const entry of leaf.index.entries) if (!byId.has(entry[0])) byId.set(entry[0], entry);
      index = prepareIndex([...byId.values()].sort((a, b) => compareIndexed({ id: a[0], name: a[1] }, { id: b[0], name: b[1] })));
      this.unions.set(key, index);
    }
    return index;
  }

  /** The shard that answers one word: its node, or the leaf of its longest prefix with one; null when nothing holds it. */
  private async resolve(word: string): Promise<LoadedShard | null> {
    let shard = await this.root();
    for (let length = 1; length <= word.length; length++) {
      if (shard.kind === 'leaf') return shard;
      if (shard.kind !== 'node' || !shard.next.includes(word[length - 1]!)) return null;
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
