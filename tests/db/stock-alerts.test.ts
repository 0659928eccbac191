/**
 * Restock and price-drop alerts in the database (20261129004000_stock_alerts.sql): who may ask,
 * read and cancel; a restock fires the waiting alerts oldest first and never more than its cap;
 * cancelled alerts and shoppers who turned restock alerts off are skipped and stay for later; any
 * path that brings stock back fires them (an admin edit, an expired order returning its units);
 * price drops below what a favorite's alert remembers queue one e-mail each; and, on a throwaway
 * PostgreSQL server, twenty transactions restocking at once fire each alert exactly once.
 */
import pg from 'pg';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { closeAll } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { attempt, commit, migratedPglite, ROOT_DIR } from './support.ts';

const ADMIN = '60000000-0000-4000-a000-0000000000ad';
const shopper = (i: number) => `60000000-0000-4000-a000-${String(i).padStart(12, '0')}`;
const SHOPPERS = 30;

let db: PGlite;

async function sql<T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> {
  const outcome = await commit<T>(db, 'postgres', undefined, text, params);
  if (!outcome.ok) throw new Error(`${text}: ${outcome.error?.message}`);
  return outcome.rows;
}

/** A product with `stock` units (0: sold out); a single card with one offer when `offer` is set. */
async function product(id: string, stock: number, price = 500): Promise<void> {
  await sql(`insert into public.products (id, name, price, stock, franchise_id) values ($1, $2, $3, $4, 'pokemon')`, [id, `Producto ${id}`, price, stock]);
}

/** Alerts of shoppers 1..n on the product (or offer), shopper i asking i minutes after the first. */
async function alertsFor(productId: string, n: number, offerId: string | null = null): Promise<void> {
  for (let i = 1; i <= n; i += 1) {
    await sql(
      `insert into public.stock_alerts (user_id, product_id, offer_id, created_at) values ($1, $2, $3, now() - interval '1 day' + make_interval(mins => $4))`,
      [shopper(i), productId, offerId, i],
    );
  }
}

/** The shoppers whose alert on the product has fired at least once, in the order they asked. */
async function fired(productId: string): Promise<string[]> {
  const rows = await sql<{ user_id: string }>(
    `select a.user_id from public.stock_alerts a
      where a.product_id = $1 and exists (select 1 from public.alert_mail_queue q where q.stock_alert_id = a.id)
      order by a.created_at`,
    [productId],
  );
  return rows.map((row) => row.user_id);
}

/** The e-mails each restock of the product queued, as lists of shopper numbers, restock by restock. */
async function byRestock(productId: string): Promise<number[][]> {
  const rows = await sql<{ users: string[] }>(
    `select array_agg(q.user_id::text order by a.created_at) as users
       from public.alert_mail_queue q join public.stock_alerts a on a.id = q.stock_alert_id
      where q.product_id = $1 group by q.restock_event_id order by q.restock_event_id`,
    [productId],
  );
  return rows.map((row) => row.users.map((user) => Number(user.slice(-12))));
}

const setStock = (productId: string, stock: number) => sql('update public.products set stock = $2 where id = $1', [productId, stock]);

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into auth.users (id, email) values ($1, 'jefa@correo.mx')`, [ADMIN]);
  await sql(`update public.profiles set is_admin = true where id = $1`, [ADMIN]);
  for (let i = 1; i <= SHOPPERS; i += 1) await sql(`insert into auth.users (id, email) values ($1, $2)`, [shopper(i), `cliente${i}@correo.mx`]);
});

afterAll(async () => {
  await db?.close();
});

describe('asking for an alert', () => {
  beforeAll(async () => {
    await product('agotado', 0);
    await product('con-stock', 5);
    await product('carta', 0);
    await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
      ('61000000-0000-4000-a000-000000000001', 'carta', 'NM', 'es', 'holo', 100, 0),
      ('61000000-0000-4000-a000-000000000002', 'carta', 'LP', 'es', 'holo', 80, 2)`);
  });

  it('lets a signed-in shopper ask for a sold-out product or offer, once, and never for someone else', async () => {
    const own = await attempt(db, 'authenticated', shopper(1), `insert into public.stock_alerts (product_id) values ('agotado') returning user_id`);
    expect(own).toMatchObject({ ok: true, rows: [{ user_id: shopper(1) }] });
    const offer = await attempt(
      db,
      'authenticated',
      shopper(1),
      `insert into public.stock_alerts (product_id, offer_id) values ('carta', '61000000-0000-4000-a000-000000000001') returning id`,
    );
    expect(offer.ok).toBe(true);
    const forOther = await attempt(db, 'authenticated', shopper(1), `insert into public.stock_alerts (user_id, product_id) values ($1, 'agotado')`, [
      shopper(2),
    ]);
    expect(forOther.error?.code).toBe('42501');
    const anon = await attempt(db, 'anon', undefined, `insert into public.stock_alerts (product_id) values ('agotado')`);
    expect(anon.error?.code).toBe('42501');

    await commit(db, 'authenticated', shopper(1), `insert into public.stock_alerts (product_id) values ('agotado')`);
    const twice = await attempt(db, 'authenticated', shopper(1), `insert into public.stock_alerts (product_id) values ('agotado')`);
    expect(twice.error?.code).toBe('23505');
  });

  it('refuses an alert on what is in stock, and an offer of another product', async () => {
    const inStock = await attempt(db, 'authenticated', shopper(2), `insert into public.stock_alerts (product_id) values ('con-stock')`);
    expect(inStock.error).toMatchObject({ detail: 'in_stock', message: 'Este producto tiene existencias: agrégalo al carrito.' });
    const offerInStock = await attempt(
      db,
      'authenticated',
      shopper(2),
      `insert into public.stock_alerts (product_id, offer_id) values ('carta', '61000000-0000-4000-a000-000000000002')`,
    );
    expect(offerInStock.error?.detail).toBe('in_stock');
    // The single has an offer in stock, so the card as a whole is not sold out.
    const cardInStock = await attempt(db, 'authenticated', shopper(2), `insert into public.stock_alerts (product_id) values ('carta')`);
    expect(cardInStock.error?.detail).toBe('in_stock');
    const otherProduct = await attempt(
      db,
      'authenticated',
      shopper(2),
      `insert into public.stock_alerts (product_id, offer_id) values ('agotado', '61000000-0000-4000-a000-000000000001')`,
    );
    expect(otherProduct.error?.detail).toBe('offer_not_of_product');
  });

  it('shows each shopper only their own alerts, never the cancel token, and lets only them cancel', async () => {
    const [{ id }] = await sql<{ id: string }>(`select id from public.stock_alerts where user_id = $1 and product_id = 'agotado'`, [shopper(1)]);
    expect((await attempt(db, 'authenticated', shopper(1), `select id from public.stock_alerts where product_id = 'agotado'`)).rows).toEqual([{ id }]);
    expect((await attempt(db, 'authenticated', shopper(2), `select id from public.stock_alerts where product_id = 'agotado'`)).rows).toEqual([]);
    expect((await attempt(db, 'authenticated', shopper(1), `select cancel_token from public.stock_alerts`)).error?.code).toBe('42501');
    expect((await attempt(db, 'authenticated', shopper(1), `update public.stock_alerts set cancelled_at = now()`)).error?.code).toBe('42501');

    expect((await commit(db, 'authenticated', shopper(2), 'select public.cancel_stock_alert($1) as done', [id])).rows).toEqual([{ done: false }]);
    expect((await commit(db, 'authenticated', shopper(1), 'select public.cancel_stock_alert($1) as done', [id])).rows).toEqual([{ done: true }]);
    expect((await commit(db, 'authenticated', shopper(1), 'select public.cancel_stock_alert($1) as done', [id])).rows).toEqual([{ done: false }]);
    // Cancelled, it may be asked for again.
    expect((await commit(db, 'authenticated', shopper(1), `insert into public.stock_alerts (product_id) values ('agotado')`)).ok).toBe(true);
  });

  it('cancels by the e-mail link’s token only through the server (service role), once', async () => {
    await product('token', 0);
    await commit(db, 'authenticated', shopper(3), `insert into public.stock_alerts (product_id) values ('token')`);
    const [{ cancel_token: token }] = await sql<{ cancel_token: string }>(`select cancel_token from public.stock_alerts where product_id = 'token'`);
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    expect((await attempt(db, 'anon', undefined, 'select public.cancel_stock_alert_by_token($1)', [token])).error?.code).toBe('42501');
    expect((await attempt(db, 'service_role', undefined, 'select * from public.stock_alert_by_token($1)', [token])).rows).toEqual([
      { product_id: 'token', product_name: 'Producto token', offer_label: null, state: 'waiting' },
    ]);
    const cancel = () => commit<{ r: string }>(db, 'service_role', undefined, 'select public.cancel_stock_alert_by_token($1) as r', [token]);
    expect((await cancel()).rows).toEqual([{ r: 'cancelled' }]);
    expect((await cancel()).rows).toEqual([{ r: 'already' }]);
    expect((await commit(db, 'service_role', undefined, 'select public.cancel_stock_alert_by_token($1) as r', ['x'.repeat(64)])).rows).toEqual([
      { r: 'unknown' },
    ]);
  });
});

describe('a restock fires the waiting alerts', () => {
  it('oldest first, never more than the cap, and keeps the rest for the next restock', async () => {
    await product('caja', 0);
    await alertsFor('caja', 20);
    expect((await sql<{ cap: number }>('select public.restock_alert_cap(1) as cap'))[0]!.cap).toBe(3);
    expect((await sql<{ cap: number }>('select public.restock_alert_cap(4) as cap'))[0]!.cap).toBe(6);
    expect((await sql<{ cap: number }>('select public.restock_alert_cap(10) as cap'))[0]!.cap).toBe(15);
    expect((await sql<{ cap: number }>('select public.restock_alert_cap(1000) as cap'))[0]!.cap).toBe(200);

    await setStock('caja', 4);
    expect(await fired('caja')).toEqual([1, 2, 3, 4, 5, 6].map(shopper));
    // More units while in stock is not a restock: nobody else is told.
    await setStock('caja', 9);
    expect(await fired('caja')).toHaveLength(6);
    // Sold out and back: the next in line.
    await setStock('caja', 0);
    await setStock('caja', 1);
    expect(await fired('caja')).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9].map(shopper));
    const events = await sql<{ units: number; cap: number; alerts_fired: number }>(
      `select units, cap, alerts_fired from public.restock_events where product_id = 'caja' order by id`,
    );
    expect(events).toEqual([
      { units: 4, cap: 6, alerts_fired: 6 },
      { units: 1, cap: 3, alerts_fired: 3 },
    ]);
    expect(await byRestock('caja')).toEqual([
      [1, 2, 3, 4, 5, 6],
      [7, 8, 9],
    ]);
    const queued = await sql<{ kind: string; units: number }>(`select kind, units from public.alert_mail_queue where product_id = 'caja' order by id`);
    expect(queued).toHaveLength(9);
    expect(queued.every((row) => row.kind === 'restock')).toBe(true);
  });

  it('keeps an alert until it is cancelled: once everyone was told, the next restock tells those told longest ago', async () => {
    await product('estuche', 0);
    await alertsFor('estuche', 5);
    await setStock('estuche', 1);
    await setStock('estuche', 0);
    await setStock('estuche', 1);
    await sql(`update public.stock_alerts set cancelled_at = now() where product_id = 'estuche' and user_id = $1`, [shopper(2)]);
    await setStock('estuche', 0);
    await setStock('estuche', 1);
    expect(await byRestock('estuche')).toEqual([
      [1, 2, 3],
      [1, 4, 5],
      [1, 3, 4],
    ]);
    // The shopper may not ask twice while the first alert stands, told or not.
    expect((await attempt(db, 'authenticated', shopper(1), `insert into public.stock_alerts (product_id) values ('estuche')`)).error).toBeDefined();
  });

  it('skips cancelled alerts and shoppers who turned restock alerts off, who keep waiting', async () => {
    await product('sobre', 0);
    await alertsFor('sobre', 6);
    await sql(`update public.stock_alerts set cancelled_at = now() where product_id = 'sobre' and user_id = $1`, [shopper(1)]);
    await commit(db, 'authenticated', shopper(2), 'insert into public.notification_settings (restock_alerts) values (false)');
    await setStock('sobre', 1);
    expect(await fired('sobre')).toEqual([3, 4, 5].map(shopper));
    const [waiting] = await sql<{ notified_at: string | null; cancelled_at: string | null }>(
      `select notified_at, cancelled_at from public.stock_alerts where product_id = 'sobre' and user_id = $1`,
      [shopper(2)],
    );
    expect(waiting).toEqual({ notified_at: null, cancelled_at: null });
    await commit(db, 'authenticated', shopper(2), 'update public.notification_settings set restock_alerts = true');
  });

  it('fires on every path that brings stock back: availability, an offer, an expired order', async () => {
    await product('oculto', 3);
    await sql(`update public.products set available = false where id = 'oculto'`);
    await alertsFor('oculto', 1);
    await sql(`update public.products set available = true where id = 'oculto'`);
    expect(await fired('oculto')).toEqual([shopper(1)]);

    await product('single', 0);
    await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
      ('62000000-0000-4000-a000-000000000001', 'single', 'NM', 'es', 'holo', 100, 0),
      ('62000000-0000-4000-a000-000000000002', 'single', 'LP', 'en', 'normal', 60, 0)`);
    await alertsFor('single', 2, '62000000-0000-4000-a000-000000000001');
    await sql(`insert into public.stock_alerts (user_id, product_id) values ($1, 'single')`, [shopper(9)]);
    await sql(`update public.card_offers set stock = 1 where id = '62000000-0000-4000-a000-000000000002'`);
    // Another offer came back: the card's own alert fires, the NM offer's alerts wait.
    expect(await fired('single')).toEqual([shopper(9)]);
    await sql(`update public.card_offers set stock = 2 where id = '62000000-0000-4000-a000-000000000001'`);
    expect(await fired('single')).toEqual([shopper(1), shopper(2), shopper(9)]);

    // The admin's edit of an offer's stock in the back office.
    await product('single-admin', 0);
    await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
      ('62000000-0000-4000-a000-000000000003', 'single-admin', 'NM', 'es', 'holo', 100, 0)`);
    await alertsFor('single-admin', 1, '62000000-0000-4000-a000-000000000003');
    const saved = await commit<{ r: { saved: boolean } }>(
      db,
      'authenticated',
      ADMIN,
      `select public.admin_set_offer_stock('62000000-0000-4000-a000-000000000003', 0, 2) as r`,
    );
    expect(saved.rows[0]!.r.saved).toBe(true);
    expect(await fired('single-admin')).toEqual([shopper(1)]);

    // An order's units coming back when its reservation expires.
    await product('reserva', 1);
    await sql(`update public.products set limit_per_customer = 5 where id = 'reserva'`);
    await commit(db, 'authenticated', shopper(20), `select public.create_order('[{"product_id":"reserva","quantity":1}]'::jsonb)`);
    expect((await sql<{ stock: number }>(`select stock from public.products where id = 'reserva'`))[0]!.stock).toBe(0);
    await alertsFor('reserva', 2);
    await sql(`update public.orders set expires_at = now() - interval '1 minute' where user_id = $1`, [shopper(20)]);
    await sql('select public.release_expired_orders()');
    expect((await sql<{ stock: number }>(`select stock from public.products where id = 'reserva'`))[0]!.stock).toBe(1);
    expect(await fired('reserva')).toEqual([shopper(1), shopper(2)]);
  });

  it('lists the waiting alerts, with the e-mail and cancel token, to the service role only', async () => {
    const due = await attempt<{ kind: string; email: string; product_name: string; cancel_token: string | null }>(
      db,
      'service_role',
      undefined,
      `select * from public.alert_mail_due(500) where product_id = 'caja'`,
    );
    expect(due.rows).toHaveLength(9);
    expect(due.rows[0]).toMatchObject({ kind: 'restock', email: 'cliente1@correo.mx', product_name: 'Producto caja' });
    expect(due.rows[0]!.cancel_token).toMatch(/^[0-9a-f]{64}$/);
    expect((await attempt(db, 'authenticated', shopper(1), 'select * from public.alert_mail_due(10)')).error?.code).toBe('42501');
    expect((await attempt(db, 'authenticated', shopper(1), 'select * from public.alert_mail_queue')).error?.code).toBe('42501');
  });
});

describe('price drops on favorites', () => {
  it('queues one e-mail when the price goes below the price of opting in, then of the last e-mail', async () => {
    await product('baja', 0, 1000);
    const [{ id }] = await sql<{ id: string }>(`insert into public.favorites (user_id, product_id) values ($1, 'baja') returning id`, [shopper(1)]);
    await sql(`insert into public.favorites (user_id, product_id) values ($1, 'baja')`, [shopper(2)]);
    await sql(`insert into public.favorites (user_id, product_id, price_alert) values ($1, 'baja', false)`, [shopper(3)]);
    // The shopper sets the alert; the price it compares with is the database's.
    expect((await attempt(db, 'authenticated', shopper(1), `update public.favorites set price_alert_base = 1 where id = $1`, [id])).error?.code).toBe('42501');
    expect((await attempt(db, 'authenticated', shopper(2), `update public.favorites set price_alert = true where id = $1 returning id`, [id])).rows).toEqual(
      [],
    );
    await commit(db, 'authenticated', shopper(1), `update public.favorites set price_alert = true where id = $1`, [id]);
    await commit(db, 'authenticated', shopper(2), `update public.favorites set price_alert = true where product_id = 'baja'`);
    await commit(
      db,
      'authenticated',
      shopper(2),
      'insert into public.notification_settings (price_alerts) values (false) on conflict (user_id) do update set price_alerts = false',
    );
    expect((await sql<{ b: string }>(`select price_alert_base::text as b from public.favorites where id = $1`, [id]))[0]!.b).toBe('1000.00');

    const drops = () =>
      sql<{ user_id: string; old_price: string; new_price: string }>(
        `select user_id, old_price::text, new_price::text from public.alert_mail_queue where kind = 'price_drop' and product_id = 'baja' order by id`,
      );
    await sql(`update public.products set price = 1100 where id = 'baja'`);
    await sql(`update public.products set price = 1000 where id = 'baja'`);
    expect(await drops()).toEqual([]);
    await sql(`update public.products set price = 900 where id = 'baja'`);
    expect(await drops()).toEqual([{ user_id: shopper(1), old_price: '1000.00', new_price: '900.00' }]);
    await sql(`update public.products set price = 950 where id = 'baja'`);
    await sql(`update public.products set price = 920 where id = 'baja'`);
    expect(await drops()).toHaveLength(1);
    await sql(`update public.products set price = 850 where id = 'baja'`);
    expect((await drops()).map((row) => row.new_price)).toEqual(['900.00', '850.00']);
    // Turned off, no more.
    await commit(db, 'authenticated', shopper(1), `update public.favorites set price_alert = false where id = $1`, [id]);
    await sql(`update public.products set price = 700 where id = 'baja'`);
    expect(await drops()).toHaveLength(2);
  });
});

describe('settings and demand', () => {
  it('keeps each shopper’s settings to themselves', async () => {
    await commit(db, 'authenticated', shopper(5), 'insert into public.notification_settings (price_alerts) values (false)');
    expect((await attempt(db, 'authenticated', shopper(6), 'select user_id from public.notification_settings where user_id = $1', [shopper(5)])).rows).toEqual(
      [],
    );
    const other = await attempt(
      db,
      'authenticated',
      shopper(6),
      'update public.notification_settings set price_alerts = true where user_id = $1 returning user_id',
      [shopper(5)],
    );
    expect(other.rows).toEqual([]);
    const forOther = await attempt(db, 'authenticated', shopper(6), 'insert into public.notification_settings (user_id) values ($1)', [shopper(5)]);
    expect(forOther.error?.code).toBe('42501');
  });

  it('puts the shopper’s own address on the newsletter and takes it off', async () => {
    const subscribed = async () => (await attempt<{ s: boolean }>(db, 'authenticated', shopper(7), 'select public.my_newsletter_subscribed() as s')).rows[0]!.s;
    expect(await subscribed()).toBe(false);
    await commit(db, 'authenticated', shopper(7), 'select public.set_my_newsletter(true)');
    expect(await subscribed()).toBe(true);
    expect(await sql(`select email from public.newsletter_subscribers where email = 'cliente7@correo.mx'`)).toHaveLength(1);
    await commit(db, 'authenticated', shopper(7), 'select public.set_my_newsletter(false)');
    expect(await subscribed()).toBe(false);
  });

  it('shows admins how many shoppers wait for each product, most wanted first', async () => {
    await product('demanda-a', 0);
    await product('demanda-b', 0);
    await alertsFor('demanda-a', 2);
    await alertsFor('demanda-b', 5);
    const demand = await attempt<{ product_id: string; waiting: number }>(
      db,
      'authenticated',
      ADMIN,
      `select product_id, waiting::int as waiting from public.admin_stock_demand() where product_id like 'demanda-%'`,
    );
    expect(demand.rows).toEqual([
      { product_id: 'demanda-b', waiting: 5 },
      { product_id: 'demanda-a', waiting: 2 },
    ]);
    const refused = await attempt(db, 'authenticated', shopper(1), 'select * from public.admin_stock_demand()');
    expect(refused.error).toMatchObject({ code: '42501', detail: 'not_admin' });
  });
});

const support = pgServerSupport();
if (!support.ok) console.log(`stock-alerts.test.ts: se omite la parte concurrente, ${support.reason}`);

describe.skipIf(!support.ok)('exactly once per restock under concurrency (PostgreSQL server)', () => {
  const CONNECTIONS = 20;
  let server: PgServer;
  let admin: pg.Client;
  const clients: pg.Client[] = [];

  /** Runs statement i on client i as service_role, all begun first and then fired together. */
  async function atOnce(statements: Array<{ sql: string; params: unknown[] }>): Promise<void> {
    await Promise.all(statements.map((_, i) => clients[i]!.query('begin; set local role service_role')));
    await Promise.all(
      statements.map(async ({ sql: text, params }, i) => {
        await clients[i]!.query(text, params);
        await clients[i]!.query('commit');
      }),
    );
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (text) => void (await admin.query(text)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('pokemon', 'Pokémon') on conflict do nothing");
    for (let i = 1; i <= SHOPPERS; i += 1) await admin.query('insert into auth.users (id, email) values ($1, $2)', [shopper(i), `c${i}@correo.mx`]);
    for (let i = 0; i < CONNECTIONS; i += 1) clients.push(await connectTo(server));
  }, 120_000);

  afterAll(() => closeAll(server, admin, clients));

  beforeEach(async () => {
    await admin.query('delete from public.alert_mail_queue; delete from public.restock_events; delete from public.stock_alerts');
  });

  const waitingFor = async (productId: string, offerId: string | null = null) => {
    for (let i = 1; i <= SHOPPERS; i += 1) {
      await admin.query(
        `insert into public.stock_alerts (user_id, product_id, offer_id, created_at) values ($1, $2, $3, now() - interval '1 day' + make_interval(mins => $4))`,
        [shopper(i), productId, offerId, i],
      );
    }
  };

  it('twenty transactions adding units to a sold-out product at once: one restock, its cap, each alert once', async () => {
    await admin.query(`insert into public.products (id, name, price, stock, franchise_id) values ('carrera', 'Carrera', 100, 0, 'pokemon')`);
    await waitingFor('carrera');
    await atOnce(Array.from({ length: CONNECTIONS }, () => ({ sql: `update public.products set stock = stock + 1 where id = 'carrera'`, params: [] })));
    expect((await admin.query(`select stock from public.products where id = 'carrera'`)).rows[0].stock).toBe(CONNECTIONS);
    const events = (await admin.query(`select units, cap, alerts_fired from public.restock_events where product_id = 'carrera'`)).rows;
    expect(events).toEqual([{ units: 1, cap: 3, alerts_fired: 3 }]);
    const queued = (
      await admin.query(`select a.user_id from public.alert_mail_queue q join public.stock_alerts a on a.id = q.stock_alert_id order by a.created_at`)
    ).rows;
    expect(queued.map((row: { user_id: string }) => row.user_id)).toEqual([1, 2, 3].map(shopper));
  });

  it('twenty offers of one single back at once: each alert at most once per restock, never past the caps', async () => {
    await admin.query(`insert into public.products (id, name, price, stock, franchise_id) values ('carta-carrera', 'Carta', 100, 0, 'pokemon')`);
    const offers = Array.from({ length: CONNECTIONS }, (_, i) => `63000000-0000-4000-a000-${String(i + 1).padStart(12, '0')}`);
    for (const [i, id] of offers.entries()) {
      await admin.query(
        `insert into public.card_offers (id, product_id, grading_company, grade, certificate_number, language, finish, price, stock)
         values ($1, 'carta-carrera', 'PSA', 10, $2, 'es', 'holo', 100, 0)`,
        [id, `cert-${i}`],
      );
    }
    await waitingFor('carta-carrera');
    await atOnce(offers.map((id) => ({ sql: 'update public.card_offers set stock = 1 where id = $1', params: [id] })));
    const perAlert = (await admin.query(`select stock_alert_id, restock_event_id, count(*)::int as n from public.alert_mail_queue group by 1, 2`))
      .rows as Array<{
      n: number;
    }>;
    expect(perAlert.every((row) => row.n === 1)).toBe(true);
    const events = (await admin.query(`select cap, alerts_fired from public.restock_events`)).rows as Array<{ cap: number; alerts_fired: number }>;
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.every((event) => event.alerts_fired <= event.cap)).toBe(true);
    const total = events.reduce((sum, event) => sum + event.alerts_fired, 0);
    expect(perAlert).toHaveLength(total);
    const queued = (await admin.query(`select count(*)::int as n from public.alert_mail_queue`)).rows[0].n;
    expect(queued).toBe(total);
    // The card's own alerts fired with the first offers back (each restock at most its cap of 3).
    const told = (await admin.query(`select count(distinct stock_alert_id)::int as n from public.alert_mail_queue`)).rows[0].n;
    expect(told).toBeGreaterThanOrEqual(3);
    expect(told).toBeLessThanOrEqual(SHOPPERS);
  });
});
