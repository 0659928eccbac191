/**
 * The card endpoints with the simulated card on an in-memory store and a stand-in database: the
 * order's intent for its stored total (never another amount), recorded as an attempt; the caller's
 * own customer and cards; and a reported payment checked with the provider. The whole flows
 * against the local stack: tests/server/payments*.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { ApiError } from '~/server/http/json.ts';
import { confirmPayment, createPaymentIntent, listPaymentMethods, settleIntent } from '~/server/payments/cards.ts';
import { ADDRESS, endpointContext, ORDER_ID, post, SHOPPER, simulatedPayments, storedOrder } from './endpoint-context.ts';

const orders = (fields: Record<string, unknown> = {}) => [{ data: storedOrder(fields), error: null }];

describe('createPaymentIntent', () => {
  it('answers 503 on a server without a card provider, and 401 for a signed-out caller', async () => {
    await expect(
      createPaymentIntent(post('/api/create-payment-intent', { orderId: ORDER_ID }), endpointContext({}, { mode: 'live', card: null, paypal: null }).ctx),
    ).rejects.toMatchObject({
      status: 503,
    });
    await expect(createPaymentIntent(post('/api/create-payment-intent', { orderId: ORDER_ID }, null), endpointContext().ctx)).rejects.toMatchObject({
      status: 401,
    });
  });

  it('refuses an amount other than the stored total, and an order that is already paid', async () => {
    const mismatch = endpointContext({ orders: orders() });
    await expect(createPaymentIntent(post('/api/create-payment-intent', { orderId: ORDER_ID, amount: 100 }), mismatch.ctx)).rejects.toMatchObject({
      status: 400,
      code: 'amount_mismatch',
    });
    const paid = endpointContext({ orders: orders({ status: 'Pagado' }) });
    await expect(createPaymentIntent(post('/api/create-payment-intent', { orderId: ORDER_ID }), paid.ctx)).rejects.toMatchObject({ code: 'order_paid' });
  });

  it('creates the intent for the stored total, with meses sin intereses from $300.00, and records the attempt', async () => {
    const { ctx, calls } = endpointContext({
      orders: orders(),
      addresses: [{ data: ADDRESS, error: null }],
      profiles: [{ data: { stripe_customer_id: null }, error: null }],
    });
    const answer = await createPaymentIntent(post('/api/create-payment-intent', { orderId: ORDER_ID, amount: 129_900 }), ctx);
    const body = (await answer.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ amount: 129_900, currency: 'mxn', installments: true });
    expect(body.clientSecret).toEqual(expect.stringContaining('_secret_'));
    const attempt = calls.find((call) => call.table === 'payment_attempts')!;
    expect(attempt.steps[0]!.args[0]).toEqual({ order_id: ORDER_ID, provider: 'simulated-card', ref: body.paymentIntentId });
  });
});

describe('settleIntent and confirmPayment', () => {
  it('answers 404 for an intent the provider does not know or of another order, and 402 for one not paid yet', async () => {
    const payments = simulatedPayments();
    const unknown = endpointContext({}, payments);
    await expect(settleIntent(unknown.ctx, 'pi_sim_nada', ORDER_ID, null)).rejects.toMatchObject({ status: 404, code: 'intent_not_found' });
    const intent = await payments.card.createPaymentIntent({
      orderId: ORDER_ID,
      userId: SHOPPER.id,
      amount: centavos(129_900),
      customerId: 'cus_1',
      idempotencyKey: 'k',
      installments: false,
    });
    await expect(settleIntent(unknown.ctx, intent.id, 'otro-pedido', null)).rejects.toMatchObject({ status: 404 });
    await expect(settleIntent(unknown.ctx, intent.id, ORDER_ID, null)).rejects.toMatchObject({ status: 402, code: 'payment_incomplete' });
  });

  it("checks the order is the caller's before asking the provider", async () => {
    const { ctx } = endpointContext({ orders: orders({ user_id: 'otro' }) });
    await expect(confirmPayment(post('/api/payments/confirm', { orderId: ORDER_ID, paymentIntentId: 'pi_sim_1' }), ctx)).rejects.toMatchObject({ status: 403 });
    await expect(confirmPayment(post('/api/payments/confirm', { orderId: 'x', paymentIntentId: 'pi_sim_1' }), ctx)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('listPaymentMethods', () => {
  it("lists only the caller's own customer's cards", async () => {
    const own = endpointContext({ profiles: [{ data: { stripe_customer_id: 'cus_1' }, error: null }] });
    const answer = await listPaymentMethods(
      new Request('https://tienda.mx/api/stripe/payment-methods?customerId=cus_1', { headers: { authorization: 'Bearer tok' } }),
      own.ctx,
    );
    expect(await answer.json()).toEqual([]);
    const other = endpointContext({ profiles: [{ data: { stripe_customer_id: 'cus_1' }, error: null }] });
    await expect(
      listPaymentMethods(new Request('https://tienda.mx/api/stripe/payment-methods?customerId=cus_2', { headers: { authorization: 'Bearer tok' } }), other.ctx),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      listPaymentMethods(new Request('https://tienda.mx/api/stripe/payment-methods?customerId=../x', { headers: { authorization: 'Bearer tok' } }), other.ctx),
    ).rejects.toMatchObject({ status: 400 });
  });
});
