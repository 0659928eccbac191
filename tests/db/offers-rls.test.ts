/**
 * The back office's writes of single cards, as src/data/singles-admin.ts sends them: the printing
 * saved as an upsert by product (insert … on conflict do update), offers inserted, edited and
 * deleted, and the offer's stock set through admin_set_offer_stock, a compare and set on the
 * stock the grid read. Everyone reads printings and offers; only admins write them. The product
 * row's own price and stock are left alone by offer edits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite, type ApiRole } from './support.ts';

const SHOPPER = '00000000-0000-4000-a000-0000000006a1';
const ADMIN = '00000000-0000-4000-a000-0000000006ad';
const LP_EN = '00000000-0000-4000-d000-000000000601';
const NM_EN = '00000000-0000-4000-d000-000000000602';
const PSA = '00000000-0000-4000-d000-000000000603';

type Actor = 'anon' | 'shopper' | 'admin';
const ACTORS: Record<Actor, [ApiRole, string | undefined]> = {
  anon: ['anon', undefined],
  shopper: ['authenticated', SHOPPER],
  admin: ['authenticated', ADMIN],
};

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

/** One statement as the actor, rolled back afterwards. */
function as(actor: Actor, statement: string, params: unknown[] = []) {
  const [role, sub] = ACTORS[actor];
  return attempt(db, role, sub, statement, params);
}

/** One statement as the actor, committed. */
function committedAs(actor: Actor, statement: string, params: unknown[] = []) {
  const [role, sub] = ACTORS[actor];
  return commit(db, role, sub, statement, params);
}

async function offerStock(id: string): Promise<number> {
  return Number((await sql('select stock from public.card_offers where id = $1', [id]))[0]?.stock);
}

async function productRow(id: string) {
  return (await sql('select price::text, stock from public.products where id = $1', [id]))[0];
}

const SET_STOCK = 'select public.admin_set_offer_stock($1, $2, $3) as answer';

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${SHOPPER}', 'compradora6@correo.mx', '{"username":"compradora6"}'),
    ('${ADMIN}', 'jefa6@correo.mx', '{"username":"jefa6"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('one-piece', 'One Piece')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id) values
    ('op05-119', 'Monkey.D.Luffy', 4000, 0, 5, 'one-piece'),
    ('op05-060', 'Roronoa Zoro', 150, 0, 5, 'one-piece')`);
  await sql(`insert into public.card_printings (product_id, franchise, expansion, collector_number, rarity, name_en) values
    ('op05-119', 'one-piece', 'OP05', 'OP05-119', 'SEC', 'Monkey.D.Luffy')`);
  await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
    ('${LP_EN}', 'op05-119', 'LP', 'en', 'parallel', 3200, 5),
    ('${NM_EN}', 'op05-119', 'NM', 'en', 'normal', 3900, 0)`);
  await sql(`insert into public.card_offers (id, product_id, language, finish, price, stock, grading_company, grade, certificate_number, images) values
    ('${PSA}', 'op05-119', 'en', 'parallel', 45000, 1, 'PSA', 10, '81234567', array['products/psa-frente.webp'])`);
});

afterAll(async () => {
  await db?.close();
});

/** The back office's writes, in the SQL PostgREST runs for the data module's calls. */
const BACK_OFFICE_WRITES = {
  'save the printing (upsert by product)': `insert into public.card_printings (product_id, franchise, expansion, collector_number, rarity, name_en, name_es)
     values ('op05-119', 'one-piece', 'OP05', 'OP05-119', 'SP', 'Monkey.D.Luffy', 'Monkey D. Luffy')
     on conflict (product_id) do update set rarity = excluded.rarity, name_es = excluded.name_es returning product_id`,
  'register the printing of a new single': `insert into public.card_printings (product_id, franchise, expansion, collector_number, rarity)
     values ('op05-060', 'one-piece', 'OP05', 'OP05-060', 'R') on conflict (product_id) do update set rarity = excluded.rarity returning product_id`,
  'add a raw offer': `insert into public.card_offers (product_id, condition, language, finish, price, original_price, stock, position)
     values ('op05-119', 'LP', 'en', 'normal', 2900, 3500, 2, 3) returning id`,
  'add a slab with its photos': `insert into public.card_offers (product_id, language, finish, price, stock, grading_company, grade, certificate_number, images)
     values ('op05-119', 'ja', 'manga', 90000, 1, 'BGS', 9.5, '0012345678', array['products/bgs.webp']) returning id`,
  'edit an offer’s price and finish': `update public.card_offers set price = 3100, original_price = 3600, finish = 'manga' where id = '${LP_EN}' returning id`,
  'remove an offer': `delete from public.card_offers where id = '${NM_EN}' returning id`,
};

describe('the back office’s writes of printings and offers', () => {
  for (const actor of ['anon', 'shopper'] as const) {
    it(`${actor} reads the printing and every offer, sold out and slabs included`, async () => {
      const printing = await as(actor, `select collector_number, rarity from public.card_printings where product_id = 'op05-119'`);
      expect(printing.error).toBeUndefined();
      expect(printing.rows).toEqual([{ collector_number: 'OP05-119', rarity: 'SEC' }]);
      const offers = await as(actor, `select id, stock from public.card_offers where product_id = 'op05-119' order by id`);
      expect(offers.error).toBeUndefined();
      expect(offers.rows).toEqual([
        { id: LP_EN, stock: 5 },
        { id: NM_EN, stock: 0 },
        { id: PSA, stock: 1 },
      ]);
    });
  }

  for (const [what, statement] of Object.entries(BACK_OFFICE_WRITES)) {
    it(`anon cannot ${what}`, async () => {
      const outcome = await as('anon', statement);
      expect(outcome.ok).toBe(false);
      expect(outcome.error?.code).toBe('42501');
    });

    it(`a shopper cannot ${what}`, async () => {
      const outcome = await as('shopper', statement);
      if (statement.startsWith('insert')) {
        // Refused by the insert policy (an upsert is an insert first).
        expect(outcome.ok).toBe(false);
        expect(outcome.error?.code).toBe('42501');
      } else {
        // An update or a delete finds no row the shopper may touch.
        expect(outcome.error).toBeUndefined();
        expect(outcome.affected).toBe(0);
      }
    });

    it(`an admin can ${what}`, async () => {
      const outcome = await as('admin', statement);
      expect(outcome.error).toBeUndefined();
      expect(outcome.affected).toBe(1);
    });
  }

  it('a shopper cannot set an offer’s stock by a direct update either', async () => {
    const outcome = await as('shopper', `update public.card_offers set stock = 99 where id = '${LP_EN}' returning id`);
    expect(outcome.affected).toBe(0);
    expect(await offerStock(LP_EN)).toBe(5);
  });

  it('the database refuses a second raw offer of the same condition, language and finish, and a certificate on sale twice', async () => {
    const twin = await as(
      'admin',
      `insert into public.card_offers (product_id, condition, language, finish, price, stock) values ('op05-119', 'LP', 'en', 'parallel', 3000, 1)`,
    );
    expect(twin.error?.code).toBe('23505');
    expect(twin.error?.message).toContain('card_offers_raw_unique_idx');
    const sameCertificate = await as(
      'admin',
      `insert into public.card_offers (product_id, language, finish, price, stock, grading_company, grade, certificate_number)
       values ('op05-060', 'en', 'normal', 500, 1, 'PSA', 9, '81234567')`,
    );
    expect(sameCertificate.error?.code).toBe('23505');
    expect(sameCertificate.error?.message).toContain('certificate_number');
  });

  it('offer edits leave the product row’s price and stock as they were', async () => {
    const before = await productRow('op05-119');
    for (const statement of Object.values(BACK_OFFICE_WRITES)) {
      const outcome = await committedAs('admin', statement);
      expect(outcome.error, statement).toBeUndefined();
    }
    expect(await productRow('op05-119')).toEqual(before);
  });
});

describe('admin_set_offer_stock', () => {
  it('writes nothing when a shopper reserved units of the offer after the grid read its stock, and reports the current stock', async () => {
    const read = await offerStock(LP_EN);
    expect(read).toBe(5);
    const order = await committedAs('shopper', `select public.create_order('[{"product_id":"op05-119","offer_id":"${LP_EN}","quantity":2}]'::jsonb) as id`);
    expect(order.ok, order.error?.message).toBe(true);
    expect(await offerStock(LP_EN)).toBe(3);

    const stale = await committedAs('admin', SET_STOCK, [LP_EN, read, 10]);
    expect(stale.error).toBeUndefined();
    expect(stale.rows[0]!.answer).toEqual({ saved: false, stock: 3 });
    expect(await offerStock(LP_EN)).toBe(3);

    // Saving again against the stock there is now writes.
    const fresh = await committedAs('admin', SET_STOCK, [LP_EN, 3, 10]);
    expect(fresh.rows[0]!.answer).toEqual({ saved: true, stock: 10 });
    expect(await offerStock(LP_EN)).toBe(10);
  });

  it('puts a sold-out offer back on sale', async () => {
    const outcome = await committedAs('admin', SET_STOCK, [PSA, 1, 0]);
    expect(outcome.rows[0]!.answer).toEqual({ saved: true, stock: 0 });
    const back = await committedAs('admin', SET_STOCK, [PSA, 0, 1]);
    expect(back.rows[0]!.answer).toEqual({ saved: true, stock: 1 });
  });

  it('refuses anyone but an admin, and changes nothing', async () => {
    const before = await offerStock(LP_EN);
    const shopper = await committedAs('shopper', SET_STOCK, [LP_EN, before, 100]);
    expect(shopper.error).toMatchObject({ code: '42501', message: 'Solo un administrador puede editar ofertas.' });
    const anon = await attempt(db, 'anon', undefined, SET_STOCK, [LP_EN, before, 100]);
    expect(anon.error?.code).toBe('42501');
    const service = await attempt(db, 'service_role', undefined, SET_STOCK, [LP_EN, before, 100]);
    expect(service.error?.code).toBe('42501');
    expect(await offerStock(LP_EN)).toBe(before);
  });

  it('refuses a negative or missing stock and an unknown offer', async () => {
    const before = await offerStock(LP_EN);
    const negative = await as('admin', SET_STOCK, [LP_EN, before, -1]);
    expect(negative.error).toMatchObject({ code: '23514', detail: 'stock_negative' });
    const missing = await as('admin', SET_STOCK, [LP_EN, null, 3]);
    expect(missing.error).toMatchObject({ code: 'P0001', detail: 'stock_required' });
    const unknown = await as('admin', SET_STOCK, ['00000000-0000-4000-d000-0000000006ff', 0, 3]);
    expect(unknown.error).toMatchObject({ code: 'P0001', message: 'Oferta no encontrada.', detail: 'offer_not_found' });
  });
});
