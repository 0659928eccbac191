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

const orders = await import('~/data/orders.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

describe('orders', () => {
  it("joins lines with their products, prices as centavos, a single card's offer label; a deleted product is null", async () => {
    fake = fakeSupabase({
      order_items: [
        {
          data: [
            { id: 'l1', quantity: 2, price: 10, product_id: 'p1', offer_label: null },
            { id: 'l2', quantity: 1, price: '5.50', product_id: null, offer_label: null },
            { id: 'l3', quantity: 1, price: '850.00', product_id: 'p1', offer_label: 'LP · Inglés · Parallel' },
          ],
          error: null,
        },
      ],
      products: [{ data: [{ id: 'p1', name: 'Caja', image: 'products/p1.svg' }], error: null }],
    });
    const result = await orders.listOrderLines('o1');
    expect(result.data).toEqual([
      { id: 'l1', quantity: 2, priceCentavos: 1000, product_id: 'p1', product: { id: 'p1', name: 'Caja', image: 'products/p1.svg' }, offerLabel: null },
      { id: 'l2', quantity: 1, priceCentavos: 550, product_id: null, product: null, offerLabel: null },
      {
        id: 'l3',
        quantity: 1,
        priceCentavos: 85000,
        product_id: 'p1',
        product: { id: 'p1', name: 'Caja', image: 'products/p1.svg' },
        offerLabel: 'LP · Inglés · Parallel',
      },
    ]);
    expect(fake.calls.find((call) => call.table === 'order_items')!.steps[0]!.args[0]).toContain('offer_label');
  });

  it('reports a failure to read the lines', async () => {
    fake = fakeSupabase({ order_items: [{ data: null, error: { message: 'x' } }] });
    expect((await orders.listOrderLines('o1')).error).toBeTruthy();
  });
});

describe('account', () => {
  it("lists the user's orders with the total in centavos", async () => {
    const row = {
      id: 'o1',
      user_id: 'u1',
      created_at: '2026-11-23T00:00:00Z',
      total: '1320.30',
      status: 'Pagado',
      paid_at: null,
      shipping_address_id: null,
      shipping_address: null,
      payment_method: 'card',
      installments: 3,
    };
    fake = fakeSupabase({ orders: [{ data: [row, { ...row, id: 'o2', total: null }], error: null }] });
    const result = await orders.listOrders('u1');
    expect(result.data?.map((o) => [o.id, o.totalCentavos])).toEqual([
      ['o1', 132030],
      ['o2', null],
    ]);
    expect(result.data?.[0]).not.toHaveProperty('total');
  });
});
