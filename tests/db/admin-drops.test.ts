/**
 * The back office's drop time: admin_save_product writes on_sale_at (and clears it) with the rest
 * of the product, still only when the stock is the one the dialog read, and returns it; only an
 * admin may; the drop schedule's read (upcoming on_sale_at, soonest first) sees hidden products too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const ADMIN = '10000000-0000-4000-a000-0000000000f1';
const SHOPPER = '10000000-0000-4000-a000-0000000000f2';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

const SAVE = `select public.admin_save_product(
  p_product_id => $1, p_stock_read => $2, p_stock => $2, p_price => 1500, p_original_price => null,
  p_limit_per_customer => 2, p_available => true, p_preorder => false, p_release_date => null,
  p_on_sale_at => $3, p_description => 'Lanzamiento', p_images => array['products/a.svg']) as answer`;

function save(actor: string, id: string, stockRead: number, onSaleAt: string | null) {
  return commit<{ answer: { saved: boolean; stock: number; product?: Record<string, unknown> } }>(db, 'authenticated', actor, SAVE, [id, stockRead, onSaleAt]);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa"}'), ('${SHOPPER}', 'ana@correo.mx', '{"username":"ana"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, image, images, available, on_sale_at) values
    ('pk-caja', 'Caja', 1500, 10, 2, 'pokemon', 'products/a.svg', array['products/a.svg'], true, null),
    ('pk-pronto', 'Caja pronto', 900, 4, 1, 'pokemon', 'products/a.svg', array['products/a.svg'], false, now() + interval '1 day'),
    ('pk-pasado', 'Caja ya a la venta', 900, 4, 1, 'pokemon', 'products/a.svg', array['products/a.svg'], true, now() - interval '1 day')`);
});

afterAll(async () => {
  await db?.close();
});

describe("the product edit's drop time", () => {
  it('is written and returned with the product, and cleared with null', async () => {
    const set = await save(ADMIN, 'pk-caja', 10, '2099-12-11 10:00:00-06');
    expect(set.ok, set.error?.message).toBe(true);
    expect(set.rows[0]!.answer).toMatchObject({ saved: true, stock: 10, product: { id: 'pk-caja', on_sale_at: '2099-12-11T16:00:00+00:00' } });
    expect(await sql(`select on_sale_at = '2099-12-11 16:00:00+00'::timestamptz as same from public.products where id = 'pk-caja'`)).toEqual([{ same: true }]);

    const cleared = await save(ADMIN, 'pk-caja', 10, null);
    expect(cleared.rows[0]!.answer).toMatchObject({ saved: true, product: { on_sale_at: null } });
    expect(await sql(`select on_sale_at from public.products where id = 'pk-caja'`)).toEqual([{ on_sale_at: null }]);
  });

  it('is not written when the stock moved since the dialog read it', async () => {
    const stale = await save(ADMIN, 'pk-caja', 7, '2099-12-11 10:00:00-06');
    expect(stale.rows[0]!.answer).toEqual({ saved: false, stock: 10 });
    expect(await sql(`select on_sale_at from public.products where id = 'pk-caja'`)).toEqual([{ on_sale_at: null }]);
  });

  it('is refused to anyone but an admin', async () => {
    const shopper = await save(SHOPPER, 'pk-caja', 10, '2099-12-11 10:00:00-06');
    expect(shopper.error?.code).toBe('42501');
    const anon = await attempt(db, 'anon', undefined, SAVE, ['pk-caja', 10, '2099-12-11 10:00:00-06']);
    expect(anon.ok).toBe(false);
    expect(await sql(`select on_sale_at from public.products where id = 'pk-caja'`)).toEqual([{ on_sale_at: null }]);
  });
});

describe('the drop schedule', () => {
  const UPCOMING = `select id from public.products where on_sale_at > now() order by on_sale_at, id`;

  it('lists an admin every upcoming drop, soonest first, hidden ones too, and not those already on sale', async () => {
    await save(ADMIN, 'pk-caja', 10, '2099-12-11 10:00:00-06');
    const admin = await attempt<{ id: string }>(db, 'authenticated', ADMIN, UPCOMING);
    expect(admin.rows.map((row) => row.id)).toEqual(['pk-pronto', 'pk-caja']);
  });
});
