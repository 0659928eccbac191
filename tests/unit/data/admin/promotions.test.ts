/**
 * The back office's promotions data: the list read as centavos (the percent as a whole number),
 * the form's fields sent as the database takes them, and the database's Spanish refusals handed on.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('astro:env/client', () => ({ PUBLIC_SUPABASE_URL: undefined, PUBLIC_SUPABASE_ANON_KEY: undefined }));
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const { loadPromotions, savePromotion, setPromotionActive } = await import('~/data/admin/promotions.ts');

const ROW = {
  id: 'p1',
  code: 'BUENFIN15',
  description: '',
  type: 'percent',
  value: 15,
  min_subtotal: 500,
  starts_at: '2026-11-29T06:00:00+00:00',
  ends_at: null,
  max_uses: 100,
  max_uses_per_customer: null,
  first_purchase_only: false,
  franchise_ids: ['pokemon'],
  expansion_ids: [],
  product_type_ids: ['pokemon-booster-box'],
  product_ids: [],
  active: true,
  updated_at: '2026-11-29T06:00:00+00:00',
  uses: 3,
  discount_given: 854.55,
  shipping_waived: 0,
  sales: '9123.40',
};

const INPUT = {
  code: 'MENOS200',
  description: 'Liga',
  type: 'fixed' as const,
  value: '200',
  minSubtotal: '0',
  startsAt: '2026-11-29T06:00:00.000Z',
  endsAt: null,
  maxUses: 10,
  maxUsesPerCustomer: 1,
  firstPurchaseOnly: true,
  franchiseIds: [],
  expansionIds: [],
  productTypeIds: [],
  productIds: ['pk-box'],
  active: true,
};

beforeEach(() => {
  fake = fakeSupabase();
});

describe('loadPromotions', () => {
  it('reads each promotion with its amounts in centavos', async () => {
    fake = fakeSupabase({ 'rpc:admin_promotions': [{ data: [ROW, { ...ROW, id: 'p2', code: 'MENOS200', type: 'fixed', value: 199.9 }], error: null }] });
    const list = await loadPromotions();
    expect(list?.[0]).toMatchObject({
      code: 'BUENFIN15',
      type: 'percent',
      percent: 15,
      valueCentavos: 0,
      minSubtotalCentavos: 50000,
      maxUses: 100,
      maxUsesPerCustomer: null,
      franchiseIds: ['pokemon'],
      uses: 3,
      discountGivenCentavos: 85455,
      salesCentavos: 912340,
    });
    expect(list?.[1]).toMatchObject({ type: 'fixed', percent: 0, valueCentavos: 19990 });
  });

  it('answers null when the list cannot be read', async () => {
    fake = fakeSupabase({ 'rpc:admin_promotions': [{ data: null, error: { message: 'permission denied', code: '42501' } }] });
    expect(await loadPromotions()).toBeNull();
  });
});

describe('savePromotion and setPromotionActive', () => {
  it('sends the fields as the database takes them and answers the id', async () => {
    fake = fakeSupabase({ 'rpc:admin_save_promotion': [{ data: 'p9', error: null }] });
    expect(await savePromotion(null, INPUT)).toEqual({ ok: true, id: 'p9' });
    expect(fake.calls[0]!.steps[0]!.args[0]).toEqual({
      p_id: null,
      p_fields: {
        code: 'MENOS200',
        description: 'Liga',
        type: 'fixed',
        value: '200',
        min_subtotal: '0',
        starts_at: '2026-11-29T06:00:00.000Z',
        ends_at: null,
        max_uses: 10,
        max_uses_per_customer: 1,
        first_purchase_only: true,
        franchise_ids: [],
        expansion_ids: [],
        product_type_ids: [],
        product_ids: ['pk-box'],
        active: true,
      },
    });
  });

  it("hands on the database's refusal, and nothing of an unexpected error", async () => {
    fake = fakeSupabase({ 'rpc:admin_save_promotion': [{ data: null, error: { code: 'P0001', message: 'Ya existe una promoción con el código MENOS200.' } }] });
    expect(await savePromotion('p1', INPUT)).toEqual({ ok: false, message: 'Ya existe una promoción con el código MENOS200.' });
    fake = fakeSupabase({ 'rpc:admin_save_promotion': [{ data: null, error: { code: '08006', message: 'connection failure' } }] });
    expect(await savePromotion('p1', INPUT)).toEqual({ ok: false, message: null });
  });

  it('pauses and resumes', async () => {
    fake = fakeSupabase({ 'rpc:admin_set_promotion_active': [{ data: null, error: null }] });
    expect(await setPromotionActive('p1', false)).toEqual({ ok: true });
    expect(fake.calls[0]!.steps[0]!.args[0]).toEqual({ p_id: 'p1', p_active: false });
  });
});
