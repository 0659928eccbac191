/**
 * create_order_unless_sold_out: a drop's shoppers are refused at once ('Agotado', or not on sale
 * yet) when create_order would refuse them anyway, without waiting for the product's row lock;
 * everyone else gets create_order's answer, an order or its own refusal. create_order itself
 * refuses the same way with its own texts (20261130000100). The lock itself is taken on a
 * PostgreSQL server: a sold-out refusal comes back while another transaction holds the row, and a
 * sale still waits for it.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { attempt, commit, migratedPglite, ROOT_DIR } from './support.ts';

const SHOPPER = '10000000-0000-4000-a000-0000000000e1';
const OTHER = '10000000-0000-4000-a000-0000000000e2';
const OFFER = '10000000-0000-4000-d000-0000000000e1';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

const order = (items: unknown, user = SHOPPER) =>
  commit<{ id: string }>(db, 'authenticated', user, 'select public.create_order_unless_sold_out($1::jsonb) as id', [JSON.stringify(items)]);

const stock = async (id: string) => (await sql('select stock from public.products where id = $1', [id]))[0]?.stock;

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${SHOPPER}', 'rush@correo.mx', '{"username":"rush"}'), ('${OTHER}', 'rush2@correo.mx', '{"username":"rush2"}')`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, on_sale_at) values
    ('rush-box', 'Caja de lanzamiento', 1500, 1, 1, 'pokemon', now() - interval '1 second'),
    ('rush-later', 'Caja futura', 1500, 10, 1, 'pokemon', '2099-12-11 16:00:00+00'),
    ('rush-single', 'Umbreon ex', 100, 0, 5, 'pokemon', null),
    ('rush-pre', 'Caja en preventa', 1500, 0, 2, 'pokemon', null)`);
  await sql(`insert into public.preorder_campaigns (product_id, release_date, opens_at, closes_at, per_customer_limit, per_order_limit) values
    ('rush-pre', '2099-12-11', now() - interval '1 day', now() + interval '1 day', 2, 2)`);
  await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
    ('${OFFER}', 'rush-single', 'NM', 'es', 'holo', 900, 3)`);
});

afterAll(async () => {
  await db?.close();
});

describe('an order that refuses a sold-out drop before the lock', () => {
  it('sells the last unit through create_order, then refuses the next shopper with «Agotado» and writes nothing', async () => {
    const first = await order([{ product_id: 'rush-box', quantity: 1 }]);
    expect(first.ok, first.error?.message).toBe(true);
    expect(first.rows[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await stock('rush-box')).toBe(0);
    const orders = (await sql('select count(*)::int as n from public.orders'))[0]?.n;

    const late = await order([{ product_id: 'rush-box', quantity: 1 }], OTHER);
    expect(late.ok).toBe(false);
    expect(late.error).toMatchObject({
      code: 'P0001',
      message: 'Agotado: ya no quedan unidades de «Caja de lanzamiento».',
      detail: 'out_of_stock:rush-box',
      hint: '0',
    });
    expect((await sql('select count(*)::int as n from public.orders'))[0]?.n).toBe(orders);
  });

  it('refuses a product not on sale yet as create_order does, with nothing reserved', async () => {
    const early = await order([{ product_id: 'rush-later', quantity: 1 }]);
    const direct = await attempt(db, 'authenticated', SHOPPER, 'select public.create_order($1::jsonb)', [
      JSON.stringify([{ product_id: 'rush-later', quantity: 1 }]),
    ]);
    expect(early.ok).toBe(false);
    expect(early.error?.detail).toBe('unavailable:rush-later');
    expect(early.error?.message).toBe(direct.error?.message);
    expect(await stock('rush-later')).toBe(10);
  });

  it("leaves create_order's own refusals, an offer's line and a preorder to create_order", async () => {
    await sql(`update public.products set on_sale_at = null, stock = 10 where id = 'rush-later'`);
    // The per-customer limit: the shopper already holds the one unit allowed.
    await sql(`update public.products set stock = 5 where id = 'rush-box'`);
    const again = await order([{ product_id: 'rush-box', quantity: 1 }]);
    expect(again.error?.detail).toBe('limit_exceeded:rush-box');
    // A quantity create_order refuses is not read as sold out.
    await sql(`update public.products set stock = 0 where id = 'rush-later'`);
    const half = await order([{ product_id: 'rush-later', quantity: 0.5 }]);
    expect(half.error?.detail).toBe('invalid_quantity');
    // The single's product row has no stock of its own; its offer has.
    const offer = await order([{ product_id: 'rush-single', offer_id: OFFER, quantity: 1 }]);
    expect(offer.ok, offer.error?.message).toBe(true);
    // A preorder inside its window takes no stock: create_order takes it.
    const preorder = await order([{ product_id: 'rush-pre', quantity: 1 }]);
    expect(preorder.ok, preorder.error?.message).toBe(true);
  });

  it('lets create_order put back an expired reservation and sell it instead of refusing', async () => {
    await sql(`update public.products set stock = 1 where id = 'rush-later'`);
    expect((await order([{ product_id: 'rush-later', quantity: 1 }])).ok).toBe(true);
    await sql(`update public.orders set expires_at = now() - interval '1 minute'
                where id in (select order_id from public.order_items where product_id = 'rush-later')`);
    expect(await stock('rush-later')).toBe(0);
    const next = await order([{ product_id: 'rush-later', quantity: 1 }], OTHER);
    expect(next.ok, next.error?.message).toBe(true);
  });

  it('is for signed-in shoppers only, as create_order', async () => {
    const anon = await attempt(db, 'anon', undefined, 'select public.create_order_unless_sold_out($1::jsonb)', [
      JSON.stringify([{ product_id: 'rush-box', quantity: 1 }]),
    ]);
    expect(anon.error?.code).toBe('42501');
  });
});

const support = pgServerSupport();
if (!support.ok) console.log(`order-sold-out-precheck.test.ts: the lock case is skipped, ${support.reason}`);

describe.skipIf(!support.ok)('while another transaction holds the sold-out product (PostgreSQL server)', () => {
  let server: PgServer;
  let holder: pg.Client;
  let shopper: pg.Client;

  beforeAll(async () => {
    server = await startPgServer();
    holder = await connectTo(server);
    await applyMigrations(async (statement) => void (await holder.query(statement)), ROOT_DIR, { seed: false });
    await holder.query(`insert into auth.users (id, email, raw_user_meta_data) values ($1, 'lock@correo.mx', '{"username":"lock"}')`, [SHOPPER]);
    await holder.query(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
    await holder.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
         ('lock-box', 'Caja agotada', 1500, 0, 1, 'pokemon'), ('lock-open', 'Caja con existencia', 1500, 5, 1, 'pokemon')`,
    );
    shopper = await connectTo(server);
  }, 120_000);

  afterAll(async () => {
    await shopper?.end().catch(() => undefined);
    await holder?.end().catch(() => undefined);
    await server?.stop();
  });

  it('answers a sold-out product at once, through either function, and a sale still waits for the lock', async () => {
    await holder.query('begin');
    await holder.query(`select 1 from public.products where id in ('lock-box', 'lock-open') for update`);
    const asShopper = async (fn: string, productId: string) => {
      await shopper.query('begin');
      await shopper.query(
        "select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true), set_config('lock_timeout', '500ms', true)",
        [JSON.stringify({ sub: SHOPPER, role: 'authenticated', aud: 'authenticated' })],
      );
      try {
        await shopper.query(`select public.${fn}($1::jsonb)`, [JSON.stringify([{ product_id: productId, quantity: 1 }])]);
        return { detail: undefined, code: undefined, message: undefined };
      } catch (err) {
        return err as { detail?: string; code?: string; message?: string };
      } finally {
        await shopper.query('rollback');
      }
    };
    const quick = await asShopper('create_order_unless_sold_out', 'lock-box');
    expect(quick.detail).toBe('out_of_stock:lock-box');
    expect(quick.message).toBe('Agotado: ya no quedan unidades de «Caja agotada».');
    // create_order itself refuses without queueing behind the holder, with its own text.
    const direct = await asShopper('create_order', 'lock-box');
    expect(direct.code).toBe('P0001');
    expect(direct.detail).toBe('out_of_stock:lock-box');
    expect(direct.message).toBe('Stock insuficiente para «Caja agotada» (disponible: 0).');
    // A product with stock is sold under its row lock: it queues behind the holder.
    expect((await asShopper('create_order', 'lock-open')).code).toBe('55P03');
    expect((await asShopper('create_order_unless_sold_out', 'lock-open')).code).toBe('55P03');
    await holder.query('rollback');
  });
});
