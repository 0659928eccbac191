/**
 * The PayPal REST provider against the PayPal stand-in (tests/support/paypal-stub.ts): one access
 * token for its calls, an MXN order with the shop's order id, a capture read back from PayPal,
 * refunds, and notifications PayPal confirms or not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { INVALID_WEBHOOK_SIGNATURE, linkedId, PayPalRestProvider } from '~/server/payments/providers/paypal.ts';
import { startPayPalStub, type PayPalStub } from '../../../../support/paypal-stub.ts';

let stub: PayPalStub;
beforeAll(async () => {
  stub = await startPayPalStub();
});
afterAll(async () => {
  await stub?.close();
});

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('linkedId', () => {
  it('reads the id of the link of a relation, under the path given', () => {
    const links = [
      { rel: 'self', href: 'https://api-m.paypal.com/v2/payments/refunds/R-1' },
      { rel: 'up', href: 'https://api-m.paypal.com/v2/payments/captures/C-1?x=1' },
    ];
    expect(linkedId(links, 'up', '/v2/payments/captures/')).toBe('C-1');
    expect(linkedId(links, 'up', '/v2/checkout/orders/')).toBeNull();
    expect(linkedId([{ rel: 'up', href: 'https://api-m.paypal.com/v2/payments/captures/a b' }], 'up', '/v2/payments/captures/')).toBeNull();
    expect(linkedId('no', 'up', '/v2/payments/captures/')).toBeNull();
  });
});

describe('PayPalRestProvider', () => {
  it('creates an MXN order for the amount with the shop order id, captures it once approved, and reads it back', async () => {
    const paypal = new PayPalRestProvider('client', 'secret', stub.url, 'WH-1');
    const created = await paypal.createOrder({ orderId: ORDER_ID, amount: centavos(129_950), idempotencyKey: 'paypal-1' });
    expect(created).toMatchObject({ amount: 129_950, currency: 'MXN', orderId: ORDER_ID, captureId: null });
    stub.approve(created.id);
    const captured = await paypal.captureOrder(created.id, 'capture-1');
    expect(captured).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED', amount: 129_950, orderId: ORDER_ID });
    expect(captured.captureId).toBeTruthy();
    expect(await paypal.getOrder(created.id)).toMatchObject({ captureId: captured.captureId });
    // One access token for every call while it lasts.
    expect(stub.requests.filter((r) => r.path === '/v1/oauth2/token')).toHaveLength(1);
  });

  it('refunds a capture once per key and reads the refund back with its capture', async () => {
    const paypal = new PayPalRestProvider('client', 'secret', stub.url, 'WH-1');
    const created = await paypal.createOrder({ orderId: ORDER_ID, amount: centavos(50_000), idempotencyKey: 'paypal-2' });
    stub.approve(created.id);
    const { captureId } = await paypal.captureOrder(created.id, 'capture-2');
    const refund = await paypal.refundCapture(captureId!, centavos(50_000), 'refund-2');
    expect(await paypal.refundCapture(captureId!, centavos(50_000), 'refund-2')).toEqual(refund);
    expect(await paypal.getRefund(refund.id)).toMatchObject({ id: refund.id, amount: 50_000, currency: 'MXN', captureId });
  });

  it("accepts a notification PayPal confirms for the shop's webhook, and refuses others or without a webhook id", async () => {
    const paypal = new PayPalRestProvider('client', 'secret', stub.url, 'WH-1');
    const body = JSON.stringify({ id: 'WH-EVT-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C-9' } });
    const event = await paypal.verifyWebhook(new Headers(stub.signWebhook(body, 'WH-1')), body);
    expect(event).toEqual({ id: 'WH-EVT-1', type: 'PAYMENT.CAPTURE.COMPLETED', resource: { id: 'C-9' } });
    await expect(paypal.verifyWebhook(new Headers(stub.signWebhook(body, 'WH-OTRO')), body)).rejects.toMatchObject({
      status: 400,
      message: INVALID_WEBHOOK_SIGNATURE,
    });
    const unconfigured = new PayPalRestProvider('client', 'secret', stub.url, null);
    await expect(unconfigured.verifyWebhook(new Headers(stub.signWebhook(body, 'WH-1')), body)).rejects.toMatchObject({ status: 503 });
  });
});
