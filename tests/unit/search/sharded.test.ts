import { describe, expect, it } from 'vitest';
import { buildSearchIndex, parseSearchIndex } from '../../../src/domain/search/format.ts';
import { ShardedSearch } from '../../../src/domain/search/loader.ts';
import { DEFAULT_LIMIT, prepareIndex, searchWithTotal } from '../../../src/domain/search/matching.ts';
import { buildSearchShards, parseShard, partPath, shardPath, type SearchShardFile } from '../../../src/domain/search/shards.ts';
import { fakeCatalog } from './fake-catalog';

/** A ShardedSearch over built files, recording every path it loads. */
function searcher(files: Map<string, SearchShardFile>) {
  const loaded: string[] = [];
  const search = new ShardedSearch(async (path) => {
    loaded.push(path);
    const file = files.get(path);
    if (!file) throw new Error(`404 ${path}`);
    // Through JSON, as the browser receives it.
    const shard = parseShard(JSON.parse(JSON.stringify(file)));
    if (!shard) throw new Error(`bad shard ${path}`);
    return shard;
  });
  return { search, loaded };
}

const products = fakeCatalog(3000, 7).map((p) => ({ id: p.id, name: p.name, image: p.image }));
const whole = parseSearchIndex(JSON.parse(JSON.stringify(buildSearchIndex(products, 'https://x.supabase.co'))))!;
const wholeIndex = prepareIndex(whole.entries);

// Single words, prefixes of every length, mid-word pieces, several words in and out of order,
// accents and punctuation, numbers, and text nothing matches.
const QUERIES = [
  'e', 's', 'p', '1', 'x', 'so', 'sob', 'sobre', 'sobres', 'caja', 'caja de', 'caja de sobres', 'de sobres caja',
  'elite', 'elite trainer', 'trainer elite', 'etb', 'box', 'chu', 'ex', 'pokémon', 'POKEMON', 'ka', 'kaz',
  'lata pi', 'pi lata', 'carta individual', 'individual', '  Sobre—Journey ', 'journey together', 'together journey',
  'mini lata', 'vmax', 'full art', 'art full', 'zz', 'qqqq', 'sobre zzz', '36', '(36 sobres)', 'ña', 'de', 'd e',
];

describe('sharded search', () => {
  it('answers every query exactly like the whole index, through small shards', async () => {
    const files = buildSearchShards(products, 'https://x.supabase.co', 200);
    // Small shards: the root is a node, not the whole index, and no leaf holds more than 200 products.
    expect((files.get(shardPath('')) as { v: number }).v).toBe(2);
    for (const [path, file] of files) {
      if (file.v === 1 && !path.startsWith('/search/all-')) expect(file.ids.length).toBeLessThanOrEqual(200);
    }
    const { search } = searcher(files);
    for (const query of QUERIES) {
      const expected = searchWithTotal(wholeIndex, query, DEFAULT_LIMIT);
      const got = await search.search(query);
      expect({ query, ids: got.results.map((e) => e[0]), total: got.total }).toEqual({
        query,
        ids: expected.results.map((e) => e[0]),
        total: expected.total,
      });
      expect(got.results).toEqual(expected.results);
    }
  });

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

  it('keeps the whole index at /search-index.json while the catalogue fits in one shard', async () => {
    const files = buildSearchShards(products.slice(0, 150), 'https://x.supabase.co', 200);
    expect([...files.keys()]).toEqual(['/search-index.json']);
    expect(files.get('/search-index.json')).toEqual(buildSearchIndex(products.slice(0, 150), 'https://x.supabase.co'));
    const { search, loaded } = searcher(files);
    const small = prepareIndex(parseSearchIndex(buildSearchIndex(products.slice(0, 150), 'https://x.supabase.co'))!.entries);
    for (const query of QUERIES) expect((await search.search(query)).results).toEqual(searchWithTotal(small, query).results);
    expect(loaded).toEqual(['/search-index.json']);
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
