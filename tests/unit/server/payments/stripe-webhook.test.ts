/**
 * /api/stripe/webhook with a stand-in card provider and database: a notification whose signature
 * the provider refuses is answered 400, events that change nothing are acknowledged, a dispute on
 * a charge that paid no order of the shop is left alone, and an intent that did not succeed is not
 * applied. The settled events against the local stack: tests/server/payments-stripe.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentError, type WebhookEvent } from '~/server/payments/providers/types.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { endpointContext, ORDER_ID } from './endpoint-context.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

function card(event: WebhookEvent | Error, intent: Record<string, unknown> | null = null) {
  return {
    name: 'stripe',
    verifyWebhook: vi.fn(() => {
      if (event instanceof Error) throw event;
      return event;
    }),
    retrievePaymentIntent: vi.fn(async () => intent),
  };
}

const request = (body: unknown) =>
  new Request('https://tienda.mx/api/stripe/webhook', { method: 'POST', headers: { 'stripe-signature': 't=1,v1=x' }, body: JSON.stringify(body) });
const ctxWith = (provider: unknown, results = {}) => endpointContext(results, { mode: 'live', card: provider, paypal: null });

describe('stripeWebhook', () => {
  it('answers 503 without a card provider and 400 when the signature is refused', async () => {
    await expect(stripeWebhook(request({}), ctxWith(null).ctx)).rejects.toMatchObject({ status: 503 });
    const refused = card(new PaymentError('La firma del webhook no es válida.', 400, 'invalid_signature'));
    await expect(stripeWebhook(request({}), ctxWith(refused).ctx)).rejects.toMatchObject({ status: 400, code: 'invalid_signature' });
    expect(refused.verifyWebhook).toHaveBeenCalledWith(JSON.stringify({}), 't=1,v1=x');
  });

  it('acknowledges an event it has nothing to do with, without asking the provider', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const provider = card({ id: 'evt_1', type: 'customer.created', intentId: null });
    const answer = await stripeWebhook(request({}), ctxWith(provider).ctx);
    expect(await answer.json()).toEqual({ received: true, handled: false });
    expect(provider.retrievePaymentIntent).not.toHaveBeenCalled();
  });

  it('does not apply a succeeded event whose intent the provider does not report succeeded', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const provider = card({ id: 'evt_2', type: 'payment_intent.succeeded', intentId: 'pi_1' }, { id: 'pi_1', orderId: ORDER_ID, status: 'processing' });
    const { ctx, calls } = ctxWith(provider);
    const answer = await stripeWebhook(request({}), ctx);
    expect(await answer.json()).toEqual({ received: true, handled: false, message: 'Pago no encontrado o no completado.' });
    expect(calls).toHaveLength(0);
  });

  it('leaves alone a dispute on a charge that paid no order of the shop', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const provider = card({ id: 'evt_3', type: 'charge.dispute.created', intentId: null }, { id: 'pi_9', orderId: ORDER_ID, status: 'succeeded' });
    const { ctx } = ctxWith(provider, { orders: [{ data: null, error: null }] });
    const dispute = { data: { object: { id: 'dp_1', object: 'dispute', payment_intent: 'pi_9', amount: 1000 } } };
    const answer = await stripeWebhook(request(dispute), ctx);
    expect(await answer.json()).toEqual({ received: true, handled: false });
    expect(provider.retrievePaymentIntent).toHaveBeenCalledWith('pi_9');
  });

  it('releases nothing for a failed payment of an intent that was no OXXO voucher', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const provider = card(
      { id: 'evt_4', type: 'payment_intent.payment_failed', intentId: 'pi_2' },
      { id: 'pi_2', orderId: ORDER_ID, status: 'requires_payment_method', method: 'card' },
    );
    const { ctx, calls } = ctxWith(provider);
    expect(await (await stripeWebhook(request({}), ctx)).json()).toEqual({ received: true, handled: false });
    expect(calls).toHaveLength(0);
  });
});
