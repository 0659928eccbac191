/**
 * The server's /explore catalogue: read from the built file, kept live from the database, and
 * read again when a rebuild publishes a new file. Checked against the local stack with the shop's
 * migrations and seed, and an output folder laid out as a served build (client is a symlink).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import { toExploreProduct, type ExploreData, type ExploreProduct } from '~/domain/explore.ts';
import { parseProduct, PRODUCT_SELECT } from '~/domain/product-schema.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { fileIdentity } from '~/server/explore/catalog-edits.ts';
import { startTestStack, type TestStack } from '../../../../packages/local-supabase/tests/helpers.ts';

// The default catalogue reads the project's URL and anon key as the server does.
const mockEnv = vi.hoisted(() => ({ url: '', anonKey: '' }));
vi.mock('astro:env/client', () => ({
  get PUBLIC_SUPABASE_URL() {
    return mockEnv.url;
  },
  get PUBLIC_SUPABASE_ANON_KEY() {
    return mockEnv.anonKey;
  },
}));

const { LiveExploreCatalog, exploreCatalog, exploreCatalogChanged } = await import('~/server/explore/catalog.ts');

const SEALED = 'x-test-sealed';
const SINGLE = 'x-test-single';
/** Enough products changed in one transaction (one updated_at) to take two pages of changes. */
const FILLERS = 1050;

let stack: TestStack;
let service: SupabaseClient<Database>;
let anon: SupabaseClient<Database>;
let outDir: string;
let catalogFile: string;
const offerIds: Record<string, string> = {};
const instances: Array<{ stop(): void }> = [];

// Untyped on purpose: the rows below are the fixture, and the database checks them.
async function insert(table: 'products' | 'card_printings' | 'card_offers', rows: Record<string, unknown> | Record<string, unknown>[]) {
  const { data, error } = await (
    service.from(table) as unknown as {
      insert(rows: unknown): { select(columns: string): PromiseLike<{ data: Array<Record<string, string>> | null; error: { message: string } | null }> };
    }
  )
    .insert(rows)
    .select('*');
  if (error) throw new Error(`${table}: ${error.message}`);
  return data ?? [];
}

async function update(table: 'products' | 'card_offers', values: Record<string, unknown>, column: string, value: string) {
  const query = (
    service.from(table) as unknown as { update(values: unknown): { eq(column: string, value: string): PromiseLike<{ error: { message: string } | null }> } }
  ).update(values);
  const { error } = await query.eq(column, value);
  if (error) throw new Error(`${table}: ${error.message}`);
}

/** The fixture's products as the build writes them to explore/catalog.json, from the database now. */
async function builtCatalog(): Promise<ExploreData> {
  const { data, error } = await anon.from('products').select(PRODUCT_SELECT).like('id', 'x-test-%').order('id');
  if (error) throw new Error(error.message);
  return {
    franchises: [{ id: 'pokemon', name: 'Pokémon' }],
    expansions: [],
    types: [],
    products: (data ?? []).flatMap((row) => parseProduct(row) ?? []).map((product) => toExploreProduct(product, `https://img.test/${product.id}.webp`)),
  };
}

let builds = 0;
/** Publishes a catalogue as a rebuild does: a new build folder, then the client symlink swapped with one rename. */
function publish(data: unknown): void {
  const build = path.join('builds', `b${++builds}`, 'client');
  fs.mkdirSync(path.join(outDir, build, 'explore'), { recursive: true });
  fs.writeFileSync(path.join(outDir, build, 'explore', 'catalog.json'), JSON.stringify(data));
  const tmp = path.join(outDir, `.client-${builds}`);
  fs.symlinkSync(build, tmp, 'dir');
  fs.renameSync(tmp, path.join(outDir, 'client'));
}

function live(options: { supabase?: SupabaseClient<Database>; warn?: (line: string) => void; checkFileMs?: number; overlapMs?: number } = {}) {
  const catalog = new LiveExploreCatalog({
    source: { file: catalogFile },
    supabase: options.supabase ?? anon,
    // Polled by hand, so each step is one poll.
    liveMs: 0,
    checkFileMs: options.checkFileMs,
    warn: options.warn ?? (() => {}),
    overlapMs: options.overlapMs,
  });
  instances.push(catalog);
  return catalog;
}

/** An anon client that records each request's URL (decoded) in `urls`. */
function recordingClient(urls: string[]): SupabaseClient<Database> {
  return createClient<Database>(stack.url, stack.anonKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    global: {
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        urls.push(decodeURIComponent(String(input instanceof Request ? input.url : input)));
        return fetch(input, init);
      },
    },
  });
}

const find = (data: ExploreData, id: string): ExploreProduct => {
  const product = data.products.find((item) => item.id === id);
  if (!product) throw new Error(`${id} is not in the catalogue`);
  return product;
};

beforeAll(async () => {
  stack = await startTestStack();
  mockEnv.url = stack.url;
  mockEnv.anonKey = stack.anonKey;
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  anon = createClient<Database>(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });

  const fillers = Array.from({ length: FILLERS }, (_, i) => ({
    id: `x-fill-${String(i).padStart(4, '0')}`,
    name: `Relleno ${i}`,
    price: 10,
    stock: 1,
    franchise_id: 'pokemon',
  }));
  // The stack takes at most 1,000 rows per request.
  for (let i = 0; i < fillers.length; i += 500) await insert('products', fillers.slice(i, i + 500));
  await insert('products', [
    { id: SEALED, name: 'Caja de sobres de prueba', price: 1500, stock: 4, franchise_id: 'pokemon' },
    { id: SINGLE, name: 'Pikachu 025/165 (prueba)', price: 800, stock: 9, franchise_id: 'pokemon' },
  ]);
  await insert('card_printings', { product_id: SINGLE, expansion: 'SV03', collector_number: '025/165', rarity: 'C', name_en: 'Pikachu' });
  const offers = await insert('card_offers', [
    { product_id: SINGLE, condition: 'LP', language: 'en', finish: 'normal', price: 800, stock: 3, position: 1 },
    { product_id: SINGLE, condition: 'NM', language: 'en', finish: 'normal', price: 1100, stock: 2, position: 0 },
    {
      product_id: SINGLE,
      language: 'ja',
      finish: 'holo',
      price: 25000,
      stock: 1,
      grading_company: 'PSA',
      grade: 10,
      certificate_number: 'X-TEST-1',
      position: 2,
    },
  ]);
  for (const offer of offers) offerIds[offer.condition ?? 'PSA'] = offer.id!;

  outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'explore-catalogue-'));
  catalogFile = path.join(outDir, 'client', 'explore', 'catalog.json');
  publish(await builtCatalog());
}, 120_000);

afterAll(async () => {
  for (const instance of instances) instance.stop();
  // The shared catalogue's timer polls until the process ends: its failures once the stack is gone are expected.
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  await stack?.stop();
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

describe('the /explore catalogue of the server', () => {
  it('reads the built catalogue file, and a first poll finds it matches the database', async () => {
    const catalog = live();
    const first = await catalog.get();
    expect(first.version).toBe(1);
    expect(first.searchVersion).toBe(1);
    expect(first.catalogVersion).toBe(1);
    expect(first.changedAt(SEALED)).toBe(0);
    expect(first.data.products.map((product) => product.id)).toEqual([SEALED, SINGLE]);
    // As the island reads it: the franchise's name is searchable.
    expect(find(first.data, SEALED)).toMatchObject({ stock: 4, tags: 'pokemon', image: `https://img.test/${SEALED}.webp` });
    expect(find(first.data, SINGLE)).toMatchObject({ stock: 6, rarity: 'C', offers: 'NM.en.normal LP.en.normal G.ja.holo', from: true });

    // The changes since shortly before the file was made (the fixture itself, the seed) are read
    // again: the database agrees with the file, and the products not in it are ignored.
    expect(await catalog.poll()).toBe(false);
    const again = await catalog.get();
    expect(again.version).toBe(1);
    expect(again.data).toBe(first.data);
  });

  it("shows a product's new stock in place, counted in version, and ignores products it does not list", async () => {
    const catalog = live();
    const before = await catalog.get();
    const products = before.data.products;
    const sealed = find(before.data, SEALED);

    await update('products', { stock: 2 }, 'id', SEALED);
    await update('products', { stock: 50 }, 'id', 'x-fill-0001');
    expect(await catalog.poll()).toBe(true);
    const after = await catalog.get();
    expect(after.version).toBe(before.version + 1);
    // Still in stock: no search finds or counts anything else; only the product's own card changes.
    expect(after.searchVersion).toBe(before.searchVersion);
    // The catalogue itself was not read again.
    expect(after.catalogVersion).toBe(before.catalogVersion);
    expect(after.changedAt(SEALED)).toBe(after.version);
    expect(after.changedAt(SINGLE)).toBe(before.changedAt(SINGLE));
    // The same array and the same object, changed in place.
    expect(after.data.products).toBe(products);
    expect(find(after.data, SEALED)).toBe(sealed);
    expect(sealed.stock).toBe(2);
    expect(after.data.products.map((product) => product.id)).toEqual([SEALED, SINGLE]);

    // Nothing new: the next poll changes nothing.
    expect(await catalog.poll()).toBe(false);
    expect((await catalog.get()).version).toBe(after.version);

    // Sold out: 'Solo disponibles' and its counts change, a change every search sees.
    await update('products', { stock: 0 }, 'id', SEALED);
    expect(await catalog.poll()).toBe(true);
    const soldOut = await catalog.get();
    expect(soldOut.searchVersion).toBe(soldOut.version);
    expect(soldOut.searchVersion).toBeGreaterThan(after.searchVersion);
    await update('products', { stock: 2 }, 'id', SEALED);
    expect(await catalog.poll()).toBe(true);
    expect((await catalog.get()).searchVersion).toBe((await catalog.get()).version);
  });

  it('counts a drop scheduled, moved or removed as a change every page sees (pages carry the drops script while one is ahead)', async () => {
    const catalog = live();
    const before = await catalog.get();
    const at = new Date(Date.now() + 3_600_000).toISOString();
    try {
      await update('products', { on_sale_at: at }, 'id', SEALED);
      expect(await catalog.poll()).toBe(true);
      const scheduled = await catalog.get();
      expect(find(scheduled.data, SEALED).onSaleAt).toBeDefined();
      expect(scheduled.searchVersion).toBe(scheduled.version);
      expect(scheduled.searchVersion).toBeGreaterThan(before.searchVersion);
    } finally {
      await update('products', { on_sale_at: null }, 'id', SEALED);
    }
    expect(await catalog.poll()).toBe(true);
    const removed = await catalog.get();
    expect(find(removed.data, SEALED).onSaleAt).toBeUndefined();
    expect(removed.searchVersion).toBe(removed.version);
  });

  it("reads a single's stock, offer tokens and 'Desde' from its offers", async () => {
    const warnings: string[] = [];
    const catalog = live({ warn: (line) => warnings.push(line) });
    const start = await catalog.get();
    const single = find(start.data, SINGLE);

    // A single's own row stock describes no copy: its stock stays its offers'.
    await update('products', { stock: 40 }, 'id', SINGLE);
    await catalog.poll();
    expect(single.stock).toBe(6);

    await update('card_offers', { stock: 0 }, 'id', offerIds.LP!);
    expect(await catalog.poll()).toBe(true);
    expect(single).toMatchObject({ stock: 3, offers: 'NM.en.normal G.ja.holo', from: true });
    const afterLp = (await catalog.get()).version;
    expect(afterLp).toBeGreaterThan(start.version);
    // A copy no longer in stock: the singles filters find and count otherwise.
    expect((await catalog.get()).searchVersion).toBe(afterLp);
    expect((await catalog.get()).changedAt(SINGLE)).toBe(afterLp);

    // One price left in stock: no longer 'Desde'.
    await update('card_offers', { stock: 0 }, 'id', offerIds.NM!);
    expect(await catalog.poll()).toBe(true);
    expect(single.offers).toBe('G.ja.holo');
    expect(single.stock).toBe(1);
    expect(single).not.toHaveProperty('from');
    expect((await catalog.get()).version).toBe(afterLp + 1);

    // Back in stock: its token and 'Desde' return.
    await update('card_offers', { stock: 5 }, 'id', offerIds.LP!);
    expect(await catalog.poll()).toBe(true);
    expect(single).toMatchObject({ stock: 6, offers: 'LP.en.normal G.ja.holo', from: true });
    // Every table was read whole, the offers' (uuid ids) too.
    expect(warnings).toEqual([]);
  });

  it('reads every page of changes when more rows changed at once than one answer holds', async () => {
    const catalog = live();
    const sealed = find((await catalog.get()).data, SEALED);
    // One statement: all of them share one updated_at, and the fixture's ids sort after the fillers'.
    const { error } = await service.from('products').update({ stock: 7 }).like('id', 'x-%');
    expect(error).toBeNull();
    expect(await catalog.poll()).toBe(true);
    expect(sealed.stock).toBe(7);
  });

  it('keeps what a poll abandoned part way had read, and the next poll goes on from there', async () => {
    // The database answers the first page of products' changes, then the connection fails (as a
    // poll with more changes than it can read in its time is abandoned part way).
    const requests: string[] = [];
    let failing = true;
    let firstPageLast = '';
    const gated = createClient<Database>(stack.url, stack.anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      global: {
        fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
          const url = String(input instanceof Request ? input.url : input);
          requests.push(decodeURIComponent(url));
          if (failing && requests.length > 1) throw new TypeError('fetch failed');
          const response = await fetch(input, init);
          // The last row of the page the abandoned poll read (whatever rows of the stack come first).
          if (failing) firstPageLast = ((await response.clone().json()) as Array<{ id: string }>).at(-1)?.id ?? '';
          return response;
        },
      },
    });
    const warnings: string[] = [];
    // No overlap: the changes below are a second old, and a place may move past them at once.
    const catalog = live({ supabase: gated, overlapMs: 0, warn: (line) => warnings.push(line) });
    const sealed = find((await catalog.get()).data, SEALED);
    // One statement: more rows than a page, one updated_at; the fixture's ids sort after the fillers'.
    const { error } = await service.from('products').update({ stock: 6 }).like('id', 'x-%');
    expect(error).toBeNull();

    expect(await catalog.poll()).toBe(false);
    expect(warnings.join('\n')).toMatch(/No se pudo leer el inventario en vivo/);
    expect(sealed.stock).not.toBe(6);
    const firstPage = requests.length;

    failing = false;
    expect(await catalog.poll()).toBe(true);
    expect(sealed.stock).toBe(6);
    // It asked for the rows after the last one of the page it had read, not for the first page again.
    const next = requests.slice(firstPage).find((url) => url.includes('/rest/v1/products?'));
    expect(firstPageLast).not.toBe('');
    expect(next).toContain(`id=gt.${firstPageLast}`);
    // Each request for changes is one range of the (updated_at, id) index: the rest of the place's
    // time after its id, or the later times; never an OR of both, which the database answers by
    // reading every row left for each page.
    const changes = requests.filter((url) => /\/rest\/v1\/(products|card_offers)\?/.test(url) && /[?&](updated_at=|or=)/.test(url));
    expect(changes.length).toBeGreaterThan(2);
    for (const url of changes) expect(url).not.toMatch(/[?&]or=/);
    expect(next).toMatch(/updated_at=eq\./);
  });

  it('serves a catalogue a rebuild published, and brings its stock up to date', async () => {
    const catalog = live({ checkFileMs: 50 });
    const before = await catalog.get();
    await update('products', { stock: 3 }, 'id', SEALED);
    await catalog.poll();
    expect(find(before.data, SEALED).stock).toBe(3);

    // The rebuild's file was made from an older read of the database (stock 9) and renames a
    // product; the single's entry is the served file's, byte for byte.
    const built = JSON.parse(fs.readFileSync(catalogFile, 'utf8')) as ExploreData;
    built.products = built.products.map((product) => (product.id === SEALED ? { ...product, name: 'Caja de sobres (nueva)', stock: 9 } : product));
    publish(built);

    // Answers keep coming from the old catalogue until the new one is read.
    await new Promise((resolve) => setTimeout(resolve, 60));
    await catalog.get();
    await vi.waitFor(async () => expect(find((await catalog.get()).data, SEALED).name).toBe('Caja de sobres (nueva)'), { timeout: 5000, interval: 60 });
    const after = await catalog.get();
    expect(after.data.products).not.toBe(before.data.products);
    expect(after.version).toBeGreaterThan(before.version);
    // A catalogue read again: an answer made from the old one is not handed out (rendered.ts).
    expect(after.catalogVersion).toBe(after.version);
    expect(after.catalogVersion).toBeGreaterThan(before.catalogVersion);
    // The changes from before the file was made were read into it before it was served: the
    // first answer from it already has the database's stock, not the build's.
    expect(find(after.data, SEALED).stock).toBe(3);
    // The entries the rebuild did not change keep their objects, so the search prepares again
    // only the changed ones (src/domain/explore-query.ts); the renamed one is a new object.
    expect(find(after.data, SINGLE)).toBe(find(before.data, SINGLE));
    expect(find(after.data, SEALED)).not.toBe(find(before.data, SEALED));
    // A poll finds nothing more to change.
    expect(await catalog.poll()).toBe(false);
    expect((await catalog.get()).version).toBe(after.version);

    // An unchanged file is not read again.
    expect(await catalog.checkFile()).toBe(false);
  });

  it('keeps serving the last catalogue when the database or the new file cannot be read', async () => {
    const warnings: string[] = [];
    const down = createClient<Database>('http://127.0.0.1:9', stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
    const catalog = live({ supabase: down, warn: (line) => warnings.push(line), checkFileMs: 0 });
    const before = await catalog.get();
    const stock = find(before.data, SEALED).stock;

    await update('products', { stock: 11 }, 'id', SEALED);
    expect(await catalog.poll()).toBe(false);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/inventario en vivo/);
    expect(warnings[0]).not.toContain('\n');
    const after = await catalog.get();
    expect(after.data).toBe(before.data);
    expect(after.version).toBe(before.version);
    expect(find(after.data, SEALED).stock).toBe(stock);
    // Tried again at the next tick, and reported again.
    expect(await catalog.poll()).toBe(false);
    expect(warnings).toHaveLength(2);

    // A published file that is not a catalogue: the old one stays, reported once.
    publish({ not: 'a catalogue' });
    expect(await catalog.checkFile()).toBe(false);
    expect(await catalog.checkFile()).toBe(false);
    expect(warnings).toHaveLength(3);
    expect((await catalog.get()).data).toBe(before.data);
    publish(await builtCatalog());
  });

  it('brings a catalogue read again after an edit up to date by reading its new products by id, not every change since it was made', async () => {
    const urls: string[] = [];
    const recording = recordingClient(urls);
    const catalog = live({ supabase: recording, checkFileMs: 50 });
    const before = await catalog.get();
    await catalog.poll();
    // Since the catalogue was made: more rows changed than a page holds (the fillers), and the
    // sealed product sold some.
    await service.from('products').update({ stock: 7 }).like('id', 'x-fill-%');
    await update('products', { stock: 2 }, 'id', SEALED);
    // The edit's file: the sealed product renamed, with the stock the edit read before the sale.
    const built = await builtCatalog();
    built.products = built.products.map((product) => (product.id === SEALED ? { ...product, name: 'Caja de sobres (editada)', stock: 5 } : product));
    urls.length = 0;
    publish(built);
    await new Promise((resolve) => setTimeout(resolve, 60));
    await vi.waitFor(async () => expect(find((await catalog.get()).data, SEALED).name).toBe('Caja de sobres (editada)'), { timeout: 5000, interval: 60 });
    const after = await catalog.get();
    // The database's stock, read by id, before the catalogue was served.
    expect(find(after.data, SEALED).stock).toBe(2);
    expect(find(after.data, SINGLE)).toBe(find(before.data, SINGLE));
    const rest = urls.filter((url) => /\/rest\/v1\/(products|card_offers)\?/.test(url));
    expect(rest.some((url) => url.includes(`id=in.(${SEALED})`))).toBe(true);
    expect(rest.filter((url) => url.includes('updated_at='))).toEqual([]);
    // The next poll goes on from where the served catalogue had read to.
    await catalog.poll();
    const from = /updated_at=(?:gte|gt|eq)\.([^&]+)/.exec(urls.find((url) => url.includes('/rest/v1/products?') && url.includes('updated_at=')) ?? '')?.[1];
    expect(Date.parse(from ?? 'NaN')).toBeGreaterThan(Date.now() - 60_000);
    await update('products', { stock: 4 }, 'id', SEALED);
    publish(await builtCatalog());
  });

  it('serves the edits written beside the catalogue without reading the catalogue again, and leaves them out once a build publishes another', async () => {
    const urls: string[] = [];
    const catalog = live({ supabase: recordingClient(urls), checkFileMs: 50 });
    const before = await catalog.get();
    await catalog.poll();
    await update('products', { stock: 2 }, 'id', SEALED);
    // The edit's entry: the sealed product renamed, with the stock the edit read before a sale.
    const entry = (await builtCatalog()).products.find((product) => product.id === SEALED)!;
    const editsFile = path.join(path.dirname(catalogFile), 'catalog-edits.json');
    const catalogBytes = fs.readFileSync(catalogFile);
    urls.length = 0;
    fs.writeFileSync(
      editsFile,
      JSON.stringify({ base: fileIdentity(fs.statSync(catalogFile)), products: [{ ...entry, name: 'Caja de sobres (editada aparte)', stock: 5 }] }),
    );
    expect(await catalog.checkFile()).toBe(true);
    const after = await catalog.get();
    expect(find(after.data, SEALED).name).toBe('Caja de sobres (editada aparte)');
    // Read by id before it was served: the database's stock, not the edit's.
    expect(find(after.data, SEALED).stock).toBe(2);
    expect(urls.some((url) => url.includes(`id=in.(${SEALED})`))).toBe(true);
    expect(find(after.data, SINGLE)).toBe(find(before.data, SINGLE));
    expect(after.data.products.map((product) => product.id)).toEqual(before.data.products.map((product) => product.id));
    expect(after.catalogVersion).toBeGreaterThan(before.catalogVersion);
    expect(fs.readFileSync(catalogFile)).toEqual(catalogBytes);
    expect(await catalog.checkFile()).toBe(false);
    // The served products by id hold the edited object: the next poll's stock goes to it.
    await update('products', { stock: 3 }, 'id', SEALED);
    expect(await catalog.poll()).toBe(true);
    expect(find((await catalog.get()).data, SEALED).stock).toBe(3);

    // A build publishes the catalogue again (edits beside the old one are another file's).
    const built = await builtCatalog();
    const written = fs.readFileSync(editsFile);
    publish(built);
    fs.writeFileSync(editsFile, written);
    await vi.waitFor(async () => expect(find((await catalog.get()).data, SEALED).name).toBe(find(built, SEALED).name), { timeout: 5000, interval: 60 });
    await update('products', { stock: 4 }, 'id', SEALED);
    publish(await builtCatalog());
  });

  it('reads the changes from shortly before the build read the whole database, not ten minutes back, when the catalogue says when that was', async () => {
    const urls: string[] = [];
    const recording = recordingClient(urls);
    /** The time the first poll's read of products starts from. */
    const firstPlace = async () => {
      urls.length = 0;
      const catalog = live({ supabase: recording });
      await catalog.get();
      await catalog.poll();
      catalog.stop();
      const products = urls.find((url) => url.includes('/rest/v1/products?'));
      return Date.parse(/updated_at=gte\.([^&]+)/.exec(products ?? '')?.[1] ?? 'NaN');
    };
    const readFrom = new Date(Date.now() - 60_000).toISOString();
    try {
      publish({ ...(await builtCatalog()), readFrom });
      expect(await firstPlace()).toBe(Date.parse(readFrom) - 30_000);
      // A catalogue that does not say (an incremental build, an older file) reads ten minutes back.
      publish(await builtCatalog());
      const published = fs.statSync(catalogFile).mtimeMs;
      expect(Math.abs((await firstPlace()) - (published - 10 * 60_000))).toBeLessThan(1000);
    } finally {
      publish(await builtCatalog());
    }
  });

  it('rejects while no catalogue was ever read, and reads it once it is there', async () => {
    const missing = path.join(outDir, 'nowhere', 'catalog.json');
    const catalog = new LiveExploreCatalog({ source: { file: missing }, supabase: anon, liveMs: 0 });
    instances.push(catalog);
    await expect(catalog.get()).rejects.toThrow();
    fs.mkdirSync(path.dirname(missing), { recursive: true });
    fs.copyFileSync(catalogFile, missing);
    expect((await catalog.get()).data.products.map((product) => product.id)).toEqual([SEALED, SINGLE]);
  });

  it("exploreCatalogue() serves SHOP_OUT_DIR's catalogue with the stock polled every EXPLORE_LIVE_MS, and reads an edit this server published at once", async () => {
    vi.stubEnv('SHOP_OUT_DIR', outDir);
    vi.stubEnv('EXPLORE_LIVE_MS', '100');
    try {
      const first = await exploreCatalog();
      expect(first.data.products.map((product) => product.id)).toEqual([SEALED, SINGLE]);
      await update('products', { stock: 21 }, 'id', SEALED);
      // A few polls of its own timer, nobody calling poll().
      await vi.waitFor(async () => expect(find((await exploreCatalog()).data, SEALED).stock).toBe(21), { timeout: 5000, interval: 100 });
      const later = await exploreCatalog();
      expect(later.version).toBeGreaterThan(first.version);
      expect(later.data.products).toBe(first.data.products);
      // An edit this server published: read at once, and handed to `prepare` before it resolves.
      const entry = (await builtCatalog()).products.find((product) => product.id === SEALED)!;
      const editsFile = path.join(path.dirname(catalogFile), 'catalog-edits.json');
      fs.writeFileSync(editsFile, JSON.stringify({ base: fileIdentity(fs.statSync(catalogFile)), products: [{ ...entry, name: 'Caja (editada aquí)' }] }));
      const prepared: string[] = [];
      await exploreCatalogChanged((catalog) => prepared.push(find(catalog.data, SEALED).name));
      expect(prepared).toEqual(['Caja (editada aquí)']);
      expect(find((await exploreCatalog()).data, SEALED).name).toBe('Caja (editada aquí)');
      fs.rmSync(editsFile);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
