/**
 * admin_set_offer_stock under real concurrency, on a throwaway PostgreSQL server (as
 * offers-concurrency.test.ts): the admin's restock of an offer, sent while 20 shoppers order its
 * units at once, either lands before every reservation (and they are taken from the new stock) or
 * is refused with the stock left after the reservations that came first. Units reserved are never
 * put on sale twice, the stock never goes below zero, and nobody waits forever.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from 'local-supabase/migrate';
import { beginAsUser, closeAll, orderAtOnce } from './pg-requests.ts';
import { connectTo, pgServerSupport, startPgServer, type PgServer } from './pg-server.ts';
import { ROOT_DIR } from './support.ts';

const support = pgServerSupport();
if (!support.ok) console.log(`offer-stock-concurrency.test.ts: se omite, ${support.reason}`);

const SHOPPERS = 20;
const userId = (i: number) => `40000000-0000-4000-a000-${String(i).padStart(12, '0')}`;
const ADMIN = '40000000-0000-4000-a000-0000000000ad';
const OFFER = '40000000-0000-4000-d000-000000000001';

describe.skipIf(!support.ok)('admin_set_offer_stock while shoppers order (PostgreSQL server)', () => {
  let server: PgServer;
  let admin: pg.Client;
  let adminRequest: pg.Client;
  const clients: pg.Client[] = [];

  async function offerStock(): Promise<number> {
    const { rows } = await admin.query<{ stock: number }>('select stock from public.card_offers where id = $1', [OFFER]);
    return rows[0]!.stock;
  }

  async function unitsSold(): Promise<number> {
    const { rows } = await admin.query<{ units: number }>('select coalesce(sum(quantity), 0)::int as units from public.order_items where offer_id = $1', [
      OFFER,
    ]);
    return rows[0]!.units;
  }

  beforeAll(async () => {
    server = await startPgServer();
    admin = await connectTo(server);
    await applyMigrations(async (sql) => void (await admin.query(sql)), ROOT_DIR, { seed: false });
    await admin.query("insert into public.franchises (id, name) values ('one-piece', 'One Piece') on conflict do nothing");
    await admin.query(
      `insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values ('op-conc', 'Nami', 30, 0, 100, 'one-piece')`,
    );
    await admin.query(`insert into auth.users (id, email) values ($1, 'jefa@correo.mx')`, [ADMIN]);
    await admin.query('update public.profiles set is_admin = true where id = $1', [ADMIN]);
    for (let i = 0; i < SHOPPERS; i += 1) {
      await admin.query('insert into auth.users (id, email) values ($1, $2)', [userId(i), `nami${i}@correo.mx`]);
    }
    for (let i = 0; i < SHOPPERS; i += 1) clients.push(await connectTo(server));
    adminRequest = await connectTo(server);
  });

  afterAll(() => closeAll(server, admin, [...clients, adminRequest]));

  for (let round = 1; round <= 3; round += 1) {
    it(`never puts a reserved unit on sale twice (round ${round})`, async () => {
      await admin.query('delete from public.order_items where offer_id = $1', [OFFER]);
      await admin.query('delete from public.card_offers where id = $1', [OFFER]);
      await admin.query(
        `insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values ($1, 'op-conc', 'LP', 'en', 'normal', 29, 12)`,
        [OFFER],
      );
      // The admin's grid read 12 units and she restocks to 30, at the moment 20 shoppers order one each.
      await beginAsUser(adminRequest, ADMIN);
      const restock = adminRequest
        .query<{ answer: { saved: boolean; stock: number } }>('select public.admin_set_offer_stock($1, 12, 30) as answer', [OFFER])
        .then(async ({ rows }) => {
          await adminRequest.query('commit');
          return rows[0]!.answer;
        });
      const orders = orderAtOnce(clients.map((client, i) => ({ client, user: userId(i), items: [{ product_id: 'op-conc', offer_id: OFFER, quantity: 1 }] })));
      const [answer, results] = await Promise.all([restock, orders]);

      const sold = results.filter((r) => r.ok).length;
      for (const failure of results.filter((r) => !r.ok)) expect(failure).toEqual({ ok: false, code: 'P0001', detail: 'out_of_stock:op-conc' });
      expect(await unitsSold()).toBe(sold);
      if (answer.saved) {
        // The restock came first: every order was served from the 30 units.
        expect(answer.stock).toBe(30);
        expect(sold).toBe(SHOPPERS);
        expect(await offerStock()).toBe(30 - SHOPPERS);
      } else {
        // Orders came first: nothing written, the answer is the stock they left.
        expect(answer.stock).toBeLessThan(12);
        expect(sold).toBe(Math.min(12, SHOPPERS));
        expect(await offerStock()).toBe(12 - sold);
        expect(answer.stock).toBeGreaterThanOrEqual(await offerStock());
      }
      expect(await offerStock()).toBeGreaterThanOrEqual(0);
    });
  }
});
