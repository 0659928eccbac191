/**
 * Preorder campaigns in the database: only admins save a campaign; create_order holds a preorder
 * line to the campaign's window, per-order and per-customer limits and allocation (takes no stock,
 * stores the waitlist choice); an arrival fills paid preorders oldest payment first and whole or
 * not at all, waitlists or refunds the rest by the shopper's choice, fills the waitlist first on
 * the next shipment, and a repeated arrival (same key) allocates nothing. The allocation cap under
 * real concurrency runs on a throwaway PostgreSQL server.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll, orderAtOnce } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { attempt, commit, migratedPglite, OWED, ROOT_DIR } from './support.ts';

const ADMIN = '20000000-0000-4000-a000-0000000000a1';
const SHOPPERS = [
  '20000000-0000-4000-a000-000000000001',
  '20000000-0000-4000-a000-000000000002',
  '20000000-0000-4000-a000-000000000003',
  '20000000-0000-4000-a000-000000000004',
] as const;
const [ANA, BETO, CARLA, DIANA] = SHOPPERS;

let db: PGlite;

async function sql<T = Record<string, unknown>>(statement: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

interface Campaign {
  product: string;
  opens?: string;
  closes?: string;
  allocation?: number;
  perCustomer?: number;
  perOrder?: number;
}

function saveCampaign(as: string, c: Campaign) {
  return commit<{ id: string }>(
    db,
    'authenticated',
    as,
    `select public.admin_save_preorder_campaign($1, null, '2027-02-12', $2::timestamptz, $3::timestamptz, $4, $5, $6) as id`,
    [
      c.product,
      c.opens ?? new Date(Date.now() - 3_600_000).toISOString(),
      c.closes ?? '2099-01-01T00:00:00Z',
      c.allocation ?? 0,
      c.perCustomer ?? 5,
      c.perOrder ?? 5,
    ],
  );
}

async function campaignOf(product: string): Promise<string> {
  const outcome = await saveCampaign(ADMIN, { product });
  if (!outcome.ok) throw new Error(outcome.error?.message);
  return outcome.rows[0]!.id;
}

function order(user: string, items: unknown[], waitlist = false) {
  return commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order($1::jsonb, null, $2) as id', [JSON.stringify(items), waitlist]);
}

async function paidOrder(user: string, product: string, quantity: number, waitlist: boolean, paidAt: string): Promise<string> {
  const made = await order(user, [{ product_id: product, quantity }], waitlist);
  if (!made.ok) throw new Error(made.error?.message);
  const id = made.rows[0]!.id;
  const paid = await commit(db, 'service_role', undefined, `select public.mark_order_paid($1, 'stripe', $2, ${OWED})`, [id, `pi_${id}`]);
  if (!paid.ok) throw new Error(paid.error?.message);
  await sql('update public.orders set paid_at = $2 where id = $1', [id, paidAt]);
  return id;
}

function arrival(campaign: string, quantity: number, key: string) {
  return commit<{ result: { allocated: number; to_stock: number; replayed: boolean; lines: Array<{ order_id: string; outcome: string }> } }>(
    db,
    'service_role',
    undefined,
    'select public.preorder_register_arrival($1, $2, $3, $4) as result',
    [campaign, quantity, key, ADMIN],
  );
}

async function lineStatus(orderId: string): Promise<string> {
  const rows = await sql<{ status: string }>('select status from public.preorder_lines where order_id = $1', [orderId]);
  return rows[0]!.status;
}

async function stockOf(product: string): Promise<number> {
  return (await sql<{ stock: number }>('select stock from public.products where id = $1', [product]))[0]!.stock;
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(
    `insert into auth.users (id, email, raw_user_meta_data) values
       ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa"}'),
       ${SHOPPERS.map((id, i) => `('${id}', 'cliente${i}@correo.mx', '{"username":"cliente${i}"}')`).join(', ')}`,
  );
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  const products = ['pk-window', 'pk-limits', 'pk-cap', 'pk-alloc', 'pk-expire', 'pk-mixed'];
  await sql(
    `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
       ${products.map((id) => `('${id}', 'Caja ${id}', 1000, 0, 10, 'pokemon')`).join(', ')},
       ('pk-stock', 'Sobre en existencia', 100, 10, 10, 'pokemon')`,
  );
});

afterAll(async () => {
  await db?.close();
});

describe('saving a campaign', () => {
  it('only an admin saves one; it marks the product as a preorder with its release date', async () => {
    const shopper = await saveCampaign(ANA, { product: 'pk-window' });
    expect(shopper.ok).toBe(false);
    expect(shopper.error?.code).toBe('42501');
    const anon = await attempt(
      db,
      'anon',
      undefined,
      `select public.admin_save_preorder_campaign('pk-window', null, '2027-02-12', now(), now() + interval '1 day', 0, 1, 1)`,
    );
    expect(anon.error?.code).toBe('42501');
    const saved = await saveCampaign(ADMIN, { product: 'pk-window', perOrder: 6, perCustomer: 5 });
    expect(saved.error?.detail).toBe('limits_invalid');
    expect((await saveCampaign(ADMIN, { product: 'pk-window' })).ok).toBe(true);
    expect(await sql(`select preorder, release_date::text as release from public.products where id = 'pk-window'`)).toEqual([
      { preorder: true, release: '2027-02-12' },
    ]);
    const direct = await attempt(db, 'authenticated', ADMIN, `update public.preorder_campaigns set allocation = 1 returning id`);
    expect(direct.ok).toBe(false);
  });
});

describe('create_order with a preorder line', () => {
  it('refuses it before the window opens and after it closes (no stock), and takes no stock inside it', async () => {
    await saveCampaign(ADMIN, { product: 'pk-window', opens: '2099-01-01T16:00:00Z', closes: '2099-02-01T00:00:00Z' });
    const early = await order(ANA, [{ product_id: 'pk-window', quantity: 1 }]);
    expect(early.ok).toBe(false);
    expect(early.error?.detail).toBe('preorder_not_open:pk-window');
    expect(early.error?.message).toBe('La preventa de «Caja pk-window» abre el 01/01/2099 a las 10:00 (hora del centro de México).');

    await saveCampaign(ADMIN, { product: 'pk-window', opens: '2020-01-01T00:00:00Z', closes: '2020-02-01T00:00:00Z' });
    const late = await order(ANA, [{ product_id: 'pk-window', quantity: 1 }]);
    expect(late.error?.detail).toBe('preorder_closed:pk-window');

    await saveCampaign(ADMIN, { product: 'pk-window' });
    const inside = await order(ANA, [{ product_id: 'pk-window', quantity: 2 }], true);
    expect(inside.ok, inside.error?.message).toBe(true);
    expect(await stockOf('pk-window')).toBe(0);
    expect(await sql('select quantity, waitlist, status from public.preorder_lines where order_id = $1', [inside.rows[0]!.id])).toEqual([
      { quantity: 2, waitlist: true, status: 'awaiting' },
    ]);
    // The shopper reads their own line; another shopper does not.
    expect((await attempt(db, 'authenticated', ANA, 'select order_id from public.preorder_lines')).rows).toHaveLength(1);
    expect((await attempt(db, 'authenticated', BETO, 'select order_id from public.preorder_lines')).rows).toHaveLength(0);
  });

  it('keeps the shop’s other rules: an ordinary line still takes stock, and callers without waitlist work', async () => {
    const made = await commit<{ id: string }>(db, 'authenticated', BETO, 'select public.create_order($1::jsonb) as id', [
      JSON.stringify([
        { product_id: 'pk-window', quantity: 1 },
        { product_id: 'pk-stock', quantity: 3 },
      ]),
    ]);
    expect(made.ok, made.error?.message).toBe(true);
    expect(await stockOf('pk-stock')).toBe(7);
    expect(await sql('select waitlist from public.preorder_lines where order_id = $1', [made.rows[0]!.id])).toEqual([{ waitlist: false }]);
    const tooMany = await order(BETO, [{ product_id: 'pk-stock', quantity: 8 }]);
    expect(tooMany.error?.detail).toBe('out_of_stock:pk-stock');
  });

  it('holds the per-order and per-customer limits of the campaign', async () => {
    await saveCampaign(ADMIN, { product: 'pk-limits', perOrder: 2, perCustomer: 3 });
    const big = await order(ANA, [{ product_id: 'pk-limits', quantity: 3 }]);
    expect(big.error?.detail).toBe('limit_exceeded:pk-limits');
    expect(big.error?.hint).toBe('2');
    expect(big.error?.message).toBe('Solo puedes apartar 2 unidad(es) de «Caja pk-limits» por pedido.');
    expect((await order(ANA, [{ product_id: 'pk-limits', quantity: 2 }])).ok).toBe(true);
    const again = await order(ANA, [{ product_id: 'pk-limits', quantity: 2 }]);
    expect(again.error?.detail).toBe('limit_exceeded:pk-limits');
    expect(again.error?.hint).toBe('1');
    expect((await order(ANA, [{ product_id: 'pk-limits', quantity: 1 }])).ok).toBe(true);
    // Another shopper has their own limit.
    expect((await order(BETO, [{ product_id: 'pk-limits', quantity: 2 }])).ok).toBe(true);
  });

  it('caps the units in live orders at the allocation; an expired order frees its units and gives no stock back', async () => {
    await saveCampaign(ADMIN, { product: 'pk-expire', allocation: 3 });
    const first = await order(ANA, [{ product_id: 'pk-expire', quantity: 3 }]);
    expect(first.ok).toBe(true);
    const over = await order(BETO, [{ product_id: 'pk-expire', quantity: 1 }]);
    expect(over.error?.detail).toBe('out_of_stock:pk-expire');
    expect(over.error?.hint).toBe('0');
    expect((await attempt<{ remaining: number }>(db, 'anon', undefined, `select remaining from public.preorder_availability('pk-expire')`)).rows).toEqual([
      { remaining: 0 },
    ]);
    await sql(`update public.orders set expires_at = now() - interval '1 minute' where id = $1`, [first.rows[0]!.id]);
    const after = await order(BETO, [{ product_id: 'pk-expire', quantity: 3 }]);
    expect(after.ok, after.error?.message).toBe(true);
    expect(await stockOf('pk-expire')).toBe(0);
    expect(await sql(`select status::text from public.orders where id = $1`, [first.rows[0]!.id])).toEqual([{ status: 'Cancelado' }]);
    const lowered = await saveCampaign(ADMIN, { product: 'pk-expire', allocation: 2 });
    expect(lowered.error?.detail).toBe('allocation_below_orders');
  });
});

describe('registering an arrival', () => {
  let campaign: string;
  const orders: Record<string, string> = {};

  beforeAll(async () => {
    campaign = await campaignOf('pk-alloc');
    // Paid in this order: Carla (2 units, refund), Ana (1, waitlist), Beto (2, waitlist), Diana (1, refund).
    orders.carla = await paidOrder(CARLA, 'pk-alloc', 2, false, '2026-11-01T10:00:00Z');
    orders.ana = await paidOrder(ANA, 'pk-alloc', 1, true, '2026-11-01T11:00:00Z');
    orders.beto = await paidOrder(BETO, 'pk-alloc', 2, true, '2026-11-01T12:00:00Z');
    orders.diana = await paidOrder(DIANA, 'pk-alloc', 1, false, '2026-11-01T13:00:00Z');
    // An unpaid order waits for a later arrival.
    const pending = await order(DIANA, [{ product_id: 'pk-alloc', quantity: 1 }]);
    orders.pending = pending.rows[0]!.id;
  });

  it('fills oldest paid first, whole orders only, and waitlists or refunds the rest by the shopper’s choice', async () => {
    const first = await arrival(campaign, 4, 'llegada-uno-0001');
    expect(first.ok, first.error?.message).toBe(true);
    // Carla 2 (2 left), Ana 1 (1 left), Beto's 2 do not fit (waitlisted), Diana's 1 fits.
    expect(first.rows[0]!.result).toMatchObject({ allocated: 4, to_stock: 0, replayed: false });
    expect(await lineStatus(orders.carla!)).toBe('allocated');
    expect(await lineStatus(orders.ana!)).toBe('allocated');
    expect(await lineStatus(orders.beto!)).toBe('waitlisted');
    expect(await lineStatus(orders.diana!)).toBe('allocated');
    expect(await lineStatus(orders.pending!)).toBe('awaiting');
    const events = await sql<{ n: number }>('select count(*)::int as n from public.preorder_events where campaign_id = $1 and order_id is not null', [
      campaign,
    ]);
    expect(events[0]!.n).toBe(4);
  });

  it('a shipment smaller than the oldest order refunds those who did not choose the waitlist', async () => {
    const refundCampaign = await campaignOf('pk-mixed');
    const big = await paidOrder(ANA, 'pk-mixed', 2, false, '2026-11-02T10:00:00Z');
    const small = await paidOrder(BETO, 'pk-mixed', 1, false, '2026-11-02T11:00:00Z');
    const result = await arrival(refundCampaign, 1, 'llegada-mixta-0001');
    expect(result.rows[0]!.result.lines).toEqual([
      expect.objectContaining({ order_id: big, outcome: 'refunded' }),
      expect.objectContaining({ order_id: small, outcome: 'allocated' }),
    ]);
  });

  it('the same arrival registered twice allocates once', async () => {
    const stockBefore = await stockOf('pk-alloc');
    const replay = await arrival(campaign, 4, 'llegada-uno-0001');
    expect(replay.ok).toBe(true);
    expect(replay.rows[0]!.result).toMatchObject({ allocated: 4, replayed: true });
    expect(await lineStatus(orders.beto!)).toBe('waitlisted');
    expect(await stockOf('pk-alloc')).toBe(stockBefore);
    expect(await sql('select count(*)::int as n from public.preorder_arrivals where campaign_id = $1', [campaign])).toEqual([{ n: 1 }]);
    const otherCampaign = await arrival(
      (await sql<{ id: string }>(`select id from public.preorder_campaigns where product_id = 'pk-limits'`))[0]!.id,
      1,
      'llegada-uno-0001',
    );
    expect(otherCampaign.error?.detail).toBe('key_reused');
  });

  it('the next shipment fills the waitlist first, before orders paid since, and the rest goes to stock', async () => {
    // Paid after the first arrival but before the waitlisted order would be, by time alone.
    const late = await paidOrder(CARLA, 'pk-alloc', 1, false, '2026-11-01T09:00:00Z');
    const second = await arrival(campaign, 2, 'llegada-dos-0001');
    expect(second.rows[0]!.result.lines.map((l) => [l.order_id, l.outcome])).toEqual([
      [orders.beto, 'allocated'],
      [late, 'refunded'],
    ]);
    expect(await stockOf('pk-alloc')).toBe(0);
    const third = await arrival(campaign, 3, 'llegada-tres-0001');
    expect(third.rows[0]!.result).toMatchObject({ allocated: 0, to_stock: 3 });
    expect(await stockOf('pk-alloc')).toBe(3);
  });

  it('refuses bad input with its reason', async () => {
    expect((await arrival(campaign, -1, 'llegada-mala-0001')).error?.detail).toBe('invalid_quantity');
    expect((await arrival(campaign, 1, 'x')).error?.detail).toBe('invalid_key');
    expect((await arrival('20000000-0000-4000-a000-00000000ffff', 1, 'llegada-nada-0001')).error?.detail).toBe('campaign_not_found');
    const shopper = await attempt(db, 'authenticated', ANA, `select public.preorder_register_arrival($1, 1, 'llegada-ana-0001', null)`, [campaign]);
    expect(shopper.error?.code).toBe('42501');
  });
});

const support = pgServerSupport();
if (!support.ok) console.log(`preorders.test.ts: se omite la prueba de concurrencia, ${support.reason}`);

describe.skipIf(!support.ok)('the allocation under concurrency (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];
  const USERS = Array.from({ length: 20 }, (_, i) => `21000000-0000-4000-a000-${String(i).padStart(12, '0')}`);

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (statement) => void (await admin.query(statement)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('race-pre', 'Caja en preventa', 1000, 0, 10, 'pokemon')`,
    );
    for (const id of USERS) await admin.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@correo.mx`]);
    await admin.query(
      `insert into public.preorder_campaigns (product_id, release_date, opens_at, closes_at, allocation, per_customer_limit, per_order_limit)
       values ('race-pre', '2027-02-12', now() - interval '1 hour', now() + interval '1 day', 7, 2, 2)`,
    );
    for (let i = 0; i < USERS.length; i += 1) clients.push(await connectTo(server));
  });

  afterAll(() => closeAll(server, admin, clients));

  it('twenty shoppers at once for 7 units: exactly the allocation is taken, the rest refused as sold out', async () => {
    const asked = (i: number) => (i % 2 === 0 ? 1 : 2);
    const results = await orderAtOnce(clients.map((client, i) => ({ client, user: USERS[i]!, items: [{ product_id: 'race-pre', quantity: asked(i) }] })));
    const { rows } = await admin.query<{ units: number }>(
      `select coalesce(sum(quantity), 0)::int as units from public.preorder_lines where product_id = 'race-pre'`,
    );
    const units = rows[0]!.units;
    expect(units).toBe(results.reduce((sum, r, i) => sum + (r.ok ? asked(i) : 0), 0));
    expect(units).toBeLessThanOrEqual(7);
    expect(units).toBeGreaterThan(0);
    // Each refusal was right when it was made: the units taken only grow, so they still leave no room for it.
    results.forEach((r, i) => {
      if (r.ok) return;
      expect(r.detail).toBe('out_of_stock:race-pre');
      expect(units + asked(i)).toBeGreaterThan(7);
    });
    const stock = await admin.query<{ stock: number }>(`select stock from public.products where id = 'race-pre'`);
    expect(stock.rows[0]!.stock).toBe(0);
  });
});
