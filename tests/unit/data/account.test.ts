import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({
  getSupabase: () => fake.client,
  supabaseUrl: () => 'http://127.0.0.1:54321',
}));

const account = await import('~/data/account.ts');

beforeEach(() => {
  fake = fakeSupabase();
});

describe('account summary', () => {
  it('counts orders, points, coupons and the last 30 days', async () => {
    fake = fakeSupabase({
      orders: [
        { data: [{ id: 1 }, { id: 2 }, { id: 3 }], error: null },
        { data: [{ id: 1 }], error: null },
      ],
      rewards: [{ data: { points: 1250 }, error: null }],
      coupons: [{ data: [{ id: 'c' }], error: null }],
    });
    const now = new Date('2026-11-22T00:00:00Z');
    expect(await account.loadSummary('u1', now)).toEqual({ orders: 3, points: 1250, coupons: 1, ordersLast30Days: 1 });
    const recent = fake.calls
      .filter((c) => c.table === 'orders')
      .flatMap((c) => c.steps)
      .find((s) => s.method === 'gte');
    expect(recent?.args).toEqual(['created_at', '2026-10-23T00:00:00.000Z']);
  });

  it('throws the first failure so the panel can log it', async () => {
    fake = fakeSupabase({ rewards: [{ data: null, error: new Error('sin permiso') }] });
    await expect(account.loadSummary('u1')).rejects.toThrow('sin permiso');
  });
});
