/**
 * create_order and its companions on PGlite: pricing identical to src/domain/pricing.ts for every
 * case of tests/fixtures/pricing-cases.json (and check_promotion answering the same numbers, lines
 * and refusals), refusals of bad or tampered input, stock reservation
 * and expiry, payment marking, address defaults and the profile created for a new user.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { pricedLine, toCentavos } from '~/domain/money.ts';
import { computeOrderAmounts, type AppliedPromotion } from '~/domain/pricing.ts';
import { ROOT_DIR, attempt, commit, inRolledBackTx, type Outcome, type Queryable, OWED } from './support.ts';
import { migratedPglite } from './support.ts';

interface PricingCase {
  name: string;
  lines: { price: number | string; quantity: number; product_type?: string; eligible?: boolean }[];
  coupon: string | null;
  promotion?: { type: AppliedPromotion['type']; value: number; min_subtotal?: number; product_type_ids?: string[] };
  refusal?: { detail: string; message: string };
  expected: { subtotal: number; discount: number; shipping: number; total: number };
}

const SEEDED_CODES = ['MEKACAT10', 'ENVIOGRATIS'];

const CASES = JSON.parse(readFileSync(path.join(ROOT_DIR, 'tests/fixtures/pricing-cases.json'), 'utf8')) as PricingCase[];

const SHOPPER = '10000000-0000-4000-a000-000000000001';
const OTHER = '10000000-0000-4000-a000-000000000002';
const LIMITED = '10000000-0000-4000-a000-000000000003';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function createUser(id: string, meta: Record<string, unknown> = {}): Promise<void> {
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values ($1, $2, $3::jsonb)`, [id, `${id.slice(-6)}@correo.mx`, JSON.stringify(meta)]);
}

async function addProduct(
  id: string,
  fields: { price?: number | string; stock?: number; limit?: number; available?: boolean; name?: string; type?: string } = {},
): Promise<void> {
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, available, franchise_id, product_type_id)
     values ($1, $2, $3, $4, $5, $6, 'pokemon', $7)`,
    [id, fields.name ?? `Producto ${id}`, fields.price ?? 100, fields.stock ?? 1000, fields.limit ?? 1000, fields.available ?? true, fields.type ?? null],
  );
}

async function stockOf(id: string): Promise<number> {
  const rows = await sql('select stock from public.products where id = $1', [id]);
  return Number(rows[0]?.stock);
}

/** create_order as `user` in a committed transaction. */
function placeOrder(user: string | undefined, items: unknown, coupon: string | null = null): Promise<Outcome<{ id: string }>> {
  return commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, $2) as id', [JSON.stringify(items), coupon]);
}

/** create_order as `user`, rolled back afterwards. */
function tryOrder(user: string | undefined, items: unknown, coupon: string | null = null): Promise<Outcome<{ id: string }>> {
  return attempt<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, $2) as id', [JSON.stringify(items), coupon]);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(
    `insert into public.product_types (id, name, franchise_id) values ('booster-box', 'Booster Box', 'pokemon'), ('accessories', 'Accesorios', 'pokemon')`,
  );
  for (const user of [SHOPPER, OTHER, LIMITED]) await createUser(user);
  for (const [i, testCase] of CASES.entries()) {
    for (const [j, line] of testCase.lines.entries()) await addProduct(`case-${i}-${j}`, { price: line.price, type: line.product_type });
    const code = testCase.coupon?.trim().toUpperCase();
    if (testCase.promotion && code && !SEEDED_CODES.includes(code)) {
      const p = testCase.promotion;
      await sql(`insert into public.promotions (code, type, value, min_subtotal, product_type_ids) values ($1, $2, $3, $4, $5)`, [
        code,
        p.type,
        p.value,
        p.min_subtotal ?? 0,
        p.product_type_ids ?? [],
      ]);
    }
  }
});

afterAll(async () => {
  await db?.close();
});

describe('create_order prices like src/domain/pricing.ts', () => {
  it('has pricing cases to run', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(10);
  });

  it('seeds MEKACAT10 and ENVIOGRATIS as the fixture describes them', async () => {
    const rows = await sql(`select code, type, value::float8 as value from public.promotions where code = any ($1) order by code`, [SEEDED_CODES]);
    expect(rows).toEqual([
      { code: 'ENVIOGRATIS', type: 'shipping', value: 0 },
      { code: 'MEKACAT10', type: 'percent', value: 10 },
    ]);
    for (const row of rows) {
      const described = CASES.find((c) => c.coupon?.trim().toUpperCase() === row.code)?.promotion;
      expect(described).toEqual({ type: row.type, value: row.value });
    }
  });

  for (const [i, testCase] of CASES.entries()) {
    it(testCase.name, async () => {
      const items = testCase.lines.map((line, j) => ({ product_id: `case-${i}-${j}`, quantity: line.quantity }));
      const check = await attempt<{ answer: Record<string, unknown> }>(db, 'authenticated', SHOPPER, 'select public.check_promotion($1, $2::jsonb) as answer', [
        testCase.coupon ?? '',
        JSON.stringify(items),
      ]);
      const answer = check.rows[0]!.answer;
      const code = testCase.coupon?.trim() ? testCase.coupon : null;
      if (testCase.refusal) {
        // Refused by the check and by create_order alike; without the code the order has the shown numbers.
        expect(answer).toEqual({ ok: false, ...testCase.refusal });
        const refused = await tryOrder(SHOPPER, items, testCase.coupon);
        expect(refused.error).toMatchObject(testCase.refusal);
      } else if (code) {
        expect(answer).toMatchObject({ ok: true, ...testCase.expected, eligible: testCase.lines.map((l) => l.eligible ?? true) });
      }
      const stored = await inRolledBackTx(db, 'authenticated', SHOPPER, async (q: Queryable) => {
        const created = await q.query<{ id: string }>('select public.create_order($1::jsonb, $2) as id', [
          JSON.stringify(items),
          testCase.refusal ? null : testCase.coupon,
        ]);
        const { rows } = await q.query<Record<string, string>>(
          'select subtotal, discount, shipping, total, status, coupon_code from public.orders where id = $1',
          [created.rows[0]!.id],
        );
        return rows[0]!;
      });
      const amounts = {
        subtotal: Number(stored.subtotal),
        discount: Number(stored.discount),
        shipping: Number(stored.shipping),
        total: Number(stored.total),
      };
      expect(amounts).toEqual(testCase.expected);
      expect(stored.status).toBe('Pendiente');

      // The browser prices with the check's answer: the promotion's type and value and the lines it matches.
      const promotion: AppliedPromotion | null =
        answer.ok === true
          ? {
              code: String(answer.code),
              type: answer.type as AppliedPromotion['type'],
              value: answer.type === 'fixed' ? toCentavos(answer.value as number) : Number(answer.value),
            }
          : null;
      const eligible = answer.ok === true ? (answer.eligible as boolean[]) : [];
      const lines = testCase.lines.map((line, j) => ({ ...pricedLine(line), eligible: eligible[j] }));
      const domain = computeOrderAmounts(lines, promotion);
      expect({ subtotal: domain.subtotal, discount: domain.discount, shipping: domain.shipping, total: domain.total }).toEqual(testCase.expected);
      expect(stored.coupon_code ?? null).toBe(domain.promotion?.code ?? null);
    });
  }
});

describe('create_order refuses bad orders', () => {
  beforeAll(async () => {
    await addProduct('few', { name: 'Caja Escasa', stock: 3, limit: 10 });
    await addProduct('hidden', { name: 'Producto Retirado', available: false });
    await addProduct('one-each', { name: 'Carta Limitada', stock: 100, limit: 2 });
  });

  const refusals: { name: string; items: unknown; detail: string; message?: string }[] = [
    { name: 'an unknown product', items: [{ product_id: 'no-existe', quantity: 1 }], detail: 'unknown_product:no-existe', message: '«no-existe»' },
    { name: 'an unavailable product', items: [{ product_id: 'hidden', quantity: 1 }], detail: 'unavailable:hidden', message: '«Producto Retirado»' },
    {
      name: 'more than the stock',
      items: [{ product_id: 'few', quantity: 4 }],
      detail: 'out_of_stock:few',
      message: 'Stock insuficiente para «Caja Escasa» (disponible: 3).',
    },
    {
      name: 'more than the stock once repeated lines are merged',
      items: [
        { product_id: 'few', quantity: 2 },
        { product_id: 'few', quantity: 2 },
      ],
      detail: 'out_of_stock:few',
    },
    {
      name: 'more than the per-customer limit',
      items: [{ product_id: 'one-each', quantity: 3 }],
      detail: 'limit_exceeded:one-each',
      message: '«Carta Limitada»',
    },
    { name: 'a zero quantity', items: [{ product_id: 'few', quantity: 0 }], detail: 'invalid_quantity' },
    { name: 'a negative quantity', items: [{ product_id: 'few', quantity: -2 }], detail: 'invalid_quantity' },
    { name: 'a fractional quantity', items: [{ product_id: 'few', quantity: 1.5 }], detail: 'invalid_quantity' },
    { name: 'a quantity sent as text', items: [{ product_id: 'few', quantity: '2' }], detail: 'invalid_quantity' },
    { name: 'a huge quantity', items: [{ product_id: 'few', quantity: 1e20 }], detail: 'invalid_quantity' },
    { name: 'a missing quantity', items: [{ product_id: 'few' }], detail: 'invalid_quantity' },
    { name: 'a line without product', items: [{ quantity: 1 }], detail: 'invalid_item' },
    { name: 'a numeric product id', items: [{ product_id: 7, quantity: 1 }], detail: 'invalid_item' },
    { name: 'a line that is not an object', items: ['few'], detail: 'invalid_item' },
    { name: 'an empty list', items: [], detail: 'empty_order' },
    { name: 'an object instead of a list', items: { product_id: 'few', quantity: 1 }, detail: 'empty_order' },
    { name: 'too many lines', items: Array.from({ length: 51 }, () => ({ product_id: 'few', quantity: 1 })), detail: 'too_many_items' },
    {
      name: 'an SQL-looking product id',
      items: [{ product_id: "few'; delete from public.products; --", quantity: 1 }],
      detail: "unknown_product:few'; delete from public.products; --",
    },
  ];

  for (const refusal of refusals) {
    it(`refuses ${refusal.name}`, async () => {
      const outcome = await tryOrder(SHOPPER, refusal.items);
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.code).toBe('P0001');
      expect(outcome.error?.detail).toBe(refusal.detail);
      if (refusal.message) expect(outcome.error?.message).toContain(refusal.message);
    });
  }

  it('leaves stock and orders untouched after refusals', async () => {
    expect(await stockOf('few')).toBe(3);
    expect(Number((await sql('select count(*) as n from public.products'))[0]!.n)).toBeGreaterThan(3);
    expect(await sql(`select id from public.orders where user_id = $1`, [SHOPPER])).toEqual([]);
  });

  it('refuses anonymous callers (no execute grant)', async () => {
    const outcome = await attempt(db, 'anon', undefined, `select public.create_order('[{"product_id":"few","quantity":1}]'::jsonb)`);
    expect(outcome.error?.code).toBe('42501');
  });

  it('refuses a signed-in role without a user id in its claims', async () => {
    const outcome = await tryOrder(undefined, [{ product_id: 'few', quantity: 1 }]);
    expect(outcome.error?.detail).toBe('not_authenticated');
    expect(outcome.error?.message).toBe('Debes iniciar sesión para finalizar tu compra.');
  });

  it('ignores prices sent by the client and merges repeated lines', async () => {
    const result = await inRolledBackTx(db, 'authenticated', SHOPPER, async (q) => {
      const created = await q.query<{ id: string }>('select public.create_order($1::jsonb) as id', [
        JSON.stringify([
          { product_id: 'few', quantity: 1, price: 0.01, total: 0.01 },
          { product_id: 'few', quantity: 1, price: 0 },
        ]),
      ]);
      const id = created.rows[0]!.id;
      const order = await q.query<Record<string, string>>('select subtotal, total from public.orders where id = $1', [id]);
      const items = await q.query<Record<string, string | number>>('select product_id, quantity, price from public.order_items where order_id = $1', [id]);
      return { order: order.rows[0]!, items: items.rows };
    });
    expect(result.items).toEqual([{ product_id: 'few', quantity: 2, price: '100.00' }]);
    expect(result.order).toEqual({ subtotal: '200.00', total: '299.00' });
  });
});

describe('stock reservation, limits and expiry', () => {
  beforeAll(async () => {
    await addProduct('limited', { name: 'Booster Limitado', stock: 10, limit: 2 });
    await addProduct('expiring', { name: 'Lata Temporal', stock: 5, limit: 5 });
  });

  it('reserves stock and counts earlier open orders against the per-customer limit', async () => {
    const first = await placeOrder(LIMITED, [{ product_id: 'limited', quantity: 1 }]);
    expect(first.ok).toBe(true);
    expect(await stockOf('limited')).toBe(9);

    const over = await placeOrder(LIMITED, [{ product_id: 'limited', quantity: 2 }]);
    expect(over.error?.detail).toBe('limit_exceeded:limited');
    expect(over.error?.hint).toBe('1');

    const second = await placeOrder(LIMITED, [{ product_id: 'limited', quantity: 1 }]);
    expect(second.ok).toBe(true);
    expect(await stockOf('limited')).toBe(8);

    // Cancelling returns the stock and frees the allowance.
    const cancelled = await commit(db, 'authenticated', LIMITED, 'select public.cancel_order($1) as ok', [second.rows[0]!.id]);
    expect(cancelled.rows).toEqual([{ ok: true }]);
    expect(await stockOf('limited')).toBe(9);
    const again = await placeOrder(LIMITED, [{ product_id: 'limited', quantity: 1 }]);
    expect(again.ok).toBe(true);
  });

  it('counts paid orders against the limit too', async () => {
    const rows = await sql(
      `select o.id from public.orders o join public.order_items i on i.order_id = o.id
       where o.user_id = $1 and i.product_id = 'limited' and o.status = 'Pendiente' order by o.created_at limit 1`,
      [LIMITED],
    );
    const paid = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_limit', ${OWED}) as changed`, [rows[0]!.id]);
    expect(paid.rows).toEqual([{ changed: true }]);
    expect((await placeOrder(LIMITED, [{ product_id: 'limited', quantity: 1 }])).error?.detail).toBe('limit_exceeded:limited');
  });

  it('only lets the owner cancel, and only pending orders', async () => {
    const order = await placeOrder(OTHER, [{ product_id: 'expiring', quantity: 1 }]);
    const id = order.rows[0]!.id;
    const byStranger = await attempt(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [id]);
    expect(byStranger.error?.detail).toBe('order_not_found');
    await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'paypal', 'cap_1', ${OWED})`, [id]);
    const paid = await attempt(db, 'authenticated', OTHER, 'select public.cancel_order($1)', [id]);
    expect(paid.error?.detail).toBe('order_not_cancellable');
    expect(await stockOf('expiring')).toBe(4);
  });

  it('cancels expired pending orders and returns their stock, also from create_order', async () => {
    const order = await placeOrder(OTHER, [{ product_id: 'expiring', quantity: 3 }]);
    expect(await stockOf('expiring')).toBe(1);
    await sql(`update public.orders set expires_at = now() - interval '1 minute' where id = $1`, [order.rows[0]!.id]);

    // Before expiry runs, only 1 unit is left; create_order sweeps expired orders first.
    const next = await placeOrder(SHOPPER, [{ product_id: 'expiring', quantity: 4 }]);
    expect(next.ok).toBe(true);
    expect(await stockOf('expiring')).toBe(0);
    const [expired] = await sql('select status from public.orders where id = $1', [order.rows[0]!.id]);
    expect(expired?.status).toBe('Cancelado');
  });

  it('release_expired_orders reports how many orders it cancelled', async () => {
    await addProduct('sweep', { stock: 2, limit: 2 });
    const order = await placeOrder(OTHER, [{ product_id: 'sweep', quantity: 2 }]);
    await sql(`update public.orders set expires_at = now() - interval '1 second' where id = $1`, [order.rows[0]!.id]);
    const swept = await commit(db, 'service_role', undefined, 'select public.release_expired_orders() as n');
    expect(swept.rows).toEqual([{ n: 1 }]);
    expect(await stockOf('sweep')).toBe(2);
    const nothing = await commit(db, 'service_role', undefined, 'select public.release_expired_orders() as n');
    expect(nothing.rows).toEqual([{ n: 0 }]);
  });
});

describe('mark_order_paid', () => {
  let orderId: string;

  beforeAll(async () => {
    await addProduct('payable', { price: 1299, stock: 10, limit: 10 });
    const order = await placeOrder(SHOPPER, [{ product_id: 'payable', quantity: 1 }]);
    orderId = order.rows[0]!.id;
  });

  it('is refused to shoppers and anonymous callers', async () => {
    for (const [role, sub] of [
      ['authenticated', SHOPPER],
      ['anon', undefined],
    ] as const) {
      const outcome = await attempt(db, role, sub, `select public.mark_order_paid($1, 'stripe', 'pi_x', 139800, 'mxn')`, [orderId]);
      expect(outcome.error?.code, role).toBe('42501');
    }
  });

  it('marks the order paid once: the same charge again changes nothing, another charge is refused as a duplicate', async () => {
    const first = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_123', ${OWED}) as changed`, [orderId]);
    expect(first.rows).toEqual([{ changed: true }]);
    const again = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_123', ${OWED}) as changed`, [orderId]);
    expect(again.rows).toEqual([{ changed: false }]);
    const other = await attempt(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_456', ${OWED})`, [orderId]);
    expect(other.error?.detail).toBe('order_paid_other');
    const [order] = await sql('select status, paid_at, payment_provider, payment_ref, total, expires_at from public.orders where id = $1', [orderId]);
    expect(order).toMatchObject({ status: 'Pagado', payment_provider: 'stripe', payment_ref: 'pi_123', total: '1398.00', expires_at: null });
    expect(order?.paid_at).toBeInstanceOf(Date);
  });

  it('refuses a charge that is not what the order owes, in MXN, and leaves it pending', async () => {
    const order = await placeOrder(SHOPPER, [{ product_id: 'payable', quantity: 1 }]);
    const id = order.rows[0]!.id;
    const short = await attempt(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_short', 100, 'mxn')`, [id]);
    expect(short.error?.detail).toBe('amount_mismatch');
    const dollars = await attempt(
      db,
      'service_role',
      undefined,
      `select public.mark_order_paid($1, 'stripe', 'pi_usd', (select round(o.total * 100)::bigint from public.orders o where o.id = $1), 'usd')`,
      [id],
    );
    expect(dollars.error?.detail).toBe('amount_mismatch');
    const [row] = await sql('select status, paid_at from public.orders where id = $1', [id]);
    expect(row).toMatchObject({ status: 'Pendiente', paid_at: null });
  });

  it('refuses a cancelled order and an unknown one', async () => {
    const order = await placeOrder(SHOPPER, [{ product_id: 'payable', quantity: 1 }]);
    await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [order.rows[0]!.id]);
    const cancelled = await attempt(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_late', ${OWED})`, [order.rows[0]!.id]);
    expect(cancelled.error?.detail).toBe('order_cancelled');
    const unknown = await attempt(db, 'service_role', undefined, `select public.mark_order_paid(gen_random_uuid(), 'stripe', 'pi_none', 0, 'mxn')`);
    expect(unknown.error?.detail).toBe('order_not_found');
  });
});

describe('addresses keep exactly one default', () => {
  const USER = '10000000-0000-4000-a000-0000000000ad';

  async function addresses(): Promise<{ street: string; is_default: boolean }[]> {
    const outcome = await commit<{ street: string; is_default: boolean }>(
      db,
      'authenticated',
      USER,
      'select street, is_default from public.addresses order by is_default desc, created_at desc',
    );
    return outcome.rows;
  }

  // Each insert commits on its own, so created_at (the transaction time) grows with every call.
  async function add(street: string, isDefault = false): Promise<string> {
    const outcome = await commit<{ id: string }>(
      db,
      'authenticated',
      USER,
      `insert into public.addresses (user_id, street, city, state, zip, is_default)
       values (auth.uid(), $1, 'Querétaro', 'Querétaro', '76000', $2) returning id`,
      [street, isDefault],
    );
    if (!outcome.ok) throw new Error(outcome.error?.message);
    return outcome.rows[0]!.id;
  }

  it('makes the first address the default, and a new default clears the old one', async () => {
    await createUser(USER);
    const first = await add('Primera');
    expect(await addresses()).toEqual([{ street: 'Primera', is_default: true }]);

    await add('Segunda');
    expect(await addresses()).toEqual([
      { street: 'Primera', is_default: true },
      { street: 'Segunda', is_default: false },
    ]);

    const third = await add('Tercera', true);
    expect(await addresses()).toEqual([
      { street: 'Tercera', is_default: true },
      { street: 'Segunda', is_default: false },
      { street: 'Primera', is_default: false },
    ]);

    const set = await commit(db, 'authenticated', USER, 'select public.set_default_address($1)', [first]);
    expect(set.ok).toBe(true);
    expect((await addresses())[0]).toEqual({ street: 'Primera', is_default: true });
    expect((await addresses()).filter((a) => a.is_default)).toHaveLength(1);

    // Setting the default again through the spec's two updates (clear all, then set one) works.
    const clear = await commit(db, 'authenticated', USER, 'update public.addresses set is_default = false where user_id = auth.uid()');
    expect(clear.ok).toBe(true);
    const pick = await commit(db, 'authenticated', USER, 'update public.addresses set is_default = true where id = $1', [third]);
    expect(pick.ok).toBe(true);
    expect((await addresses())[0]).toEqual({ street: 'Tercera', is_default: true });
  });

  it('promotes the first remaining address in list order when the default is deleted', async () => {
    const [{ id } = { id: '' }] = (await commit<{ id: string }>(db, 'authenticated', USER, `select id from public.addresses where is_default`)).rows;
    const deleted = await commit(db, 'authenticated', USER, 'delete from public.addresses where id = $1 returning id', [id]);
    expect(deleted.rows).toHaveLength(1);
    // Remaining: Segunda and the older Primera: the newest comes first.
    expect(await addresses()).toEqual([
      { street: 'Segunda', is_default: true },
      { street: 'Primera', is_default: false },
    ]);
  });

  it("refuses to delete the user's only address", async () => {
    await commit(db, 'authenticated', USER, `delete from public.addresses where street = 'Primera'`);
    const outcome = await attempt(db, 'authenticated', USER, `delete from public.addresses where street = 'Segunda'`);
    expect(outcome.error?.message).toBe('Debes tener al menos una dirección');
    expect(await addresses()).toEqual([{ street: 'Segunda', is_default: true }]);
  });

  it("refuses to make someone else's address the default", async () => {
    const [{ id } = { id: '' }] = (await commit<{ id: string }>(db, 'authenticated', USER, 'select id from public.addresses')).rows;
    const outcome = await attempt(db, 'authenticated', SHOPPER, 'select public.set_default_address($1)', [id]);
    expect(outcome.error?.code).toBe('P0002');
  });

  it('rejects a zip code longer than five digits', async () => {
    const outcome = await attempt(
      db,
      'authenticated',
      USER,
      `insert into public.addresses (user_id, street, city, state, zip) values (auth.uid(), 'X', 'Y', 'Z', '123456')`,
    );
    expect(outcome.error?.code).toBe('23514');
  });

  it('clears the address from orders when the address is deleted', async () => {
    await addProduct('ship-me', { stock: 5, limit: 5 });
    const spare = await add('Repuesto');
    const order = await placeOrder(USER, [{ product_id: 'ship-me', quantity: 1 }]);
    const chosen = await commit(db, 'authenticated', USER, 'update public.orders set shipping_address_id = $1 where id = $2 returning id', [
      spare,
      order.rows[0]!.id,
    ]);
    expect(chosen.rows).toHaveLength(1);
    const deleted = await commit(db, 'authenticated', USER, 'delete from public.addresses where id = $1 returning id', [spare]);
    expect(deleted.rows).toHaveLength(1);
    expect(await sql('select shipping_address_id from public.orders where id = $1', [order.rows[0]!.id])).toEqual([{ shipping_address_id: null }]);
  });

  it('keeps order lines when an admin deletes a product, without the product', async () => {
    const [line] = await sql(`select order_id from public.order_items where product_id = 'ship-me'`);
    await sql(`delete from public.products where id = 'ship-me'`);
    expect(await sql('select product_id, quantity from public.order_items where order_id = $1', [line!.order_id])).toEqual([{ product_id: null, quantity: 1 }]);
  });

  it('still lets a user account be deleted with all its addresses', async () => {
    await add('Otra más');
    expect((await addresses()).length).toBe(2);
    await sql('delete from auth.users where id = $1', [USER]);
    expect(await sql('select id from public.addresses where user_id = $1', [USER])).toEqual([]);
  });
});

describe('new users', () => {
  it('get a profile from the sign-up metadata, never as admin, and a rewards row', async () => {
    const id = '10000000-0000-4000-a000-0000000000e1';
    await createUser(id, { username: ' Lupita ', name: 'Guadalupe', lastname: 'Ramírez', phone: '+52 81 5555 0000', is_admin: true });
    const [profile] = await sql('select username, name, lastname, phone, is_admin from public.profiles where id = $1', [id]);
    expect(profile).toEqual({ username: 'Lupita', name: 'Guadalupe', lastname: 'Ramírez', phone: '+52 81 5555 0000', is_admin: false });
    expect(await sql('select points from public.rewards where user_id = $1', [id])).toEqual([{ points: 0 }]);
  });

  it('get a null username when theirs is taken (in any letter case) or empty', async () => {
    const taken = '10000000-0000-4000-a000-0000000000e2';
    const empty = '10000000-0000-4000-a000-0000000000e3';
    await createUser(taken, { username: 'LUPITA', name: 'Otra' });
    await createUser(empty, { username: '   ', phone: 'no es teléfono' });
    const rows = await sql('select id, username, phone, is_admin from public.profiles where id = any($1) order by id', [[taken, empty]]);
    expect(rows).toEqual([
      { id: taken, username: null, phone: null, is_admin: false },
      { id: empty, username: null, phone: null, is_admin: false },
    ]);
  });
});

describe('newsletter', () => {
  it('stores e-mails lower-cased and accepts a repeated subscription silently', async () => {
    const first = await commit(db, 'anon', undefined, `insert into public.newsletter_subscribers (email) values ('  Fan@Correo.MX ')`);
    expect(first.ok).toBe(true);
    const again = await commit(db, 'anon', undefined, `insert into public.newsletter_subscribers (email) values ('fan@correo.mx')`);
    expect(again.ok).toBe(true);
    expect(await sql(`select email from public.newsletter_subscribers where email like 'fan@%'`)).toEqual([{ email: 'fan@correo.mx' }]);
  });

  it('rejects something that is not an e-mail', async () => {
    const outcome = await attempt(db, 'anon', undefined, `insert into public.newsletter_subscribers (email) values ('no-es-correo')`);
    expect(outcome.error?.code).toBe('23514');
  });
});
