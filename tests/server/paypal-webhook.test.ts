/**
 * PayPal as PayPal behaves, against PayPal's REST API (a local stub): only a capture PayPal reports
 * COMPLETED settles an order (the capture endpoint, the sweeper and the webhook alike); a PENDING
 * capture waits, a DECLINED one closes the attempt. /api/paypal/webhook acts only on notifications
 * PayPal confirms (verify-webhook-signature), re-reads what they name from PayPal, and changes
 * nothing when a notification is delivered again.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import type { ServerContext } from '~/server/context.ts';
import { paypalWebhook } from '~/server/payments/paypal-webhook.ts';
import { createPayments } from '~/server/payments/providers/index.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { sweep } from '~/server/sweeper.ts';
import { apiRequest, callApi as call } from '../support/api-requests.ts';
import { PAYPAL_CERT_URL, startPayPalStub, type PayPalStub } from '../support/paypal-stub.ts';
import { paypalStubSettings, serverContext } from '../support/server-context.ts';
import { orderColumns, productStock, productWithStock, refundRows as refundsOf, rewardPoints } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';
import { toCentavos } from '~/domain/money.ts';

const WEBHOOK_ID = 'WHSTUB0001';
const INVALID = { error: 'invalid_signature', message: 'La firma del webhook no es válida.' };

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let token: string;
let paypalStub: PayPalStub;
let live: ServerContext;
let product: string;
const receipts: string[] = [];

const req = (body: unknown) => apiRequest('POST', '/x', token, body);

/** A notification as PayPal sends it: event envelope around the resource. */
function notification(type: string, resource: Record<string, unknown>): Record<string, unknown> {
  return {
    id: `WH-${randomUUID()}`,
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: type.includes('REFUNDED') || type.includes('REVERSED') ? 'refund' : 'capture',
    resource_version: '2.0',
    event_type: type,
    summary: `Evento ${type}`,
    resource,
    links: [],
  };
}

/** Delivers a notification body to the webhook with the given headers. */
function deliver(raw: string, headers: Record<string, string>, ctx: ServerContext = live) {
  return call(() => paypalWebhook(apiRequest('POST', '/api/paypal/webhook', null, raw, headers), ctx));
}

/** Delivers a notification PayPal signed for the shop's webhook (a new transmission each time, as PayPal's retries). */
function deliverSigned(event: Record<string, unknown>, ctx: ServerContext = live) {
  const raw = JSON.stringify(event);
  return deliver(raw, paypalStub.signWebhook(raw, WEBHOOK_ID), ctx);
}

const newOrder = () => newPendingOrder(shopper, [{ product_id: product, quantity: 1 }]);

const order = (id: string) =>
  orderColumns<{
    status: string;
    paid_at: string | null;
    payment_provider: string | null;
    payment_ref: string | null;
    refund_ref: string | null;
    refunded_at: string | null;
    points_awarded: number;
    expires_at: string | null;
  }>(service, id, 'status, paid_at, payment_provider, payment_ref, refund_ref, refunded_at, points_awarded, expires_at');

async function attemptStatus(paypalOrderId: string): Promise<string | undefined> {
  const { data } = await service.from('payment_attempts').select('status').eq('provider', 'paypal').eq('ref', paypalOrderId).maybeSingle();
  return data?.status as string | undefined;
}

const refundRows = (orderId: string) => refundsOf(service, orderId, 'status, reason, provider, payment_ref, refund_ref');

async function paidEvents(orderId: string): Promise<number> {
  const { data } = await service.from('order_events').select('to_status').eq('order_id', orderId).eq('to_status', 'Pagado');
  return (data ?? []).length;
}

const stock = () => productStock(service, product);
const points = () => rewardPoints(service, DEMO_SHOPPER.id);

/** An order the shopper paid with PayPal whose capture PayPal left PENDING (the shop answered 402). */
async function pendingCapture(): Promise<{ id: string; paypalOrderId: string; captureId: string }> {
  const id = await newOrder();
  const created = await call(() => createPayPalOrder(req({ orderId: id }), live));
  expect(created.status).toBe(200);
  const paypalOrderId = created.body.id as string;
  paypalStub.approve(paypalOrderId);
  paypalStub.captureAs(paypalOrderId, 'PENDING');
  const captured = await call(() => capturePayPalOrder(req({ orderId: id, paypalOrderId }), live));
  expect(captured).toMatchObject({ status: 402, body: { error: 'paypal_not_completed' } });
  return { id, paypalOrderId, captureId: `CAP-STUB-${paypalOrderId}` };
}

/** An order paid with PayPal (capture COMPLETED at once). */
async function paidOrder(): Promise<{ id: string; paypalOrderId: string; captureId: string }> {
  const id = await newOrder();
  const created = await call(() => createPayPalOrder(req({ orderId: id }), live));
  const paypalOrderId = created.body.id as string;
  paypalStub.approve(paypalOrderId);
  const captured = await call(() => capturePayPalOrder(req({ orderId: id, paypalOrderId }), live));
  expect(captured.body).toMatchObject({ status: 'Pagado', changed: true });
  return { id, paypalOrderId, captureId: `CAP-STUB-${paypalOrderId}` };
}

const verifyCalls = () => paypalStub.requests.filter((r) => r.path === '/v1/notifications/verify-webhook-signature').length;

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  paypalStub = await startPayPalStub();
  live = serverContext(service, paypalStubSettings(paypalStub, WEBHOOK_ID), async (message) => void receipts.push(message.dedupeKey ?? ''));
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  product = await productWithStock(service, 30, 'priciest');
}, 120_000);

afterAll(async () => {
  await paypalStub?.close();
  await stack?.stop();
});

describe('the webhook accepts only what PayPal confirms', () => {
  it('refuses with 400 a notification without headers, with a forged signature, for another webhook or altered after signing; nothing changes', async () => {
    const { id, paypalOrderId, captureId } = await pendingCapture();
    paypalStub.setCaptureStatus(captureId, 'COMPLETED');
    const raw = JSON.stringify(notification('PAYMENT.CAPTURE.COMPLETED', paypalStub.captureResource(captureId)));
    const before = verifyCalls();

    expect(await deliver(raw, {})).toEqual({ status: 400, body: INVALID });
    const forged = {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': PAYPAL_CERT_URL,
      'paypal-transmission-id': randomUUID(),
      'paypal-transmission-sig': 'SIG-forged',
      'paypal-transmission-time': new Date().toISOString(),
    };
    expect(await deliver(raw, forged)).toEqual({ status: 400, body: INVALID });
    expect(await deliver(raw, paypalStub.signWebhook(raw, 'WHSOMEONEELSE'))).toEqual({ status: 400, body: INVALID });
    // Signed as a capture of another amount; delivered with the amount changed.
    const signedHeaders = paypalStub.signWebhook(raw, WEBHOOK_ID);
    const altered = JSON.parse(raw);
    altered.resource.amount.value = '1.00';
    expect(await deliver(JSON.stringify(altered), signedHeaders)).toEqual({ status: 400, body: INVALID });
    // PayPal was asked each time it had headers, and said FAILURE.
    expect(verifyCalls() - before).toBe(3);

    const row = await order(id);
    expect(row.status).toBe('Pendiente');
    expect(row.paid_at).toBeNull();
    expect(await attemptStatus(paypalOrderId)).toBe('open');
    // The untouched notification with PayPal's own headers goes through.
    expect(await deliver(raw, signedHeaders)).toMatchObject({ status: 200, body: { received: true, handled: true, status: 'Pagado' } });
  });

  it('answers 503 without PayPal or without PAYPAL_WEBHOOK_ID, and 404 in simulated mode', async () => {
    const raw = JSON.stringify(notification('PAYMENT.CAPTURE.COMPLETED', { id: 'CAP-X' }));
    const headers = paypalStub.signWebhook(raw, WEBHOOK_ID);
    const noPayPal: ServerContext = { ...live, payments: createPayments({ mode: 'live' }, service) };
    expect(await deliver(raw, headers, noPayPal)).toMatchObject({ status: 503, body: { error: 'provider_unavailable' } });
    const noWebhook: ServerContext = {
      ...live,
      payments: createPayments(paypalStubSettings(paypalStub), service),
    };
    const before = verifyCalls();
    expect(await deliver(raw, headers, noWebhook)).toMatchObject({ status: 503, body: { error: 'webhook_not_configured' } });
    expect(verifyCalls()).toBe(before);
    const simulated: ServerContext = { ...live, payments: createPayments({ mode: 'simulated' }, service) };
    expect(await deliver(raw, headers, simulated)).toMatchObject({ status: 404, body: { error: 'not_found' } });
  });

  it('answers an event it does not handle with {received: true, handled: false}', async () => {
    const answer = await deliverSigned(notification('CHECKOUT.ORDER.APPROVED', { id: 'PP-STUB-1' }));
    expect(answer).toEqual({ status: 200, body: { received: true, handled: false } });
  });
});

describe('the webhook spends nothing on what cannot be PayPal', () => {
  /** A server that has not asked PayPal for anything yet (no access token kept). */
  const freshServer = (): ServerContext => ({ ...live, payments: createPayments(paypalStubSettings(paypalStub, WEBHOOK_ID), service) });
  const calls = () => paypalStub.requests.filter((r) => r.path === '/v1/oauth2/token' || r.path === '/v1/notifications/verify-webhook-signature').length;

  it('refuses an old transmission, a certificate not on paypal.com and a malformed one with 400, before a token or a verify call', async () => {
    const { id, captureId } = await pendingCapture();
    paypalStub.setCaptureStatus(captureId, 'COMPLETED');
    const raw = JSON.stringify(notification('PAYMENT.CAPTURE.COMPLETED', paypalStub.captureResource(captureId)));
    const signed = paypalStub.signWebhook(raw, WEBHOOK_ID);
    const server = freshServer();
    const before = calls();

    const tenMinutesAgo = new Date(Date.parse(signed['paypal-transmission-time']!) - 10 * 60_000).toISOString();
    const refused: Array<Record<string, string>> = [
      // A replay of a notification PayPal sent ten minutes ago.
      { ...signed, 'paypal-transmission-time': tenMinutesAgo },
      { ...signed, 'paypal-transmission-time': 'ayer' },
      // Certificates anyone could serve.
      { ...signed, 'paypal-cert-url': 'https://paypal.com.example.net/v1/notifications/certs/CERT-1' },
      { ...signed, 'paypal-cert-url': 'http://api.paypal.com/v1/notifications/certs/CERT-1' },
      { ...signed, 'paypal-cert-url': `${paypalStub.url}/v1/notifications/certs/CERT-1` },
      { ...signed, 'paypal-auth-algo': 'SHA256withRSA; drop' },
    ];
    for (const headers of refused) expect(await deliver(raw, headers, server)).toEqual({ status: 400, body: INVALID });
    expect(await deliver('esto no es JSON', paypalStub.signWebhook('{}', WEBHOOK_ID), server)).toEqual({ status: 400, body: INVALID });
    expect(calls()).toBe(before);
    expect((await order(id)).status).toBe('Pendiente');

    // The notification as PayPal sent it is asked about (a token, then verify) and pays the order.
    expect(await deliver(raw, signed, server)).toMatchObject({ status: 200, body: { handled: true, status: 'Pagado' } });
    expect(calls()).toBe(before + 2);
  });

  it('answers an event it does not handle without asking PayPal', async () => {
    const server = freshServer();
    const before = calls();
    const answer = await deliverSigned(notification('CUSTOMER.DISPUTE.CREATED', { id: 'PP-D-0001' }), server);
    expect(answer).toEqual({ status: 200, body: { received: true, handled: false } });
    expect(calls()).toBe(before);
  });
});

describe('PAYMENT.CAPTURE.COMPLETED', () => {
  it('pays an order whose PENDING capture completed, once: a delivery again changes nothing', async () => {
    const pointsBefore = await points();
    const { id, paypalOrderId, captureId } = await pendingCapture();
    // PENDING did not pay it.
    expect((await order(id)).status).toBe('Pendiente');
    // While PayPal still says PENDING, a notification claiming completion pays nothing.
    const early = await deliverSigned(notification('PAYMENT.CAPTURE.COMPLETED', { ...paypalStub.captureResource(captureId), status: 'COMPLETED' }));
    expect(early).toMatchObject({ status: 200, body: { handled: false } });
    expect((await order(id)).status).toBe('Pendiente');

    paypalStub.setCaptureStatus(captureId, 'COMPLETED');
    const event = notification('PAYMENT.CAPTURE.COMPLETED', paypalStub.captureResource(captureId));
    const first = await deliverSigned(event);
    expect(first).toMatchObject({ status: 200, body: { received: true, handled: true, orderId: id, status: 'Pagado', changed: true } });
    const paid = await order(id);
    expect(paid).toMatchObject({ status: 'Pagado', payment_provider: 'paypal', payment_ref: captureId, expires_at: null });
    expect(paid.points_awarded).toBeGreaterThan(0);
    expect(await attemptStatus(paypalOrderId)).toBe('succeeded');
    expect(await points()).toBe(pointsBefore + paid.points_awarded);

    const again = await deliverSigned(event);
    expect(again).toMatchObject({ status: 200, body: { handled: true, status: 'Pagado', changed: false } });
    expect(await order(id)).toEqual(paid);
    expect(await points()).toBe(pointsBefore + paid.points_awarded);
    expect(await paidEvents(id)).toBe(1);
    expect(receipts.filter((key) => key === `order_paid:${id}`)).toHaveLength(1);
    expect(await refundRows(id)).toEqual([]);
  });

  it('does not pay a shop order from a PayPal order the shop did not create', async () => {
    const id = await newOrder();
    const { data } = await service.from('orders').select('total').eq('id', id).single();
    const paypal = live.payments.paypal!;
    // The right order, the right amount; only created outside the shop's checkout.
    const stray = await paypal.createOrder({ orderId: id, amount: toCentavos(data!.total), idempotencyKey: `stray-${id}` });
    paypalStub.approve(stray.id);
    const captured = await paypal.captureOrder(stray.id, `stray-capture-${id}`);
    expect(captured.captureStatus).toBe('COMPLETED');
    const answer = await deliverSigned(notification('PAYMENT.CAPTURE.COMPLETED', paypalStub.captureResource(captured.captureId!)));
    expect(answer).toMatchObject({ status: 200, body: { handled: false } });
    expect((await order(id)).status).toBe('Pendiente');
  });
});

describe('PAYMENT.CAPTURE.DENIED', () => {
  it('closes the attempt and leaves the order pending with its reservation', async () => {
    const before = await stock();
    const { id, paypalOrderId, captureId } = await pendingCapture();
    paypalStub.setCaptureStatus(captureId, 'DECLINED');
    const event = notification('PAYMENT.CAPTURE.DENIED', paypalStub.captureResource(captureId));
    const answer = await deliverSigned(event);
    expect(answer).toMatchObject({ status: 200, body: { handled: true, orderId: id, status: 'Pendiente', changed: true } });
    const row = await order(id);
    expect(row.status).toBe('Pendiente');
    expect(row.expires_at).not.toBeNull();
    expect(await attemptStatus(paypalOrderId)).toBe('canceled');
    expect(await stock()).toBe(before - 1);
    const again = await deliverSigned(event);
    expect(again).toMatchObject({ status: 200, body: { handled: true, changed: false } });
    expect((await order(id)).status).toBe('Pendiente');
    expect(await refundRows(id)).toEqual([]);
  });
});

describe('PAYMENT.CAPTURE.REFUNDED and PAYMENT.CAPTURE.REVERSED', () => {
  it('a full refund made at PayPal makes the paid order Reembolsado once: stock back, points taken back', async () => {
    const stockBefore = await stock();
    const pointsBefore = await points();
    const { id, captureId } = await paidOrder();
    expect(await stock()).toBe(stockBefore - 1);
    expect(await points()).toBeGreaterThan(pointsBefore);

    const refund = paypalStub.refundAtPayPal(captureId);
    const event = notification('PAYMENT.CAPTURE.REFUNDED', refund);
    const answer = await deliverSigned(event);
    expect(answer).toMatchObject({ status: 200, body: { handled: true, orderId: id, status: 'Reembolsado', changed: true } });
    const row = await order(id);
    expect(row).toMatchObject({ status: 'Reembolsado', refund_ref: refund.id, points_awarded: 0 });
    expect(row.refunded_at).not.toBeNull();
    expect(await refundRows(id)).toEqual([{ status: 'succeeded', reason: 'shop', provider: 'paypal', payment_ref: captureId, refund_ref: refund.id }]);
    expect(await stock()).toBe(stockBefore);
    expect(await points()).toBe(pointsBefore);
    // The shop asked PayPal for no refund of its own.
    expect(paypalStub.requests.filter((r) => r.path === `/v2/payments/captures/${captureId}/refund`)).toHaveLength(0);

    const again = await deliverSigned(event);
    expect(again).toMatchObject({ status: 200, body: { handled: true, status: 'Reembolsado', changed: false } });
    expect(await order(id)).toEqual(row);
    expect(await stock()).toBe(stockBefore);
    expect(await refundRows(id)).toHaveLength(1);
  });

  it("completes the shop's own refund still on its way when PayPal says it went through", async () => {
    const { id, captureId } = await paidOrder();
    const { data: claim, error } = await service.rpc('claim_refund', {
      p_order_id: id,
      p_provider: 'paypal',
      p_payment_ref: captureId,
      p_amount: 1,
      p_reason: 'shop',
    });
    expect(error).toBeNull();
    expect(claim).toMatchObject({ claimed: true });
    const refund = paypalStub.refundAtPayPal(captureId);
    const answer = await deliverSigned(notification('PAYMENT.CAPTURE.REFUNDED', refund));
    expect(answer).toMatchObject({ status: 200, body: { handled: true, orderId: id, status: 'Reembolsado', changed: true } });
    expect(await refundRows(id)).toEqual([{ status: 'succeeded', reason: 'shop', provider: 'paypal', payment_ref: captureId, refund_ref: refund.id }]);
  });

  it('records a reversal the same way', async () => {
    const { id, captureId } = await paidOrder();
    const reversal = paypalStub.refundAtPayPal(captureId);
    const answer = await deliverSigned(notification('PAYMENT.CAPTURE.REVERSED', reversal));
    expect(answer).toMatchObject({ status: 200, body: { handled: true, status: 'Reembolsado' } });
    expect((await order(id)).status).toBe('Reembolsado');
    expect(await refundRows(id)).toEqual([expect.objectContaining({ reason: 'shop', status: 'succeeded', refund_ref: reversal.id })]);
  });

  it('leaves the order paid after a partial refund at PayPal (the shop refunds whole orders only)', async () => {
    const { id, captureId } = await paidOrder();
    const partial = paypalStub.refundAtPayPal(captureId, '1.00');
    const answer = await deliverSigned(notification('PAYMENT.CAPTURE.REFUNDED', partial));
    expect(answer).toMatchObject({ status: 200, body: { handled: false } });
    expect((await order(id)).status).toBe('Pagado');
    expect(await refundRows(id)).toEqual([]);
  });
});

describe('the sweeper and PayPal captures', () => {
  it('does not settle an order whose capture is PENDING; once PayPal completes it, settles it (refunded: the order was cancelled)', async () => {
    const { id, paypalOrderId, captureId } = await pendingCapture();
    await shopper.rpc('cancel_order', { order_id: id });
    expect((await order(id)).status).toBe('Cancelado');

    await sweep(live, 'paypal-webhook-test');
    expect(await attemptStatus(paypalOrderId)).toBe('open');
    expect(await refundRows(id)).toEqual([]);
    expect((await order(id)).status).toBe('Cancelado');

    paypalStub.setCaptureStatus(captureId, 'COMPLETED');
    // The sweeper waits before it looks again at an attempt it left open (next_check_at): due now.
    const due = await service
      .from('payment_attempts')
      .update({ next_check_at: new Date(0).toISOString() })
      .eq('provider', 'paypal')
      .eq('ref', paypalOrderId);
    expect(due.error).toBeNull();
    await sweep(live, 'paypal-webhook-test');
    expect(await attemptStatus(paypalOrderId)).toBe('succeeded');
    expect((await order(id)).status).toBe('Reembolsado');
    expect(await refundRows(id)).toEqual([
      expect.objectContaining({ reason: 'late_payment', status: 'succeeded', provider: 'paypal', payment_ref: captureId }),
    ]);
    expect(paypalStub.requests.filter((r) => r.path === `/v2/payments/captures/${captureId}/refund`)).toHaveLength(1);
  });

  it('closes the attempt of a capture PayPal declined, with no refund', async () => {
    const { id, paypalOrderId, captureId } = await pendingCapture();
    await shopper.rpc('cancel_order', { order_id: id });
    paypalStub.setCaptureStatus(captureId, 'DECLINED');
    await sweep(live, 'paypal-webhook-test');
    expect(await attemptStatus(paypalOrderId)).toBe('canceled');
    expect(await refundRows(id)).toEqual([]);
    expect((await order(id)).status).toBe('Cancelado');
  });
});
