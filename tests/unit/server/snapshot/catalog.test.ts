/**
 * The catalogue the prebuilt pages read: the content store's tables in order with their lookups,
 * the snapshot's listed products, what a whole build renders, the search files handed out once,
 * image URLs against the project, and /explore's catalogue. The content store, the snapshot and
 * the project URL are stand-ins.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseProduct, type Product } from '~/domain/product-schema.ts';

const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'build-catalog-'));
vi.stubEnv('ASTRO_OUT_DIR', outDir);
vi.stubEnv('CATALOG_PREVIOUS_MANIFEST', '');
vi.stubEnv('CATALOG_BUILD_MANIFEST', '');

function product(fields: Record<string, unknown>): Product {
  const parsed = parseProduct({ price: 100, stock: 2, franchise_id: 'pokemon', product_type_id: 'booster-pack', ...fields });
  if (!parsed) throw new Error('producto de prueba no válido');
  return parsed;
}

const tables = vi.hoisted(() => ({
  franchises: [
    { data: { id: 'one-piece', name: 'One Piece', logo: null, position: 2 } },
    { data: { id: 'pokemon', name: 'Pokémon', logo: null, position: 1 } },
  ],
  collections: [],
  expansions: [
    { data: { id: 'journey-together', name: 'Journey Together', franchiseId: 'pokemon', collectionId: null, image: '', releaseDate: null, position: 1 } },
  ],
  productTypes: [{ data: { id: 'booster-pack', name: 'Sobre', franchiseId: 'pokemon', image: null, position: 1 } }],
}));
const snapshot = vi.hoisted(() => ({ products: [] as unknown[], wholeReadFrom: '2026-11-24T02:00:01.000Z' as string | null }));
vi.mock('astro:content', () => ({ getCollection: async (name: keyof typeof tables) => tables[name] }));
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: 'https://proyecto.supabase.test/' }));
vi.mock('~/server/snapshot/loader.ts', () => ({ sharedCatalogSnapshot: async () => snapshot }));

snapshot.products = [
  product({ id: 'pk-sobre-a', name: 'Sobre Journey Together', expansion_id: 'journey-together', image: 'products/a.webp' }),
  product({ id: 'pk-oculto', name: 'Sobre oculto', available: false }),
  product({ id: 'pk-sobre-b', name: 'Sobre B', image: 'https://cdn.test/b.webp', stock: 0 }),
];

const { exploreDataOf, getBuildCatalog, getCatalogLookups, imageUrl, searchShardPaths, storageUrl, takeSearchShard } =
  await import('~/server/snapshot/catalog.ts');

afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(outDir, { recursive: true, force: true });
});

describe('getCatalogLookups', () => {
  it('orders each table by position, drops the position and indexes them by id', async () => {
    const lookups = await getCatalogLookups();
    expect(lookups.franchises.map((f) => f.id)).toEqual(['pokemon', 'one-piece']);
    expect(lookups.franchises[0]).not.toHaveProperty('position');
    expect(lookups.franchiseById.get('one-piece')?.name).toBe('One Piece');
    expect(lookups.expansionById.get('journey-together')?.franchiseId).toBe('pokemon');
    expect(lookups.productTypeById.has('booster-pack')).toBe(true);
    expect(await getCatalogLookups()).toBe(lookups);
  });
});

describe('getBuildCatalog', () => {
  it('keeps the listed products only, with when the whole read started, and renders every file in a whole build', async () => {
    const catalog = await getBuildCatalog();
    expect(catalog.products.map((p) => p.id)).toEqual(['pk-sobre-a', 'pk-sobre-b']);
    expect(catalog.productById.has('pk-oculto')).toBe(false);
    expect(catalog.readFrom).toBe('2026-11-24T02:00:01.000Z');
    expect(catalog.renders('/')).toBe(true);
    expect(catalog.renders('/product/pk-sobre-a')).toBe(true);
  });

  it('hands out each search file once', async () => {
    const paths = await searchShardPaths();
    expect(paths.length).toBeGreaterThan(0);
    const text = await takeSearchShard(paths[0]!);
    expect(() => JSON.parse(text!)).not.toThrow();
    expect(await takeSearchShard(paths[0]!)).toBeNull();
    expect(await takeSearchShard('/search/no-existe.json')).toBeNull();
  });
});

describe('images and /explore', () => {
  it("resolves stored image paths against the project's storage, and leaves URLs alone", () => {
    expect(storageUrl()).toBe('https://proyecto.supabase.test');
    expect(imageUrl('products/a.webp')).toMatch(/^https:\/\/proyecto\.supabase\.test\/.+\/products\/a\.webp$/);
    expect(imageUrl('https://cdn.test/b.webp')).toBe('https://cdn.test/b.webp');
    expect(imageUrl(null)).toBe('');
  });

  it('lists each product with its first image, and the options of the filters', async () => {
    const catalog = await getBuildCatalog();
    const data = exploreDataOf(catalog);
    expect(data.products.find((product) => product.id === 'pk-sobre-b')).toMatchObject({ id: 'pk-sobre-b', image: 'https://cdn.test/b.webp', stock: 0 });
    expect(data.franchises).toEqual([
      { id: 'pokemon', name: 'Pokémon' },
      { id: 'one-piece', name: 'One Piece' },
    ]);
    expect(data.expansions).toEqual([{ id: 'journey-together', name: 'Journey Together', franchiseId: 'pokemon' }]);
    expect(data.products.map((p) => p.id)).toEqual(['pk-sobre-a', 'pk-sobre-b']);
    expect(data.readFrom).toBe('2026-11-24T02:00:01.000Z');
    expect(exploreDataOf({ ...catalog, readFrom: null })).not.toHaveProperty('readFrom');
  });
});
