/**
 * Orders the system changes, and one open OXXO voucher per shopper, on a throwaway PostgreSQL
 * server (real concurrent connections):
 * - a reservation that expired is cancelled by whichever request finds it first (here another
 *   shopper's create_order): its order event and the balance it gives back record no actor, while
 *   that shopper's own new order is still recorded as theirs;
 * - ten requests at once giving ten of one shopper's pending orders an OXXO voucher leave exactly
 *   one with a voucher (the others are refused by the database), as the server writes it.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, createOrderAs } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`system-changes-concurrency.test.ts: se omite, ${support.reason}`);

const SHOPPER_A = '50000000-0000-4000-a000-00000000000a';
const SHOPPER_B = '50000000-0000-4000-a000-00000000000b';
const SHOPPER_C = '50000000-0000-4000-a000-00000000000c';
const CONNECTIONS = 10;
const PRODUCT = 'system-box';

describe.skipIf(!support.ok)('orders changed by the system (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ($1, 'Caja de prueba', 100, 1000, 1000, 'pokemon')`,
      [PRODUCT],
    );
    for (const [id, email] of [
      [SHOPPER_A, 'a@correo.mx'],
      [SHOPPER_B, 'b@correo.mx'],
      [SHOPPER_C, 'c@correo.mx'],
    ]) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, email]);
    }
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it("an expiry triggered by shopper A records no actor on shopper B's order event nor on the balance B gets back", async () => {
    const orderB = await createOrderAs(admin, SHOPPER_B, [{ product_id: PRODUCT, quantity: 1 }]);
    // B paid $40.00 of it with the balance; then the reservation ran out.
    await admin.query("select public.store_credit_post($1, 4000, 'adjustment')", [SHOPPER_B]);
    await admin.query('select public.apply_store_credit($1, $2)', [orderB, SHOPPER_B]);
    await admin.query("update public.orders set expires_at = now() - interval '1 minute' where id = $1", [orderB]);

    // Shopper A's checkout is the request that finds it.
    const orderA = await createOrderAs(clients[0]!, SHOPPER_A, [{ product_id: PRODUCT, quantity: 1 }]);

    const { rows: events } = await admin.query<{ order_id: string; to_status: string; actor: string | null; note: string | null }>(
      'select order_id, to_status::text, actor, note from public.order_events where order_id = any($1) order by id',
      [[orderA, orderB]],
    );
    expect(events.filter((e) => e.order_id === orderB)).toEqual([
      { order_id: orderB, to_status: 'Pendiente', actor: SHOPPER_B, note: null },
      { order_id: orderB, to_status: 'Cancelado', actor: null, note: 'La reserva expiró' },
    ]);
    // A's own order is still A's.
    expect(events.filter((e) => e.order_id === orderA)).toEqual([{ order_id: orderA, to_status: 'Pendiente', actor: SHOPPER_A, note: null }]);

    const { rows: returned } = await admin.query<{ amount: string; actor: string | null }>(
      "select amount, actor from public.store_credit_entries where user_id = $1 and order_id = $2 and reason = 'order_returned'",
      [SHOPPER_B, orderB],
    );
    expect(returned).toEqual([{ amount: '4000', actor: null }]);
  });

  it("ten requests at once giving ten of one shopper's pending orders an OXXO voucher: exactly one gets it", async () => {
    const orders: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) orders.push(await createOrderAs(admin, SHOPPER_C, [{ product_id: PRODUCT, quantity: 1 }]));
    // As the server writes a voucher on an order (src/server/payments/oxxo.ts), each request its own transaction.
    await Promise.all(clients.map((client) => client.query('begin; set local role service_role')));
    const results = await Promise.all(
      clients.map(async (client, i) => {
        try {
          const voucher = {
            reference: `9300000000000000${String(i).padStart(2, '0')}`,
            expiresAt: new Date().toISOString(),
            amount: 10000,
            paymentIntentId: `pi_${i}`,
          };
          const { rowCount } = await client.query(
            "update public.orders set payment_method = 'oxxo', oxxo_voucher = $2::jsonb where id = $1 and status = 'Pendiente'",
            [orders[i], JSON.stringify(voucher)],
          );
          await client.query('commit');
          return { ok: rowCount === 1 };
        } catch (err) {
          await client.query('rollback');
          return { ok: false, code: (err as { code?: string }).code };
        }
      }),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => r.code)).toEqual(Array(CONNECTIONS - 1).fill('23505'));
    const { rows } = await admin.query<{ open: string }>(
      "select count(*) as open from public.orders where user_id = $1 and status = 'Pendiente' and payment_method = 'oxxo' and oxxo_voucher is not null",
      [SHOPPER_C],
    );
    expect(rows[0]!.open).toBe('1');

    // Once that voucher's order is no longer pending, another order may have one.
    await admin.query("update public.orders set status = 'Cancelado' where user_id = $1 and payment_method = 'oxxo' and status = 'Pendiente'", [SHOPPER_C]);
    const next = orders.find((_, i) => !results[i]!.ok)!;
    await admin.query('update public.orders set payment_method = \'oxxo\', oxxo_voucher = \'{"reference": "1"}\'::jsonb where id = $1', [next]);
  });
});
