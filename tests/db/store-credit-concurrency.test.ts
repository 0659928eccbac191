/**
 * The balance ('saldo a favor') under real concurrency, on a throwaway PostgreSQL server: twenty
 * spends of one balance at once never take it below zero; twenty checkouts paying different
 * orders with a balance that covers one spend it once (one wins, the others find it used); twenty credits
 * of one OXXO charge credit it once. After each, the balance is the sum of the ledger.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, createOrderAs } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`store-credit-concurrency.test.ts: se omite, ${support.reason}`);

const USER = '40000000-0000-4000-a000-000000000001';
const CONNECTIONS = 20;

describe.skipIf(!support.ok)('saldo a favor under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  async function atOnce(sql: string, paramsOf: (i: number) => unknown[]) {
    await Promise.all(clients.map((client) => client.query('begin; set local role service_role')));
    return Promise.all(
      clients.map(async (client, i) => {
        try {
          const { rows } = await client.query(sql, paramsOf(i));
          await client.query('commit');
          return { ok: true as const, value: Object.values(rows[0] ?? {})[0] };
        } catch (err) {
          await client.query('rollback');
          return { ok: false as const, detail: (err as { detail?: string }).detail };
        }
      }),
    );
  }

  async function balances(): Promise<{ balance: number; sum: number; negative: number }> {
    const { rows } = await admin.query(
      `select (select balance from public.store_credit_accounts where user_id = $1)::bigint as balance,
              (select coalesce(sum(amount), 0) from public.store_credit_entries where user_id = $1)::bigint as sum,
              (select count(*) from public.store_credit_entries where user_id = $1 and balance_after < 0)::bigint as negative`,
      [USER],
    );
    return { balance: Number(rows[0].balance), sum: Number(rows[0].sum), negative: Number(rows[0].negative) };
  }

  const pendingOrder = () => createOrderAs(admin, USER, [{ product_id: 'credit-box', quantity: 1 }]);

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('credit-box', 'Caja de prueba', 100, 1000, 1000, 'pokemon')`,
    );
    await admin.query('insert into auth.users (id, email) values ($1, $2)', [USER, 'saldo@correo.mx']);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('twenty spends of $100.00 from a $500.00 balance at once: exactly five go through, never below zero', async () => {
    await admin.query("select public.store_credit_post($1, 50000, 'adjustment')", [USER]);
    const results = await atOnce("select public.store_credit_post($1, -10000, 'adjustment')", () => [USER]);
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.filter((r) => !r.ok).every((r) => r.detail === 'insufficient_credit')).toBe(true);
    expect(await balances()).toEqual({ balance: 0, sum: 0, negative: 0 });
  });

  it('twenty checkouts paying twenty orders with a balance that covers one: one wins, the others find no balance', async () => {
    const orders: string[] = [];
    for (let i = 0; i < CONNECTIONS; i += 1) orders.push(await pendingOrder());
    const { rows: totals } = await admin.query('select round(total * 100)::int as cents from public.orders where id = $1', [orders[0]]);
    const cents = Number(totals[0].cents);
    await admin.query("select public.store_credit_post($1, $2, 'adjustment')", [USER, cents]);
    const results = await atOnce('select public.apply_store_credit($1, $2)', (i) => [orders[i], USER]);
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(won[0]!.value).toMatchObject({ applied: cents, due: 0, status: 'Pagado' });
    expect(results.filter((r) => !r.ok).every((r) => r.detail === 'no_credit')).toBe(true);
    const { rows } = await admin.query("select count(*)::int as paid from public.orders where id = any($1) and status = 'Pagado'", [orders]);
    expect(rows[0].paid).toBe(1);
    // The losers' orders stay pending with nothing applied.
    const { rows: untouched } = await admin.query(
      "select count(*)::int as n from public.orders where id = any($1) and status = 'Pendiente' and credit_applied = 0",
      [orders],
    );
    expect(untouched[0].n).toBe(CONNECTIONS - 1);
    expect(await balances()).toEqual({ balance: 0, sum: 0, negative: 0 });
  });

  it('twenty reports of one OXXO charge credit it once', async () => {
    const order = await pendingOrder();
    const results = await atOnce("select public.store_credit_post($1, 10000, 'oxxo_payment', $2, 'stripe', 'pi_oxxo_tarde')", () => [USER, order]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && (r.value as { created: boolean }).created)).toHaveLength(1);
    const { rows } = await admin.query("select count(*)::int as n from public.store_credit_entries where payment_ref = 'pi_oxxo_tarde'");
    expect(rows[0].n).toBe(1);
    expect(await balances()).toEqual({ balance: 10000, sum: 10000, negative: 0 });
  });

  it('a shopper cannot call the functions that move the balance', async () => {
    await admin.query('begin');
    await admin.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
      JSON.stringify({ sub: USER, role: 'authenticated', aud: 'authenticated' }),
    ]);
    await expect(admin.query("select public.store_credit_post($1, 100000, 'adjustment')", [USER])).rejects.toThrow(/permission denied/);
    await admin.query('rollback');
  });
});
