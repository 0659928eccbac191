/**
 * A charge is settled once, whatever repeats it: after an order is refunded to the shopper's
 * balance, by bank transfer or through the provider, a replayed confirmation, a webhook Stripe
 * delivers again, a sweep and a repeated PayPal capture neither credit the balance again nor ask
 * the provider for a refund. And an order is refunded once, whoever clicks second. Through the
 * real stripe SDK against the Stripe stub (its /v1/refunds requests counted) and the simulated
 * PayPal (its refunds counted).
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import * as adminOrders from '~/server/admin/orders.ts';
import type { AdminContext, ServerContext } from '~/server/context.ts';
import { ORDER_ALREADY_REFUNDED } from '~/server/orders/refunds.ts';
import { confirmPayment, createPaymentIntent } from '~/server/payments/cards.ts';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { storeCreditPayment } from '~/server/payments/pay-with-balance.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { sweep } from '~/server/sweeper.ts';
import { apiRequest as req, callApi as call, stripeIntentEvent } from '../support/api-requests.ts';
import { serverContext, stripeStubSettings } from '../support/server-context.ts';
import { orderCents, orderColumns, releasePendingOrders, storeCreditBalance } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_local_una_vez';
const PRODUCT = 'pk-booster-stellar-crown';

let stack: TestStack;
let stub: StripeStub;
let live: ServerContext;
let sim: ServerContext;
let liveAdmin: AdminContext;
let simAdmin: AdminContext;
let shopper: SupabaseClient;
let token: string;
let adminToken: string;
let service: SupabaseClient;

const balance = () => storeCreditBalance(service, DEMO_SHOPPER.id);
const status = async (id: string) => (await orderColumns<{ status: string }>(service, id, 'status')).status;
const stripeRefunds = () => stub.requests.filter((q) => q.method === 'POST' && q.path === '/v1/refunds');
const webhook = (intentId: string) => call(() => stripeWebhook(stripeIntentEvent('payment_intent.succeeded', intentId, WEBHOOK_SECRET), live));
const confirm = (orderId: string, paymentIntentId: string) =>
  call(() => confirmPayment(req('POST', '/api/payments/confirm', token, { orderId, paymentIntentId }), live));
const refund = (ctx: AdminContext, orderId: string, body: Record<string, unknown>) =>
  call(() => adminOrders.refundOrder(req('POST', `/api/admin/orders/${orderId}/refund`, adminToken, body), ctx, orderId));

async function newOrder(): Promise<{ id: string; cents: number }> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity: 1 }]);
  return { id, cents: await orderCents(service, id) };
}

/** An order paid by card through Stripe (the stub) and its webhook; answers the order and its intent. */
async function paidByCard(): Promise<{ id: string; cents: number; intent: string }> {
  const o = await newOrder();
  const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
  expect(created.status).toBe(200);
  const intent = created.body.paymentIntentId as string;
  stub.intents.get(intent)!.status = 'succeeded';
  expect((await webhook(intent)).body).toMatchObject({ status: 'Pagado', changed: true });
  return { ...o, intent };
}

/** An order paid with cash at OXXO through Stripe (the stub) and its webhook. */
async function paidAtOxxo(): Promise<{ id: string; cents: number; intent: string }> {
  const o = await newOrder();
  const voucher = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id, method: 'oxxo' }), live));
  expect(voucher.status).toBe(200);
  const intent = voucher.body.paymentIntentId as string;
  stub.payOxxo(intent);
  expect((await webhook(intent)).body).toMatchObject({ status: 'Pagado', changed: true });
  return { ...o, intent };
}

/** Every way the same charge can come back: the webhook again, the browser's confirmation again, a sweep. */
async function replayCard(orderId: string, intent: string): Promise<void> {
  await webhook(intent);
  await webhook(intent);
  await confirm(orderId, intent);
  await sweep(live, `prueba-${Date.now()}`);
}

beforeAll(async () => {
  stack = await startTestStack();
  stub = await startStripeStub();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  live = serverContext(service, stripeStubSettings(stub, WEBHOOK_SECRET));
  sim = serverContext(service, { mode: 'simulated' });
  liveAdmin = { ...live, asUser: (t: string) => anonClient(stack, t) };
  simAdmin = { ...sim, asUser: (t: string) => anonClient(stack, t) };
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  ({ token: adminToken } = await signIn(stack, DEMO_ADMIN));
  await service.from('products').update({ stock: 5000, limit_per_customer: 5000, preorder: false }).eq('id', PRODUCT);
}, 120_000);

afterAll(async () => {
  await stub?.close();
  await stack?.stop();
});

beforeEach(async () => {
  stub.requests.length = 0;
  await releasePendingOrders(service, DEMO_SHOPPER.id);
});

describe('a card charge refunded without the provider is never refunded again', () => {
  it('refunded to the balance: replays credit nothing more and never reach /v1/refunds', async () => {
    const o = await paidByCard();
    const before = await balance();
    expect(await refund(liveAdmin, o.id, { way: 'store_credit' })).toMatchObject({ status: 200, body: { status: 'Reembolsado' } });
    expect(await balance()).toBe(before + o.cents);
    await replayCard(o.id, o.intent);
    expect(await balance()).toBe(before + o.cents);
    expect(stripeRefunds()).toHaveLength(0);
    expect(await status(o.id)).toBe('Reembolsado');
  });

  it('a card order cannot be refunded by bank transfer: its ways are the provider and the balance', async () => {
    const o = await paidByCard();
    const transfer = await refund(liveAdmin, o.id, { way: 'bank_transfer', reference: 'SPEI 7781' });
    expect(transfer).toMatchObject({ status: 409, body: { error: 'refund_way_not_possible' } });
    expect(await status(o.id)).toBe('Pagado');
    const options = await call(() => adminOrders.refundOptionsOf(req('GET', `/api/admin/orders/${o.id}/refund`, adminToken), liveAdmin, o.id));
    expect(options).toMatchObject({ status: 200, body: { ways: ['provider', 'store_credit'], provider: 'card', asksForRestock: false } });
  });

  it('refunded through Stripe: replays ask for no second refund', async () => {
    const o = await paidByCard();
    expect(await refund(liveAdmin, o.id, { way: 'provider' })).toMatchObject({ status: 200, body: { status: 'Reembolsado' } });
    expect(stripeRefunds()).toHaveLength(1);
    await replayCard(o.id, o.intent);
    expect(stripeRefunds()).toHaveLength(1);
  });
});

describe('cash at OXXO refunded to the balance', () => {
  it('a webhook Stripe delivers again credits the charge no second time', async () => {
    const o = await paidAtOxxo();
    const before = await balance();
    expect(await refund(liveAdmin, o.id, {})).toMatchObject({ status: 200, body: { status: 'Reembolsado', way: 'store_credit' } });
    expect(await balance()).toBe(before + o.cents);
    await replayCard(o.id, o.intent);
    expect(await balance()).toBe(before + o.cents);
    const { data: credits } = await service.from('store_credit_entries').select('reason').eq('order_id', o.id).gt('amount', 0);
    expect(credits?.map((c) => c.reason)).toEqual(['refund']);
    expect(stripeRefunds()).toHaveLength(0);
  });

  it('refunded by bank transfer: a webhook Stripe delivers again credits nothing to the balance', async () => {
    const o = await paidAtOxxo();
    const before = await balance();
    const transfer = await refund(liveAdmin, o.id, { way: 'bank_transfer', reference: 'SPEI 7781' });
    expect(transfer).toMatchObject({ status: 200, body: { status: 'Reembolsado', way: 'bank_transfer' } });
    await replayCard(o.id, o.intent);
    expect(await balance()).toBe(before);
    expect(stripeRefunds()).toHaveLength(0);
  });
});

describe('PayPal (simulated) refunded to the balance', () => {
  it('a repeated capture refunds nothing at PayPal and credits nothing more', async () => {
    const o = await newOrder();
    const created = await call(() => createPayPalOrder(req('POST', '/x', token, { orderId: o.id }), sim));
    const paypalOrderId = created.body.id as string;
    await call(() => approveSimulatedPayPal(req('POST', '/x', token, { orderId: o.id, paypalOrderId }), sim));
    const capture = () => call(() => capturePayPalOrder(req('POST', '/x', token, { orderId: o.id, paypalOrderId }), sim));
    expect((await capture()).body).toMatchObject({ status: 'Pagado', changed: true });
    const before = await balance();
    expect(await refund(simAdmin, o.id, { way: 'store_credit' })).toMatchObject({ status: 200, body: { status: 'Reembolsado' } });
    const refunds = vi.spyOn(sim.payments.paypal!, 'refundCapture');
    try {
      const again = await capture();
      expect(again.body).toMatchObject({ status: 'Reembolsado', changed: false });
      await capture();
      await sweep(sim, `prueba-${Date.now()}`);
      expect(refunds).not.toHaveBeenCalled();
      expect(await balance()).toBe(before + o.cents);
    } finally {
      refunds.mockRestore();
    }
  });
});

describe('one refund per order, whoever clicks', () => {
  it('a second refund of a refunded order is refused with the reason, in any way', async () => {
    const o = await paidByCard();
    expect(await refund(liveAdmin, o.id, { way: 'store_credit' })).toMatchObject({ status: 200 });
    for (const way of ['provider', 'store_credit', 'bank_transfer']) {
      const second = await refund(liveAdmin, o.id, { way, reference: 'SPEI 0001' });
      expect(second, way).toMatchObject({ status: 409, body: { message: ORDER_ALREADY_REFUNDED } });
    }
    expect(stripeRefunds()).toHaveLength(0);
  });

  it('two admins at once, one through Stripe and one to the balance: the shopper is refunded once', async () => {
    const o = await paidByCard();
    const before = await balance();
    const [a, b] = await Promise.all([refund(liveAdmin, o.id, { way: 'provider' }), refund(liveAdmin, o.id, { way: 'store_credit' })]);
    const refundedToBalance = (await balance()) - before;
    const byStripe = stripeRefunds().length;
    // Exactly one of the two ways gave the money back.
    expect(byStripe + refundedToBalance / o.cents).toBe(1);
    const loser = [a, b].find((r) => r.status === 409);
    expect(loser?.body.message).toMatch(/^(Este pedido ya se reembolsó\.|Hay un reembolso en curso)/);
    expect(await status(o.id)).toBe('Reembolsado');
  });
});

describe('releasing the balance while a card payment for the rest is open', () => {
  const useCredit = (orderId: string, use: boolean) => call(() => storeCreditPayment(req('POST', '/api/payments/store-credit', token, { orderId, use }), live));

  /** A pending order with $1.00 of the shopper's balance on it and a card payment for the rest opened at Stripe. */
  async function partlyPaidWithBalance(): Promise<{ id: string; cents: number; intent: string }> {
    const o = await newOrder();
    const had = await balance();
    await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: 100 - had, p_reason: 'adjustment' });
    expect(await useCredit(o.id, true)).toMatchObject({ status: 200, body: { applied: 100, status: 'Pendiente' } });
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
    expect(created).toMatchObject({ status: 200, body: { amount: o.cents - 100 } });
    return { ...o, intent: created.body.paymentIntentId as string };
  }

  it('cancels the payment at Stripe first, then gives the balance back; the card can no longer pay the old rest', async () => {
    const o = await partlyPaidWithBalance();
    expect(await useCredit(o.id, false)).toMatchObject({ status: 200, body: { released: 100 } });
    expect(stub.intents.get(o.intent)!.status).toBe('canceled');
    expect(await balance()).toBe(100);
    expect(await status(o.id)).toBe('Pendiente');
  });

  it('a payment Stripe already took pays the order, and the balance stays on it', async () => {
    const o = await partlyPaidWithBalance();
    stub.intents.get(o.intent)!.status = 'succeeded';
    const release = await useCredit(o.id, false);
    expect(release.status).toBe(409);
    expect(await status(o.id)).toBe('Pagado');
    expect(await balance()).toBe(0);
    expect(stripeRefunds()).toHaveLength(0);
  });

  it('a payment Stripe is still processing keeps the balance on the order, with the reason', async () => {
    const o = await partlyPaidWithBalance();
    stub.intents.get(o.intent)!.status = 'processing';
    const release = await useCredit(o.id, false);
    expect(release).toMatchObject({ status: 409, body: { error: 'payment_in_progress' } });
    expect(release.body.message).toContain('Hay un pago en curso');
    expect(await balance()).toBe(0);
  });
});
