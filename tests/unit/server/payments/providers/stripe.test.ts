/**
 * The Stripe card provider through the real SDK, pointed at the Stripe stand-in
 * (tests/support/stripe-stub.ts): one customer per user, an MXN intent for the order, and
 * webhook signatures checked with the shop's secret.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { centavos } from '~/domain/money.ts';
import { StripeCardProvider } from '~/server/payments/providers/stripe.ts';
import { startStripeStub, type StripeStub } from '../../../../support/stripe-stub.ts';

let stub: StripeStub;
let stripe: StripeCardProvider;
beforeAll(async () => {
  stub = await startStripeStub();
  stripe = new StripeCardProvider('sk_test_tienda', 'whsec_tienda', { host: '127.0.0.1', port: stub.port, protocol: 'http' });
});
afterAll(async () => {
  await stub?.close();
});

const ORDER_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const signer = new Stripe('sk_test_signer');

describe('StripeCardProvider', () => {
  it('creates one customer per user, whatever the number of tabs asking', async () => {
    const id = await stripe.createCustomer({ id: 'u1', email: 'a@b.mx' });
    expect(id).toMatch(/^cus_/);
    const request = stub.requests.find((r) => r.path === '/v1/customers' && r.method === 'POST')!;
    expect(request.idempotencyKey).toBe('customer-u1');
    expect(request.params.get('metadata[user_id]')).toBe('u1');
    expect(request.authorization).toBe('Bearer sk_test_tienda');
  });

  it("creates an MXN intent for the order's amount, carrying the order and user", async () => {
    const customerId = await stripe.createCustomer({ id: 'u2', email: null });
    const intent = await stripe.createPaymentIntent({
      orderId: ORDER_ID,
      userId: 'u2',
      amount: centavos(129_950),
      customerId,
      idempotencyKey: 'order-1',
      installments: false,
    });
    expect(intent).toMatchObject({ orderId: ORDER_ID, amount: 129_950 });
    expect(intent.clientSecret).toBeTruthy();
    const request = stub.requests.find((r) => r.path === '/v1/payment_intents' && r.method === 'POST')!;
    expect(request.params.get('amount')).toBe('129950');
    expect(request.params.get('currency')).toBe('mxn');
    expect(request.params.get('metadata[order_id]')).toBe(ORDER_ID);
    expect(request.idempotencyKey).toBe('order-1');
  });

  it("decodes an event signed with the shop's secret and names its payment intent", () => {
    const payload = JSON.stringify({
      id: 'evt_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    });
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_tienda' });
    expect(stripe.verifyWebhook(payload, signature)).toEqual({ id: 'evt_1', type: 'payment_intent.succeeded', intentId: 'pi_1' });
    const dispute = JSON.stringify({ id: 'evt_2', object: 'event', type: 'charge.dispute.created', data: { object: { id: 'dp_1', object: 'dispute' } } });
    expect(stripe.verifyWebhook(dispute, signer.webhooks.generateTestHeaderString({ payload: dispute, secret: 'whsec_tienda' })).intentId).toBeNull();
  });

  it('refuses an event signed with another secret, a changed body, no signature, or no webhook secret', () => {
    const payload = JSON.stringify({
      id: 'evt_3',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_1', object: 'payment_intent' } },
    });
    const other = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_otro' });
    expect(() => stripe.verifyWebhook(payload, other)).toThrow('La firma del webhook no es válida.');
    const signature = signer.webhooks.generateTestHeaderString({ payload, secret: 'whsec_tienda' });
    expect(() => stripe.verifyWebhook(payload.replace('pi_1', 'pi_2'), signature)).toThrow('La firma del webhook no es válida.');
    expect(() => stripe.verifyWebhook(payload, null)).toThrow('Falta la firma del webhook.');
    expect(() => new StripeCardProvider('sk_test_x', null).verifyWebhook(payload, signature)).toThrow('Webhook no configurado.');
  });

  it('reads the funding of the card that paid from the charge (payment_method_details.card.funding), null before it is paid', async () => {
    const pay = async (key: string, paymentMethod: string) => {
      const created = await stripe.createPaymentIntent({ orderId: ORDER_ID, userId: 'u3', amount: centavos(50_000), customerId: null, idempotencyKey: key });
      expect((await stripe.retrievePaymentIntent(created.id))!.funding).toBeNull();
      stub.intents.get(created.id)!.payment_method = paymentMethod;
      stub.intents.get(created.id)!.status = 'succeeded';
      return (await stripe.retrievePaymentIntent(created.id))!;
    };
    expect(await pay('funding-debit', 'pm_card_visa_debit')).toMatchObject({ method: 'card', funding: 'debit' });
    expect(await pay('funding-prepaid', 'pm_card_mastercard_prepaid')).toMatchObject({ method: 'card', funding: 'prepaid' });
    expect(await pay('funding-credit', 'pm_card_visa')).toMatchObject({ method: 'card', funding: 'credit' });
  });
});
