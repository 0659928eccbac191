/**
 * The PayPal endpoints with the simulated PayPal on an in-memory store and a stand-in database:
 * the order's PayPal order for its stored total, recorded as an attempt; the simulated approval
 * only in simulated mode; a capture only of the caller's own order's PayPal order.
 */
import { describe, expect, it } from 'vitest';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { ADDRESS, endpointContext, ORDER_ID, post, simulatedPayments, storedOrder } from './endpoint-context.ts';

describe('createPayPalOrder', () => {
  it('creates the PayPal order for the stored total and records the attempt', async () => {
    const payments = simulatedPayments();
    const { ctx, calls } = endpointContext({ orders: [{ data: storedOrder(), error: null }], addresses: [{ data: ADDRESS, error: null }] }, payments);
    const answer = (await (await createPayPalOrder(post('/api/paypal/create-order', { orderId: ORDER_ID }), ctx)).json()) as { id: string; status: string };
    expect(answer.status).toBe('CREATED');
    expect(await payments.paypal.getOrder(answer.id)).toMatchObject({ amount: 129_900, orderId: ORDER_ID });
    expect(calls.find((call) => call.table === 'payment_attempts')!.steps[0]!.args[0]).toEqual({
      order_id: ORDER_ID,
      provider: 'simulated-paypal',
      ref: answer.id,
    });
  });

  it('answers 503 without PayPal, 401 signed out, and 409 for an order without an address', async () => {
    await expect(
      createPayPalOrder(post('/api/paypal/create-order', { orderId: ORDER_ID }), endpointContext({}, { mode: 'live', card: null, paypal: null }).ctx),
    ).rejects.toMatchObject({
      status: 503,
    });
    await expect(createPayPalOrder(post('/api/paypal/create-order', { orderId: ORDER_ID }, null), endpointContext().ctx)).rejects.toMatchObject({
      status: 401,
    });
    const noAddress = endpointContext({ orders: [{ data: storedOrder({ shipping_address_id: null }), error: null }] });
    await expect(createPayPalOrder(post('/api/paypal/create-order', { orderId: ORDER_ID }), noAddress.ctx)).rejects.toMatchObject({
      status: 409,
      code: 'address_required',
    });
  });
});

describe('approval and capture', () => {
  it('approves in the simulated window only in simulated mode', async () => {
    const live = endpointContext({}, { mode: 'live', card: null, paypal: { name: 'paypal' } });
    await expect(approveSimulatedPayPal(post('/api/paypal/approve', { orderId: ORDER_ID, paypalOrderId: 'P-1' }), live.ctx)).rejects.toMatchObject({
      status: 404,
    });
  });

  it("captures only a PayPal order of the caller's own order", async () => {
    const payments = simulatedPayments();
    const other = await payments.paypal.createOrder({ orderId: 'otro-pedido', amount: 129_900, idempotencyKey: 'k' });
    const { ctx } = endpointContext({ orders: [{ data: storedOrder(), error: null }] }, payments);
    await expect(capturePayPalOrder(post('/api/paypal/capture-order', { orderId: ORDER_ID, paypalOrderId: other.id }), ctx)).rejects.toMatchObject({
      status: 404,
      code: 'paypal_order_not_found',
    });
  });
});
