/**
 * Chargebacks on orders paid partly with the balance ('saldo a favor'), through the real webhooks
 * against the Stripe and PayPal stubs: Stripe's charge.dispute.created and PayPal's
 * PAYMENT.CAPTURE.REVERSED leave the shopper's balance as it was, flag the order in 'Reembolsos
 * por revisar' (admin_refunds_to_review) once however often they are delivered, and nothing is
 * credited until an admin decides; a later refund of the order does not hand the balance back
 * either.
 */
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import type { ServerContext } from '~/server/context.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { paypalWebhook } from '~/server/payments/paypal-webhook.ts';
import { storeCreditPayment } from '~/server/payments/pay-with-balance.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call, signedStripeWebhook, stripeIntentEvent } from '../support/api-requests.ts';
import { startPayPalStub, type PayPalStub } from '../support/paypal-stub.ts';
import { paypalStubSettings, serverContext, stripeStubSettings } from '../support/server-context.ts';
import { orderCents, orderColumns, releasePendingOrders, storeCreditBalance } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_contracargos';
const WEBHOOK_ID = 'WHSTUBCHARGEBACK';
const PRODUCT = 'pk-booster-stellar-crown';

let stack: TestStack;
let stripe: StripeStub;
let paypal: PayPalStub;
let ctx: ServerContext;
let service: SupabaseClient;
let shopper: SupabaseClient;
let admin: SupabaseClient;
let token: string;

const balance = () => storeCreditBalance(service, DEMO_SHOPPER.id);
const status = async (id: string) => (await orderColumns<{ status: string }>(service, id, 'status')).status;

/** What 'Reembolsos por revisar' lists about one order, as the back office reads it. */
async function toReview(orderId: string): Promise<Array<{ id: string; status: string; amount: number; last_error: string | null }>> {
  const { data, error } = await admin.rpc('admin_refunds_to_review');
  expect(error).toBeNull();
  return (data as Array<{ id: string; order_id: string; status: string; amount: number; last_error: string | null }>)
    .filter((row) => row.order_id === orderId)
    .map(({ id, status, amount, last_error }) => ({ id, status, amount: Number(amount), last_error }));
}

/** The summary's 'Reembolsos por revisar' counter. */
async function toReviewCount(): Promise<number> {
  const { data, error } = await admin.rpc('admin_summary');
  expect(error).toBeNull();
  return (data as { refundsToReview: number }).refundsToReview;
}

/** A pending order with a quarter of its total paid from the shopper's balance (which is then zero). */
async function orderWithBalance(): Promise<{ id: string; cents: number; credit: number }> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity: 2 }]);
  const cents = await orderCents(service, id);
  const credit = Math.floor(cents / 4);
  const earlier = await balance();
  if (earlier > 0) await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: -earlier, p_reason: 'adjustment', p_note: 'prueba' });
  await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: credit, p_reason: 'adjustment', p_note: 'prueba' });
  const used = await call(() => storeCreditPayment(req('POST', '/api/payments/store-credit', token, { orderId: id, use: true }), ctx, async () => undefined));
  expect(used).toMatchObject({ status: 200, body: { status: 'Pendiente', due: cents - credit } });
  expect(await balance()).toBe(0);
  return { id, cents, credit };
}

beforeAll(async () => {
  stack = await startTestStack();
  stripe = await startStripeStub();
  paypal = await startPayPalStub();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  ctx = serverContext(service, { ...stripeStubSettings(stripe, WEBHOOK_SECRET), ...paypalStubSettings(paypal, WEBHOOK_ID) });
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  ({ client: admin } = await signIn(stack, DEMO_ADMIN));
  await service.from('products').update({ stock: 5000, limit_per_customer: 5000, preorder: false }).eq('id', PRODUCT);
}, 120_000);

afterAll(async () => {
  await paypal?.close();
  await stripe?.close();
  await stack?.stop();
});

beforeEach(() => releasePendingOrders(service, DEMO_SHOPPER.id));

describe('Stripe: charge.dispute.created on an order paid partly with the balance', () => {
  /** The order paid by card for the rest (Stripe's payment_intent.succeeded). */
  async function paidByCard(): Promise<{ id: string; cents: number; credit: number; intentId: string }> {
    const o = await orderWithBalance();
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), ctx));
    const intentId = created.body.paymentIntentId as string;
    stripe.intents.get(intentId)!.status = 'succeeded';
    const paid = await call(() => stripeWebhook(stripeIntentEvent('payment_intent.succeeded', intentId, WEBHOOK_SECRET), ctx));
    expect(paid.body).toMatchObject({ handled: true, status: 'Pagado' });
    return { ...o, intentId };
  }

  const disputeEvent = (intentId: string, amount: number, disputeId: string) =>
    signedStripeWebhook(
      JSON.stringify({
        id: `evt_${randomUUID().replaceAll('-', '')}`,
        object: 'event',
        type: 'charge.dispute.created',
        data: {
          object: {
            id: disputeId,
            object: 'dispute',
            amount,
            currency: 'mxn',
            charge: `ch_${intentId}`,
            payment_intent: intentId,
            reason: 'fraudulent',
            status: 'needs_response',
          },
        },
      }),
      WEBHOOK_SECRET,
    );

  it('leaves the balance as it was and flags the order once; a later refund of the order credits nothing; the admin decides', async () => {
    const o = await paidByCard();
    const counted = await toReviewCount();
    const disputeId = `dp_${randomUUID().replaceAll('-', '')}`;
    const answer = await call(() => stripeWebhook(disputeEvent(o.intentId, o.cents - o.credit, disputeId), ctx));
    expect(answer).toMatchObject({ status: 200, body: { received: true, handled: true, orderId: o.id, balanceHeld: true } });
    expect(await balance()).toBe(0);
    // A dispute may still be won: the order itself does not change.
    expect(await status(o.id)).toBe('Pagado');
    const flagged = await toReview(o.id);
    expect(flagged).toEqual([{ id: expect.any(String), status: 'chargeback', amount: o.credit / 100, last_error: expect.stringContaining(disputeId) }]);

    // Stripe delivers the event again: still one flag, counted once in the summary.
    await call(() => stripeWebhook(disputeEvent(o.intentId, o.cents - o.credit, disputeId), ctx));
    expect(await toReview(o.id)).toEqual(flagged);
    expect(await toReviewCount()).toBe(counted + 1);

    // The shop refunds the order some other way: the balance it used stays held.
    const refunded = await service.rpc('refund_order_without_provider', {
      p_order_id: o.id,
      p_way: 'bank_transfer',
      p_restock: false,
      p_actor: DEMO_ADMIN.id,
      p_reference: 'SPEI-CONTRACARGO-1',
    });
    expect(refunded.error).toBeNull();
    expect(await status(o.id)).toBe('Reembolsado');
    expect(await balance()).toBe(0);

    // The shopper cannot decide for the shop.
    const byShopper = await shopper.rpc('admin_resolve_chargeback', { p_id: flagged[0]!.id, p_return_credit: true });
    expect(byShopper.error).not.toBeNull();
    expect(await balance()).toBe(0);

    // The admin returns it: once.
    const decided = await admin.rpc('admin_resolve_chargeback', { p_id: flagged[0]!.id, p_return_credit: true });
    expect(decided.error).toBeNull();
    expect(await balance()).toBe(o.credit);
    const twice = await admin.rpc('admin_resolve_chargeback', { p_id: flagged[0]!.id, p_return_credit: true });
    expect(twice.error?.details).toBe('chargeback_resolved');
    expect(await balance()).toBe(o.credit);
    expect(await toReview(o.id)).toEqual([]);
    expect(await toReviewCount()).toBe(counted);
  });

  it('an admin who keeps the balance closes the flag and credits nothing', async () => {
    const o = await paidByCard();
    await call(() => stripeWebhook(disputeEvent(o.intentId, o.cents - o.credit, `dp_${randomUUID().replaceAll('-', '')}`), ctx));
    const [flag] = await toReview(o.id);
    expect(flag).toMatchObject({ status: 'chargeback' });
    const kept = await admin.rpc('admin_resolve_chargeback', { p_id: flag!.id, p_return_credit: false });
    expect(kept.error).toBeNull();
    expect(await toReview(o.id)).toEqual([]);
    expect(await balance()).toBe(0);
  });
});

describe('PayPal: PAYMENT.CAPTURE.REVERSED on an order paid partly with the balance', () => {
  it('refunds the PayPal part, leaves the balance as it was and flags the order', async () => {
    const o = await orderWithBalance();
    const created = await call(() => createPayPalOrder(req('POST', '/x', token, { orderId: o.id }), ctx));
    const paypalOrderId = created.body.id as string;
    paypal.approve(paypalOrderId);
    const captured = await call(() => capturePayPalOrder(req('POST', '/x', token, { orderId: o.id, paypalOrderId }), ctx));
    expect(captured.body).toMatchObject({ status: 'Pagado' });
    const captureId = `CAP-STUB-${paypalOrderId}`;

    const reversal = paypal.refundAtPayPal(captureId);
    const event = {
      id: `WH-${randomUUID()}`,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: 'refund',
      resource_version: '2.0',
      event_type: 'PAYMENT.CAPTURE.REVERSED',
      summary: 'Un pago fue revertido',
      resource: reversal,
      links: [],
    };
    const raw = JSON.stringify(event);
    const deliver = () => call(() => paypalWebhook(req('POST', '/api/paypal/webhook', null, raw, paypal.signWebhook(raw, WEBHOOK_ID)), ctx));
    const answer = await deliver();
    expect(answer).toMatchObject({ status: 200, body: { handled: true, orderId: o.id, status: 'Reembolsado' } });
    expect(await balance()).toBe(0);
    const flagged = await toReview(o.id);
    expect(flagged).toEqual([{ id: expect.any(String), status: 'chargeback', amount: o.credit / 100, last_error: expect.stringContaining(reversal.id) }]);

    await deliver();
    expect(await toReview(o.id)).toEqual(flagged);
    expect(await balance()).toBe(0);
  });
});
