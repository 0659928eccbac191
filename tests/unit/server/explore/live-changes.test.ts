/**
 * What the /explore catalogue reads between rebuilds: pages of changed rows, read as ranges of the
 * (updated_at, id) index, and the catalogue fields those changes make with the build's rules.
 * The client is a fake that answers each request from in-memory rows by the filters it was given,
 * so the requests' filters are what is checked. (The whole poll against the local stack:
 * tests/unit/server/explore/catalog.test.ts.)
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { describe, expect, it } from 'vitest';
import type { Database } from '~/data/database.types.ts';
import type { ExploreProduct } from '~/domain/explore.ts';
import { applyFields, keptProducts, PAGE, readChangedPage, readChanges, readProducts, type ChangedRow } from '~/server/explore/live-changes.ts';

type Row = Record<string, unknown>;
type Call = [string, ...unknown[]];

/** A client whose queries filter, order and limit `tables` as PostgREST would; every request is recorded. */
function fakeClient(tables: Record<string, Row[]>, error: { message: string } | null = null) {
  const requests: Array<{ table: string; calls: Call[] }> = [];
  const client = {
    from(table: string) {
      const calls: Call[] = [];
      requests.push({ table, calls });
      const builder: Record<string, unknown> = {};
      for (const name of ['select', 'eq', 'gt', 'gte', 'in', 'order', 'limit', 'abortSignal', 'retry'])
        builder[name] = (...args: unknown[]) => {
          calls.push([name, ...args]);
          return builder;
        };
      builder.then = (resolve: (value: unknown) => void) => resolve(error ? { data: null, error } : { data: answer(tables[table] ?? [], calls), error: null });
      return builder;
    },
  };
  return { client: client as unknown as SupabaseClient<Database>, requests };
}

function answer(rows: Row[], calls: Call[]): Row[] {
  let result = [...rows];
  const orders: string[] = [];
  let limit = Infinity;
  for (const [name, column, value] of calls) {
    const key = column as string;
    if (name === 'eq') result = result.filter((row) => row[key] === value);
    if (name === 'gt') result = result.filter((row) => String(row[key]) > String(value));
    if (name === 'gte') result = result.filter((row) => String(row[key]) >= String(value));
    if (name === 'in') result = result.filter((row) => (value as unknown[]).includes(row[key]));
    if (name === 'order') orders.push(key);
    if (name === 'limit') limit = column as number;
  }
  result.sort((a, b) => {
    for (const key of orders) if (a[key] !== b[key]) return String(a[key]) < String(b[key]) ? -1 : 1;
    return 0;
  });
  return result.slice(0, limit);
}

const signal = new AbortController().signal;
const T1 = '2026-11-01T10:00:00.000Z';
const T2 = '2026-11-01T10:00:05.000Z';

function product(fields: Partial<ExploreProduct> & { id: string }): ExploreProduct {
  return { name: fields.id, price: 100, stock: 1, image: '', ...fields } as ExploreProduct;
}

function offer(id: string, productId: string, stock: number, price: number): Row {
  return { id, product_id: productId, condition: 'NM', language: 'EN', finish: 'normal', price, original_price: null, stock, position: 0 };
}

describe('readChangedPage', () => {
  const rows: Row[] = [
    { id: 'a', stock: 1, updated_at: T1 },
    { id: 'b', stock: 2, updated_at: T1 },
    { id: 'c', stock: 3, updated_at: T2 },
  ];

  it('reads a place without an id from its own time on, in (updated_at, id) order', async () => {
    const { client, requests } = fakeClient({ products: [rows[2]!, rows[1]!, rows[0]!] });
    const page = await readChangedPage(client, 'products', { at: T1, id: '' }, signal);
    expect(page.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.calls).toContainEqual(['select', 'id, stock, on_sale_at, updated_at']);
  });

  it('reads the rest of the place’s time after its id, then the later times, never the row at the place again', async () => {
    const { client, requests } = fakeClient({ products: rows });
    const page = await readChangedPage(client, 'products', { at: T1, id: 'a' }, signal);
    expect(page.map((row) => row.id)).toEqual(['b', 'c']);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.calls).toContainEqual(['eq', 'updated_at', T1]);
    expect(requests[1]!.calls).toContainEqual(['gt', 'updated_at', T1]);
  });

  it('answers a full page of the same time without asking for later times', async () => {
    const same = Array.from({ length: PAGE + 5 }, (_, i) => ({ id: `p${String(i).padStart(5, '0')}`, stock: 1, updated_at: T1 }));
    const { client, requests } = fakeClient({ products: [...same, { id: 'z', stock: 1, updated_at: T2 }] });
    const page = await readChangedPage(client, 'products', { at: T1, id: 'p' }, signal);
    expect(page).toHaveLength(PAGE);
    expect(requests).toHaveLength(1);
  });

  it('reads card_offers by their product and fails with the table named when the database refuses', async () => {
    const { client, requests } = fakeClient({ card_offers: [{ id: 'o1', product_id: 's1', updated_at: T1 }] });
    await expect(readChangedPage(client, 'card_offers', { at: T1, id: '' }, signal)).resolves.toEqual([{ id: 'o1', product_id: 's1', updated_at: T1 }]);
    expect(requests[0]!.calls).toContainEqual(['select', 'id, product_id, updated_at']);

    const failing = fakeClient({}, { message: 'boom' }).client;
    await expect(readChangedPage(failing, 'products', { at: T1, id: '' }, signal)).rejects.toThrow('products: boom');
  });
});

describe('readChanges', () => {
  it("gives a sealed product its row's stock and ignores products the catalogue does not list", async () => {
    const byId = new Map([['sealed', product({ id: 'sealed', stock: 5 })]]);
    const { client, requests } = fakeClient({});
    const changed: ChangedRow[] = [
      { id: 'sealed', stock: 0, product_id: '', updated_at: T1 },
      { id: 'unlisted', stock: 9, product_id: '', updated_at: T1 },
    ];
    const changes = await readChanges(client, 'products', changed, byId, signal);
    expect([...changes]).toEqual([['sealed', { stock: 0 }]]);
    // No single among them: no offers are read.
    expect(requests).toHaveLength(0);
  });

  it("gives a single whose offers changed its stock, offer tokens and 'Desde' from every offer in stock", async () => {
    const single = product({ id: 'single', stock: 1, offers: 'old', rarity: 'R' });
    const byId = new Map([['single', single]]);
    const { client } = fakeClient({ card_offers: [offer('o1', 'single', 2, 50), offer('o2', 'single', 3, 80), offer('o3', 'other', 4, 10)] });
    const changes = await readChanges(client, 'card_offers', [{ id: 'o2', product_id: 'single', updated_at: T1 }], byId, signal);
    const fields = changes.get('single')!;
    expect(fields.stock).toBe(5);
    expect(fields.offers).not.toBe('old');
    expect(fields.offers).toBeTruthy();
    expect(fields.from).toBe(true);
    expect(fields).not.toHaveProperty('rarity');
    expect(changes.size).toBe(1);
  });
});

describe('readProducts', () => {
  it('reads the products asked for by id, a hundred per request, with their offers when they are singles', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `p${String(i).padStart(3, '0')}`);
    const byId = new Map(ids.map((id) => [id, product({ id, stock: 1 })]));
    byId.set('single', product({ id: 'single', stock: 1, offers: '', rarity: 'R' }));
    const rows = [
      ...ids.map((id) => ({ id, stock: 3, updated_at: T1 })),
      { id: 'single', stock: 0, updated_at: T1 },
      { id: 'not-asked', stock: 8, updated_at: T1 },
    ];
    const { client, requests } = fakeClient({ products: rows, card_offers: [offer('o1', 'single', 2, 50)] });
    const changes = await readProducts(client, [...ids, 'single'], byId, signal);
    expect(changes.get('p000')).toEqual({ stock: 3 });
    expect(changes.get('p149')).toEqual({ stock: 3 });
    expect(changes.get('single')).toMatchObject({ stock: 2 });
    expect(changes.has('not-asked')).toBe(false);
    const products = requests.filter((request) => request.table === 'products');
    expect(products).toHaveLength(2);
    expect(products[0]!.calls).toContainEqual(['in', 'id', ids.slice(0, 100)]);
    expect(requests.filter((request) => request.table === 'card_offers')).toHaveLength(1);

    const failing = fakeClient({}, { message: 'boom' }).client;
    await expect(readProducts(failing, ['p000'], byId, signal)).rejects.toThrow('products: boom');
  });
});

describe('applyFields', () => {
  it('writes changed values, removes undefined ones and says whether anything changed', () => {
    const target = product({ id: 'x', stock: 2, from: true });
    expect(applyFields(target, { stock: 2 })).toBe(false);
    expect(applyFields(target, { stock: 0, from: undefined })).toBe(true);
    expect(target.stock).toBe(0);
    expect('from' in target).toBe(false);
  });
});

describe('keptProducts', () => {
  const served = [product({ id: 'a' }), product({ id: 'b' }), product({ id: 'c' })];
  const byId = new Map(served.map((item) => [item.id, item]));

  it('finds no fresh product in the served catalogue itself, and keeps it whole', () => {
    const kept = keptProducts(byId, [...served]);
    expect([...kept.fresh.keys()]).toEqual([]);
    expect(kept.whole).toBe(true);
  });

  it('gives an edited product and a new one as fresh, and the catalogue as whole while every served product is in it', () => {
    const edited = { ...served[1]!, name: 'Editado' };
    const added = product({ id: 'd' });
    const kept = keptProducts(byId, [served[0]!, edited, served[2]!, added]);
    expect([...kept.fresh.entries()]).toEqual([
      ['b', edited],
      ['d', added],
    ]);
    expect(kept.whole).toBe(true);
  });

  it('compares only the products an edit replaced when told which they are', () => {
    const edited = { ...served[1]!, name: 'Editado' };
    const products = [served[0]!, edited, served[2]!];
    const told = keptProducts(byId, products, [edited]);
    expect([...told.fresh.entries()]).toEqual([['b', edited]]);
    expect(told.whole).toBe(true);
    expect(told).toEqual(keptProducts(byId, products));
    // Only what it is told: a product it is not told of is taken as the served one.
    expect([...keptProducts(byId, [served[0]!, edited, { ...served[2]! }], [edited]).fresh.keys()]).toEqual(['b']);
  });

  it('says a catalogue that leaves a served product out is not whole, even with as many products', () => {
    const added = product({ id: 'd' });
    const kept = keptProducts(byId, [served[0]!, { ...served[1]! }, added]);
    expect([...kept.fresh.keys()]).toEqual(['b', 'd']);
    expect(kept.whole).toBe(false);
  });
});
