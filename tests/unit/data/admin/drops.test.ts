/**
 * The timed drops' data: checkout's address step explains the database's refusal of a drop's
 * address, the drop schedule reads the upcoming drops soonest first, and the back office saves the
 * drop time with the product.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../../support/fake-supabase.ts';
import { centavos } from '~/domain/money.ts';
import { DROP_CHECKOUT_TEXT } from '~/i18n/drops.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { setOrderAddress } = await import('~/data/checkout.ts');
const { loadUpcomingDrops } = await import('~/data/admin/drops.ts');
const { saveProductIfStockUnchanged } = await import('~/data/admin/products.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

describe("checkout's address step", () => {
  it("says why a drop's address is refused, and leaves other failures to the step's own message", async () => {
    fake = fakeSupabase({
      orders: [
        { data: null, error: null },
        {
          data: null,
          error: {
            message: 'Ya se alcanzó el límite de este lanzamiento para esta dirección de envío: «Caja» admite 2 por domicilio.',
            details: 'drop_address_limit:pk-caja',
          },
        },
        { data: null, error: { message: 'fallo', details: null } },
      ],
    });
    expect(await setOrderAddress('o1', 'a1')).toEqual({ saved: true });
    expect(fake.calls[0]!.steps).toContainEqual({ method: 'update', args: [{ shipping_address_id: 'a1' }] });
    expect(await setOrderAddress('o1', 'a2')).toEqual({ saved: false, message: DROP_CHECKOUT_TEXT.addressLimit });
    expect(await setOrderAddress('o1', 'a3')).toEqual({ saved: false, message: null });
  });
});

describe("the back office's drops", () => {
  it('reads the drops after now, soonest first, and null when the read fails', async () => {
    fake = fakeSupabase({
      products: [
        {
          data: [{ id: 'pk-caja', name: 'Caja', on_sale_at: '2026-12-11T16:00:00+00:00', stock: 40, limit_per_customer: 2, available: true }],
          error: null,
        },
        { data: null, error: { message: 'sin red' } },
      ],
    });
    const now = new Date('2026-12-01T00:00:00Z');
    expect(await loadUpcomingDrops(now)).toEqual([
      { id: 'pk-caja', name: 'Caja', onSaleAt: '2026-12-11T16:00:00+00:00', stock: 40, limitPerCustomer: 2, available: true },
    ]);
    const steps = fake.calls[0]!.steps;
    expect(steps).toContainEqual({ method: 'gt', args: ['on_sale_at', '2026-12-01T00:00:00.000Z'] });
    expect(steps).toContainEqual({ method: 'order', args: ['on_sale_at'] });
    expect(await loadUpcomingDrops(now)).toBeNull();
  });

  it('saves the drop time with the product and reads it back', async () => {
    const row = {
      id: 'pk-caja',
      name: 'Caja',
      description: '',
      price: 1500,
      original_price: null,
      discount: false,
      preorder: false,
      stock: 40,
      limit_per_customer: 2,
      available: true,
      release_date: null,
      on_sale_at: '2026-12-11T16:00:00+00:00',
      image: 'products/a.svg',
      images: ['products/a.svg'],
      franchise_id: 'pokemon',
      expansion_id: null,
      product_type_id: null,
    };
    fake = fakeSupabase({ 'rpc:admin_save_product': [{ data: { saved: true, stock: 40, product: row }, error: null }] });
    const result = await saveProductIfStockUnchanged('pk-caja', 40, {
      stock: 40,
      priceCentavos: centavos(150000),
      originalPriceCentavos: null,
      limitPerCustomer: 2,
      available: true,
      preorder: false,
      releaseDate: null,
      onSaleAt: '2026-12-11T16:00:00.000Z',
      description: '',
      images: ['products/a.svg'],
    });
    expect(fake.calls[0]!.steps[0]!.args[0]).toMatchObject({ p_product_id: 'pk-caja', p_on_sale_at: '2026-12-11T16:00:00.000Z' });
    expect(result.status === 'saved' && result.product.on_sale_at).toBe('2026-12-11T16:00:00+00:00');
  });
});

describe("the product save's SAT keys", () => {
  it('are sent to admin_save_product and read back with the saved product; absent, they are sent as null (kept)', async () => {
    const row = {
      id: 'pk-caja',
      name: 'Caja',
      description: '',
      price: 1500,
      original_price: null,
      discount: false,
      preorder: false,
      stock: 40,
      limit_per_customer: 2,
      available: true,
      release_date: null,
      on_sale_at: null,
      image: 'products/a.svg',
      images: ['products/a.svg'],
      franchise_id: 'pokemon',
      expansion_id: null,
      product_type_id: null,
      sat_product_key: '60141103',
      sat_unit_key: 'XBX',
    };
    fake = fakeSupabase({ 'rpc:admin_save_product': [{ data: { saved: true, stock: 40, product: row }, error: null }] });
    const fields = {
      stock: 40,
      priceCentavos: centavos(150000),
      originalPriceCentavos: null,
      limitPerCustomer: 2,
      available: true,
      preorder: false,
      releaseDate: null,
      onSaleAt: null,
      description: '',
      images: ['products/a.svg'],
    };
    const result = await saveProductIfStockUnchanged('pk-caja', 40, { ...fields, satProductKey: '60141103', satUnitKey: 'XBX' });
    expect(fake.calls[0]!.steps[0]!.args[0]).toMatchObject({ p_sat_product_key: '60141103', p_sat_unit_key: 'XBX' });
    expect(result.status === 'saved' && [result.product.sat_product_key, result.product.sat_unit_key]).toEqual(['60141103', 'XBX']);

    fake = fakeSupabase({ 'rpc:admin_save_product': [{ data: { saved: true, stock: 40, product: row }, error: null }] });
    await saveProductIfStockUnchanged('pk-caja', 40, fields);
    expect(fake.calls[0]!.steps[0]!.args[0]).toMatchObject({ p_sat_product_key: null, p_sat_unit_key: null });
  });
});
