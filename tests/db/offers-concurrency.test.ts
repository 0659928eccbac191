/**
 * Card offers under real concurrency, on a throwaway PostgreSQL server (as concurrency.test.ts):
 * 20 shoppers ordering the last units of one offer at once never oversell it, and carts mixing
 * offers and products in opposite orders, while expired reservations of offers are released,
 * never deadlock.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, orderAtOnce } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`offers-concurrency.test.ts: se omite, ${support.reason}`);

const SHOPPERS = 20;
const userId = (i: number) => `30000000-0000-4000-a000-${String(i).padStart(12, '0')}`;
const LAST_FIVE = '30000000-0000-4000-d000-000000000001';
const OFFER_A = '30000000-0000-4000-d000-000000000002';
const OFFER_B = '30000000-0000-4000-d000-000000000003';

describe.skipIf(!support.ok)('create_order sells card offers under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  async function offerStock(id: string): Promise<number> {
    const { rows } = await admin.query<{ stock: number }>('select stock from public.card_offers where id = $1', [id]);
    return rows[0]!.stock;
  }

  async function productStock(id: string): Promise<number> {
    const { rows } = await admin.query<{ stock: number }>('select stock from public.products where id = $1', [id]);
    return rows[0]!.stock;
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
         ('conc-card', 'Charizard ex', 5000, 40, 100, 'pokemon'),
         ('conc-mix', 'Caja Mixta', 300, 10, 100, 'pokemon')`,
    );
    await admin.query(
      `insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
         ('${LAST_FIVE}', 'conc-card', 'NM', 'es', 'holo', 5200, 5),
         ('${OFFER_A}', 'conc-card', 'LP', 'en', 'holo', 4100, 14),
         ('${OFFER_B}', 'conc-card', 'MP', 'ja', 'normal', 3000, 14)`,
    );
    for (let i = 0; i < SHOPPERS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId(i), `cartas${i}@correo.mx`]);
    }
    for (let i = 0; i < SHOPPERS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('sells exactly the 5 copies of an offer to 20 simultaneous shoppers', async () => {
    const results = await orderAtOnce(
      clients.map((client, i) => ({ client, user: userId(i), items: [{ product_id: 'conc-card', offer_id: LAST_FIVE, quantity: 1 }] })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const failures = results.filter((r) => !r.ok);
    expect(failures).toHaveLength(15);
    for (const failure of failures) expect(failure).toEqual({ ok: false, code: 'P0001', detail: 'out_of_stock:conc-card' });

    expect(await offerStock(LAST_FIVE)).toBe(0);
    expect(await productStock('conc-card')).toBe(40);
    const { rows } = await admin.query<{ orders: number; units: number }>(
      `select count(distinct i.order_id)::int as orders, coalesce(sum(i.quantity), 0)::int as units
         from public.order_items i where i.offer_id = $1`,
      [LAST_FIVE],
    );
    expect(rows[0]).toEqual({ orders: 5, units: 5 });
  });

  it('never deadlocks on carts mixing offers and products in opposite orders while expired offers are released', async () => {
    // Four shoppers hold 1 A + 1 B each in orders that then expire: 10 of each left.
    const holds = await orderAtOnce(
      clients.slice(0, 4).map((client, i) => ({
        client,
        user: userId(i),
        items: [
          { product_id: 'conc-card', offer_id: OFFER_A, quantity: 1 },
          { product_id: 'conc-card', offer_id: OFFER_B, quantity: 1 },
        ],
      })),
    );
    expect(holds.every((r) => r.ok)).toBe(true);
    expect(await offerStock(OFFER_A)).toBe(10);
    await admin.query(
      `update public.orders set expires_at = now() - interval '1 minute'
        where id in (select order_id from public.order_items where offer_id = $1)`,
      [OFFER_A],
    );

    const a = { product_id: 'conc-card', offer_id: OFFER_A, quantity: 1 };
    const b = { product_id: 'conc-card', offer_id: OFFER_B, quantity: 1 };
    const mix = { product_id: 'conc-mix', quantity: 1 };
    const results = await orderAtOnce(clients.map((client, i) => ({ client, user: userId(i), items: i % 2 === 0 ? [a, b, mix] : [mix, b, a] })));
    // No deadlock (40P01) or serialization failure (40001) reaches the caller.
    expect(results.filter((r) => !r.ok && r.code !== 'P0001')).toEqual([]);
    // 14 of each offer once the expired orders are released, but only 10 boxes.
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    for (const failure of results.filter((r) => !r.ok)) expect(failure.detail).toBe('out_of_stock:conc-mix');
    expect(await offerStock(OFFER_A)).toBe(4);
    expect(await offerStock(OFFER_B)).toBe(4);
    expect(await productStock('conc-mix')).toBe(0);
    expect(await productStock('conc-card')).toBe(40);
  });
});
