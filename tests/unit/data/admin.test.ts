import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';
import { startTestStack, type TestStack } from '../../../packages/local-supabase/tests/helpers.ts';

// Rows as PostgREST sends them: numeric columns as JSON numbers or numeric strings, in pesos. The
// data modules hand them on with the unit in the name and the amount in whole centavos.
let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const admin = await import('~/data/admin.ts');

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
    fake = fakeSupabase({
      products: [{ data: [productRow, { ...productRow, id: 'pk-b', price: '89', original_price: null }], error: null, count: 2 } as never],
    });
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
      order_items: [
        {
          data: [
            { id: 'l1', quantity: 2, price: '599.00', product_id: 'p1', offer_label: null },
            { id: 'l2', quantity: 1, price: '850.00', product_id: 'p1', offer_label: 'LP · Inglés · Parallel' },
          ],
          error: null,
        },
      ],
      order_events: [{ data: [], error: null }],
      products: [{ data: [{ id: 'p1', name: 'Caja' }], error: null }],
    });
    const detail = await admin.loadOrderDetail('o1');
    expect(detail?.order).toMatchObject({ id: 'o1', subtotalCentavos: 135700, discountCentavos: 13570, shippingCentavos: 9900, totalCentavos: 132030 });
    expect(detail?.order).not.toHaveProperty('total');
    expect(detail?.lines).toEqual([
      { id: 'l1', quantity: 2, priceCentavos: 59900, product_id: 'p1', name: 'Caja', offerLabel: null },
      { id: 'l2', quantity: 1, priceCentavos: 85000, product_id: 'p1', name: 'Caja', offerLabel: 'LP · Inglés · Parallel' },
    ]);
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

/*
 * The product search's filter (productSearchOr) run as the back office runs it: a PostgREST `or`
 * filter through supabase-js against the local stack with the shop's migrations and demo seed,
 * so what it finds is what the database answers, not what a fake returns.
 */
const LUFFY = 'op-single-op-05-monkey-d-luffy-op05-119';

describe('the back office finds products by name, id and collector number', () => {
  let stack: TestStack;
  let client: SupabaseClient;

  beforeAll(async () => {
    stack = await startTestStack();
    client = createClient(stack.url, stack.serviceRoleKey, { auth: { persistSession: false, autoRefreshToken: false } });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  async function found(text: string): Promise<Array<{ id: string; name: string }>> {
    const filter = admin.productSearchOr(text);
    if (filter === null) throw new Error(`no filter for "${text}"`);
    const { data, error } = await client.from('products').select('id, name').or(filter).order('name');
    if (error) throw new Error(error.message);
    return data;
  }

  it('finds a single by its collector number typed with a dash, a space or a slash', async () => {
    for (const text of ['OP05-119', 'op05 119', 'OP05/119', 'op05-119']) {
      expect((await found(text)).map((p) => p.id)).toContain(LUFFY);
    }
  });

  it('finds a card by name words and number in order, and not by a number it does not have', async () => {
    const charizard = await found('charizard 199');
    expect(charizard.length).toBeGreaterThan(0);
    expect(charizard.every((p) => /charizard.*199/i.test(p.name))).toBe(true);
    expect(await found('op05 999')).toEqual([]);
  });

  it('still finds by part of the name or the id, ignoring case', async () => {
    expect((await found('monkey.d.luffy')).map((p) => p.id)).toContain(LUFFY);
    expect((await found('MONKEY-D-LUFFY-OP05')).map((p) => p.id)).toContain(LUFFY);
  });

  it('drops the characters of the filter syntax and gives no filter for an empty search', () => {
    expect(admin.productSearchOr('  ')).toBeNull();
    expect(admin.productSearchOr('(*,%)')).toBeNull();
    expect(admin.productSearchOr('op05,119')).toBe('name.ilike.*op05 119*,id.ilike.*op05 119*,name.ilike.*op05*119*');
  });
});
