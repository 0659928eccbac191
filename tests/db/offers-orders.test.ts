/**
 * create_order sells card offers (public.card_offers) on PGlite: each offer is its own line,
 * priced at the offer's price and labelled like offerLabel in src/domain/singles.ts; the offer's
 * stock is reserved (not the product's); an offer of another product or beyond its stock is
 * refused like a product would be; the per-customer limit counts every line of the product; and
 * cancelling, the shop's cancellation, expiry and refunds with restock return the offer's units.
 * An order without offers is priced and reserved from products as before; a single card (a product
 * with a printing) is sold by offer only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { offerLabel, type CardOffer } from '~/domain/singles.ts';
import { attempt, commit, migratedPglite, type Outcome, OWED } from './support.ts';

const SHOPPER = '20000000-0000-4000-a000-000000000001';
const OTHER = '20000000-0000-4000-a000-000000000002';
const ADMIN = '20000000-0000-4000-a000-0000000000ad';

const NM_ES_HOLO = '20000000-0000-4000-d000-000000000001';
const LP_EN_NORMAL = '20000000-0000-4000-d000-000000000002';
const PSA_10 = '20000000-0000-4000-d000-000000000003';
const LUFFY_NM = '20000000-0000-4000-d000-000000000004';
const BGS_95 = '20000000-0000-4000-d000-000000000005';
const LIMITED_NM = '20000000-0000-4000-d000-000000000006';
const LIMITED_LP = '20000000-0000-4000-d000-000000000007';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function offerStock(id: string): Promise<number> {
  const rows = await sql('select stock from public.card_offers where id = $1', [id]);
  return Number(rows[0]?.stock);
}

async function productStock(id: string): Promise<number> {
  const rows = await sql('select stock from public.products where id = $1', [id]);
  return Number(rows[0]?.stock);
}

function placeOrder(user: string, items: unknown, coupon: string | null = null): Promise<Outcome<{ id: string }>> {
  return commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, $2) as id', [JSON.stringify(items), coupon]);
}

function tryOrder(user: string, items: unknown): Promise<Outcome<{ id: string }>> {
  return attempt<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, null) as id', [JSON.stringify(items)]);
}

async function placed(user: string, items: unknown): Promise<string> {
  const outcome = await placeOrder(user, items);
  expect(outcome.error).toBeUndefined();
  return outcome.rows[0]!.id;
}

async function linesOf(orderId: string): Promise<Record<string, unknown>[]> {
  return sql(
    `select i.product_id, i.offer_id, i.offer_label, i.quantity, i.price::text as price
       from public.order_items i where i.order_id = $1 order by i.price, i.offer_label nulls first`,
    [orderId],
  );
}

beforeAll(async () => {
  db = await migratedPglite();
  const statements = [
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${SHOPPER}', 'cartas@correo.mx', '{}'), ('${OTHER}', 'otra@correo.mx', '{}'), ('${ADMIN}', 'jefa@correo.mx', '{}')`,
    `update public.profiles set is_admin = true where id = '${ADMIN}'`,
    `insert into public.franchises (id, name) values ('pokemon', 'Pokémon'), ('one-piece', 'One Piece')`,
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
       ('sv08-199', 'Pikachu ex', 2500, 7, 1000, 'pokemon'),
       ('op05-119', 'Monkey.D.Luffy', 4000, 3, 1000, 'one-piece'),
       ('sv08-238', 'Pikachu ex (ilustración)', 9000, 50, 3, 'pokemon')`,
    `insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
       ('${NM_ES_HOLO}', 'sv08-199', 'NM', 'es', 'holo', 2600, 4),
       ('${LP_EN_NORMAL}', 'sv08-199', 'LP', 'en', 'normal', 1800.50, 6),
       ('${LUFFY_NM}', 'op05-119', 'NM', 'ja', 'manga', 3900, 2),
       ('${LIMITED_NM}', 'sv08-238', 'NM', 'es', 'reverse-holo', 9500, 10),
       ('${LIMITED_LP}', 'sv08-238', 'LP', 'es', 'reverse-holo', 8000, 10)`,
    `insert into public.card_offers (id, product_id, language, finish, price, stock, grading_company, grade, certificate_number) values
       ('${PSA_10}', 'sv08-199', 'en', 'holo', 12000, 1, 'PSA', 10, '81234567'),
       ('${BGS_95}', 'op05-119', 'ja', 'manga', 30000, 1, 'BGS', 9.5, '0012345678')`,
  ];
  for (const statement of statements) await sql(statement);
});

afterAll(async () => {
  await db?.close();
});

describe('card_offer_label matches offerLabel', () => {
  const offers: CardOffer[] = [
    { condition: 'NM', language: 'es', finish: 'holo', gradingCompany: null, grade: null },
    { condition: 'LP', language: 'en', finish: 'reverse-holo', gradingCompany: null, grade: null },
    { condition: 'DMG', language: 'ja', finish: 'manga', gradingCompany: null, grade: null },
    { condition: 'MP', language: 'xx', finish: 'etched', gradingCompany: null, grade: null },
    { condition: 'HP', language: 'zh', finish: 'foil', gradingCompany: null, grade: null },
    { condition: null, language: 'en', finish: 'holo', gradingCompany: 'PSA', grade: 10 },
    { condition: null, language: 'ja', finish: 'manga', gradingCompany: 'BGS', grade: 9.5 },
    { condition: null, language: 'de', finish: 'normal', gradingCompany: 'CGC', grade: 1 },
  ];
  for (const offer of offers) {
    const expected = offerLabel(offer);
    it(expected, async () => {
      const [row] = await sql('select public.card_offer_label($1::public.card_condition, $2, $3, $4::public.grading_company, $5::numeric) as label', [
        offer.condition,
        offer.language,
        offer.finish,
        offer.gradingCompany,
        offer.grade,
      ]);
      expect(row?.label).toBe(expected);
    });
  }

  it('labels the examples the shop shows', () => {
    expect(offerLabel(offers[0]!)).toBe('NM · Español · Holo');
    expect(offerLabel(offers[5]!)).toBe('PSA 10 · Inglés');
  });
});

describe('create_order with offers', () => {
  it('prices each offer as its own line, labelled, and reserves the offers, not the product', async () => {
    const orderId = await placed(SHOPPER, [
      { product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 2 },
      { product_id: 'sv08-199', offer_id: LP_EN_NORMAL, quantity: 1 },
      { product_id: 'sv08-199', offer_id: PSA_10, quantity: 1 },
      { product_id: 'op05-119', offer_id: BGS_95, quantity: 1 },
    ]);
    expect(await linesOf(orderId)).toEqual([
      { product_id: 'sv08-199', offer_id: LP_EN_NORMAL, offer_label: 'LP · Inglés · Normal', quantity: 1, price: '1800.50' },
      { product_id: 'sv08-199', offer_id: NM_ES_HOLO, offer_label: 'NM · Español · Holo', quantity: 2, price: '2600.00' },
      { product_id: 'sv08-199', offer_id: PSA_10, offer_label: 'PSA 10 · Inglés', quantity: 1, price: '12000.00' },
      { product_id: 'op05-119', offer_id: BGS_95, offer_label: 'BGS 9.5 · Japonés', quantity: 1, price: '30000.00' },
    ]);
    const [order] = await sql('select subtotal::text, shipping::text, total::text from public.orders where id = $1', [orderId]);
    expect(order).toEqual({ subtotal: '49000.50', shipping: '0.00', total: '49000.50' });

    expect(await offerStock(NM_ES_HOLO)).toBe(2);
    expect(await offerStock(LP_EN_NORMAL)).toBe(5);
    expect(await offerStock(PSA_10)).toBe(0);
    expect(await offerStock(BGS_95)).toBe(0);
    expect(await productStock('sv08-199')).toBe(7);
    expect(await productStock('op05-119')).toBe(3);

    // The label stays on the order when the offer changes or goes away.
    await sql(`update public.card_offers set condition = 'MP', price = 1 where id = $1`, [NM_ES_HOLO]);
    await sql('delete from public.card_offers where id = $1', [BGS_95]);
    const after = await linesOf(orderId);
    expect(after.find((line) => line.product_id === 'op05-119')).toMatchObject({ offer_id: null, offer_label: 'BGS 9.5 · Japonés', price: '30000.00' });
    expect(after.find((line) => line.offer_id === NM_ES_HOLO)).toMatchObject({ offer_label: 'NM · Español · Holo', price: '2600.00' });
    await sql(`update public.card_offers set condition = 'NM', price = 2600 where id = $1`, [NM_ES_HOLO]);

    // Cancelling returns every offer's units; a deleted offer's units go nowhere, never to the product.
    const cancelled = await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1) as ok', [orderId]);
    expect(cancelled.error).toBeUndefined();
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
    expect(await offerStock(LP_EN_NORMAL)).toBe(6);
    expect(await offerStock(PSA_10)).toBe(1);
    expect(await productStock('sv08-199')).toBe(7);
    expect(await productStock('op05-119')).toBe(3);
  });

  it('sells the product and one of its offers on two lines, each from its own stock', async () => {
    const orderId = await placed(SHOPPER, [
      { product_id: 'op05-119', quantity: 1 },
      { product_id: 'op05-119', offer_id: LUFFY_NM, quantity: 1 },
      { product_id: 'op05-119', offer_id: LUFFY_NM, quantity: 1 },
    ]);
    expect(await linesOf(orderId)).toEqual([
      { product_id: 'op05-119', offer_id: LUFFY_NM, offer_label: 'NM · Japonés · Manga', quantity: 2, price: '3900.00' },
      { product_id: 'op05-119', offer_id: null, offer_label: null, quantity: 1, price: '4000.00' },
    ]);
    expect(await offerStock(LUFFY_NM)).toBe(0);
    expect(await productStock('op05-119')).toBe(2);
    await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [orderId]);
    expect(await offerStock(LUFFY_NM)).toBe(2);
    expect(await productStock('op05-119')).toBe(3);
  });

  it('sells a single card (a product with a printing) by offer only: a line without an offer is refused', async () => {
    await sql(`insert into public.card_printings (product_id, expansion, collector_number, rarity) values ('op05-119', 'OP05', 'OP05-119', 'SEC')`);
    try {
      const plain = await tryOrder(SHOPPER, [{ product_id: 'op05-119', quantity: 1 }]);
      expect(plain.error).toMatchObject({ code: 'P0001', detail: 'choose_offer:op05-119' });
      expect(plain.error?.message).toBe('Elige la condición, el idioma y el acabado de «Monkey.D.Luffy» en su página.');
      // Nothing was reserved, and an order of the same card by offer goes through.
      expect(await productStock('op05-119')).toBe(3);
      const orderId = await placed(SHOPPER, [{ product_id: 'op05-119', offer_id: LUFFY_NM, quantity: 1 }]);
      expect(await linesOf(orderId)).toEqual([
        { product_id: 'op05-119', offer_id: LUFFY_NM, offer_label: 'NM · Japonés · Manga', quantity: 1, price: '3900.00' },
      ]);
      await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [orderId]);
      expect(await offerStock(LUFFY_NM)).toBe(2);
    } finally {
      await sql(`delete from public.card_printings where product_id = 'op05-119'`);
    }
  });

  it('refuses an offer of another product like an unknown product', async () => {
    const outcome = await tryOrder(SHOPPER, [{ product_id: 'op05-119', offer_id: NM_ES_HOLO, quantity: 1 }]);
    expect(outcome.error).toMatchObject({ code: 'P0001', detail: 'unknown_product:op05-119' });
    expect(outcome.error?.message).toContain('«op05-119»');
    const unknown = await tryOrder(SHOPPER, [{ product_id: 'sv08-199', offer_id: '20000000-0000-4000-d000-0000000000ff', quantity: 1 }]);
    expect(unknown.error).toMatchObject({ code: 'P0001', detail: 'unknown_product:sv08-199' });
    const sameOfferTwoProducts = await tryOrder(SHOPPER, [
      { product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 1 },
      { product_id: 'op05-119', offer_id: NM_ES_HOLO, quantity: 1 },
    ]);
    expect(sameOfferTwoProducts.error).toMatchObject({ code: 'P0001', detail: 'unknown_product:op05-119' });
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
  });

  it('refuses an offer id that is not a uuid as an invalid item', async () => {
    for (const offerId of ['no-es-uuid', 42, { id: NM_ES_HOLO }]) {
      const outcome = await tryOrder(SHOPPER, [{ product_id: 'sv08-199', offer_id: offerId, quantity: 1 }]);
      expect(outcome.error, JSON.stringify(offerId)).toMatchObject({ code: 'P0001', detail: 'invalid_item' });
    }
    const nullOffer = await tryOrder(SHOPPER, [{ product_id: 'sv08-199', offer_id: null, quantity: 1 }]);
    expect(nullOffer.error).toBeUndefined();
  });

  it('refuses more than the offer’s stock with the same message as for a product', async () => {
    const outcome = await tryOrder(SHOPPER, [{ product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 5 }]);
    expect(outcome.error).toMatchObject({
      code: 'P0001',
      message: 'Stock insuficiente para «Pikachu ex» (disponible: 4).',
      detail: 'out_of_stock:sv08-199',
      hint: '4',
    });
    // Repeated lines of one offer are merged before the check.
    const merged = await tryOrder(SHOPPER, [
      { product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 3 },
      { product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 2 },
    ]);
    expect(merged.error).toMatchObject({ detail: 'out_of_stock:sv08-199', hint: '4' });
    // The product's own stock (7) does not cover an offer.
    const product = await tryOrder(SHOPPER, [{ product_id: 'sv08-199', quantity: 8 }]);
    expect(product.error?.message).toBe('Stock insuficiente para «Pikachu ex» (disponible: 7).');
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
  });

  it('counts every offer of a product together for the per-customer limit', async () => {
    const both = await tryOrder(OTHER, [
      { product_id: 'sv08-238', offer_id: LIMITED_NM, quantity: 2 },
      { product_id: 'sv08-238', offer_id: LIMITED_LP, quantity: 2 },
    ]);
    expect(both.error).toMatchObject({ code: 'P0001', detail: 'limit_exceeded:sv08-238', hint: '3' });

    const first = await placed(OTHER, [
      { product_id: 'sv08-238', offer_id: LIMITED_NM, quantity: 1 },
      { product_id: 'sv08-238', offer_id: LIMITED_LP, quantity: 1 },
    ]);
    const again = await tryOrder(OTHER, [{ product_id: 'sv08-238', offer_id: LIMITED_LP, quantity: 2 }]);
    expect(again.error).toMatchObject({ detail: 'limit_exceeded:sv08-238', hint: '1' });
    expect(again.error?.message).toContain('ya tienes 2 en otros pedidos');
    const plain = await tryOrder(OTHER, [{ product_id: 'sv08-238', quantity: 2 }]);
    expect(plain.error).toMatchObject({ detail: 'limit_exceeded:sv08-238' });
    const last = await tryOrder(OTHER, [{ product_id: 'sv08-238', offer_id: LIMITED_NM, quantity: 1 }]);
    expect(last.error).toBeUndefined();

    await commit(db, 'authenticated', OTHER, 'select public.cancel_order($1)', [first]);
    expect(await offerStock(LIMITED_NM)).toBe(10);
    expect(await offerStock(LIMITED_LP)).toBe(10);
  });

  it('returns the offer’s units when the reservation expires, from the sweeper and from create_order', async () => {
    const orderId = await placed(SHOPPER, [{ product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 4 }]);
    expect(await offerStock(NM_ES_HOLO)).toBe(0);
    await sql(`update public.orders set expires_at = now() - interval '1 minute' where id = $1`, [orderId]);
    const swept = await commit(db, 'service_role', undefined, 'select public.release_expired_orders() as n');
    expect(swept.rows[0]).toEqual({ n: 1 });
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
    expect(await productStock('sv08-199')).toBe(7);

    const second = await placed(SHOPPER, [{ product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 4 }]);
    await sql(`update public.orders set expires_at = now() - interval '1 minute' where id = $1`, [second]);
    // Only the expired order holds the 4 units: create_order releases them before it checks.
    const third = await placed(SHOPPER, [{ product_id: 'sv08-199', offer_id: NM_ES_HOLO, quantity: 3 }]);
    const [expired] = await sql('select status from public.orders where id = $1', [second]);
    expect(expired?.status).toBe('Cancelado');
    expect(await offerStock(NM_ES_HOLO)).toBe(1);
    expect(await productStock('sv08-199')).toBe(7);
    await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [third]);
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
  });

  it('returns the offer’s units when the shop cancels or refunds with restock', async () => {
    const cancelled = await placed(SHOPPER, [{ product_id: 'sv08-199', offer_id: LP_EN_NORMAL, quantity: 2 }]);
    expect(await offerStock(LP_EN_NORMAL)).toBe(4);
    const byShop = await commit(db, 'authenticated', ADMIN, `select public.admin_set_order_status($1, 'Cancelado') as r`, [cancelled]);
    expect(byShop.error).toBeUndefined();
    expect(await offerStock(LP_EN_NORMAL)).toBe(6);

    const refunded = await placed(SHOPPER, [
      { product_id: 'sv08-199', offer_id: LP_EN_NORMAL, quantity: 3 },
      { product_id: 'sv08-199', quantity: 1 },
    ]);
    expect(await offerStock(LP_EN_NORMAL)).toBe(3);
    expect(await productStock('sv08-199')).toBe(6);
    const paid = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', 'pi_ofertas', ${OWED})`, [refunded]);
    expect(paid.error).toBeUndefined();
    const refund = await commit(db, 'service_role', undefined, `select public.finish_order_refund($1, 'ref-1', 'Reembolso', true) as status`, [refunded]);
    expect(refund.rows[0]).toEqual({ status: 'Reembolsado' });
    expect(await offerStock(LP_EN_NORMAL)).toBe(6);
    expect(await productStock('sv08-199')).toBe(7);
  });
});

describe('create_order without offers', () => {
  it('prices from products and reserves the product’s stock, as before', async () => {
    const orderId = await placed(SHOPPER, [
      { product_id: 'sv08-199', quantity: 2 },
      { product_id: 'sv08-199', quantity: 1 },
    ]);
    expect(await linesOf(orderId)).toEqual([{ product_id: 'sv08-199', offer_id: null, offer_label: null, quantity: 3, price: '2500.00' }]);
    const [order] = await sql('select subtotal::text, shipping::text, total::text from public.orders where id = $1', [orderId]);
    expect(order).toEqual({ subtotal: '7500.00', shipping: '0.00', total: '7500.00' });
    expect(await productStock('sv08-199')).toBe(4);
    expect(await offerStock(NM_ES_HOLO)).toBe(4);
    expect(await offerStock(LP_EN_NORMAL)).toBe(6);
    await commit(db, 'authenticated', SHOPPER, 'select public.cancel_order($1)', [orderId]);
    expect(await productStock('sv08-199')).toBe(7);
  });
});
