/**
 * The Stripe adapter through the real stripe SDK, pointed (host/port/protocol) at a local HTTP stub
 * that records every request: paths, form parameters, amounts in centavos, currency mxn and
 * idempotency keys. The webhook endpoint is checked with Stripe's own signature scheme: a valid
 * event marks the order paid once, a replay changes nothing, a bad signature is refused.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { confirmPayment, createCustomer, createPaymentIntent, listPaymentMethods } from '~/server/payments/cards.ts';
import { simulatedAuthenticate, simulatedConfirm } from '~/server/payments/simulated.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import type { ServerContext } from '~/server/context.ts';
import { createPayments } from '~/server/payments/providers/index.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call, signedStripeWebhook } from '../support/api-requests.ts';
import { serverContext, stripeStubSettings } from '../support/server-context.ts';
import { orderCents, orderColumns, productStock } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_local_0123456789';

let stack: TestStack;
let stub: StripeStub;
let ctx: ServerContext;
let shopper: SupabaseClient;
let token: string;
let service: SupabaseClient;

const signedWebhook = (payload: string, secret = WEBHOOK_SECRET) => signedStripeWebhook(payload, secret);

beforeAll(async () => {
  stack = await startTestStack();
  stub = await startStripeStub();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  ctx = serverContext(service, stripeStubSettings(stub, WEBHOOK_SECRET));
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
}, 120_000);

afterAll(async () => {
  await stub?.close();
  await stack?.stop();
});

beforeEach(() => {
  stub.requests.length = 0;
});

async function newOrder(quantity = 2): Promise<{ id: string; cents: number }> {
  const id = await newPendingOrder(shopper, [{ product_id: 'pk-booster-stellar-crown', quantity }], { coupon: 'MEKACAT10' });
  return { id, cents: await orderCents(service, id) };
}

describe('Stripe adapter through the SDK', () => {
  it('picks Stripe when its keys are set', () => {
    expect(ctx.payments.card?.name).toBe('stripe');
  });

  it('creates the customer once (idempotency key per user) and stores it on the profile', async () => {
    const r = await call(() => createCustomer(req('POST', '/api/stripe/customer', token), ctx));
    expect(r).toEqual({ status: 200, body: { customerId: 'cus_stub_1' } });
    const create = stub.requests.find((q) => q.method === 'POST' && q.path === '/v1/customers')!;
    expect(create.params.get('email')).toBe(DEMO_SHOPPER.email);
    expect(create.params.get('metadata[user_id]')).toBe(DEMO_SHOPPER.id);
    expect(create.idempotencyKey).toBe(`customer-${DEMO_SHOPPER.id}`);
    expect(create.authorization).toBe('Bearer sk_test_local_stub');
  });

  it('lists the saved cards with the customer’s default flagged', async () => {
    const r = await call(() => listPaymentMethods(req('GET', '/api/stripe/payment-methods?customerId=cus_stub_1', token), ctx));
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: 'pm_stub_1', type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 4, exp_year: 2031 }, is_default: false },
      { id: 'pm_stub_2', type: 'card', card: { brand: 'visa', last4: '1881', exp_month: 4, exp_year: 2031 }, is_default: true },
    ]);
    const list = stub.requests.find((q) => q.path === '/v1/payment_methods')!;
    expect(list.params.get('customer')).toBe('cus_stub_1');
    expect(list.params.get('type')).toBe('card');
  });

  it('creates the intent for the stored total in centavos, mxn, with one idempotency key per order', async () => {
    const order = await newOrder();
    const first = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id, amount: order.cents }), ctx));
    expect(first.status).toBe(200);
    expect(first.body.clientSecret).toMatch(/^pi_stub_\d+_secret_/);
    const again = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id }), ctx));
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    const creates = stub.requests.filter((q) => q.method === 'POST' && q.path === '/v1/payment_intents');
    expect(creates).toHaveLength(2);
    for (const c of creates) {
      expect(c.params.get('amount')).toBe(String(order.cents));
      expect(c.params.get('currency')).toBe('mxn');
      expect(c.params.get('customer')).toBe('cus_stub_1');
      expect(c.params.get('metadata[order_id]')).toBe(order.id);
      expect(c.idempotencyKey).toBe(`order-${order.id}-${order.cents}`);
    }
    const forged = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id, amount: order.cents - 1 }), ctx));
    expect(forged.status).toBe(400);
  });

  it('marks the order paid from a signed webhook once; a replay and a bad signature change nothing', async () => {
    const order = await newOrder();
    const created = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intentId = created.body.paymentIntentId as string;

    // Before the provider says succeeded, neither the browser's confirmation nor a webhook pays.
    const early = await call(() => confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intentId }), ctx));
    expect(early.status).toBe(402);
    const forgedEvent = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded', amount: order.cents, currency: 'mxn', metadata: { order_id: order.id } } },
    });
    const lying = await call(() => stripeWebhook(signedWebhook(forgedEvent), ctx));
    expect(lying.body).toMatchObject({ received: true, handled: false });
    const { data: still } = await service.from('orders').select('status').eq('id', order.id).single();
    expect(still!.status).toBe('Pendiente');

    stub.intents.get(intentId)!.status = 'succeeded';
    const bad = await call(() => stripeWebhook(signedWebhook(forgedEvent, 'whsec_otro'), ctx));
    expect(bad.status).toBe(400);
    const unsigned = await call(() => stripeWebhook(req('POST', '/api/stripe/webhook', null, forgedEvent), ctx));
    expect(unsigned.status).toBe(400);
    expect((await service.from('orders').select('status').eq('id', order.id).single()).data!.status).toBe('Pendiente');

    const good = await call(() => stripeWebhook(signedWebhook(forgedEvent), ctx));
    expect(good.body).toMatchObject({ received: true, handled: true, status: 'Pagado', changed: true });
    const replay = await call(() => stripeWebhook(signedWebhook(forgedEvent), ctx));
    expect(replay.body).toMatchObject({ handled: true, status: 'Pagado', changed: false });
    const browser = await call(() => confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intentId }), ctx));
    expect(browser.body).toMatchObject({ status: 'Pagado', changed: false });
    const { data: paid } = await service.from('orders').select('status, paid_at, payment_provider, payment_ref').eq('id', order.id).single();
    expect(paid).toMatchObject({ status: 'Pagado', payment_provider: 'stripe', payment_ref: intentId });
    expect(paid!.paid_at).not.toBeNull();
    expect(stub.requests.filter((q) => q.method === 'GET' && q.path === `/v1/payment_intents/${intentId}`).length).toBeGreaterThanOrEqual(3);
  });

  it('refuses an intent whose amount differs from the order (a tampered intent never pays)', async () => {
    const order = await newOrder();
    const created = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intent = stub.intents.get(created.body.paymentIntentId)!;
    intent.status = 'succeeded';
    intent.amount = 100;
    const r = await call(() => confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intent.id as string }), ctx));
    expect(r.status).toBe(409);
    expect((await service.from('orders').select('status').eq('id', order.id).single()).data!.status).toBe('Pendiente');
  });
});

function succeededEvent(id: string, intentId: string): string {
  return JSON.stringify({
    id,
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded' } },
  });
}

const orderState = (id: string) =>
  orderColumns<{ status: string; refunded_at: string | null; refund_ref: string | null; points_awarded: number }>(
    service,
    id,
    'status, refunded_at, refund_ref, points_awarded',
  );

const stockOf = (productId: string) => productStock(service, productId);

describe('live mode with only Stripe keys', () => {
  it('has no PayPal: its endpoints answer 503 provider_unavailable and nothing simulated exists (404)', async () => {
    expect(ctx.payments.mode).toBe('live');
    expect(ctx.payments.paypal).toBeNull();
    const order = await newOrder(1);
    const create = await call(() => createPayPalOrder(req('POST', '/api/paypal/create-order', token, { orderId: order.id }), ctx));
    expect(create).toMatchObject({ status: 503, body: { error: 'provider_unavailable', message: 'PayPal no está configurado.' } });
    const capture = await call(() => capturePayPalOrder(req('POST', '/x', token, { orderId: order.id, paypalOrderId: 'PAYPAL-SIM-1' }), ctx));
    expect(capture.status).toBe(503);
    const approve = await call(() => approveSimulatedPayPal(req('POST', '/api/paypal/approve', token, { orderId: order.id, paypalOrderId: 'x' }), ctx));
    expect(approve.status).toBe(404);
    const simulated = await call(() =>
      simulatedConfirm(
        req('POST', '/api/payments/simulated/confirm', token, {
          clientSecret: 'pi_stub_1_secret_abc',
          card: { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' },
        }),
        ctx,
      ),
    );
    expect(simulated.status).toBe(404);
    const auth = await call(() => simulatedAuthenticate(req('POST', '/x', token, { clientSecret: 'pi_stub_1_secret_abc', approve: true }), ctx));
    expect(auth.status).toBe(404);
  });

  it('live mode with only PayPal keys has no card payments (503)', async () => {
    const paypalOnly: ServerContext = {
      ...ctx,
      payments: createPayments({ mode: 'live', paypalClientId: 'client', paypalClientSecret: 'secret', paypalApiBase: 'http://127.0.0.1:9' }, service),
    };
    expect(paypalOnly.payments.card).toBeNull();
    const order = await newOrder(1);
    const r = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), paypalOnly));
    expect(r).toMatchObject({ status: 503, body: { error: 'provider_unavailable', message: 'El pago con tarjeta no está disponible.' } });
  });
});

describe('late payments through Stripe', () => {
  it('refunds a payment that succeeds after its order was cancelled: exactly one refund, order Reembolsado, stock not sold twice', async () => {
    const product = 'pk-booster-stellar-crown';
    const before = await stockOf(product);
    const order = await newOrder(1);
    expect(await stockOf(product)).toBe(before - 1);
    const created = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intentId = created.body.paymentIntentId as string;
    // Another tab cancels the order (its unit goes back on sale) while the card is in 3-D Secure.
    const cancelled = await shopper.rpc('cancel_order', { order_id: order.id });
    expect(cancelled.error).toBeNull();
    expect(await stockOf(product)).toBe(before);
    stub.intents.get(intentId)!.status = 'succeeded';
    stub.requests.length = 0;
    // The browser's confirmation and the webhook race.
    const [browser, hook] = await Promise.all([
      call(() => confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intentId }), ctx)),
      call(() => stripeWebhook(signedWebhook(succeededEvent('evt_late_1', intentId)), ctx)),
    ]);
    expect(browser).toMatchObject({
      status: 409,
      body: { error: 'order_refunded', message: 'Tu pedido expiró antes de completar el pago; te reembolsamos el cargo.' },
    });
    expect(hook.status).toBe(200);
    const refundCalls = stub.requests.filter((q) => q.method === 'POST' && q.path === '/v1/refunds');
    expect(refundCalls).toHaveLength(1);
    expect(refundCalls[0]!.params.get('payment_intent')).toBe(intentId);
    expect(refundCalls[0]!.params.get('amount')).toBe(String(order.cents));
    const state = await orderState(order.id);
    expect(state.status).toBe('Reembolsado');
    expect(state.refunded_at).not.toBeNull();
    expect(state.refund_ref).toMatch(/^re_stub_/);
    expect(await stockOf(product)).toBe(before);
    // A replayed webhook changes nothing and calls no second refund.
    await call(() => stripeWebhook(signedWebhook(succeededEvent('evt_late_2', intentId)), ctx));
    expect(stub.requests.filter((q) => q.path === '/v1/refunds')).toHaveLength(1);
    const { data: events } = await service.from('order_events').select('from_status, to_status').eq('order_id', order.id).order('id');
    expect(events!.map((e) => `${e.from_status}→${e.to_status}`)).toEqual(['null→Pendiente', 'Pendiente→Cancelado', 'Cancelado→Reembolsado']);
  });

  it('keeps a refund the provider refused visible to admins and retries it in the sweeper', async () => {
    const order = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intentId = created.body.paymentIntentId as string;
    await shopper.rpc('cancel_order', { order_id: order.id });
    stub.intents.get(intentId)!.status = 'succeeded';
    stub.failRefunds(3); // the SDK itself retries twice
    const hook = await call(() => stripeWebhook(signedWebhook(succeededEvent('evt_fail_1', intentId)), ctx));
    expect(hook.body).toMatchObject({ handled: true, refunded: 'late_payment' });
    const { data: attention } = await service.from('payments_needing_attention').select('status, attempts, last_error').eq('order_id', order.id);
    expect(attention).toHaveLength(1);
    expect(attention![0]).toMatchObject({ status: 'failed', attempts: 1 });
    expect((await orderState(order.id)).status).toBe('Cancelado');
    // Due now (the backoff is minutes; the test moves it), the sweeper retries it once.
    await service
      .from('payment_refunds')
      .update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .eq('order_id', order.id);
    const { sweep } = await import('~/server/sweeper.ts');
    const report = await sweep(ctx, 'test-sweeper');
    expect(report.refunds).toEqual({ retried: 1, succeeded: 1 });
    expect((await orderState(order.id)).status).toBe('Reembolsado');
    const { data: left } = await service.from('payments_needing_attention').select('id').eq('order_id', order.id);
    expect(left).toEqual([]);
  });

  it('cancels the open PaymentIntent of a cancelled order in the sweeper', async () => {
    const order = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intentId = created.body.paymentIntentId as string;
    await shopper.rpc('cancel_order', { order_id: order.id });
    const { sweep } = await import('~/server/sweeper.ts');
    await sweep(ctx, 'test-sweeper');
    expect(stub.requests.some((q) => q.method === 'POST' && q.path === `/v1/payment_intents/${intentId}/cancel`)).toBe(true);
    expect(stub.intents.get(intentId)!.status).toBe('canceled');
    const { data } = await service.from('payment_attempts').select('status').eq('ref', intentId).single();
    expect(data!.status).toBe('canceled');
  });

  it('refunds a second payment of an already paid order and keeps the order paid', async () => {
    const order = await newOrder(1);
    const first = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    stub.intents.get(first.body.paymentIntentId)!.status = 'succeeded';
    const paid = await call(() => confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: first.body.paymentIntentId }), ctx));
    expect(paid.body).toMatchObject({ status: 'Pagado', changed: true });
    // A stray second intent for the same order (another tab) also succeeds.
    const stray = await stripeSdk().paymentIntents.create({ amount: order.cents, currency: 'mxn', metadata: { order_id: order.id } });
    stub.intents.get(stray.id)!.status = 'succeeded';
    const hook = await call(() => stripeWebhook(signedWebhook(succeededEvent('evt_dup', stray.id)), ctx));
    expect(hook.body).toMatchObject({ handled: true, refunded: 'duplicate', status: 'Pagado' });
    expect(stub.requests.filter((q) => q.path === '/v1/refunds' && q.params.get('payment_intent') === stray.id)).toHaveLength(1);
    expect((await orderState(order.id)).status).toBe('Pagado');
  });

  it('refuses to start a payment without a shipping address on the order', async () => {
    const { data: id } = await shopper.rpc('create_order', { items: [{ product_id: 'pk-booster-stellar-crown', quantity: 1 }] });
    const r = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: id }), ctx));
    expect(r).toMatchObject({ status: 409, body: { error: 'address_required', message: 'Selecciona una dirección válida.' } });
    await shopper.rpc('cancel_order', { order_id: id });
  });
});

function stripeSdk(): Stripe {
  return new Stripe('sk_test_local_stub', { host: '127.0.0.1', port: stub.port, protocol: 'http', telemetry: false });
}
