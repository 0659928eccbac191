/**
 * Redeeming reward points under real concurrency, on a throwaway PostgreSQL server, each call made
 * the way PostgREST makes it (the shopper's role and claims): twenty tabs redeeming the whole
 * balance at once convert it once (the others: 'No tienes suficientes puntos.'); twenty retries of
 * one request convert once and all answer the same redemption; twenty one-block redemptions of a
 * ten-block balance make exactly ten. The balance of points never goes below zero and the saldo a
 * favor is always the sum of its ledger.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { beginAsUser, closeAll } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`points-concurrency.test.ts: se omite, ${support.reason}`);

const USER = '15100000-0000-4000-a000-000000000001';
const CONNECTIONS = 20;

type Outcome =
  { ok: true; value: { id: number; created: boolean; points: number; credit: number } } | { ok: false; detail: string | undefined; message: string };

describe.skipIf(!support.ok)('points redeemed under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  /** redeem_points(points, request) on every client as the shopper, all begun first and then fired together. */
  async function atOnce(call: (i: number) => [number, string]): Promise<Outcome[]> {
    await Promise.all(clients.map((client) => beginAsUser(client, USER)));
    return Promise.all(
      clients.map(async (client, i): Promise<Outcome> => {
        try {
          const { rows } = await client.query('select public.redeem_points($1, $2) as r', call(i));
          await client.query('commit');
          return { ok: true, value: rows[0].r };
        } catch (err) {
          await client.query('rollback');
          const e = err as { detail?: string; message: string };
          return { ok: false, detail: e.detail, message: e.message };
        }
      }),
    );
  }

  async function state(): Promise<{ points: number; balance: number; sum: number; redemptions: number }> {
    const { rows } = await admin.query(
      `select (select points from public.rewards where user_id = $1) as points,
              coalesce((select balance from public.store_credit_accounts where user_id = $1), 0)::bigint as balance,
              (select coalesce(sum(amount), 0) from public.store_credit_entries where user_id = $1)::bigint as sum,
              (select count(*) from public.points_redemptions where user_id = $1)::bigint as redemptions`,
      [USER],
    );
    return { points: Number(rows[0].points), balance: Number(rows[0].balance), sum: Number(rows[0].sum), redemptions: Number(rows[0].redemptions) };
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query('insert into auth.users (id, email) values ($1, $2)', [USER, 'puntos-carrera@correo.mx']);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('twenty tabs redeeming the whole balance at once: one converts, the others have no points left', async () => {
    await admin.query('update public.rewards set points = 500 where user_id = $1', [USER]);
    const before = await state();
    const results = await atOnce(() => [500, randomUUID()]);
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    expect(won[0]!.value).toMatchObject({ created: true, points: 500, credit: 5000 });
    expect(results.filter((r) => !r.ok).map((r) => (r.ok ? '' : `${r.detail} ${r.message}`))).toEqual(
      Array(CONNECTIONS - 1).fill('insufficient_points No tienes suficientes puntos.'),
    );
    const after = await state();
    expect(after.points).toBe(0);
    expect(after.balance - before.balance).toBe(5000);
    expect(after.sum).toBe(after.balance);
    expect(after.redemptions - before.redemptions).toBe(1);
  });

  it('twenty retries of one request at once: converted once, every answer the same redemption', async () => {
    await admin.query('update public.rewards set points = 300 where user_id = $1', [USER]);
    const before = await state();
    const request = randomUUID();
    const results = await atOnce(() => [200, request]);
    expect(results.every((r) => r.ok)).toBe(true);
    const values = results.map((r) => (r.ok ? r.value : null));
    expect(values.filter((v) => v?.created)).toHaveLength(1);
    expect(new Set(values.map((v) => v?.id)).size).toBe(1);
    expect(values.every((v) => v?.points === 200 && v.credit === 2000)).toBe(true);
    const after = await state();
    expect(after.points).toBe(100);
    expect(after.balance - before.balance).toBe(2000);
    expect(after.sum).toBe(after.balance);
    expect(after.redemptions - before.redemptions).toBe(1);
  });

  it('twenty one-block redemptions of a ten-block balance: exactly ten, down to zero', async () => {
    await admin.query('update public.rewards set points = 1000 where user_id = $1', [USER]);
    const before = await state();
    const results = await atOnce(() => [100, randomUUID()]);
    expect(results.filter((r) => r.ok)).toHaveLength(10);
    expect(results.filter((r) => !r.ok && r.detail === 'insufficient_points')).toHaveLength(10);
    const after = await state();
    expect(after.points).toBe(0);
    expect(after.balance - before.balance).toBe(10 * 1000);
    expect(after.sum).toBe(after.balance);
    expect(after.redemptions - before.redemptions).toBe(10);
  });
});
