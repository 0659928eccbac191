import { describe, expect, it } from 'vitest';
import { SimulatedPayPalProvider } from '~/server/payments/providers/simulated-paypal.ts';
import { memorySimStore } from '~/server/payments/providers/simulated-records.ts';

describe('simulated PayPal', () => {
  it('creates one MXN order with two decimals and captures only after approval', async () => {
    const paypal = new SimulatedPayPalProvider(memorySimStore());
    const created = await paypal.createOrder({ orderId: 'order-9', amount: 123_450, idempotencyKey: 'p1' });
    expect(created).toMatchObject({ status: 'CREATED', amount: 123_450, currency: 'MXN', orderId: 'order-9' });
    await expect(paypal.captureOrder(created.id)).rejects.toMatchObject({ status: 422 });
    await paypal.approve(created.id);
    const captured = await paypal.captureOrder(created.id);
    expect(captured).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED', amount: 123_450 });
    expect((await paypal.captureOrder(created.id)).captureId).toBe(captured.captureId);
  });
});
