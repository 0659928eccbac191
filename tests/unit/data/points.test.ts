import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { fakeSupabase } from '../../support/fake-supabase.ts';

let fake = fakeSupabase();
vi.mock('~/data/supabase.ts', () => ({ getSupabase: () => fake.client }));

const { getPointsRate, newRedemptionRequest, redeemPoints, savePointsRate } = await import('~/data/points.ts');

const RATE_ROW = { points_per_block: 100, pesos_per_block: '12.50', min_points: 200, updated_at: '2026-11-29T17:00:00Z' };
const RATE = { pointsPerBlock: 100, blockValue: centavos(1250), minPoints: 200, updatedAt: '2026-11-29T17:00:00Z' };

beforeEach(() => {
  fake = fakeSupabase();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

describe('the rate (points_rate)', () => {
  it('is read with the block value in centavos', async () => {
    fake = fakeSupabase({ points_rate: [{ data: RATE_ROW, error: null }] });
    expect(await getPointsRate()).toEqual({ data: RATE, error: null });
    expect(fake.calls[0]!.steps.map((s) => s.method)).toEqual(['select', 'maybeSingle']);
  });

  it('is an error when missing, not an amount, or not readable', async () => {
    fake = fakeSupabase({ points_rate: [{ data: null, error: null }] });
    expect((await getPointsRate()).error).toBeInstanceOf(Error);
    fake = fakeSupabase({ points_rate: [{ data: { ...RATE_ROW, pesos_per_block: 'x' }, error: null }] });
    expect((await getPointsRate()).data).toBeNull();
    fake = fakeSupabase({ points_rate: [{ data: null, error: { message: 'down' } }] });
    expect((await getPointsRate()).error).toEqual({ message: 'down' });
  });

  it('is saved in pesos and answered as stored', async () => {
    fake = fakeSupabase({ points_rate: [{ data: [RATE_ROW], error: null }] });
    expect(await savePointsRate({ pointsPerBlock: 100, blockValue: centavos(1250), minPoints: 200 })).toEqual({ ok: true, rate: RATE });
    const steps = fake.calls[0]!.steps.map((s) => [s.method, ...s.args]);
    expect(steps[0]).toEqual(['update', { points_per_block: 100, pesos_per_block: 12.5, min_points: 200 }]);
    expect(steps[1]).toEqual(['eq', 'id', true]);
  });

  it("says why a save was refused: the database's detail, no row for a non-admin, or a failure", async () => {
    const rate = { pointsPerBlock: 100, blockValue: centavos(1000), minPoints: 150 };
    fake = fakeSupabase({ points_rate: [{ data: null, error: { message: 'm', details: 'invalid_min_points', code: 'P0001' } }] });
    expect(await savePointsRate(rate)).toEqual({ ok: false, problem: 'invalid_min_points' });
    fake = fakeSupabase({ points_rate: [{ data: [], error: null }] });
    expect(await savePointsRate(rate)).toEqual({ ok: false, problem: 'forbidden' });
    fake = fakeSupabase({ points_rate: [{ data: null, error: { message: 'denied', code: '42501' } }] });
    expect(await savePointsRate(rate)).toEqual({ ok: false, problem: 'forbidden' });
    fake = fakeSupabase({ points_rate: [{ data: null, error: { message: 'down' } }] });
    expect(await savePointsRate(rate)).toEqual({ ok: false, problem: 'failed' });
  });
});

describe('redeemPoints (redeem_points)', () => {
  it('sends the points and the request id, and reads the answer in centavos (bigints may come as text)', async () => {
    fake = fakeSupabase({
      'rpc:redeem_points': [{ data: { id: 3, created: true, points: 300, credit: '3000', points_balance: 50, credit_balance: 4500 }, error: null }],
    });
    expect(await redeemPoints(300, 'req-1')).toEqual({ ok: true, redemption: { points: 300, credit: 3000, pointsBalance: 50, creditBalance: 4500 } });
    expect(fake.calls[0]!.steps).toEqual([{ method: 'rpc', args: [{ points: 300, request_id: 'req-1' }] }]);
  });

  it("passes on the database's refusals by their detail; anything else is a failure", async () => {
    for (const detail of ['not_whole_blocks', 'below_minimum', 'insufficient_points'] as const) {
      fake = fakeSupabase({ 'rpc:redeem_points': [{ data: null, error: { message: 'm', details: detail, code: 'P0001' } }] });
      expect(await redeemPoints(100, 'r')).toEqual({ ok: false, problem: detail });
    }
    fake = fakeSupabase({ 'rpc:redeem_points': [{ data: null, error: { message: 'down' } }] });
    expect(await redeemPoints(100, 'r')).toEqual({ ok: false, problem: 'failed' });
    fake = fakeSupabase({ 'rpc:redeem_points': [{ data: { credit: 1.5 }, error: null }] });
    expect(await redeemPoints(100, 'r')).toEqual({ ok: false, problem: 'failed' });
  });

  it('a new request id is a v4 UUID, different each time', () => {
    const ids = new Set(Array.from({ length: 20 }, () => newRedemptionRequest()));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('without crypto.randomUUID (an insecure page), the id is still a v4 UUID', () => {
    const original = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      expect(newRedemptionRequest()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: original, configurable: true });
    }
  });
});
