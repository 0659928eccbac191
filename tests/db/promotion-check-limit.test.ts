/**
 * Coupon codes cannot be guessed: check_promotion counts a caller's checks of unknown codes (each
 * committed, as PostgREST commits the call) and, after 10 in 10 minutes, refuses every code with
 * 'Demasiados intentos con cupones. Espera unos minutos.' (detail coupon_rate_limited), valid ones
 * too. Valid codes and other refusals do not count; another shopper, another address and the end
 * of the window are not affected; create_order takes no coupon from a shopper over the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { claimsFor, commit, migratedPglite } from './support.ts';

const GUESSER = '31000000-0000-4000-a000-000000000001';
const OTHER = '31000000-0000-4000-a000-000000000002';
const LIMITED = { ok: false, detail: 'coupon_rate_limited', message: 'Demasiados intentos con cupones. Espera unos minutos.' };
const INVALID = { ok: false, detail: 'coupon_invalid', message: '⚠️ Cupón no válido.' };
const ITEMS = [{ product_id: 'pk-box', quantity: 1 }];

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

/**
 * One committed check as PostgREST makes it: the caller's role and claims and, when given, the
 * request's headers as the gateway passes them.
 */
async function check(user: string | undefined, code: string, headers?: Record<string, string>): Promise<Record<string, unknown>> {
  const role = user ? 'authenticated' : 'anon';
  await db.exec('begin');
  try {
    await db.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true), set_config('request.headers', $3, true)", [
      role,
      claimsFor(role, user),
      headers ? JSON.stringify(headers) : '',
    ]);
    const { rows } = await db.query<{ answer: Record<string, unknown> }>('select public.check_promotion($1, $2::jsonb) as answer', [
      code,
      JSON.stringify(ITEMS),
    ]);
    await db.exec('commit');
    return rows[0]!.answer;
  } catch (err) {
    await db.exec('rollback');
    throw err;
  }
}

async function failures(caller: string): Promise<number> {
  const [row] = await sql('select count(*)::int as n from public.promotion_check_failures where caller = $1', [caller]);
  return Number(row!.n);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.product_types (id, name, franchise_id) values ('booster-box', 'Booster Box', 'pokemon')`);
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, product_type_id)
     values ('pk-box', 'Caja Pokémon', 2000, 1000, 1000, 'pokemon', 'booster-box')`,
  );
  await sql(`insert into public.promotions (code, type, value, min_subtotal) values ('MINIMO5000', 'percent', 5, 5000)`);
  for (const id of [GUESSER, OTHER]) {
    await sql('insert into auth.users (id, email) values ($1, $2)', [id, `${id.slice(-4)}@correo.mx`]);
  }
});

afterAll(async () => {
  await db?.close();
});

describe('check_promotion against guessing', () => {
  it('counts unknown codes per shopper; valid codes and other refusals do not count, and still work under the limit', async () => {
    for (let i = 1; i <= 9; i++) expect(await check(GUESSER, `ADIVINA${i}`)).toEqual(INVALID);
    // A valid code, and a known code refused for another reason, answer as always and are not counted.
    expect(await check(GUESSER, 'MEKACAT10')).toMatchObject({ ok: true, code: 'MEKACAT10', discount: 200 });
    expect(await check(GUESSER, 'MINIMO5000')).toMatchObject({ ok: false, detail: 'coupon_minimum' });
    expect(await failures(`user:${GUESSER}`)).toBe(9);
    // The tenth unknown code is still answered; from then on every code is refused, valid ones too.
    expect(await check(GUESSER, 'ADIVINA10')).toEqual(INVALID);
    expect(await check(GUESSER, 'ADIVINA11')).toEqual(LIMITED);
    expect(await check(GUESSER, 'MEKACAT10')).toEqual(LIMITED);
    expect(await failures(`user:${GUESSER}`)).toBe(10);
  });

  it('another shopper is not affected', async () => {
    expect(await check(OTHER, 'MEKACAT10')).toMatchObject({ ok: true, code: 'MEKACAT10' });
    expect(await check(OTHER, 'ADIVINA1')).toEqual(INVALID);
    expect(await failures(`user:${OTHER}`)).toBe(1);
  });

  it('create_order takes no coupon from a shopper over the limit, and still takes the order without one', async () => {
    const order = (code: string | null) =>
      commit<{ id: string }>(db, 'authenticated', GUESSER, 'select public.create_order($1::jsonb, $2) as id', [JSON.stringify(ITEMS), code]);
    const withCoupon = await order('MEKACAT10');
    expect(withCoupon.ok).toBe(false);
    expect(withCoupon.error).toMatchObject({ detail: 'coupon_rate_limited', message: LIMITED.message });
    const unknown = await order('ADIVINA12');
    expect(unknown.error).toMatchObject({ detail: 'coupon_rate_limited' });
    const plain = await order(null);
    expect(plain.ok).toBe(true);
    // Another shopper's order with the code is untouched.
    const other = await commit<{ id: string }>(db, 'authenticated', OTHER, 'select public.create_order($1::jsonb, $2) as id', [
      JSON.stringify(ITEMS),
      'MEKACAT10',
    ]);
    expect(other.ok).toBe(true);
  });

  it('the limit lifts once the failures are older than 10 minutes', async () => {
    await sql(`update public.promotion_check_failures set created_at = created_at - interval '11 minutes' where caller = $1`, [`user:${GUESSER}`]);
    expect(await check(GUESSER, 'MEKACAT10')).toMatchObject({ ok: true, code: 'MEKACAT10' });
    expect(await check(GUESSER, 'ADIVINA13')).toEqual(INVALID);
  });

  it('anonymous callers count by the address the gateway appended to x-forwarded-for, or share one allowance without it', async () => {
    // The client wrote the first address itself; the gateway appended the last one.
    const fromA = { 'x-forwarded-for': '203.0.113.9, 198.51.100.1' };
    const fromB = { 'x-forwarded-for': '203.0.113.9, 198.51.100.2' };
    for (let i = 1; i <= 10; i++) expect(await check(undefined, `ANONIMO${i}`, fromA)).toEqual(INVALID);
    expect(await check(undefined, 'MEKACAT10', fromA)).toEqual(LIMITED);
    expect(await check(undefined, 'MEKACAT10', fromB)).toMatchObject({ ok: true });
    expect(await failures('ip:198.51.100.1')).toBe(10);
    expect(await failures('ip:198.51.100.2')).toBe(0);
    // Without the headers (the local stack), every anonymous shopper counts in one allowance.
    expect(await check(undefined, 'SINCABECERA')).toEqual(INVALID);
    expect(await failures('anon')).toBe(1);
    expect(await check(undefined, 'MEKACAT10')).toMatchObject({ ok: true });
  });

  it('nobody but an admin reads the failures, and nobody writes them directly', async () => {
    const asShopper = await commit(db, 'authenticated', OTHER, 'select id from public.promotion_check_failures');
    expect(asShopper.rows).toEqual([]);
    const asAnon = await commit(db, 'anon', undefined, 'select id from public.promotion_check_failures');
    expect(asAnon.ok).toBe(false);
    const forged = await commit(db, 'authenticated', OTHER, `delete from public.promotion_check_failures returning id`);
    expect(forged.ok).toBe(false);
  });
});
