/**
 * A promotion's uses under real concurrency, on a throwaway PostgreSQL server: fifty shoppers
 * ordering at once with a code of ten uses get exactly ten discounted orders (the rest refused as
 * used up, no order left behind); a use given back by a cancelled order goes to exactly one of the
 * shoppers racing for it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { beginAsUser, closeAll } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`promotions-concurrency.test.ts: se omite, ${support.reason}`);

const SHOPPERS = 50;
const shopper = (i: number) => `60000000-0000-4000-a000-${String(i).padStart(12, '0')}`;

type Attempt = { ok: true; orderId: string } | { ok: false; detail: string | undefined };

describe.skipIf(!support.ok)('promotion uses under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  /** Every shopper's create_order with `code`, all begun first and then fired together. */
  async function raceFor(code: string, who: number[]): Promise<Attempt[]> {
    await Promise.all(who.map((i) => beginAsUser(clients[i]!, shopper(i))));
    return Promise.all(
      who.map(async (i): Promise<Attempt> => {
        const client = clients[i]!;
        try {
          const { rows } = await client.query<{ id: string }>('select public.create_order($1::jsonb, $2) as id', [
            JSON.stringify([{ product_id: 'race-sobre', quantity: 1 }]),
            code,
          ]);
          await client.query('commit');
          return { ok: true, orderId: rows[0]!.id };
        } catch (err) {
          await client.query('rollback');
          return { ok: false, detail: (err as { detail?: string }).detail };
        }
      }),
    );
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('race-sobre', 'Sobre de prueba', 200, 10000, 100, 'pokemon')`,
    );
    for (let i = 0; i < SHOPPERS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [shopper(i), `carrera${i}@correo.mx`]);
      clients.push(await connectTo(server));
    }
  });

  afterAll(() => closeAll(server, admin, clients));

  it('fifty shoppers racing for a code with ten uses: exactly ten discounted orders', async () => {
    await admin.query("insert into public.promotions (code, type, value, max_uses) values ('CARRERA10', 'percent', 10, 10)");
    const results = await raceFor(
      'CARRERA10',
      Array.from({ length: SHOPPERS }, (_, i) => i),
    );
    const won = results.filter((r): r is Extract<Attempt, { ok: true }> => r.ok);
    expect(won).toHaveLength(10);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail))).toEqual(Array(SHOPPERS - 10).fill('coupon_used_up'));

    const { rows: orders } = await admin.query<{ n: string; discounted: string }>(
      `select count(*) as n, count(*) filter (where discount = 20.00 and coupon_code = 'CARRERA10') as discounted from public.orders`,
    );
    expect(orders[0]).toEqual({ n: '10', discounted: '10' });
    const { rows: uses } = await admin.query<{ n: string; orders: string[] }>(
      `select count(*) as n, array_agg(order_id::text order by order_id) as orders from public.promotion_redemptions r
         join public.promotions p on p.id = r.promotion_id where p.code = 'CARRERA10' and r.returned_at is null`,
    );
    expect(Number(uses[0]!.n)).toBe(10);
    expect(uses[0]!.orders).toEqual(won.map((r) => r.orderId).sort());
    const { rows: stock } = await admin.query<{ stock: number }>("select stock from public.products where id = 'race-sobre'");
    expect(stock[0]!.stock).toBe(10000 - 10);
  });

  it('a use given back by a cancelled order goes to exactly one of the shoppers racing for it', async () => {
    await admin.query("insert into public.promotions (code, type, value, max_uses) values ('ULTIMA', 'fixed', 50, 1)");
    const [first] = await raceFor('ULTIMA', [0]);
    expect(first!.ok).toBe(true);
    await beginAsUser(clients[0]!, shopper(0));
    await clients[0]!.query('select public.cancel_order($1)', [(first as { orderId: string }).orderId]);
    await clients[0]!.query('commit');

    const results = await raceFor(
      'ULTIMA',
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail))).toEqual(Array(19).fill('coupon_used_up'));
    const { rows } = await admin.query<{ live: string; returned: string }>(
      `select count(*) filter (where returned_at is null) as live, count(*) filter (where returned_at is not null) as returned
         from public.promotion_redemptions r join public.promotions p on p.id = r.promotion_id where p.code = 'ULTIMA'`,
    );
    expect(rows[0]).toEqual({ live: '1', returned: '1' });
  });
});
