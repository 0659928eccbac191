import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

// check_promotion answers in pesos as JSON numbers (numeric in jsonb); the module hands on centavos.
let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { checkPromotion } = await import('~/data/promotions.ts');

const ITEMS = [
  { product_id: 'pk-box', quantity: 1 },
  { product_id: 'pk-sleeves', quantity: 2 },
];

beforeEach(() => {
  fake = fakeSupabase();
});

describe('checkPromotion', () => {
  it('sends the normalised code and the items, never a price, and reads a percent promotion', async () => {
    fake = fakeSupabase({
      'rpc:check_promotion': [
        {
          data: {
            ok: true,
            code: 'BUENFIN15',
            type: 'percent',
            value: 15,
            subtotal: 2398,
            discount: 284.85,
            shipping: 99,
            total: 2212.15,
            eligible: [true, false],
          },
          error: null,
        },
      ],
    });
    const answer = await checkPromotion('  buenfin15 ', ITEMS);
    expect(fake.calls[0]!.steps[0]).toEqual({ method: 'rpc', args: [{ code: 'BUENFIN15', items: ITEMS }] });
    expect(answer).toEqual({
      ok: true,
      promotion: { code: 'BUENFIN15', type: 'percent', value: 15 },
      eligible: [true, false],
      discountCentavos: 28485,
      shippingCentavos: 9900,
    });
  });

  it("reads a fixed promotion's value as centavos", async () => {
    fake = fakeSupabase({
      'rpc:check_promotion': [
        { data: { ok: true, code: 'MENOS200', type: 'fixed', value: '199.99', discount: 199.99, shipping: 0, eligible: [true, true] }, error: null },
      ],
    });
    const answer = await checkPromotion('MENOS200', ITEMS);
    expect(answer).toMatchObject({ ok: true, promotion: { type: 'fixed', value: 19999 }, discountCentavos: 19999, shippingCentavos: 0 });
  });

  it("hands on the database's refusal with its message", async () => {
    fake = fakeSupabase({ 'rpc:check_promotion': [{ data: { ok: false, detail: 'coupon_expired', message: 'Este cupón expiró.' }, error: null }] });
    expect(await checkPromotion('AYER', ITEMS)).toEqual({ ok: false, detail: 'coupon_expired', message: 'Este cupón expiró.' });
  });

  it('answers null when the check could not be made or its answer is unreadable', async () => {
    fake = fakeSupabase({ 'rpc:check_promotion': [{ data: null, error: { message: 'Failed to fetch' } }] });
    expect(await checkPromotion('X', ITEMS)).toBeNull();
    fake = fakeSupabase({
      'rpc:check_promotion': [{ data: { ok: true, code: 'X', type: 'regalo', value: 1, discount: 0, shipping: 0, eligible: [true, true] }, error: null }],
    });
    expect(await checkPromotion('X', ITEMS)).toBeNull();
    fake = fakeSupabase({
      'rpc:check_promotion': [{ data: { ok: true, code: 'X', type: 'percent', value: 10, discount: 0, shipping: 0, eligible: [true] }, error: null }],
    });
    expect(await checkPromotion('X', ITEMS)).toBeNull();
  });
});
