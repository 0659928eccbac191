/**
 * Timed drops: before a product's `on_sale_at` the database refuses to sell it, through
 * create_order or any other way a line is written, whatever the shopper's browser believes the
 * time is; from that instant it sells as any product, offers of a single included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGlite } from '@electric-sql/pglite';
import { attempt, commit, migratedPglite } from './support.ts';

const SHOPPER = '10000000-0000-4000-a000-0000000000d1';
const OFFER = '10000000-0000-4000-d000-0000000000d1';

let db: PGlite;

async function sql(statement: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const outcome = await commit(db, 'postgres', undefined, statement, params);
  if (!outcome.ok) throw new Error(`${statement}: ${outcome.error?.message}`);
  return outcome.rows;
}

function order(items: unknown[]) {
  return attempt<{ id: string }>(db, 'authenticated', SHOPPER, 'select public.create_order($1::jsonb) as id', [JSON.stringify(items)]);
}

beforeAll(async () => {
  db = await migratedPglite();
  await sql(`insert into auth.users (id, email, raw_user_meta_data) values ('${SHOPPER}', 'drop@correo.mx', '{"username":"drop"}')`);
  await sql(`insert into public.franchises (id, name) values ('pokemon', 'Pokémon')`);
  await sql(`insert into public.products (id, name, price, stock, limit_per_customer, franchise_id, on_sale_at) values
    ('pk-drop', 'Caja Prismatic', 1500, 100, 2, 'pokemon', '2099-12-11 16:00:00+00'),
    ('pk-open', 'Sobre suelto', 100, 10, 5, 'pokemon', now() - interval '1 minute'),
    ('pk-single', 'Umbreon ex', 100, 0, 5, 'pokemon', '2099-12-11 16:00:00+00')`);
  await sql(`insert into public.card_offers (id, product_id, condition, language, finish, price, stock) values
    ('${OFFER}', 'pk-single', 'NM', 'es', 'holo', 900, 3)`);
});

afterAll(async () => {
  await db?.close();
});

describe('a product on sale from a set time', () => {
  it('is refused before it, as a refused line saying when it goes on sale, and nothing is reserved', async () => {
    const early = await order([{ product_id: 'pk-drop', quantity: 1 }]);
    expect(early.ok).toBe(false);
    expect(early.error?.code).toBe('P0001');
    expect(early.error?.detail).toBe('unavailable:pk-drop');
    expect(early.error?.message).toBe('«Caja Prismatic» aún no está a la venta: sale el 11/12/2099 a las 10:00 (hora del centro de México).');
    expect(await sql(`select stock from public.products where id = 'pk-drop'`)).toEqual([{ stock: 100 }]);
  });

  it('refuses a whole cart that mixes it with products on sale, and an offer of a single not yet on sale', async () => {
    const mixed = await order([
      { product_id: 'pk-open', quantity: 1 },
      { product_id: 'pk-drop', quantity: 1 },
    ]);
    expect(mixed.ok).toBe(false);
    expect(mixed.error?.detail).toBe('unavailable:pk-drop');
    const offer = await order([{ product_id: 'pk-single', offer_id: OFFER, quantity: 1 }]);
    expect(offer.ok).toBe(false);
    expect(offer.error?.detail).toBe('unavailable:pk-single');
    expect(await sql(`select stock from public.card_offers where id = '${OFFER}'`)).toEqual([{ stock: 3 }]);
  });

  it('cannot be written into an order by hand either', async () => {
    const direct = await commit(
      db,
      'postgres',
      undefined,
      `insert into public.orders (user_id, subtotal, total) values ('${SHOPPER}', 1500, 1500) returning id`,
    );
    const line = await attempt(
      db,
      'service_role',
      undefined,
      `insert into public.order_items (order_id, product_id, quantity, price) values ($1, 'pk-drop', 1, 1500)`,
      [direct.rows[0]?.id],
    );
    expect(line.ok).toBe(false);
    expect(line.error?.detail).toBe('unavailable:pk-drop');
  });

  it('sells from the instant on, and a product without a time sells as always', async () => {
    expect((await order([{ product_id: 'pk-open', quantity: 1 }])).ok).toBe(true);
    await sql(`update public.products set on_sale_at = now() where id = 'pk-drop'`);
    const onTime = await order([{ product_id: 'pk-drop', quantity: 1 }]);
    expect(onTime.ok, onTime.error?.message).toBe(true);
    await sql(`update public.products set on_sale_at = null where id = 'pk-single'`);
    expect((await order([{ product_id: 'pk-single', offer_id: OFFER, quantity: 1 }])).ok).toBe(true);
  });
});
