import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../account/fake-supabase.ts';

// Rows as PostgREST sends them: numeric columns as JSON numbers or numeric strings, in pesos. The
// data modules hand them on with the unit in the name and the amount in whole centavos.
let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('../../../src/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const admin = await import('../../../src/data/admin.ts');
const checkout = await import('../../../src/data/checkout.ts');
const orders = await import('../../../src/data/orders.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

const productRow = {
  id: 'pk-etb',
  name: 'ETB',
  description: '',
  price: 1299.9,
  original_price: '1500.00',
  discount: true,
  preorder: false,
  stock: 3,
  limit_per_customer: 2,
  available: true,
  release_date: null,
  image: 'products/a.svg',
  images: [],
  franchise_id: 'pokemon',
  expansion_id: null,
  product_type_id: null,
};

const adminOrderRow = {
  id: 'o1',
  created_at: '2026-11-20T10:00:00Z',
  status: 'Pagado',
  user_id: 'u1',
  customer_email: 'a@b.mx',
  customer_name: 'Ana',
  subtotal: 1357,
  discount: '135.70',
  shipping: 99,
  total: 1320.3,
  coupon_code: 'MEKACAT10',
  paid_at: '2026-11-20T10:05:00Z',
  payment_provider: 'stripe',
  payment_ref: 'pi_1',
  shipping_address: null,
  carrier: null,
  tracking_number: null,
  shipped_at: null,
  completed_at: null,
  refunded_at: null,
  refund_ref: null,
  total_count: 1,
};

describe('back office', () => {
  it('reads product prices as centavos and keeps the other columns', async () => {
    fake = fakeSupabase({ products: [{ data: [productRow, { ...productRow, id: 'pk-b', price: '89', original_price: null }], error: null, count: 2 } as never] });
    const result = await admin.loadProducts({ search: '', franchise: '', type: '', expansion: '', flag: '', page: 1 });
    expect(result?.products.map((p) => [p.id, p.priceCentavos, p.originalPriceCentavos])).toEqual([
      ['pk-etb', 129990, 150000],
      ['pk-b', 8900, null],
    ]);
    expect(result?.products[0]).toMatchObject({ name: 'ETB', stock: 3, discount: true });
    expect(result?.products[0]).not.toHaveProperty('price');
  });

  it('reads order amounts and line prices as centavos', async () => {
    fake = fakeSupabase({
      'rpc:admin_orders': [{ data: [adminOrderRow], error: null }],
      order_items: [{ data: [{ id: 'l1', quantity: 2, price: '599.00', product_id: 'p1' }], error: null }],
      order_events: [{ data: [], error: null }],
      products: [{ data: [{ id: 'p1', name: 'Caja' }], error: null }],
    });
    const detail = await admin.loadOrderDetail('o1');
    expect(detail?.order).toMatchObject({ id: 'o1', subtotalCentavos: 135700, discountCentavos: 13570, shippingCentavos: 9900, totalCentavos: 132030 });
    expect(detail?.order).not.toHaveProperty('total');
    expect(detail?.lines).toEqual([{ id: 'l1', quantity: 2, priceCentavos: 59900, product_id: 'p1', name: 'Caja' }]);
  });

  it('lists orders with their totals in centavos; a missing amount stays null', async () => {
    fake = fakeSupabase({ 'rpc:admin_orders': [{ data: [adminOrderRow, { ...adminOrderRow, id: 'o2', total: null }], error: null }] });
    const result = await admin.loadOrders({ status: '', from: '', to: '', search: '', page: 1 });
    expect(result?.orders.map((o) => o.totalCentavos)).toEqual([132030, null]);
    expect(result?.total).toBe(1);
  });

  it("parses the 'Resumen' numbers, sales totals as centavos, and refuses another shape", async () => {
    const summary = {
      sales: [
        { day: '2026-11-22', orders: 2, total: 1398.5 },
        { day: '2026-11-23', orders: 0, total: 0 },
      ],
      toShip: 1,
      pendingPayment: 0,
      refundsToReview: 0,
      lowStock: [{ id: 'p1', name: 'Caja', stock: 1 }],
      lowStockCount: 1,
    };
    fake = fakeSupabase({ 'rpc:admin_summary': [{ data: summary, error: null }] });
    expect((await admin.loadSummary())?.sales).toEqual([
      { day: '2026-11-22', orders: 2, totalCentavos: 139850 },
      { day: '2026-11-23', orders: 0, totalCentavos: 0 },
    ]);
    fake = fakeSupabase({ 'rpc:admin_summary': [{ data: { ...summary, sales: [{ day: '2026-11-22', orders: 2, total: 'mucho' }] }, error: null }] });
    expect(await admin.loadSummary()).toBeNull();
    fake = fakeSupabase({ 'rpc:admin_summary': [{ data: { sales: [] }, error: null }] });
    expect(await admin.loadSummary()).toBeNull();
  });
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
    expect(order).toMatchObject({ subtotalCentavos: 135700, discountCentavos: 13570, shippingCentavos: 9900, totalCentavos: 132030, creditCentavos: 0, dueCentavos: 132030 });
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

describe('account', () => {
  it("lists the user's orders with the total in centavos", async () => {
    const row = { id: 'o1', user_id: 'u1', created_at: '2026-11-23T00:00:00Z', total: '1320.30', status: 'Pagado', paid_at: null, shipping_address_id: null, shipping_address: null, payment_method: 'card', installments: 3 };
    fake = fakeSupabase({ orders: [{ data: [row, { ...row, id: 'o2', total: null }], error: null }] });
    const result = await orders.listOrders('u1');
    expect(result.data?.map((o) => [o.id, o.totalCentavos])).toEqual([
      ['o1', 132030],
      ['o2', null],
    ]);
    expect(result.data?.[0]).not.toHaveProperty('total');
  });
});
