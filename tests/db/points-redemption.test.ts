/**
 * Reward points the shopper spends: redeem_points converts whole blocks of points into saldo a
 * favor at the shop's rate, at least the minimum and at most the balance, once per request id; the
 * rate is read by everyone, changed by admins only, checked, and every change recorded; a refund
 * that takes back points already redeemed leaves the balance at zero, never below.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, OWED } from './support.ts';

const SHOPPER = '15000000-0000-4000-a000-000000000001';
const OTHER = '15000000-0000-4000-a000-000000000002';
const ADMIN = '15000000-0000-4000-a000-0000000000ad';

let db: PGlite;

async function run(sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, sql, params);
  if (!outcome.ok) throw new Error(`${sql}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function points(user: string): Promise<number> {
  const rows = await run('select points from public.rewards where user_id = $1', [user]);
  return Number(rows[0]?.points ?? 0);
}

async function credit(user: string): Promise<{ balance: number; sum: number; entries: number }> {
  const rows = await run(
    `select coalesce((select balance from public.store_credit_accounts where user_id = $1), 0)::int as balance,
            (select coalesce(sum(amount), 0) from public.store_credit_entries where user_id = $1)::int as sum,
            (select count(*) from public.store_credit_entries where user_id = $1)::int as entries`,
    [user],
  );
  return { balance: Number(rows[0]!.balance), sum: Number(rows[0]!.sum), entries: Number(rows[0]!.entries) };
}

/** redeem_points as the signed-in `user`, committed. */
async function redeem(user: string, amount: number, request = randomUUID()) {
  const outcome = await commit<{ r: Record<string, unknown> }>(db, 'authenticated', user, 'select public.redeem_points($1, $2) as r', [amount, request]);
  return { ok: outcome.ok, result: outcome.rows[0]?.r, detail: outcome.error?.detail, message: outcome.error?.message, code: outcome.error?.code };
}

async function setRate(pointsPerBlock: number, pesosPerBlock: number, minPoints: number) {
  return commit(db, 'authenticated', ADMIN, 'update public.points_rate set points_per_block = $1, pesos_per_block = $2, min_points = $3 returning id', [
    pointsPerBlock,
    pesosPerBlock,
    minPoints,
  ]);
}

beforeAll(async () => {
  db = await migratedPglite();
  for (const [id, email, username] of [
    [SHOPPER, 'puntos@correo.mx', 'puntos'],
    [OTHER, 'otra@correo.mx', 'otra'],
    [ADMIN, 'jefa@correo.mx', 'jefa'],
  ]) {
    await run(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, jsonb_build_object('username', $3::text))`, [id, email, username]);
  }
  await run('update public.profiles set is_admin = true where id = $1', [ADMIN]);
  await run("insert into public.franchises (id, name) values ('pokemon', 'Pokémon')");
  await run("insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('pts-box', 'Caja', 450, 10, 10, 'pokemon')");
});

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await run('update public.points_rate set points_per_block = 100, pesos_per_block = 10, min_points = 100');
  await run('update public.rewards set points = 0');
});

describe('the rate', () => {
  it('starts at 100 points = $10.00 with a minimum of one block, and anyone reads it', async () => {
    for (const [role, sub] of [
      ['anon', undefined],
      ['authenticated', SHOPPER],
    ] as const) {
      const outcome = await attempt(db, role, sub, 'select points_per_block, pesos_per_block::text as pesos, min_points from public.points_rate');
      expect(outcome.rows).toEqual([{ points_per_block: 100, pesos: '10.00', min_points: 100 }]);
    }
  });

  it('is changed by an admin only, and each change is recorded with who and when', async () => {
    const before = Number((await run('select count(*)::int as n from public.points_rate_changes'))[0]!.n);
    const shopper = await commit(db, 'authenticated', SHOPPER, 'update public.points_rate set pesos_per_block = 1000 returning id');
    expect(shopper).toMatchObject({ ok: true, affected: 0 });
    const anon = await commit(db, 'anon', undefined, 'update public.points_rate set pesos_per_block = 1000 returning id');
    expect(anon.error?.code).toBe('42501');
    expect(await setRate(50, 7.5, 150)).toMatchObject({ ok: true, affected: 1 });
    const rows = await run(
      `select old_points_per_block, old_pesos_per_block::text as old_pesos, old_min_points, points_per_block, pesos_per_block::text as pesos,
              min_points, changed_by, changed_at > now() - interval '1 minute' as recent
         from public.points_rate_changes order by id desc limit 1`,
    );
    expect(rows[0]).toEqual({
      old_points_per_block: 100,
      old_pesos: '10.00',
      old_min_points: 100,
      points_per_block: 50,
      pesos: '7.50',
      min_points: 150,
      changed_by: ADMIN,
      recent: true,
    });
    expect(Number((await run('select count(*)::int as n from public.points_rate_changes'))[0]!.n)).toBe(before + 1);
    expect((await run('select updated_by from public.points_rate'))[0]!.updated_by).toBe(ADMIN);
    // Only admins read the history.
    expect((await attempt(db, 'authenticated', SHOPPER, 'select id from public.points_rate_changes')).affected).toBe(0);
    expect((await attempt(db, 'authenticated', ADMIN, 'select id from public.points_rate_changes')).affected).toBeGreaterThan(0);
  });

  it('refuses a rate that makes no sense, in Spanish', async () => {
    expect((await setRate(0, 10, 100)).error).toMatchObject({ code: 'P0001', detail: 'invalid_points_per_block' });
    expect((await setRate(100, 0, 100)).error).toMatchObject({ code: 'P0001', detail: 'invalid_pesos_per_block' });
    expect((await setRate(100, 10, 50)).error).toMatchObject({ code: 'P0001', detail: 'invalid_min_points' });
    const odd = await setRate(100, 10, 150);
    expect(odd.error).toMatchObject({ code: 'P0001', detail: 'invalid_min_points' });
    expect(odd.error?.message).toMatch(/bloques completos/);
  });
});

describe('redeem_points', () => {
  it('converts whole blocks into saldo a favor through the ledger, in one step', async () => {
    await run('update public.rewards set points = 350 where user_id = $1', [SHOPPER]);
    const had = await credit(SHOPPER);
    const request = randomUUID();
    const answer = await redeem(SHOPPER, 300, request);
    expect(answer.ok).toBe(true);
    expect(answer.result).toMatchObject({ created: true, points: 300, credit: 3000, points_balance: 50, credit_balance: had.balance + 3000 });
    expect(await points(SHOPPER)).toBe(50);
    const after = await credit(SHOPPER);
    expect(after.balance).toBe(had.balance + 3000);
    expect(after.sum).toBe(after.balance);
    const entry = await run(
      `select e.amount::int as amount, e.reason, e.actor, r.points, r.points_after, r.credit::int as credit
         from public.points_redemptions r join public.store_credit_entries e on e.id = r.store_credit_entry_id
        where r.user_id = $1 and r.request_id = $2`,
      [SHOPPER, request],
    );
    expect(entry).toEqual([{ amount: 3000, reason: 'points', actor: SHOPPER, points: 300, points_after: 50, credit: 3000 }]);
  });

  it("adds the ledger's reason 'points' and keeps every earlier reason", async () => {
    const [check] = await run(
      `select pg_get_constraintdef(c.oid) as def from pg_constraint c
        where c.conrelid = 'public.store_credit_entries'::regclass and c.conname = 'store_credit_entries_reason_check'`,
    );
    for (const reason of ['points', 'oxxo_payment', 'refund', 'order_payment', 'order_returned', 'adjustment']) {
      expect(String(check!.def)).toContain(`'${reason}'`);
    }
  });

  it('uses the rate of the moment: 50 points = $7.50', async () => {
    expect((await setRate(50, 7.5, 50)).ok).toBe(true);
    await run('update public.rewards set points = 120 where user_id = $1', [SHOPPER]);
    const answer = await redeem(SHOPPER, 100);
    expect(answer.result).toMatchObject({ points: 100, credit: 1500, points_balance: 20 });
  });

  it('refuses a non-multiple, below the minimum and above the balance, converting nothing', async () => {
    await run('update public.rewards set points = 450 where user_id = $1', [SHOPPER]);
    const had = await credit(SHOPPER);
    const redemptions = async () => (await run('select count(*)::int as n from public.points_redemptions where user_id = $1', [SHOPPER]))[0]!.n;
    const made = await redemptions();
    expect(await redeem(SHOPPER, 150)).toMatchObject({ ok: false, code: 'P0001', detail: 'not_whole_blocks', message: 'Canjea tus puntos en bloques de 100.' });
    expect(await redeem(SHOPPER, 0)).toMatchObject({ ok: false, detail: 'not_whole_blocks' });
    expect(await redeem(SHOPPER, -100)).toMatchObject({ ok: false, detail: 'not_whole_blocks' });
    expect(await redeem(SHOPPER, 500)).toMatchObject({ ok: false, detail: 'insufficient_points', message: 'No tienes suficientes puntos.' });
    expect((await setRate(100, 10, 300)).ok).toBe(true);
    expect(await redeem(SHOPPER, 200)).toMatchObject({ ok: false, detail: 'below_minimum', message: 'El mínimo para canjear es de 300 puntos.' });
    expect(await points(SHOPPER)).toBe(450);
    expect(await credit(SHOPPER)).toEqual(had);
    expect(await redemptions()).toBe(made);
  });

  it('converts once per request id: a retry answers the same redemption', async () => {
    await run('update public.rewards set points = 500 where user_id = $1', [SHOPPER]);
    const had = await credit(SHOPPER);
    const request = randomUUID();
    const first = await redeem(SHOPPER, 200, request);
    const again = await redeem(SHOPPER, 200, request);
    expect(first.result).toMatchObject({ created: true, points: 200, credit: 2000, points_balance: 300 });
    expect(again.result).toMatchObject({ created: false, id: (first.result as { id: number }).id, points: 200, credit: 2000, points_balance: 300 });
    expect(await points(SHOPPER)).toBe(300);
    const after = await credit(SHOPPER);
    expect(after.balance - had.balance).toBe(2000);
    expect(after.entries - had.entries).toBe(1);
    // Another shopper's request with the same id is their own.
    await run('update public.rewards set points = 100 where user_id = $1', [OTHER]);
    expect((await redeem(OTHER, 100, request)).result).toMatchObject({ created: true, points_balance: 0 });
  });

  it('never lets the balance of points go below zero', async () => {
    await run('update public.rewards set points = 100 where user_id = $1', [SHOPPER]);
    expect((await redeem(SHOPPER, 100)).ok).toBe(true);
    expect(await redeem(SHOPPER, 100)).toMatchObject({ ok: false, detail: 'insufficient_points' });
    expect(await points(SHOPPER)).toBe(0);
    const direct = await commit(db, 'postgres', undefined, 'update public.rewards set points = points - 1 where user_id = $1', [SHOPPER]);
    expect(direct.error?.code).toBe('23514');
  });

  it('a refund taking back points already redeemed stops at zero; the saldo a favor stays', async () => {
    const order = (
      await commit<{ id: string }>(db, 'authenticated', SHOPPER, `select public.create_order('[{"product_id":"pts-box","quantity":1}]'::jsonb) as id`)
    ).rows[0]!.id;
    await run(`select public.mark_order_paid($1, 'stripe', 'pi_pts', ${OWED})`, [order]);
    const awarded = await points(SHOPPER);
    expect(awarded).toBe(450);
    expect((await redeem(SHOPPER, 400)).ok).toBe(true);
    const had = await credit(SHOPPER);
    await run("select public.finish_order_refund($1, 'rf_pts', 'Reembolso', false)", [order]);
    expect(await points(SHOPPER)).toBe(0);
    expect(await credit(SHOPPER)).toEqual(had);
  });

  it('is for a signed-in shopper only, and the shopper reads only their own redemptions', async () => {
    expect((await attempt(db, 'anon', undefined, 'select public.redeem_points(100, gen_random_uuid())')).error?.code).toBe('42501');
    const noUser = await attempt(db, 'service_role', undefined, 'select public.redeem_points(100, gen_random_uuid())');
    expect(noUser.error?.code).toBe('42501');
    await run('update public.rewards set points = 100 where user_id = $1', [OTHER]);
    expect((await redeem(OTHER, 100)).ok).toBe(true);
    expect((await attempt(db, 'authenticated', SHOPPER, 'select id from public.points_redemptions where user_id = $1', [OTHER])).affected).toBe(0);
    expect((await attempt(db, 'authenticated', OTHER, 'select id from public.points_redemptions where user_id = $1', [OTHER])).affected).toBeGreaterThan(0);
    const insert = await attempt(
      db,
      'authenticated',
      OTHER,
      `insert into public.points_redemptions (user_id, request_id, points, credit, points_per_block, pesos_per_block, points_after) values ($1, gen_random_uuid(), 100, 99999, 100, 10, 0)`,
      [OTHER],
    );
    expect(insert.error?.code).toBe('42501');
  });
});
