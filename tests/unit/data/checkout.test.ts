import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

// Rows as PostgREST sends them: numeric columns as JSON numbers or numeric strings, in pesos. The
// data modules hand them on with the unit in the name and the amount in whole centavos.
let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const checkout = await import('~/data/checkout.ts');
const { CHECKOUT_MESSAGES, parseCreateOrderError } = checkout;

beforeEach(() => {
  fake = fakeSupabase();
});

describe('checkout', () => {
  it("reads the order's stored amounts and line prices as centavos", async () => {
    fake = fakeSupabase({
      orders: [
        {
          data: {
            id: 'o1',
            created_at: '2026-11-23T00:00:00Z',
            status: 'Pendiente',
            paid_at: null,
            expires_at: null,
            subtotal: '1357.00',
            discount: 135.7,
            shipping: 99,
            total: '1320.30',
            coupon_code: 'MEKACAT10',
            shipping_address_id: null,
            shipping_address: null,
            payment_method: null,
            installments: null,
            oxxo_voucher: null,
            credit_applied: '0.00',
            order_items: [{ id: 'l1', product_id: 'p1', quantity: 2, price: 599, products: { name: 'Caja', image: null } }],
          },
          error: null,
        },
      ],
    });
    const order = await checkout.loadOrder('o1');
    expect(order).toMatchObject({
      subtotalCentavos: 135700,
      discountCentavos: 13570,
      shippingCentavos: 9900,
      totalCentavos: 132030,
      creditCentavos: 0,
      dueCentavos: 132030,
    });
    expect(order?.lines).toEqual([{ id: 'l1', product_id: 'p1', quantity: 2, priceCentavos: 59900, name: 'Caja', image: null }]);
  });

  it("shows a paid order's own address copy and reads its OXXO voucher only when it has the voucher's shape", async () => {
    const paid = {
      id: 'o2',
      created_at: '2026-11-23T00:00:00Z',
      status: 'Pagado',
      paid_at: '2026-11-23T00:10:00Z',
      expires_at: null,
      subtotal: 100,
      discount: 0,
      shipping: 99,
      total: 199,
      coupon_code: null,
      shipping_address_id: 'a1',
      shipping_address: { label: 'Casa', street: 'Calle 1', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' },
      payment_method: 'oxxo',
      installments: null,
      oxxo_voucher: { reference: '123', expiresAt: '2026-11-26T05:59:59Z', amount: 19900, hostedVoucherUrl: null, paymentIntentId: 'pi_1' },
      credit_applied: 50,
      order_items: [],
    };
    fake = fakeSupabase({ orders: [{ data: paid, error: null }] });
    const order = await checkout.loadOrder('o2');
    expect(order?.address).toEqual({ id: 'a1', label: 'Casa', street: 'Calle 1', city: 'Puebla', state: 'Puebla', zip: '72000', country: 'México' });
    expect(order?.oxxo_voucher).toMatchObject({ reference: '123', amount: 19900 });
    // The part paid with the balance, and what a provider still charges.
    expect(order).toMatchObject({ creditCentavos: 5000, dueCentavos: 14900 });
    // The address book is not read for a paid order with its own copy.
    expect(fake.calls.map((call) => call.table)).toEqual(['orders']);

    fake = fakeSupabase({ orders: [{ data: { ...paid, oxxo_voucher: { reference: 123 } }, error: null }] });
    expect((await checkout.loadOrder('o2'))?.oxxo_voucher).toBeNull();
  });

  it('reads live cart products with their price in centavos', async () => {
    fake = fakeSupabase({ products: [{ data: [{ id: 'p1', name: 'Caja', price: '1299.90', stock: 4, available: true, image: null }], error: null }] });
    expect(await checkout.fetchCartProducts(['p1'])).toEqual([{ id: 'p1', name: 'Caja', priceCentavos: 129990, stock: 4, available: true, image: null }]);
  });
});

describe('create_order refusals', () => {
  it('puts a product refusal next to its line with the database’s Spanish message', () => {
    const parsed = parseCreateOrderError({ message: 'Stock insuficiente para «Caja» (disponible: 2).', details: 'out_of_stock:pk-caja', hint: '2' });
    expect(parsed.line).toEqual({ productId: 'pk-caja', kind: 'out_of_stock', message: 'Stock insuficiente para «Caja» (disponible: 2).', remaining: 2 });
    expect(parseCreateOrderError({ message: 'Solo puedes comprar 3…', details: 'limit_exceeded:pk-x', hint: '0' }).line?.kind).toBe('limit_exceeded');
  });

  it('maps the other refusals to the specification’s messages', () => {
    expect(parseCreateOrderError({ message: 'x', details: 'invalid_quantity' })).toEqual({ message: CHECKOUT_MESSAGES.saveItems, line: null });
    expect(parseCreateOrderError({ message: 'x', details: 'not_authenticated' }).message).toBe('Debes iniciar sesión para finalizar tu compra.');
    expect(parseCreateOrderError({ message: 'boom', details: null }).message).toBe('Error al crear el pedido.');
  });
});
