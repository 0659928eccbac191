import { describe, expect, it } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { closeAttempt, recordAttempt } from '~/server/orders/attempts.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

function context(results: Record<string, Result[]>) {
  const fake = fakeSupabase(results);
  return { ctx: { admin: fake.client } as unknown as ServerContext, calls: fake.calls };
}

describe('payment attempts', () => {
  it('records a provider payment once, however often it is recorded', async () => {
    const { ctx, calls } = context({});
    await recordAttempt(ctx, 'o1', 'stripe', 'pi_1');
    expect(calls[0]).toEqual({
      table: 'payment_attempts',
      steps: [
        {
          method: 'upsert',
          args: [
            { order_id: 'o1', provider: 'stripe', ref: 'pi_1' },
            { onConflict: 'provider,ref', ignoreDuplicates: true },
          ],
        },
      ],
    });
  });

  it('closes the attempt of that provider and reference with its outcome', async () => {
    const { ctx, calls } = context({});
    await closeAttempt(ctx, 'paypal', 'P-1', 'canceled');
    expect(calls[0]!.steps).toEqual([
      { method: 'update', args: [{ status: 'canceled' }] },
      { method: 'eq', args: ['provider', 'paypal'] },
      { method: 'eq', args: ['ref', 'P-1'] },
    ]);
  });

  it('fails with the table named when the database refuses', async () => {
    const { ctx } = context({ payment_attempts: [{ data: null, error: { message: 'sin permiso' } }] });
    await expect(recordAttempt(ctx, 'o1', 'stripe', 'pi_1')).rejects.toThrow('payment_attempts: sin permiso');
    await expect(closeAttempt(ctx, 'stripe', 'pi_1', 'succeeded')).rejects.toThrow('payment_attempts: sin permiso');
  });
});
