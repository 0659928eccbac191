/**
 * The demo seed's uses of MEKACAT10 and ENVIOGRATIS: 'Promociones' (admin_promotions, as the demo
 * admin) shows for each code the uses, discount given and sales of exactly the demo orders that
 * used it (supabase/local/seed/demo_promotion_uses.sql records them as create_order would).
 */
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit, migratedPglite } from './support.ts';

let db: PGlite;
const PAID = ['Pagado', 'Procesando', 'Enviado', 'Completado'];

beforeAll(async () => {
  db = await migratedPglite({ seed: true });
}, 180_000);

afterAll(async () => {
  await db?.close();
});

describe('the demo orders with a coupon in Promociones', () => {
  it.each(['MEKACAT10', 'ENVIOGRATIS'])('%s shows the uses, discount and sales of the demo orders that used it', async (code) => {
    // The orders whose use counts: not cancelled, failed or an unpaid reservation that expired.
    const { rows: orders } = await db.query<{ status: string; subtotal: string; discount: string; total: string }>(
      `select status, subtotal, discount, total from public.orders
        where upper(coupon_code) = $1 and status not in ('Cancelado', 'Fallido')
          and not (status = 'Pendiente' and expires_at is not null and expires_at <= now())`,
      [code],
    );
    expect(orders.length).toBeGreaterThan(0);
    const { rows: admins } = await db.query<{ id: string }>('select id from public.profiles where is_admin order by id limit 1');
    const listed = await commit<{ code: string; uses: number; discount_given: string; sales: string; shipping_waived: string }>(
      db,
      'authenticated',
      admins[0]!.id,
      'select code, uses, discount_given, sales, shipping_waived from public.admin_promotions() where code = $1',
      [code],
    );
    expect(listed.ok).toBe(true);
    const row = listed.rows[0]!;
    const cents = (values: string[]) => values.reduce((sum, v) => sum + Math.round(Number(v) * 100), 0);
    expect(row.uses).toBe(orders.length);
    expect(Math.round(Number(row.discount_given) * 100)).toBe(cents(orders.map((o) => o.discount)));
    expect(Math.round(Number(row.sales) * 100)).toBe(cents(orders.filter((o) => PAID.includes(o.status)).map((o) => o.total)));
    if (code === 'MEKACAT10') expect(Number(row.discount_given)).toBeGreaterThan(0);
    else expect(Math.round(Number(row.shipping_waived) * 100)).toBe(orders.filter((o) => Number(o.subtotal) < 2999).length * 9900);
  });

  it('each use belongs to its order and shopper, once', async () => {
    const { rows } = await db.query<{ mismatched: number; repeated: number }>(
      `select count(*) filter (where r.user_id <> o.user_id or upper(r.code) <> upper(o.coupon_code))::int as mismatched,
              (count(*) - count(distinct r.order_id))::int as repeated
         from public.promotion_redemptions r join public.orders o on o.id = r.order_id`,
    );
    expect(rows[0]).toEqual({ mismatched: 0, repeated: 0 });
  });
});
