/**
 * Closing a provider payment still open for an order: cancelled or voided when no money came,
 * settled when it did, left for later while the provider decides or when it is not this server's.
 */
import { describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { fakeSupabase, type Result } from '../../../support/fake-supabase.ts';

const settled = vi.hoisted(() => [] as unknown[]);
vi.mock('~/server/orders/settlement.ts', () => ({
  intentPayment: (provider: string, intent: { id: string; orderId: string }) => ({ provider, ref: intent.id, orderId: intent.orderId }),
  capturePayment: (provider: string, orderId: string, info: { captureId: string }) => ({ provider, ref: info.captureId, orderId }),
  settlePayment: async (_ctx: unknown, payment: unknown) => void settled.push(payment),
}));

const { closeOpenAttempt, closeOrderAttempts } = await import('~/server/orders/open-attempts.ts');

function context(card: Record<string, unknown> | null, paypal: Record<string, unknown> | null, results: Record<string, Result[]> = {}) {
  const fake = fakeSupabase(results);
  return { ctx: { admin: fake.client, payments: { mode: 'live', card, paypal } } as unknown as ServerContext, calls: fake.calls };
}

const closed = (calls: ReturnType<typeof context>['calls']) => calls.filter((call) => call.table === 'payment_attempts' && call.steps[0]!.method === 'update');

describe('closeOpenAttempt with the card provider', () => {
  it('cancels an intent that took no money and closes its attempt', async () => {
    const card = { name: 'stripe', cancelPaymentIntent: vi.fn(async () => ({ id: 'pi_1', status: 'canceled', orderId: 'o1' })) };
    const { ctx, calls } = context(card, null);
    expect(await closeOpenAttempt(ctx, { order_id: 'o1', provider: 'stripe', ref: 'pi_1' })).toBe(true);
    expect(closed(calls)[0]!.steps[0]!.args[0]).toEqual({ status: 'canceled' });
  });

  it('settles an intent that took the money after all, and waits for one still processing', async () => {
    settled.length = 0;
    const paid = { name: 'stripe', cancelPaymentIntent: vi.fn(async () => ({ id: 'pi_2', status: 'succeeded', orderId: 'o2' })) };
    const first = context(paid, null);
    expect(await closeOpenAttempt(first.ctx, { order_id: 'o2', provider: 'stripe', ref: 'pi_2' })).toBe(true);
    expect(settled).toEqual([{ provider: 'stripe', ref: 'pi_2', orderId: 'o2' }]);
    expect(closed(first.calls)).toHaveLength(0);

    const processing = { name: 'stripe', cancelPaymentIntent: vi.fn(async () => ({ id: 'pi_3', status: 'processing', orderId: 'o3' })) };
    const second = context(processing, null);
    expect(await closeOpenAttempt(second.ctx, { order_id: 'o3', provider: 'stripe', ref: 'pi_3' })).toBe(false);
    expect(closed(second.calls)).toHaveLength(0);
  });
});

describe('closeOpenAttempt with PayPal', () => {
  const paypal = (info: unknown) => ({ name: 'paypal', getOrder: vi.fn(async () => info), voidOrder: vi.fn(async () => undefined) });

  it('settles a completed capture, waits for a pending one, and voids one that never took money', async () => {
    settled.length = 0;
    const completed = paypal({ id: 'P-1', status: 'COMPLETED', captureId: 'C-1', captureStatus: 'COMPLETED', amount: 100, currency: 'MXN', orderId: 'o1' });
    expect(await closeOpenAttempt(context(null, completed).ctx, { order_id: 'o1', provider: 'paypal', ref: 'P-1' })).toBe(true);
    expect(settled).toEqual([{ provider: 'paypal', ref: 'C-1', orderId: 'o1' }]);

    const pending = paypal({ id: 'P-2', status: 'COMPLETED', captureId: 'C-2', captureStatus: 'PENDING' });
    expect(await closeOpenAttempt(context(null, pending).ctx, { order_id: 'o2', provider: 'paypal', ref: 'P-2' })).toBe(false);
    expect(pending.voidOrder).not.toHaveBeenCalled();

    const approved = paypal({ id: 'P-3', status: 'APPROVED', captureId: null, captureStatus: null });
    const { ctx, calls } = context(null, approved);
    expect(await closeOpenAttempt(ctx, { order_id: 'o3', provider: 'paypal', ref: 'P-3' })).toBe(true);
    expect(approved.voidOrder).toHaveBeenCalledWith('P-3');
    expect(closed(calls)).toHaveLength(1);
  });

  it('leaves an attempt of a provider this server does not have', async () => {
    const { ctx, calls } = context({ name: 'simulated-card' }, null);
    expect(await closeOpenAttempt(ctx, { order_id: 'o1', provider: 'stripe', ref: 'pi_1' })).toBe(false);
    expect(calls).toHaveLength(0);
  });
});

describe('closeOrderAttempts', () => {
  it('closes each open attempt of the order, and fails when they cannot be read', async () => {
    const card = { name: 'stripe', cancelPaymentIntent: vi.fn(async (ref: string) => ({ id: ref, status: 'canceled', orderId: 'o1' })) };
    const open = [
      { order_id: 'o1', provider: 'stripe', ref: 'pi_1' },
      { order_id: 'o1', provider: 'stripe', ref: 'pi_2' },
    ];
    const { ctx } = context(card, null, {
      payment_attempts: [
        { data: open, error: null },
        { data: null, error: null },
      ],
    });
    await closeOrderAttempts(ctx, 'o1');
    expect(card.cancelPaymentIntent.mock.calls.map(([ref]) => ref)).toEqual(['pi_1', 'pi_2']);
    const failing = context(card, null, { payment_attempts: [{ data: null, error: { message: 'caído' } }] });
    await expect(closeOrderAttempts(failing.ctx, 'o1')).rejects.toThrow('payment_attempts: caído');
  });
});
