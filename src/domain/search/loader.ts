/**
 * The browser's side of the sharded index: loads the shards a query needs, once each, and answers
 * it exactly as the whole index would. Pure: the fetching is passed in (src/islands/search/load-index.ts).
 */
import { prepareIndex, prepareQuery, searchWithTotal, type PreparedIndex, type SearchEntry } from './matching.ts';
import { partPath, shardPath, type LoadedShard } from './shards.ts';

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
