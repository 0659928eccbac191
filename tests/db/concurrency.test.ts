/**
 * Stock and limits under real concurrency, on a throwaway PostgreSQL server (PGlite has a single
 * connection, so it cannot show races). Each shopper orders on their own connection, as the
 * `authenticated` role with their own JWT claims, the way PostgREST would.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, orderAtOnce } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`concurrency.test.ts: se omite, ${support.reason}`);

const SHOPPERS = 20;
const userId = (i: number) => `20000000-0000-4000-a000-${String(i).padStart(12, '0')}`;

describe.skipIf(!support.ok)('create_order under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  const connect = () => connectTo(server);

  async function stockOf(id: string): Promise<number> {
    const { rows } = await admin.query<{ stock: number }>('select stock from public.products where id = $1', [id]);
    return rows[0]!.stock;
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connect();
    // The same files as on PGlite, seed included, so PostgreSQL 15 is proven to accept them too.
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: true });
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
         ('conc-box', 'Caja Muy Buscada', 3299, 5, 5, 'pokemon'),
         ('conc-a', 'Producto A', 100, 10, 10, 'pokemon'),
         ('conc-b', 'Producto B', 100, 10, 10, 'pokemon'),
         ('conc-limit', 'Producto Limitado', 50, 100, 3, 'pokemon'),
         ('conc-c', 'Producto C', 100, 10, 10, 'pokemon'),
         ('conc-d', 'Producto D', 100, 10, 10, 'pokemon')`,
    );
    for (let i = 0; i < SHOPPERS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId(i), `comprador${i}@correo.mx`]);
    }
    for (let i = 0; i < SHOPPERS; i += 1) clients.push(await connect());
  });

  afterAll(() => closeAll(server, admin, clients));

  it('runs the migrations and the demo seed on PostgreSQL 15', async () => {
    const { rows } = await admin.query<{ version: string; products: number }>(
      `select current_setting('server_version_num') as version, (select count(*)::int from public.products) as products`,
    );
    expect(Number(rows[0]!.version)).toBeGreaterThanOrEqual(150000);
    expect(rows[0]!.products).toBeGreaterThanOrEqual(120 + 4);
  });

  it('sells exactly the 5 units in stock to 20 simultaneous shoppers', async () => {
    const results = await orderAtOnce(clients.map((client, i) => ({ client, user: userId(i), items: [{ product_id: 'conc-box', quantity: 1 }] })));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const failures = results.filter((r) => !r.ok);
    expect(failures).toHaveLength(15);
    for (const failure of failures) expect(failure).toEqual({ ok: false, code: 'P0001', detail: 'out_of_stock:conc-box' });

    expect(await stockOf('conc-box')).toBe(0);
    const { rows } = await admin.query<{ orders: number; units: number }>(
      `select count(distinct o.id)::int as orders, coalesce(sum(i.quantity), 0)::int as units
         from public.orders o join public.order_items i on i.order_id = o.id where i.product_id = 'conc-box'`,
    );
    expect(rows[0]).toEqual({ orders: 5, units: 5 });
  });

  it('never deadlocks when carts list the same products in opposite orders', async () => {
    const results = await orderAtOnce(
      clients.map((client, i) => ({
        client,
        user: userId(i),
        items:
          i % 2 === 0
            ? [
                { product_id: 'conc-a', quantity: 1 },
                { product_id: 'conc-b', quantity: 1 },
              ]
            : [
                { product_id: 'conc-b', quantity: 1 },
                { product_id: 'conc-a', quantity: 1 },
              ],
      })),
    );
    // No deadlock (40P01) or serialization failure (40001) reaches the caller.
    expect(results.filter((r) => !r.ok && r.code !== 'P0001')).toEqual([]);
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    for (const failure of results.filter((r) => !r.ok)) expect(failure.detail).toMatch(/^out_of_stock:conc-[ab]$/);
    expect(await stockOf('conc-a')).toBe(0);
    expect(await stockOf('conc-b')).toBe(0);
  });

  it('releases expired reservations inside concurrent orders without deadlocks', async () => {
    // Four shoppers hold 1 C + 1 D each in orders that then expire: 6 of each left on the shelf.
    const holds = await orderAtOnce(
      clients.slice(0, 4).map((client, i) => ({
        client,
        user: userId(i),
        items: [
          { product_id: 'conc-c', quantity: 1 },
          { product_id: 'conc-d', quantity: 1 },
        ],
      })),
    );
    expect(holds.every((r) => r.ok)).toBe(true);
    expect(await stockOf('conc-c')).toBe(6);
    await admin.query(
      `update public.orders set expires_at = now() - interval '1 minute'
        where id in (select order_id from public.order_items where product_id = 'conc-c')`,
    );

    // Every call sweeps the expired orders first; each unit comes back exactly once, even when
    // the call that swept it fails and rolls back.
    const results = await orderAtOnce(
      clients.map((client, i) => ({
        client,
        user: userId(i),
        items:
          i % 2 === 0
            ? [
                { product_id: 'conc-c', quantity: 1 },
                { product_id: 'conc-d', quantity: 1 },
              ]
            : [
                { product_id: 'conc-d', quantity: 1 },
                { product_id: 'conc-c', quantity: 1 },
              ],
      })),
    );
    expect(results.filter((r) => !r.ok && r.code !== 'P0001')).toEqual([]);
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(await stockOf('conc-c')).toBe(0);
    expect(await stockOf('conc-d')).toBe(0);
    const { rows } = await admin.query<{ status: string; n: number }>(
      `select o.status, count(distinct o.id)::int as n from public.orders o
         join public.order_items i on i.order_id = o.id where i.product_id = 'conc-c' group by 1 order by 1`,
    );
    // In the order_status enum's order: 'Pendiente' sorts before 'Cancelado'.
    expect(rows).toEqual([
      { status: 'Pendiente', n: 10 },
      { status: 'Cancelado', n: 4 },
    ]);
  });

  it('holds the per-customer limit when one shopper sends many orders at once', async () => {
    const results = await orderAtOnce(clients.slice(0, 10).map((client) => ({ client, user: userId(0), items: [{ product_id: 'conc-limit', quantity: 1 }] })));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    for (const failure of results.filter((r) => !r.ok)) expect(failure.detail).toBe('limit_exceeded:conc-limit');
    expect(await stockOf('conc-limit')).toBe(97);
  });
});
