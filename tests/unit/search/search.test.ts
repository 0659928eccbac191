import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, decodeId, encodeId, parseSearchIndex } from '../../../src/domain/search/format.ts';
import { DEFAULT_LIMIT, normalize, prepareIndex, searchProducts, type SearchEntry } from '../../../src/domain/search/matching.ts';
import { fakeCatalog } from './fake-catalog';

const entries: SearchEntry[] = [
  ['pk-etb-journey-together', 'Elite Trainer Box Journey Together', 'products/pk-etb-journey-together-1.svg'],
  ['pk-boosterbox-journey-together', 'Caja de sobres Journey Together (36 sobres)', 'products/a.svg'],
  ['pk-booster-prismatic', 'Sobre Evoluciones Prismáticas', 'products/b.svg'],
  ['pk-single-pikachu', 'Pikachu ex – Carta individual (Chispas Fulgurantes)', 'products/c.svg'],
  ['op-starter-luffy', 'Starter Deck Monkey.D.Luffy', '/images/d.svg'],
  ['pk-tin-journey', 'Lata Journey Together', 'https://cdn.example.com/e.png'],
  ['pk-journal', 'Carpeta Journey', ''],
];
const index = prepareIndex(entries);
const ids = (results: readonly SearchEntry[]) => results.map((r) => r[0]);

describe('normalize', () => {
  it('lower-cases, strips accents and collapses punctuation', () => {
    expect(normalize('  Pokémon: ETB — Évolución  ')).toBe('pokemon etb evolucion');
    expect(normalize('Monkey.D.Luffy')).toBe('monkey d luffy');
    expect(normalize('ÑANDÚ')).toBe('nandu');
  });
});

describe('searchProducts', () => {
  it('matches a partial lower-case name regardless of case', () => {
    expect(ids(searchProducts(index, 'elite trai'))).toEqual(['pk-etb-journey-together']);
    expect(ids(searchProducts(index, 'PIKACHU'))).toEqual(['pk-single-pikachu']);
  });

  it('ignores accents in both the query and the names', () => {
    expect(ids(searchProducts(index, 'prismaticas'))).toEqual(['pk-booster-prismatic']);
    expect(ids(searchProducts(index, 'EVOLUCIÓNES'))).toEqual(['pk-booster-prismatic']);
  });

  it('puts names starting with the query first, then word starts, then anywhere', () => {
    const idx = prepareIndex([
      ['mid', 'Mazo Starter', ''],
      ['inside', 'Restart pack', ''],
      ['prefix', 'Starter Deck', ''],
    ]);
    expect(ids(searchProducts(idx, 'start'))).toEqual(['prefix', 'mid', 'inside']);
  });

  it('keeps the index order within one rank', () => {
    expect(ids(searchProducts(index, 'journey'))).toEqual([
      'pk-etb-journey-together',
      'pk-boosterbox-journey-together',
      'pk-tin-journey',
      'pk-journal',
    ]);
  });

  it('matches several words in any order after exact phrase matches', () => {
    expect(ids(searchProducts(index, 'together caja'))).toEqual(['pk-boosterbox-journey-together']);
    expect(ids(searchProducts(index, 'journey together'))).toEqual([
      'pk-etb-journey-together',
      'pk-boosterbox-journey-together',
      'pk-tin-journey',
    ]);
  });

  it('returns nothing for an empty, blank or unmatched query', () => {
    expect(searchProducts(index, '')).toEqual([]);
    expect(searchProducts(index, '   ')).toEqual([]);
    expect(searchProducts(index, '¿?')).toEqual([]);
    expect(searchProducts(index, 'charizard')).toEqual([]);
  });

  it('returns at most the limit, preferring better ranks', () => {
    const many = prepareIndex(
      Array.from({ length: 30 }, (_, i): SearchEntry => [`x${i}`, i % 2 ? `Caja sobre ${i}` : `Sobre ${i}`, '']),
    );
    const results = searchProducts(many, 'sobre');
    expect(results).toHaveLength(DEFAULT_LIMIT);
    expect(results.every((r) => r[1].startsWith('Sobre'))).toBe(true);
    expect(searchProducts(many, 'sobre', 3)).toHaveLength(3);
    expect(searchProducts(many, 'caja', 100)).toHaveLength(15);
    expect(searchProducts(many, 'sobre', 0)).toEqual([]);
  });
});

describe('index file', () => {
  const storage = 'https://abc.supabase.co';

  it('is built sorted by name (Spanish order, numbers by value), column by column', () => {
    const file = buildSearchIndex(
      [
        { id: 'b', name: 'Sobre 10', image: 'https://cdn.example.com/x.png' },
        { id: 'a', name: 'sobre 9', image: null },
        { id: 'c', name: 'Ñu', image: undefined },
        { id: 'd', name: 'Álbum', image: '/images/d.svg' },
      ],
      storage,
    );
    expect(file).toEqual({
      v: 1,
      storage,
      ids: ['d', 'c', 'a', 'b'],
      names: ['Álbum', 'Ñu', 'sobre 9', 'Sobre 10'],
      // 'd' is also the id, so it becomes the token; reading restores it (see the next test).
      images: ['/images/{id}.svg', '', '', 'https://cdn.example.com/x.png'],
    });
  });

  it('replaces the id inside image paths with a token and restores it when read', () => {
    const products = [
      { id: 'pk-etb-x', name: 'ETB X', image: 'products/pk-etb-x-1.svg' },
      { id: 'pk-etb-y', name: 'ETB Y', image: 'products/other.svg' },
    ];
    const file = buildSearchIndex(products, storage);
    expect(file.ids).toEqual(['pk-{0-1}', 'pk-{0-1}']);
    expect(file.images).toEqual(['products/{id}-1.svg', 'products/other.svg']);
    const parsed = parseSearchIndex(JSON.parse(JSON.stringify(file)));
    expect(parsed).toEqual({
      storage,
      entries: [
        ['pk-etb-x', 'ETB X', 'products/pk-etb-x-1.svg'],
        ['pk-etb-y', 'ETB Y', 'products/other.svg'],
      ],
    });
  });

  it('writes ids as templates over their name words and reads them back exactly', () => {
    expect(encodeId('pk-tin-surging-sparks-pikachu-ex', 'Lata Pikachu ex (Chispas Fulgurantes)')).toBe(
      'pk-tin-surging-sparks-{1-2}',
    );
    expect(encodeId('pk-single-charizard-ex-223', 'Charizard ex 223/197')).toBe('pk-single-{0-2}');
    expect(encodeId('ex-pk-ex', 'Pikachu ex')).toBe('{1}-pk-{1}');
    expect(decodeId('pk-single-{0-2}', 'Charizard ex 223/197')).toBe('pk-single-charizard-ex-223');
    const tricky: Array<[string, string]> = [
      ['pk-tin-surging-sparks-pikachu-ex', 'Lata Pikachu ex'],
      ['plain-id', 'Nada en común'],
      ['{0}', 'Sobre'],
      ['={1}', 'Sobre Caja'],
      ['=x', 'x'],
      ['a--b', 'a b'],
      ['', 'Sobre'],
      ['-', ''],
      ['pokemon-evolucion', 'Pokémon Evolución'],
      ['id with spaces', 'id with spaces'],
      ['{99}', 'Sobre'],
    ];
    for (const [id, name] of tricky) expect(decodeId(encodeId(id, name), name), `${id} / ${name}`).toBe(id);
    // The catalogue's own scheme, over many random products.
    for (const p of fakeCatalog(2_000, 7)) expect(decodeId(encodeId(p.id, p.name), p.name)).toBe(p.id);
  });

  it('rejects files of another shape', () => {
    const good = { v: 1, storage, ids: ['a'], names: ['A'], images: [''] };
    expect(parseSearchIndex(good)).not.toBeNull();
    expect(parseSearchIndex(null)).toBeNull();
    expect(parseSearchIndex('x')).toBeNull();
    expect(parseSearchIndex({ ...good, v: 2 })).toBeNull();
    expect(parseSearchIndex({ ...good, storage: undefined })).toBeNull();
    expect(parseSearchIndex({ ...good, names: [] })).toBeNull();
    expect(parseSearchIndex({ ...good, images: [3] })).toBeNull();
    expect(parseSearchIndex({ ...good, ids: 'a' })).toBeNull();
  });
});

describe('with 10,000 products', () => {
  const catalog = fakeCatalog(10_000);
  const file = buildSearchIndex(catalog, 'https://abcdefghijklmnop.supabase.co');

  it('the generated catalogue has 10,000 distinct products', () => {
    expect(new Set(catalog.map((p) => p.id)).size).toBe(10_000);
    expect(new Set(catalog.map((p) => p.name)).size).toBe(10_000);
  });

  it('the index is at most 150 KB once gzipped', () => {
    const json = JSON.stringify(file);
    const gzipped = gzipSync(json, { level: 9 }).byteLength;
    // Sanity: the raw file is big, so the limit really measures compression of real-looking data.
    expect(json.length).toBeGreaterThan(600_000);
    expect(gzipped).toBeLessThanOrEqual(150 * 1024);
  });

  it('answers every keystroke of a query in under 50 ms', () => {
    const prepared = prepareIndex(parseSearchIndex(file)!.entries);
    const target = catalog[1234]!.name;
    const queries: string[] = [];
    for (let n = 1; n <= Math.min(target.length, 20); n++) queries.push(target.slice(0, n).toLowerCase());
    queries.push('zzzz no existe', 'carta individual', 'elite trainer', 'fuerzas temporales sobre');
    searchProducts(prepared, 'warm up');
    // Best of three runs per query: the cost of the search itself, not of a busy CI machine
    // preempting the test process.
    let slowest = 0;
    const timings: Record<string, number> = {};
    for (const q of queries) {
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        const results = searchProducts(prepared, q);
        best = Math.min(best, performance.now() - start);
        expect(results.length).toBeLessThanOrEqual(DEFAULT_LIMIT);
      }
      timings[q] = best;
      slowest = Math.max(slowest, best);
    }
    expect(slowest, JSON.stringify(timings)).toBeLessThan(50);
    expect(ids(searchProducts(prepared, target, 50))).toContain(catalog[1234]!.id);
  });
});
