import { describe, expect, it } from 'vitest';
import { buildSearchIndex, parseSearchIndex } from '~/domain/header-search/format.ts';
import { DEFAULT_LIMIT, prepareIndex, searchWithTotal } from '~/domain/name-matching/matching.ts';
import { buildSearchShards, shardPath } from '~/domain/header-search/shards.ts';
import { products, searcher, wholeIndex } from './sharded-fixture';

// Single words, prefixes of every length, mid-word pieces, several words in and out of order,
// accents and punctuation, numbers, and text nothing matches.
const QUERIES = [
  'e',
  's',
  'p',
  '1',
  'x',
  'so',
  'sob',
  'sobre',
  'sobres',
  'caja',
  'caja de',
  'caja de sobres',
  'de sobres caja',
  'elite',
  'elite trainer',
  'trainer elite',
  'etb',
  'box',
  'chu',
  'ex',
  'pokémon',
  'POKEMON',
  'ka',
  'kaz',
  'lata pi',
  'pi lata',
  'carta individual',
  'individual',
  '  Sobre—Journey ',
  'journey together',
  'together journey',
  'mini lata',
  'vmax',
  'full art',
  'art full',
  'zz',
  'qqqq',
  'sobre zzz',
  '36',
  '(36 sobres)',
  'ña',
  'de',
  'd e',
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

  it('keeps the whole index at /search-index.json while the catalogue fits in one shard', async () => {
    const files = buildSearchShards(products.slice(0, 150), 'https://x.supabase.co', 200);
    expect([...files.keys()]).toEqual(['/search-index.json']);
    expect(files.get('/search-index.json')).toEqual(buildSearchIndex(products.slice(0, 150), 'https://x.supabase.co'));
    const { search, loaded } = searcher(files);
    const small = prepareIndex(parseSearchIndex(buildSearchIndex(products.slice(0, 150), 'https://x.supabase.co'))!.entries);
    for (const query of QUERIES) expect((await search.search(query)).results).toEqual(searchWithTotal(small, query).results);
    expect(loaded).toEqual(['/search-index.json']);
  });
});
