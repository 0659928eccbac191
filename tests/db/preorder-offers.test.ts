/**
 * A single's offer as a preorder: an admin saves a campaign for one offer (a copy of a card whose
 * set is not out), preorder_open_offers tells anyone the offer's release date and the units one
 * order may take while the campaign is open (per-order limit capped by the allocation left), and
 * create_order sells that offer with no stock on the shelf as a preorder line, within the limits;
 * other offers of the card stay sold by their stock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, OWED } from './support.ts';

const ADMIN = '21000000-0000-4000-a000-0000000000a1';
const ANA = '21000000-0000-4000-a000-000000000001';
const BETO = '21000000-0000-4000-a000-000000000002';
const PRE_NM = '21000000-0000-4000-b000-000000000001';
const PRE_LP = '21000000-0000-4000-b000-000000000002';
const CLOSED = '21000000-0000-4000-b000-000000000003';

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

function saveOfferCampaign(as: string, product: string, offer: string | null, allocation: number, perOrder: number, opens = '-1 hour', closes = '+30 days') {
  return commit<{ id: string }>(
    db,
    'authenticated',
    as,
    `select public.admin_save_preorder_campaign($1, $2::uuid, '2027-03-05', now() + $3::interval, now() + $4::interval, $5, $6, $6) as id`,
    [product, offer, opens, closes, allocation, perOrder],
  );
}

function order(user: string, items: unknown[]) {
  return commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, null, false) as id', [JSON.stringify(items)]);
}

function openOffers(role: 'anon' | 'authenticated', products: string[]) {
  return attempt<{ product_id: string; offer_id: string; release_date: string; remaining: number }>(
    db,
    role,
    role === 'anon' ? undefined : ANA,
    'select product_id, offer_id, release_date::text as release_date, remaining from public.preorder_open_offers($1::text[])',
    [products],
  );
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${ADMIN}', 'jefa@correo.mx', '{}'), ('${ANA}', 'ana@correo.mx', '{}'), ('${BETO}', 'beto@correo.mx', '{}')`,
  );
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
       ('sv10-201', 'Mewtwo ex', 2500, 0, 100, 'pokemon'), ('sv10-050', 'Abra', 50, 0, 100, 'pokemon')`,
  );
  await sql(
    `insert into public.card_printings (product_id, expansion, collector_number, rarity) values ('sv10-201', 'SV10', '201', 'SIR'), ('sv10-050', 'SV10', '050', 'C')`,
  );
  await sql(
    `insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
       ('${PRE_NM}', 'sv10-201', 'NM', 'es', 'holo', 2600, 0),
       ('${PRE_LP}', 'sv10-201', 'LP', 'en', 'holo', 1800, 0),
       ('${CLOSED}', 'sv10-050', 'NM', 'es', 'normal', 60, 0)`,
  );
});

afterAll(async () => {
  await db?.close();
});

describe("a preorder of a single's offer", () => {
  it('is saved by an admin for one offer, leaves the card itself no preorder, and is read by anyone while open', async () => {
    expect((await saveOfferCampaign(ANA, 'sv10-201', PRE_NM, 3, 2)).ok).toBe(false);
    const saved = await saveOfferCampaign(ADMIN, 'sv10-201', PRE_NM, 3, 2);
    expect(saved.error).toBeUndefined();
    // An uncapped campaign lets one order take its per-order limit.
    expect((await saveOfferCampaign(ADMIN, 'sv10-201', PRE_LP, 0, 4)).ok).toBe(true);
    // One that closed yesterday is not offered.
    expect((await saveOfferCampaign(ADMIN, 'sv10-050', CLOSED, 0, 4, '-3 days', '-1 day')).ok).toBe(true);
    expect(await sql(`select preorder from public.products where id = 'sv10-201'`)).toEqual([{ preorder: false }]);

    for (const role of ['anon', 'authenticated'] as const) {
      const read = await openOffers(role, ['sv10-201', 'sv10-050']);
      expect(read.error).toBeUndefined();
      expect(read.rows).toEqual([
        { product_id: 'sv10-201', offer_id: PRE_NM, release_date: '2027-03-05', remaining: 2 },
        { product_id: 'sv10-201', offer_id: PRE_LP, release_date: '2027-03-05', remaining: 4 },
      ]);
    }
  });

  it('create_order sells the offer with an empty shelf as a preorder line within the per-order limit and the allocation', async () => {
    const tooMany = await order(ANA, [{ product_id: 'sv10-201', offer_id: PRE_NM, quantity: 3 }]);
    expect(tooMany.ok).toBe(false);

    const made = await order(ANA, [{ product_id: 'sv10-201', offer_id: PRE_NM, quantity: 2 }]);
    expect(made.error).toBeUndefined();
    const orderId = made.rows[0]!.id;
    expect(await sql('select offer_id, quantity, status from public.preorder_lines where order_id = $1', [orderId])).toEqual([
      { offer_id: PRE_NM, quantity: 2, status: 'awaiting' },
    ]);
    // No stock was taken from the offer (there was none).
    expect(await sql('select stock from public.card_offers where id = $1', [PRE_NM])).toEqual([{ stock: 0 }]);
    // The allocation of 3 leaves one unit for the next order.
    const left = await openOffers('anon', ['sv10-201']);
    expect(left.rows.find((row) => row.offer_id === PRE_NM)?.remaining).toBe(1);
    const beyond = await order(BETO, [{ product_id: 'sv10-201', offer_id: PRE_NM, quantity: 2 }]);
    expect(beyond.ok).toBe(false);
    expect((await order(BETO, [{ product_id: 'sv10-201', offer_id: PRE_NM, quantity: 1 }])).error).toBeUndefined();
    expect((await openOffers('anon', ['sv10-201'])).rows.find((row) => row.offer_id === PRE_NM)?.remaining).toBe(0);
  });

  it("an arrival fills the offer's paid preorders oldest first and puts the units left on the offer's shelf", async () => {
    const paid = await sql<{ id: string }>(`select order_id as id from public.preorder_lines where offer_id = $1 order by created_at`, [PRE_NM]);
    expect(paid).toHaveLength(2);
    for (const [i, { id }] of paid.entries()) {
      const done = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', $2, ${OWED})`, [id, `pi_${id}`]);
      expect(done.error).toBeUndefined();
      await sql('update public.orders set paid_at = $2 where id = $1', [id, `2026-12-0${i + 1}T10:00:00Z`]);
    }
    const [{ id: campaign }] = await sql<{ id: string }>('select id from public.preorder_campaigns where offer_id = $1', [PRE_NM]);
    const arrived = await commit<{ result: { to_stock: number } }>(
      db,
      'service_role',
      undefined,
      'select public.preorder_register_arrival($1, $2, $3, $4) as result',
      [campaign, 5, 'arrival-offer-0001', ADMIN],
    );
    expect(arrived.error).toBeUndefined();
    expect(arrived.rows[0]!.result.to_stock).toBe(2);
    expect(await sql('select status from public.preorder_lines where offer_id = $1 order by created_at', [PRE_NM])).toEqual([
      { status: 'allocated' },
      { status: 'allocated' },
    ]);
    expect(await sql('select stock from public.card_offers where id = $1', [PRE_NM])).toEqual([{ stock: 2 }]);
  });

  it('an offer whose campaign closed is refused with no stock, as any sold-out offer', async () => {
    const closed = await order(ANA, [{ product_id: 'sv10-050', offer_id: CLOSED, quantity: 1 }]);
    expect(closed.ok).toBe(false);
  });
});
