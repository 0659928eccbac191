import { describe, expect, it } from 'vitest';
import { buildSearchIndex, compareIndexed, parseSearchIndex } from '~/domain/header-search/format.ts';
import { DEFAULT_LIMIT, prepareIndex, searchWithTotal } from '~/domain/name-matching/matching.ts';
import { buildSearchShards, partPath, shardPath, shardSource } from '~/domain/header-search/shards.ts';
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

describe('leaves smaller than the whole index in one file', () => {
  const limits = { leaf: 50, whole: 400 };

  it('keeps the whole index in one file up to its limit, though past the leaf limit', () => {
    const files = buildSearchShards(products.slice(0, 300), 'https://x.supabase.co', limits);
    expect([...files.keys()]).toEqual(['/search-index.json']);
    expect(files.get('/search-index.json')).toEqual(buildSearchIndex(products.slice(0, 300), 'https://x.supabase.co'));
  });

  it('past it, makes leaves of the leaf limit and parts of the whole limit, answering every query like the whole index', async () => {
    const files = buildSearchShards(products, 'https://x.supabase.co', limits);
    const root = files.get(shardPath('')) as { v: number; parts?: number };
    expect(root.v).toBe(2);
    const parts = [...files].filter(([path]) => path.startsWith('/search/all-'));
    expect(parts.map(([path]) => path)).toEqual(Array.from({ length: root.parts! }, (_, n) => partPath(n)));
    // About the whole limit each: from half of it to three times it (the last one may hold fewer).
    expect(root.parts).toBeGreaterThanOrEqual(products.length / limits.whole / 3);
    expect(root.parts).toBeLessThanOrEqual((products.length / limits.whole) * 2);
    for (const [, file] of parts.slice(0, -1)) {
      const ids = file.v === 1 ? file.ids : [];
      expect(ids.length).toBeGreaterThanOrEqual(limits.whole / 2);
      expect(ids.length).toBeLessThanOrEqual(limits.whole * 3);
    }
    // In order, every product once.
    expect(parts.flatMap(([, file]) => (file.v === 1 ? file.names : []))).toEqual([...products].sort(compareIndexed).map((row) => row.name));
    let leaves = 0;
    for (const [path, file] of files) {
      if (file.v !== 1 || path.startsWith('/search/all-')) continue;
      leaves += 1;
      expect(file.ids.length).toBeLessThanOrEqual(limits.leaf);
    }
    expect(leaves).toBeGreaterThan(10);
    const { search } = searcher(files);
    for (const query of QUERIES) {
      const expected = searchWithTotal(wholeIndex, query, DEFAULT_LIMIT);
      const got = await search.search(query);
      expect({ query, ids: got.results.map((e) => e[0]), total: got.total }).toEqual({ query, ids: expected.results.map((e) => e[0]), total: expected.total });
    }
  });
});

describe("the whole index's parts", () => {
  it('hands out again a part whose rows did not move, and makes again only those an edit moved, as a whole build makes them', () => {
    const rows = [...products].sort(compareIndexed);
    const limit = 100;
    const first = new Map(shardSource(rows, 'https://x.supabase.co', limit, { sorted: true, reuseParts: true }).parts());
    expect(first.size).toBeGreaterThan(rows.length / limit / 2);
    // The same rows: the same files.
    const again = new Map(shardSource(rows, 'https://x.supabase.co', limit, { sorted: true, reuseParts: true }).parts());
    for (const [urlPath, file] of first) expect(again.get(urlPath)).toBe(file);

    // A rename moves one row from near the end to the start: the parts of its old and new places
    // are made again, the parts between them and after are not (their ends follow their rows).
    const moved = rows[rows.length - 150]!;
    const renamed = { ...moved, name: '0 Primero renombrado' };
    const edited = [...rows.filter((row) => row !== moved), renamed].sort(compareIndexed);
    expect(edited[0]).toBe(renamed);
    const after = new Map(shardSource(edited, 'https://x.supabase.co', limit, { sorted: true, reuseParts: true }).parts());
    const whole = new Map(buildSearchShards(edited, 'https://x.supabase.co', limit).entries());
    expect(after.size).toBe(first.size);
    const holding = [...first.values()].findIndex((file) => file.v === 1 && file.names.includes(moved.name));
    const kept = [...after].filter(([urlPath, file]) => first.get(urlPath) === file).map(([urlPath]) => urlPath);
    const made = [...first.keys()].filter((urlPath) => !kept.includes(urlPath));
    // Each place's part, and the next one when that part ended at its most rather than at a row.
    expect(made).toContain(partPath(0));
    expect(made).toContain(partPath(holding));
    expect([partPath(0), partPath(1), partPath(holding), partPath(holding + 1)]).toEqual(expect.arrayContaining(made));
    expect(holding).toBeGreaterThan(first.size / 2);
    for (const [urlPath, file] of after) expect(JSON.stringify(file), urlPath).toBe(JSON.stringify(whole.get(urlPath)));
    // A build's source does not keep them; another storage makes every part again.
    const built = new Map(shardSource(edited, 'https://x.supabase.co', limit, { sorted: true }).parts());
    for (const [urlPath, file] of built) expect(file).not.toBe(after.get(urlPath));
    const next = new Map(shardSource(edited, 'https://x.supabase.co', limit, { sorted: true, reuseParts: true }).parts());
    for (const [urlPath, file] of next) expect(file).toBe(after.get(urlPath));
    const otherStorage = new Map(shardSource(edited, 'https://y.supabase.co', limit, { sorted: true, reuseParts: true }).parts());
    for (const [urlPath, file] of otherStorage) expect(file).not.toBe(after.get(urlPath));
  });
});
