import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import { franchises as staticFranchises } from '~/domain/catalog.ts';
import { fetchAllRows } from '~/server/snapshot/fetch.ts';
import { saveSnapshotRows } from '~/server/snapshot/disk.ts';
import { loadCatalogSnapshot, patchProductRows } from '~/server/snapshot/loader.ts';
import { productPart } from '~/server/rebuild/parts.ts';
import type { CatalogRows } from '~/server/snapshot/model.ts';

const goodRow = {
  id: 'pk-etb-test',
  name: 'Elite Trainer Box Prueba',
  price: '1299.50',
  original_price: '1499.00',
  discount: true,
  preorder: false,
  stock: 4,
  image: 'products/pk-etb-test-1.svg',
  images: ['products/pk-etb-test-1.svg'],
  franchise_id: 'pokemon',
  expansion_id: 'destined-rivals',
  product_type_id: 'elite-trainer-box',
  type: 'newArrivals',
  description: 'Caja de prueba',
};

function rows(partial: Partial<CatalogRows>): CatalogRows {
  return { franchises: [], collections: [], expansions: [], productTypes: [], products: [], ...partial };
}

function silentLogger() {
  const warnings: string[] = [];
  return { warnings, logger: { info: () => undefined, warn: (message: string) => warnings.push(message) } };
}

// A stand-in for the query builder: serves `total` rows ordered by id, a page after .gt('id', last)
// up to .limit(n), like PostgREST; each call is recorded as the [from, to] indexes it asked for.
function fakeClient(total: number, calls: Array<[number, number]>, failAt?: number): SupabaseClient {
  const id = (i: number) => `p${String(i).padStart(6, '0')}`;
  let from = 0;
  const builder = {
    select: () => builder,
    order: () => {
      from = 0;
      return builder;
    },
    gt: (_column: string, after: string) => {
      from = Number(after.slice(1)) + 1;
      return builder;
    },
    limit: (n: number) => ({ retry: () => page(from, from + n - 1) }),
  };
  const page = async (start: number, to: number) => {
    calls.push([start, to]);
    if (failAt !== undefined && start >= failAt) return { data: null, error: { message: 'conexión rechazada' } };
    const data = Array.from({ length: Math.max(0, Math.min(to, total - 1) - start + 1) }, (_, i) => ({ id: id(start + i) }));
    return { data, error: null };
  };
  return { from: () => builder } as unknown as SupabaseClient;
}

describe('paging through a table', () => {
  it('reads 10,000 rows in chunks of 1000', async () => {
    const calls: Array<[number, number]> = [];
    const all = await fetchAllRows(fakeClient(10_000, calls), 'products');
    expect(all).toHaveLength(10_000);
    expect(new Set(all.map((row) => (row as { id: string }).id)).size).toBe(10_000);
    expect(calls[0]).toEqual([0, 999]);
    expect(calls.every(([from, to]) => to - from + 1 === 1000)).toBe(true);
    // 10 full pages, then one empty page that proves the end.
    expect(calls).toHaveLength(11);
  });

  it('stops after a short page', async () => {
    const calls: Array<[number, number]> = [];
    expect(await fetchAllRows(fakeClient(2500, calls), 'products')).toHaveLength(2500);
    expect(calls).toHaveLength(3);
  });

  it('throws with the table name when a page fails', async () => {
    await expect(fetchAllRows(fakeClient(5000, [], 2000), 'products')).rejects.toThrow('products: conexión rechazada');
  });
});

describe('fallbacks when the backend is down', () => {
  // Port 9 (discard) on loopback refuses connections at once.
  const downBackend = { url: 'http://127.0.0.1:9', anonKey: 'x' };

  it('uses the last good copy on disk, with a warning', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    await writeFile(file, JSON.stringify({ fetchedAt: '2026-02-02T00:00:00.000Z', rows: rows({ products: [goodRow, { id: 'malo' }] }) }));
    const { warnings, logger } = silentLogger();
    const { snapshot, source } = await loadCatalogSnapshot({ backend: downBackend, file, logger, retry: false });
    expect(source).toBe('disk');
    expect(snapshot.products.map((p) => p.id)).toEqual(['pk-etb-test']);
    expect(warnings.some((w) => w.includes('Supabase'))).toBe(true);
    expect(warnings.some((w) => w.includes('id malo'))).toBe(true);
    expect(warnings.some((w) => w.includes('última copia'))).toBe(true);
  });

  it('builds from the static catalogue alone when there is no copy either', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const { warnings, logger } = silentLogger();
    const { snapshot, source } = await loadCatalogSnapshot({ backend: null, file: path.join(dir, 'none.json'), logger });
    expect(source).toBe('static');
    expect(snapshot.products).toEqual([]);
    expect(snapshot.franchises).toHaveLength(staticFranchises.length);
    expect(warnings.length).toBeGreaterThanOrEqual(2);
  });

  it('an unreadable copy counts as no copy', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    await writeFile(file, '{ no es json');
    const { logger } = silentLogger();
    const { source } = await loadCatalogSnapshot({ backend: null, file, logger });
    expect(source).toBe('static');
    expect(await readFile(file, 'utf8')).toBe('{ no es json');
  });
});

describe('a part past the first of a build in parts', () => {
  const downBackend = { url: 'http://127.0.0.1:9', anonKey: 'x' };

  it("keeps when part 0's read of the whole catalogue started, as saved with the copy", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    await saveSnapshotRows(file, rows({ products: [goodRow] }), '2026-11-24T02:00:05.000Z', '2026-11-24T02:00:01.000Z');
    const { logger } = silentLogger();
    const { snapshot } = await loadCatalogSnapshot({ backend: downBackend, file, logger, retry: false, partSnapshotSince: '2026-11-24T02:00:00.000Z' });
    expect(snapshot.fetchedAt).toBe('2026-11-24T02:00:05.000Z');
    expect(snapshot.wholeReadFrom).toBe('2026-11-24T02:00:01.000Z');
  });

  it('renders the copy part 0 saved for this build, without reading the backend', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    await writeFile(file, JSON.stringify({ fetchedAt: '2026-11-24T02:00:05.000Z', rows: rows({ products: [goodRow] }) }));
    const { warnings, logger } = silentLogger();
    const { snapshot, source } = await loadCatalogSnapshot({ backend: downBackend, file, logger, retry: false, partSnapshotSince: '2026-11-24T02:00:00.000Z' });
    expect(source).toBe('disk');
    expect(snapshot.products.map((p) => p.id)).toEqual(['pk-etb-test']);
    // A copy saved before the start of its read was recorded says nothing of it.
    expect(snapshot.wholeReadFrom).toBeNull();
    // The backend was not asked (it is down: asking would have warned).
    expect(warnings).toEqual([]);
  });

  it('keeps only the products whose pages it renders, and every product lands in exactly one part', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    const ids = Array.from({ length: 60 }, (_, i) => `pk-etb-test-${i}`);
    await writeFile(file, JSON.stringify({ fetchedAt: '2026-11-24T02:00:05.000Z', rows: rows({ products: ids.map((id) => ({ ...goodRow, id })) }) }));
    const { logger } = silentLogger();
    const since = '2026-11-24T02:00:00.000Z';
    const kept: string[][] = [];
    for (const index of [1, 2]) {
      const { snapshot } = await loadCatalogSnapshot({ backend: downBackend, file, logger, retry: false, partSnapshotSince: since, part: { index, count: 3 } });
      expect(snapshot.products.every((p) => productPart(p.id, 3) === index)).toBe(true);
      kept.push(snapshot.products.map((p) => p.id));
    }
    const first = ids.filter((id) => productPart(id, 3) === 0);
    // Each part past the first got some products, none twice, and with part 0's all of them.
    expect(kept.every((list) => list.length > 0)).toBe(true);
    expect([...first, ...kept.flat()].sort()).toEqual([...ids].sort());
  });

  it('reads the catalogue as usual when the copy on disk is older than the build', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'snapshot-'));
    const file = path.join(dir, 'catalog-snapshot.json');
    await writeFile(file, JSON.stringify({ fetchedAt: '2026-11-23T00:00:00.000Z', rows: rows({ products: [goodRow] }) }));
    const { warnings, logger } = silentLogger();
    const { source } = await loadCatalogSnapshot({ backend: downBackend, file, logger, retry: false, partSnapshotSince: '2026-11-24T02:00:00.000Z' });
    expect(source).toBe('disk');
    expect(warnings.some((w) => w.includes('anterior a esta compilación'))).toBe(true);
    expect(warnings.some((w) => w.includes('Supabase'))).toBe(true);
  });
});

describe('an incremental build patches the copy on disk', () => {
  const rows: CatalogRows = {
    franchises: [{ id: 'pokemon' }],
    collections: [],
    expansions: [],
    productTypes: [],
    products: [
      { id: 'a', name: 'A', price: 1 },
      { id: 'c', name: 'C', price: 3 },
      { id: 'e', name: 'E', price: 5 },
    ],
  };

  it('replaces changed rows in place, drops deleted ones, adds new ones in id order and leaves the rest alone', () => {
    const patched = patchProductRows(
      rows,
      ['c', 'e', 'b'],
      [
        { id: 'c', name: 'C nueva', price: 30 },
        { id: 'b', name: 'B', price: 2 },
      ],
    );
    expect(patched.products).toEqual([
      { id: 'a', name: 'A', price: 1 },
      { id: 'b', name: 'B', price: 2 },
      { id: 'c', name: 'C nueva', price: 30 },
    ]);
    expect(patched.franchises).toBe(rows.franchises);
    // The input is not modified.
    expect(rows.products).toHaveLength(3);
  });
});
