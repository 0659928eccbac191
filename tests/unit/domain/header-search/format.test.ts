import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildSearchIndex, decodeId, encodeId, parseSearchIndex } from '~/domain/header-search/format.ts';
import { fakeCatalog } from '../name-matching/fake-catalog';

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
    expect(encodeId('pk-tin-surging-sparks-pikachu-ex', 'Lata Pikachu ex (Chispas Fulgurantes)')).toBe('pk-tin-surging-sparks-{1-2}');
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
});
