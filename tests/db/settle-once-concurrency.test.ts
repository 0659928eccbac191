/**
 * Money settled once under real concurrency, on a throwaway PostgreSQL server: a shopper releasing
 * the balance applied to an order while the card payment for the rest is confirmed never ends with
 * the order paid for less than its total (twenty requests at once, with and without the payment
 * attempt recorded); twenty refunds of one order at once, half through the provider and half to
 * the balance, refund it once.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, createOrderAs } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`settle-once-concurrency.test.ts: se omite, ${support.reason}`);

const USER = '50000000-0000-4000-a000-000000000001';
const CONNECTIONS = 20;

type Outcome = { ok: true; value: unknown } | { ok: false; detail: string | undefined };

describe.skipIf(!support.ok)('settled once under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  /** Runs statement i on client i as service_role, all begun first and then fired together. */
  async function atOnce(statements: Array<{ sql: string; params: unknown[] }>): Promise<Outcome[]> {
    await Promise.all(statements.map((_, i) => clients[i]!.query('begin; set local role service_role')));
    return Promise.all(
      statements.map(async ({ sql, params }, i): Promise<Outcome> => {
        const client = clients[i]!;
        try {
          const { rows } = await client.query(sql, params);
          await client.query('commit');
          return { ok: true, value: Object.values(rows[0] ?? {})[0] };
        } catch (err) {
          await client.query('rollback');
          return { ok: false, detail: (err as { detail?: string }).detail };
        }
      }),
    );
  }

  async function balance(): Promise<{ balance: number; sum: number }> {
    const { rows } = await admin.query(
      `select coalesce((select balance from public.store_credit_accounts where user_id = $1), 0)::bigint as balance,
              (select coalesce(sum(amount), 0) from public.store_credit_entries where user_id = $1)::bigint as sum`,
      [USER],
    );
    return { balance: Number(rows[0].balance), sum: Number(rows[0].sum) };
  }

  async function orderRow(id: string): Promise<{ status: string; total: number; credit: number; ref: string | null }> {
    const { rows } = await admin.query(
      'select status::text, round(total * 100)::bigint as total, round(credit_applied * 100)::bigint as credit, payment_ref as ref from public.orders where id = $1',
      [id],
    );
    return { status: rows[0].status, total: Number(rows[0].total), credit: Number(rows[0].credit), ref: rows[0].ref };
  }

  /** A pending order of $1,000.00 (one unit) with $400.00 of the shopper's balance applied. */
  async function orderWithCredit(): Promise<{ id: string; rest: number }> {
    const id = await createOrderAs(admin, USER, [{ product_id: 'race-box', quantity: 1 }]);
    const { balance: had } = await balance();
    if (had !== 40000) await admin.query("select public.store_credit_post($1, $2, 'adjustment')", [USER, 40000 - had]);
    await admin.query('select public.apply_store_credit($1, $2)', [id, USER]);
    const row = await orderRow(id);
    expect(row).toMatchObject({ status: 'Pendiente', credit: 40000 });
    return { id, rest: row.total - row.credit };
  }

  /** Half the requests release the balance, half confirm the card charge for the rest (each its own charge). */
  const releaseRacingConfirm = (orderId: string, rest: number, round: number) =>
    atOnce(
      Array.from({ length: CONNECTIONS }, (_, i) =>
        i % 2 === 0
          ? { sql: 'select public.release_store_credit($1, $2)', params: [orderId, USER] }
          : { sql: "select public.mark_order_paid($1, 'stripe', $2, $3, 'mxn')", params: [orderId, `pi_race_${round}_${i}`, rest] },
      ),
    );

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('race-box', 'Caja de prueba', 1000, 1000, 1000, 'pokemon')`,
    );
    await admin.query('insert into auth.users (id, email) values ($1, $2)', [USER, 'carrera@correo.mx']);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('releasing the balance while the payment for the rest is confirmed: never paid for less than the total', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { id, rest } = await orderWithCredit();
      const results = await releaseRacingConfirm(id, rest, round);
      const after = await orderRow(id);
      const released = results.filter((r, i) => i % 2 === 0 && r.ok && Number(r.value) > 0);
      const paid = results.filter((r, i) => i % 2 === 1 && r.ok && r.value === true);
      if (after.status === 'Pagado') {
        // The charge paid exactly what was owed, and the balance stayed on the order.
        expect(paid).toHaveLength(1);
        expect(after.credit + rest).toBe(after.total);
        expect(released).toHaveLength(0);
      } else {
        // The balance came back first: every charge for the old rest is refused (and refunded).
        expect(after).toMatchObject({ status: 'Pendiente', credit: 0, ref: null });
        expect(released).toHaveLength(1);
        expect(paid).toHaveLength(0);
        expect(results.filter((_, i) => i % 2 === 1).map((r) => (r.ok ? 'ok' : r.detail))).toEqual(Array(CONNECTIONS / 2).fill('amount_mismatch'));
      }
      const money = await balance();
      expect(money.balance).toBe(money.sum);
      await admin.query("update public.orders set status = 'Cancelado' where id = $1 and status = 'Pendiente'", [id]);
    }
  });

  it('with the card payment attempt open, every release is refused and the order is paid for its whole total', async () => {
    const { id, rest } = await orderWithCredit();
    await admin.query("insert into public.payment_attempts (order_id, provider, ref) values ($1, 'stripe', 'pi_open_attempt')", [id]);
    const before = await balance();
    const results = await releaseRacingConfirm(id, rest, 99);
    // Refused while the attempt is open, or because the order was paid by then.
    for (const release of results.filter((_, i) => i % 2 === 0)) {
      expect(release.ok ? 'ok' : release.detail).toMatch(/^(payment_in_progress|order_not_payable)$/);
    }
    expect(results.filter((r, i) => i % 2 === 1 && r.ok && r.value === true)).toHaveLength(1);
    const after = await orderRow(id);
    expect(after).toMatchObject({ status: 'Pagado', credit: 40000 });
    expect(after.credit + rest).toBe(after.total);
    expect(await balance()).toEqual(before);
  });

  it('twenty refunds of one paid order at once, through the provider and to the balance: exactly one', async () => {
    for (let round = 0; round < 3; round += 1) {
      const id = await createOrderAs(admin, USER, [{ product_id: 'race-box', quantity: 1 }]);
      const ref = `pi_refund_${round}`;
      await admin.query(`select public.mark_order_paid($1, 'stripe', $2, (select round(total * 100)::bigint from public.orders where id = $1), 'mxn')`, [
        id,
        ref,
      ]);
      const before = await balance();
      const results = await atOnce(
        Array.from({ length: CONNECTIONS }, (_, i) =>
          i % 2 === 0
            ? { sql: "select public.claim_refund($1, 'stripe', $2, 1000, 'shop')", params: [id, ref] }
            : { sql: "select public.refund_order_without_provider($1, 'store_credit', false, null)", params: [id] },
        ),
      );
      const won = results.filter((r) => r.ok && (typeof r.value !== 'object' || (r.value as { claimed?: boolean }).claimed !== false));
      expect(won).toHaveLength(1);
      const refusals = results.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.detail));
      expect(refusals).toHaveLength(CONNECTIONS - 1);
      for (const detail of refusals) expect(['refund_in_progress', 'order_refunded']).toContain(detail);
      const credited = (await balance()).balance - before.balance;
      const claimWon = results.findIndex((r) => r === won[0]) % 2 === 0;
      if (claimWon) {
        // The provider refund is claimed (the server now asks the provider): nothing went to the balance.
        expect(credited).toBe(0);
        expect((await orderRow(id)).status).toBe('Pagado');
      } else {
        const row = await orderRow(id);
        expect(credited).toBe(row.total);
        expect((await orderRow(id)).status).toBe('Reembolsado');
        // The charge is recorded as refunded: a later claim through the provider is refused.
        const { rows } = await admin.query("select status from public.payment_refunds where provider = 'stripe' and payment_ref = $1", [ref]);
        expect(rows).toEqual([{ status: 'succeeded' }]);
      }
    }
  });
});
