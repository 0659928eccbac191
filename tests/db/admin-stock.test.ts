/**
 * admin_save_product: the back office's product save is a compare and set on the stock. Units a
 * shopper reserves (create_order) between the moment the dialog read the stock and the save are
 * never put on sale again: the save writes nothing and reports the current stock; a save whose
 * stock is still the one read writes every field. Admins only. And admin_orders says how each order
 * was paid (payment_method, installments).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const SHOPPER = '00000000-0000-4000-a000-0000000005a1';
const ADMIN = '00000000-0000-4000-a000-0000000005ad';
const PAID_IN_MONTHS = '00000000-0000-4000-c000-0000000005c1';

interface SaveAnswer {
  saved: boolean;
  stock: number;
  product?: Record<string, unknown>;
}

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

async function product(id: string): Promise<Record<string, unknown>> {
  const rows = await sql(
    'select price::text, original_price::text, discount, stock, limit_per_customer, available, preorder, release_date::text, description, image, images from public.products where id = $1',
    [id],
  );
  return rows[0]!;
}

/** The dialog's save: the stock it read, the stock wanted, and the other fields. */
const SAVE = `select public.admin_save_product(
  p_product_id => $1, p_stock_read => $2, p_stock => $3, p_price => 750, p_original_price => 1000,
  p_limit_per_customer => 2, p_available => true, p_preorder => false, p_release_date => '2026-12-01',
  p_on_sale_at => null, p_description => 'Caja sellada', p_images => array['products/b.svg', 'products/a.svg']) as answer`;

async function save(actor: string, productId: string, stockRead: number, stock: number) {
  return commit<{ answer: SaveAnswer }>(db, 'authenticated', actor, SAVE, [productId, stockRead, stock]);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values
    ('${SHOPPER}', 'compradora@correo.mx', '{"username":"compradora"}'),
    ('${ADMIN}', 'jefa@correo.mx', '{"username":"jefa"}')`);
  await sql(`update public.profiles set is_admin = true where id = '${ADMIN}'`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, description, price, stock, limit_per_customer, franchise_id, image, images) values
    ('pk-caja', 'Caja', 'Antes', 500, 5, 5, 'pokemon', 'products/a.svg', array['products/a.svg']),
    ('pk-sobre', 'Sobre', 'Antes', 90, 4, 5, 'pokemon', 'products/s.svg', array['products/s.svg'])`);
  await sql(`insert into public.orders (id, user_id, status, subtotal, discount, shipping, total, paid_at, payment_provider, payment_ref, payment_method, installments) values
    ('${PAID_IN_MONTHS}', '${SHOPPER}', 'Pagado', 3500, 0, 0, 3500, now(), 'simulated-card', 'pi_meses', 'card', 6)`);
});

afterAll(async () => {
  await db?.close();
});

describe('admin_save_product', () => {
  it('writes nothing when a shopper reserved units between the read and the save, and reports the current stock', async () => {
    // The dialog opened and read 5 units; then a shopper's order reserved 2.
    const read = Number((await product('pk-caja')).stock);
    expect(read).toBe(5);
    const order = await commit(db, 'authenticated', SHOPPER, `select public.create_order('[{"product_id":"pk-caja","quantity":2}]'::jsonb) as id`);
    expect(order.ok, order.error?.message).toBe(true);
    const before = await product('pk-caja');
    expect(before.stock).toBe(3);

    const answer = await save(ADMIN, 'pk-caja', read, 8);
    expect(answer.ok, answer.error?.message).toBe(true);
    expect(answer.rows[0]!.answer).toEqual({ saved: false, stock: 3 });
    // Not the stock, not the price, not the description: nothing.
    expect(await product('pk-caja')).toEqual(before);
  });

  it('writes every field and the new stock when the stock is still the one read', async () => {
    const answer = await save(ADMIN, 'pk-caja', 3, 8);
    expect(answer.ok, answer.error?.message).toBe(true);
    expect(answer.rows[0]!.answer).toMatchObject({
      saved: true,
      stock: 8,
      product: {
        id: 'pk-caja',
        name: 'Caja',
        price: 750,
        original_price: 1000,
        discount: true,
        stock: 8,
        limit_per_customer: 2,
        release_date: '2026-12-01',
        image: 'products/b.svg',
        images: ['products/b.svg', 'products/a.svg'],
        franchise_id: 'pokemon',
      },
    });
    expect(await product('pk-caja')).toEqual({
      price: '750.00',
      original_price: '1000.00',
      discount: true,
      stock: 8,
      limit_per_customer: 2,
      available: true,
      preorder: false,
      release_date: '2026-12-01',
      description: 'Caja sellada',
      image: 'products/b.svg',
      images: ['products/b.svg', 'products/a.svg'],
    });
  });

  it('clears the discount without an original price and keeps the stock when it is not changed', async () => {
    const answer = await commit<{ answer: SaveAnswer }>(
      db,
      'authenticated',
      ADMIN,
      `select public.admin_save_product('pk-sobre', 4, 4, 90, null, 5, true, false, null, null, null, array['products/s.svg']) as answer`,
    );
    expect(answer.ok, answer.error?.message).toBe(true);
    expect(answer.rows[0]!.answer).toMatchObject({
      saved: true,
      stock: 4,
      product: { original_price: null, discount: false, release_date: null, description: '' },
    });
  });

  it('refuses anyone but an admin, and changes nothing', async () => {
    const before = await product('pk-sobre');
    const shopper = await save(SHOPPER, 'pk-sobre', 4, 100);
    expect(shopper.error?.code).toBe('42501');
    expect(shopper.error?.message).toBe('Solo un administrador puede editar productos.');
    const anon = await attempt(db, 'anon', undefined, SAVE, ['pk-sobre', 4, 100]);
    expect(anon.error?.code).toBe('42501');
    const service = await attempt(db, 'service_role', undefined, SAVE, ['pk-sobre', 4, 100]);
    expect(service.error?.code).toBe('42501');
    expect(await product('pk-sobre')).toEqual(before);
  });

  it('says so when the product does not exist or the stock is missing', async () => {
    const missing = await save(ADMIN, 'pk-no-existe', 0, 1);
    expect(missing.error).toMatchObject({ code: 'P0001', message: 'Producto no encontrado.', detail: 'product_not_found' });
    const noStock = await attempt(db, 'authenticated', ADMIN, SAVE, ['pk-sobre', null, 3]);
    expect(noStock.error).toMatchObject({ code: 'P0001', detail: 'stock_required' });
    const negative = await attempt(db, 'authenticated', ADMIN, SAVE, ['pk-sobre', 4, -1]);
    expect(negative.error?.code).toBe('23514');
  });
});

describe('admin_orders', () => {
  it('says how each order was paid', async () => {
    const { rows, error } = await attempt<{ payment_method: string | null; installments: number | null; payment_provider: string | null }>(
      db,
      'authenticated',
      ADMIN,
      `select payment_method, installments, payment_provider from public.admin_orders(p_order_id => '${PAID_IN_MONTHS}')`,
    );
    expect(error).toBeUndefined();
    expect(rows).toEqual([{ payment_method: 'card', installments: 6, payment_provider: 'simulated-card' }]);
  });

  it('is still for admins only', async () => {
    const outcome = await attempt(db, 'authenticated', SHOPPER, `select id from public.admin_orders()`);
    expect(outcome.error?.code).toBe('42501');
  });
});
