/**
 * Promotions on PGlite: each rule of promotion_apply through create_order and check_promotion
 * (unknown and paused codes, window, total and per-shopper uses, first purchase, minimum, scope),
 * the discount on the matching lines only, the use recorded with what it gave and returned when the
 * unpaid order is cancelled or expires, edits that change new orders only, and the back office's
 * writes and list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type Outcome } from './support.ts';

const SHOPPER = '30000000-0000-4000-a000-000000000001';
const OTHER = '30000000-0000-4000-a000-000000000002';
const NEWCOMER = '30000000-0000-4000-a000-000000000003';
const ADMIN = '30000000-0000-4000-a000-0000000000ad';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

type Item = { product_id: string; quantity: number };

function placeOrder(user: string, items: Item[], code: string | null): Promise<Outcome<{ id: string }>> {
  return commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, $2) as id', [JSON.stringify(items), code]);
}

async function check(user: string | undefined, items: Item[], code: string): Promise<Record<string, unknown>> {
  const outcome = await attempt<{ answer: Record<string, unknown> }>(
    db,
    user ? 'authenticated' : 'anon',
    user,
    'select public.check_promotion($1, $2::jsonb) as answer',
    [code, JSON.stringify(items)],
  );
  if (!outcome.ok) throw new Error(outcome.error?.message);
  return outcome.rows[0]!.answer;
}

async function save(fields: Record<string, unknown>, id: string | null = null): Promise<Outcome<{ id: string }>> {
  return commit<{ id: string }>(db, 'authenticated', ADMIN, 'select public.admin_save_promotion($1, $2::jsonb) as id', [id, JSON.stringify(fields)]);
}

async function newPromotion(fields: Record<string, unknown>): Promise<string> {
  const outcome = await save(fields);
  if (!outcome.ok) throw new Error(outcome.error?.message);
  return outcome.rows[0]!.id;
}

async function orderRow(id: string): Promise<{ subtotal: number; discount: number; shipping: number; total: number; coupon_code: string | null }> {
  const [row] = await sql('select subtotal, discount, shipping, total, coupon_code from public.orders where id = $1', [id]);
  return {
    subtotal: Number(row!.subtotal),
    discount: Number(row!.discount),
    shipping: Number(row!.shipping),
    total: Number(row!.total),
    coupon_code: (row!.coupon_code as string | null) ?? null,
  };
}

async function uses(code: string): Promise<number> {
  const [row] = await sql('select public.promotion_uses(id) as n from public.promotions where code = $1', [code]);
  return Number(row!.n);
}

const BOX: Item = { product_id: 'pk-box', quantity: 1 }; // $2,000.00, pokemon / booster-box / sv
const SLEEVES: Item = { product_id: 'pk-sleeves', quantity: 2 }; // 2 × $150.00, pokemon / accessories
const YGO: Item = { product_id: 'ygo-box', quantity: 1 }; // $1,000.00, yugioh / booster-box

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon'), ('yugioh', 'Yu-Gi-Oh!')`);
  await sql(
    `insert into public.product_types (id, name, franchise_id) values ('booster-box', 'Booster Box', 'pokemon'), ('accessories', 'Accesorios', 'pokemon')`,
  );
  await sql(`insert into public.expansions (id, name, franchise_id) values ('sv', 'Scarlet & Violet', 'pokemon')`);
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, product_type_id, expansion_id) values
       ('pk-box', 'Caja Pokémon', 2000, 1000, 1000, 'pokemon', 'booster-box', 'sv'),
       ('pk-sleeves', 'Micas', 150, 1000, 1000, 'pokemon', 'accessories', null),
       ('ygo-box', 'Caja Yu-Gi-Oh!', 1000, 1000, 1000, 'yugioh', 'booster-box', null)`,
  );
  for (const id of [SHOPPER, OTHER, NEWCOMER, ADMIN]) {
    await sql('insert into auth.users (id, email) values ($1, $2)', [id, `${id.slice(-4)}@correo.mx`]);
  }
  await sql('update public.profiles set is_admin = true where id = $1', [ADMIN]);
});

afterAll(async () => {
  await db?.close();
});

describe('the seeded promotions', () => {
  it('MEKACAT10 takes 10% of the whole cart and ENVIOGRATIS waives the shipping', async () => {
    const ten = await check(undefined, [SLEEVES], ' mekacat10 ');
    expect(ten).toMatchObject({ ok: true, code: 'MEKACAT10', type: 'percent', subtotal: 300, discount: 30, shipping: 99, total: 369, eligible: [true] });
    const free = await check(undefined, [SLEEVES], 'ENVIOGRATIS');
    expect(free).toMatchObject({ ok: true, code: 'ENVIOGRATIS', type: 'shipping', discount: 0, shipping: 0, total: 300 });
  });

  it('an unknown code is refused by the check and by create_order with the invalid message', async () => {
    expect(await check(SHOPPER, [SLEEVES], 'NOEXISTE')).toEqual({ ok: false, detail: 'coupon_invalid', message: '⚠️ Cupón no válido.' });
    const refused = await placeOrder(SHOPPER, [SLEEVES], 'NOEXISTE');
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({ detail: 'coupon_invalid', message: '⚠️ Cupón no válido.' });
  });
});

describe('scope: the discount applies to the matching lines only', () => {
  it('franchise + product type: 15% of the Pokémon booster box only, the same in the check and in the order', async () => {
    await newPromotion({ code: 'cajas15', type: 'percent', value: 15, franchise_ids: ['pokemon'], product_type_ids: ['booster-box'] });
    const items = [BOX, SLEEVES, YGO];
    const answer = await check(SHOPPER, items, 'CAJAS15');
    expect(answer).toMatchObject({ ok: true, code: 'CAJAS15', subtotal: 3300, discount: 300, shipping: 0, total: 3000, eligible: [true, false, false] });
    const placed = await placeOrder(SHOPPER, items, 'cajas15');
    expect(placed.ok).toBe(true);
    const order = await orderRow(placed.rows[0]!.id);
    expect(order).toEqual({ subtotal: 3300, discount: 300, shipping: 0, total: 3000, coupon_code: 'CAJAS15' });
    const [redemption] = await sql('select code, discount::text, shipping_waived::text, user_id from public.promotion_redemptions where order_id = $1', [
      placed.rows[0]!.id,
    ]);
    expect(redemption).toEqual({ code: 'CAJAS15', discount: '300.00', shipping_waived: '0.00', user_id: SHOPPER });
  });

  it('a fixed amount comes off the matching lines and never exceeds them', async () => {
    await newPromotion({ code: 'MICAS500', type: 'fixed', value: 500, product_ids: ['pk-sleeves'] });
    expect(await check(SHOPPER, [BOX, SLEEVES], 'MICAS500')).toMatchObject({ ok: true, discount: 300, subtotal: 2300, shipping: 99, total: 2099 });
    await newPromotion({ code: 'MENOS100', type: 'fixed', value: 100.5, expansion_ids: ['sv'] });
    expect(await check(SHOPPER, [BOX, SLEEVES], 'MENOS100')).toMatchObject({ ok: true, discount: 100.5, total: 2298.5, eligible: [true, false] });
  });

  it('a cart with no matching line is refused', async () => {
    const answer = await check(SHOPPER, [YGO, SLEEVES], 'CAJAS15');
    expect(answer).toEqual({ ok: false, detail: 'coupon_not_applicable', message: 'Este cupón no aplica a los productos de tu carrito.' });
    const refused = await placeOrder(SHOPPER, [YGO], 'CAJAS15');
    expect(refused.error).toMatchObject({ detail: 'coupon_not_applicable', message: 'Este cupón no aplica a los productos de tu carrito.' });
  });
});

describe('rules', () => {
  it('a minimum subtotal says how much is missing, formatted as the shop formats money', async () => {
    await newPromotion({ code: 'MINIMO500', type: 'percent', value: 5, min_subtotal: 500 });
    expect(await check(SHOPPER, [{ product_id: 'pk-sleeves', quantity: 1 }], 'MINIMO500')).toEqual({
      ok: false,
      detail: 'coupon_minimum',
      message: 'Agrega $350.00 más para usar este cupón.',
    });
    await newPromotion({ code: 'MINIMO5000', type: 'shipping', min_subtotal: 5000 });
    const refused = await placeOrder(SHOPPER, [{ product_id: 'pk-sleeves', quantity: 1 }], 'MINIMO5000');
    expect(refused.error).toMatchObject({ detail: 'coupon_minimum', message: 'Agrega $4,850.00 más para usar este cupón.', hint: '4850.00' });
    expect(await check(SHOPPER, [{ product_id: 'pk-sleeves', quantity: 4 }], 'MINIMO500')).toMatchObject({ ok: true, discount: 30 });
  });

  it('outside its window: not started is invalid, ended says it expired', async () => {
    await newPromotion({ code: 'MANANA', type: 'percent', value: 10, starts_at: new Date(Date.now() + 86_400_000).toISOString() });
    expect(await check(SHOPPER, [SLEEVES], 'MANANA')).toMatchObject({ ok: false, detail: 'coupon_invalid', message: '⚠️ Cupón no válido.' });
    await newPromotion({
      code: 'AYER',
      type: 'percent',
      value: 10,
      starts_at: '2026-01-01T00:00:00-06:00',
      ends_at: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(await check(SHOPPER, [SLEEVES], 'AYER')).toEqual({ ok: false, detail: 'coupon_expired', message: 'Este cupón expiró.' });
    expect((await placeOrder(SHOPPER, [SLEEVES], 'ayer')).error).toMatchObject({ detail: 'coupon_expired', message: 'Este cupón expiró.' });
  });

  it('a paused promotion is invalid until resumed, and both are recorded', async () => {
    const id = await newPromotion({ code: 'PAUSADA', type: 'percent', value: 10 });
    const paused = await commit(db, 'authenticated', ADMIN, 'select public.admin_set_promotion_active($1, false)', [id]);
    expect(paused.ok).toBe(true);
    expect(await check(SHOPPER, [SLEEVES], 'PAUSADA')).toMatchObject({ ok: false, detail: 'coupon_invalid' });
    expect((await placeOrder(SHOPPER, [SLEEVES], 'PAUSADA')).error?.detail).toBe('coupon_invalid');
    await commit(db, 'authenticated', ADMIN, 'select public.admin_set_promotion_active($1, true)', [id]);
    expect(await check(SHOPPER, [SLEEVES], 'PAUSADA')).toMatchObject({ ok: true });
    const events = await sql('select action, actor from public.promotion_events where promotion_id = $1 order by id', [id]);
    expect(events).toEqual([
      { action: 'created', actor: ADMIN },
      { action: 'paused', actor: ADMIN },
      { action: 'resumed', actor: ADMIN },
    ]);
  });

  it('total uses: the last use is taken, then the code is used up for everyone', async () => {
    await newPromotion({ code: 'DOSVECES', type: 'percent', value: 10, max_uses: 2 });
    expect((await placeOrder(SHOPPER, [SLEEVES], 'DOSVECES')).ok).toBe(true);
    expect((await placeOrder(OTHER, [SLEEVES], 'DOSVECES')).ok).toBe(true);
    expect(await uses('DOSVECES')).toBe(2);
    const refused = await placeOrder(NEWCOMER, [SLEEVES], 'DOSVECES');
    expect(refused.error).toMatchObject({ detail: 'coupon_used_up', message: 'Este cupón ya se usó el máximo de veces.' });
    expect(await check(NEWCOMER, [SLEEVES], 'DOSVECES')).toMatchObject({ ok: false, detail: 'coupon_used_up' });
  });

  it('uses per shopper: one shopper is refused, another may still use it', async () => {
    await newPromotion({ code: 'UNAPORCLIENTE', type: 'shipping', max_uses_per_customer: 1 });
    expect((await placeOrder(SHOPPER, [SLEEVES], 'UNAPORCLIENTE')).ok).toBe(true);
    const again = await placeOrder(SHOPPER, [SLEEVES], 'UNAPORCLIENTE');
    expect(again.error).toMatchObject({ detail: 'coupon_used_up_by_customer', message: 'Este cupón ya se usó el máximo de veces.' });
    // A shopper not signed in is answered by the general rules; the order decides with the user.
    expect(await check(undefined, [SLEEVES], 'UNAPORCLIENTE')).toMatchObject({ ok: true });
    expect((await placeOrder(OTHER, [SLEEVES], 'UNAPORCLIENTE')).ok).toBe(true);
  });

  it('first purchase only: refused to a shopper with an order, given to a newcomer', async () => {
    await newPromotion({ code: 'BIENVENIDA', type: 'fixed', value: 50, first_purchase_only: true });
    expect(await check(SHOPPER, [SLEEVES], 'BIENVENIDA')).toEqual({
      ok: false,
      detail: 'coupon_first_purchase',
      message: 'Este cupón es solo para tu primera compra.',
    });
    const newcomer = await placeOrder(NEWCOMER, [SLEEVES], 'bienvenida');
    expect(newcomer.ok).toBe(true);
    expect((await orderRow(newcomer.rows[0]!.id)).discount).toBe(50);
  });
});

describe('a use returned', () => {
  it('when the unpaid order is cancelled, in the same transaction', async () => {
    await newPromotion({ code: 'UNICA', type: 'percent', value: 20, max_uses: 1 });
    const placed = await placeOrder(OTHER, [SLEEVES], 'UNICA');
    expect(placed.ok).toBe(true);
    expect(await uses('UNICA')).toBe(1);
    const cancelled = await commit(db, 'authenticated', OTHER, 'select public.cancel_order($1) as ok', [placed.rows[0]!.id]);
    expect(cancelled.ok).toBe(true);
    expect(await uses('UNICA')).toBe(0);
    const [redemption] = await sql('select returned_at is not null as returned from public.promotion_redemptions where order_id = $1', [placed.rows[0]!.id]);
    expect(redemption).toEqual({ returned: true });
    const events = await sql("select order_id, actor from public.promotion_events where action = 'use_returned' and order_id = $1", [placed.rows[0]!.id]);
    expect(events).toEqual([{ order_id: placed.rows[0]!.id, actor: OTHER }]);
    expect((await placeOrder(SHOPPER, [SLEEVES], 'UNICA')).ok).toBe(true);
  });

  it('when the unpaid order expires: no longer counted, and returned when the expired orders are swept', async () => {
    await newPromotion({ code: 'EXPIRA', type: 'percent', value: 20, max_uses: 1 });
    const placed = await placeOrder(OTHER, [SLEEVES], 'EXPIRA');
    expect(placed.ok).toBe(true);
    expect((await placeOrder(SHOPPER, [SLEEVES], 'EXPIRA')).error?.detail).toBe('coupon_used_up');
    await sql("update public.orders set expires_at = now() - interval '1 minute' where id = $1", [placed.rows[0]!.id]);
    expect(await uses('EXPIRA')).toBe(0);
    expect(await check(SHOPPER, [SLEEVES], 'EXPIRA')).toMatchObject({ ok: true });
    const next = await placeOrder(SHOPPER, [SLEEVES], 'EXPIRA');
    expect(next.ok).toBe(true);
    const [swept] = await sql(
      `select o.status::text as status, r.returned_at is not null as returned
         from public.orders o join public.promotion_redemptions r on r.order_id = o.id where o.id = $1`,
      [placed.rows[0]!.id],
    );
    expect(swept).toEqual({ status: 'Cancelado', returned: true });
    expect(await uses('EXPIRA')).toBe(1);
  });

  it('not when a paid order is refunded: the use was made', async () => {
    await newPromotion({ code: 'PAGADA', type: 'percent', value: 10, max_uses: 5 });
    const placed = await placeOrder(OTHER, [SLEEVES], 'PAGADA');
    await sql("update public.orders set status = 'Pagado' where id = $1", [placed.rows[0]!.id]);
    await sql("update public.orders set status = 'Reembolsado' where id = $1", [placed.rows[0]!.id]);
    expect(await uses('PAGADA')).toBe(1);
  });
});

describe('editing a used promotion changes new orders only', () => {
  it('the earlier order and its redemption keep what they gave', async () => {
    const id = await newPromotion({ code: 'CAMBIA', type: 'percent', value: 10 });
    const first = await placeOrder(OTHER, [SLEEVES], 'CAMBIA');
    const edited = await save({ code: 'CAMBIA', type: 'fixed', value: 20 }, id);
    expect(edited.ok).toBe(true);
    const second = await placeOrder(SHOPPER, [SLEEVES], 'CAMBIA');
    expect((await orderRow(first.rows[0]!.id)).discount).toBe(30);
    expect((await orderRow(second.rows[0]!.id)).discount).toBe(20);
    const given = await sql('select discount::text from public.promotion_redemptions where promotion_id = $1 order by id', [id]);
    expect(given).toEqual([{ discount: '30.00' }, { discount: '20.00' }]);
    const events = await sql('select action, snapshot ->> $2 as type from public.promotion_events where promotion_id = $1 order by id', [id, 'type']);
    expect(events).toEqual([
      { action: 'created', type: 'percent' },
      { action: 'updated', type: 'fixed' },
    ]);
  });
});

describe('the back office', () => {
  it('refuses bad forms with clear messages', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ code: 'a', type: 'percent', value: 10 }, 'code_invalid', 'El código debe tener de 3 a 40 letras, números, guiones o guiones bajos.'],
      [{ code: 'MEKACAT10', type: 'percent', value: 5 }, 'code_taken', 'Ya existe una promoción con el código MEKACAT10.'],
      [{ code: 'mekacat10', type: 'percent', value: 5 }, 'code_taken', 'Ya existe una promoción con el código MEKACAT10.'],
      [{ code: 'NUEVA', type: 'percent', value: 150 }, 'value_invalid', 'El porcentaje debe ser un número entero entre 1 y 100.'],
      [{ code: 'NUEVA', type: 'percent', value: 12.5 }, 'value_invalid', 'El porcentaje debe ser un número entero entre 1 y 100.'],
      [{ code: 'NUEVA', type: 'fixed', value: 0 }, 'value_invalid', 'El monto debe ser mayor que $0.00.'],
      [{ code: 'NUEVA', type: 'regalo', value: 1 }, 'type_invalid', 'Elige el tipo de promoción.'],
      [
        { code: 'NUEVA', type: 'shipping', starts_at: '2026-12-01T00:00:00-06:00', ends_at: '2026-11-01T00:00:00-06:00' },
        'window_invalid',
        'La promoción debe terminar después de empezar.',
      ],
      [{ code: 'NUEVA', type: 'shipping', max_uses: 0 }, 'limits_invalid', 'Los límites de usos deben ser enteros positivos (vacío = sin límite).'],
      [{ code: 'NUEVA', type: 'shipping', starts_at: 'mañana' }, 'fields_invalid', 'Revisa los números y las fechas de la promoción.'],
      [{ code: 'NUEVA', type: 'shipping', product_ids: 'pk-box' }, 'scope_invalid', 'El alcance de la promoción no es válido.'],
    ];
    for (const [fields, detail, message] of cases) {
      const outcome = await save(fields);
      expect(outcome.error, JSON.stringify(fields)).toMatchObject({ detail, message });
    }
  });

  it('only an admin writes or lists promotions', async () => {
    const write = await commit(db, 'authenticated', SHOPPER, 'select public.admin_save_promotion(null, $1::jsonb)', [
      JSON.stringify({ code: 'MIA', type: 'shipping' }),
    ]);
    expect(write.error).toMatchObject({ code: '42501', detail: 'not_admin' });
    const list = await attempt(db, 'authenticated', SHOPPER, 'select * from public.admin_promotions()');
    expect(list.error?.detail).toBe('not_admin');
    expect((await attempt(db, 'anon', undefined, 'select * from public.admin_promotions()')).ok).toBe(false);
  });

  it('lists each promotion with its uses, discount given and paid sales', async () => {
    const id = await newPromotion({ code: 'REPORTE', type: 'percent', value: 10, max_uses: 10 });
    const paid = await placeOrder(OTHER, [SLEEVES], 'REPORTE');
    await sql("update public.orders set status = 'Pagado' where id = $1", [paid.rows[0]!.id]);
    await placeOrder(SHOPPER, [BOX], 'REPORTE');
    const cancelled = await placeOrder(NEWCOMER, [SLEEVES], 'REPORTE');
    await commit(db, 'authenticated', NEWCOMER, 'select public.cancel_order($1)', [cancelled.rows[0]!.id]);
    const listed = await attempt<Record<string, unknown>>(
      db,
      'authenticated',
      ADMIN,
      'select code, max_uses, uses, discount_given::text, sales::text from public.admin_promotions() where id = $1',
      [id],
    );
    // Paid $300 − $30 + $99 shipping = $369; the pending $2,000 order's $200 counts as given, not as a sale.
    expect(listed.rows).toEqual([{ code: 'REPORTE', max_uses: 10, uses: 2, discount_given: '230.00', sales: '369.00' }]);
  });
});
