/**
 * The payment side of checkout under real concurrency, on a throwaway PostgreSQL server: many
 * confirmations of one payment (browser, webhook, retries) arriving at once mark the order paid
 * exactly once, and a payment racing the expiry sweep either wins (paid, stock kept) or loses
 * (cancelled, stock returned, mark_order_paid refuses), never both. The 20-shoppers-for-5-units
 * case of create_order is in concurrency.test.ts.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, createOrderAs } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR, OWED } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`checkout-concurrency.test.ts: se omite, ${support.reason}`);

const USER = '30000000-0000-4000-a000-000000000001';
const CONNECTIONS = 10;

describe.skipIf(!support.ok)('payments under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  const connect = () => connectTo(server);

  /** A pending order of USER for `quantity` units of the test product, made through create_order. */
  const pendingOrder = (quantity: number) => createOrderAs(admin, USER, [{ product_id: 'pay-box', quantity }]);

  /** Runs one statement per client as service_role, all started together. */
  async function atOnce(sqls: Array<{ client: pg.Client; sql: string; params: unknown[] }>) {
    await Promise.all(sqls.map(({ client }) => client.query('begin; set local role service_role')));
    return Promise.all(
      sqls.map(async ({ client, sql, params }) => {
        try {
          const { rows } = await client.query(sql, params);
          await client.query('commit');
          return { ok: true as const, value: Object.values(rows[0] ?? {})[0] };
        } catch (err) {
          await client.query('rollback');
          return { ok: false as const, detail: (err as { detail?: string }).detail };
        }
      }),
    );
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connect();
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('pay-box', 'Caja de prueba', 500, 100, 100, 'pokemon')`,
    );
    await admin.query('insert into auth.users (id, email) values ($1, $2)', [USER, 'pagos@correo.mx']);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connect());
  });

  afterAll(() => closeAll(server, admin, clients));

  it('marks an order paid exactly once when ten confirmations arrive together', async () => {
    const order = await pendingOrder(2);
    const results = await atOnce(
      clients.map((client, i) => ({ client, sql: `select public.mark_order_paid($1, $2, $3, ${OWED})`, params: [order, 'simulated', `pi_sim_${i}`] })),
    );
    expect(results.filter((r) => r.ok && r.value === true)).toHaveLength(1);
    // Every other charge is refused as a second payment of a paid order (settlement refunds it).
    expect(results.filter((r) => !r.ok).map((r) => r.detail)).toEqual(Array(CONNECTIONS - 1).fill('order_paid_other'));
    const { rows } = await admin.query('select status, paid_at is not null as paid, payment_ref from public.orders where id = $1', [order]);
    expect(rows[0]).toMatchObject({ status: 'Pagado', paid: true });
    const winner = results.findIndex((r) => r.ok && r.value === true);
    expect(rows[0].payment_ref).toBe(`pi_sim_${winner}`);
  });

  it('a payment racing the expiry sweep ends either paid with the stock kept or cancelled with the stock back', async () => {
    for (let round = 0; round < 5; round += 1) {
      const before = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
      const order = await pendingOrder(3);
      await admin.query("update public.orders set expires_at = now() - interval '1 second' where id = $1", [order]);
      const [pay, sweep] = await atOnce([
        { client: clients[0]!, sql: `select public.mark_order_paid($1, $2, $3, ${OWED})`, params: [order, 'simulated', `pi_race_${round}`] },
        { client: clients[1]!, sql: 'select public.release_expired_orders()', params: [] },
      ]);
      const { rows } = await admin.query<{ status: string }>('select status from public.orders where id = $1', [order]);
      const stock = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
      if (rows[0]!.status === 'Pagado') {
        expect(pay).toEqual({ ok: true, value: true });
        expect(stock).toBe(before - 3);
      } else {
        expect(rows[0]!.status).toBe('Cancelado');
        expect(sweep!.ok).toBe(true);
        expect(pay).toEqual({ ok: false, detail: 'order_cancelled' });
        expect(stock).toBe(before);
      }
    }
  });

  it('two sweepers at once: one holds the lease and releases an expired reservation once', async () => {
    for (let round = 0; round < 5; round += 1) {
      const before = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
      const order = await pendingOrder(4);
      await admin.query("update public.orders set expires_at = now() - interval '1 second' where id = $1", [order]);
      const results = await atOnce([
        { client: clients[2]!, sql: 'select public.sweep_expired_orders($1, 50)', params: [`server-a-${round}`] },
        { client: clients[3]!, sql: 'select public.sweep_expired_orders($1, 50)', params: [`server-b-${round}`] },
      ]);
      expect(results.every((r) => r.ok)).toBe(true);
      const leases = results.map((r) => (r.ok ? (r.value as { leader: boolean; released: number }) : null));
      expect(leases.filter((l) => l?.leader)).toHaveLength(1);
      expect(leases.reduce((sum, l) => sum + (l?.released ?? 0), 0)).toBe(1);
      const stock = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
      expect(stock).toBe(before);
      const { rows: events } = await admin.query<{ to_status: string; note: string | null }>(
        'select to_status, note from public.order_events where order_id = $1 order by id',
        [order],
      );
      expect(events.map((e) => e.to_status)).toEqual(['Pendiente', 'Cancelado']);
      expect(events[1]!.note).toBe('La reserva expiró');
      // The leader gives the lease back; the next sweep may be anyone's.
      const leader = results.findIndex((r) => r.ok && (r.value as { leader: boolean }).leader);
      await admin.query('select public.end_sweep($1)', [leader === 0 ? `server-a-${round}` : `server-b-${round}`]);
    }
  });

  it('grants the reward points once when ten confirmations race, and takes them back on a refund', async () => {
    const points = async () => Number((await admin.query('select coalesce((select points from public.rewards where user_id = $1), 0) as p', [USER])).rows[0].p);
    const before = await points();
    const order = await pendingOrder(3); // 3 × $500.00, no coupon: 1,500 points
    const results = await atOnce(
      clients.map((client, i) => ({ client, sql: `select public.mark_order_paid($1, $2, $3, ${OWED})`, params: [order, 'stripe', `pi_points_${i}`] })),
    );
    expect(results.filter((r) => r.ok && r.value === true)).toHaveLength(1);
    expect(await points()).toBe(before + 1500);
    const { rows } = await admin.query('select points_awarded from public.orders where id = $1', [order]);
    expect(rows[0].points_awarded).toBe(1500);
    const stockBefore = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
    const claim = await admin.query("select public.claim_refund($1, 'stripe', 'pi_points_refund', 1500.00, 'shop') as c", [order]);
    await admin.query("select public.complete_refund($1, 're_points')", [claim.rows[0].c.id]);
    expect(await points()).toBe(before);
    const after = await admin.query('select status, points_awarded, refund_ref from public.orders where id = $1', [order]);
    expect(after.rows[0]).toMatchObject({ status: 'Reembolsado', points_awarded: 0, refund_ref: 're_points' });
    const stock = (await admin.query<{ stock: number }>("select stock from public.products where id = 'pay-box'")).rows[0]!.stock;
    expect(stock).toBe(stockBefore + 3);
  });
});
