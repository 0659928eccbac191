import { describe, expect, it } from 'vitest';
import { ShardedSearch } from '~/domain/header-search/loader.ts';
import { searchWithTotal } from '~/domain/name-matching/matching.ts';
import { buildSearchShards, parseShard, partPath, shardPath } from '~/domain/header-search/shards.ts';
import { products, searcher, wholeIndex } from './sharded-fixture';

describe('sharded search', () => {
  it('loads one shard per keystroke at most and caches it; a rare word needs no part of the whole index', async () => {
    const files = buildSearchShards(products, 'https://x.supabase.co', 200);
    const { search, loaded } = searcher(files);
    await search.root();
    expect(loaded).toEqual(['/search-index.json']);
    let typed = '';
    for (const c of 'elite') {
      typed += c;
      const before = loaded.length;
      await search.search(typed);
      expect(loaded.length - before).toBeLessThanOrEqual(1);
    }
    const count = loaded.length;
    await search.search('elite');
    await search.search('eli');
    expect(loaded.length).toBe(count);
    expect(loaded.some((path) => path.startsWith('/search/all-'))).toBe(false);
  });

  it('reads the whole index in parts only for several words that are all common', async () => {
    const files = buildSearchShards(products, 'https://x.supabase.co', 200);
    const { search, loaded } = searcher(files);
    // Single letters are in most names: their nodes are never leaves.
    expect((files.get(shardPath('e')) as { v: number }).v).toBe(2);
    expect((files.get(shardPath('a')) as { v: number }).v).toBe(2);
    const expected = searchWithTotal(wholeIndex, 'e a');
    const got = await search.search('e a');
    expect(got.results).toEqual(expected.results);
    expect(got.total).toBe(expected.total);
    expect(loaded).toContain(partPath(0));
  });

  it('forgets a shard that failed to load, so the next search tries again', async () => {
    const files = buildSearchShards(products, 'https://x.supabase.co', 200);
    let fail = true;
    const search = new ShardedSearch(async (path) => {
      if (fail) throw new Error('HTTP 503');
      return parseShard(JSON.parse(JSON.stringify(files.get(path))))!;
    });
    await expect(search.search('sobre')).rejects.toThrow('503');
    fail = false;
    expect((await search.search('sobre')).total).toBe(searchWithTotal(wholeIndex, 'sobre').total);
  });
});
