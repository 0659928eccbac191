/**
 * Cash at OXXO that is never lost and the shopper's balance ('saldo a favor'), through the real
 * stripe SDK against the Stripe stub (which, as Stripe, refuses OXXO refunds) and through the
 * simulated provider: late cash while the order is still reserved pays it; cash its order can no
 * longer take becomes a credit with an e-mail and never reaches /v1/refunds; the back office
 * refunds OXXO orders to the balance or by bank transfer; card intents list only card and record
 * what paid; installments refuse an order that cannot be paid; refunds stop retrying; the balance
 * pays a whole order or part of it and comes back when the order is cancelled.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import * as adminOrders from '~/server/admin/orders.ts';
import type { AdminContext, ServerContext } from '~/server/context.ts';
import type { QueuedMail } from '~/server/mail/types.ts';
import { confirmInstallments, installmentPlans } from '~/server/payments/installments.ts';
import { settleOxxo } from '~/server/payments/oxxo.ts';
import type { SimulatedCardProvider } from '~/server/payments/providers/simulated-card.ts';
import { MAX_REFUND_ATTEMPTS, OXXO_PROVIDER_REFUND_REFUSED, retryDueRefunds } from '~/server/orders/refunds.ts';
import { storeCreditPayment } from '~/server/payments/pay-with-balance.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { sweep } from '~/server/sweeper.ts';
import { apiRequest as req, callApi as call, stripeIntentEvent } from '../support/api-requests.ts';
import { serverContext, stripeStubSettings } from '../support/server-context.ts';
import { orderCents, orderColumns, productStock, releasePendingOrders, storeCreditBalance } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_local_saldo';
const PRODUCT = 'pk-booster-stellar-crown';

let stack: TestStack;
let stub: StripeStub;
let live: ServerContext;
let sim: ServerContext;
let adminCtx: AdminContext;
let shopper: SupabaseClient;
let token: string;
let adminToken: string;
let service: SupabaseClient;
const mails: QueuedMail[] = [];

const event = (type: string, intentId: string) => stripeIntentEvent(type, intentId, WEBHOOK_SECRET);

async function newOrder(quantity: number): Promise<{ id: string; cents: number }> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity }]);
  return { id, cents: await orderCents(service, id) };
}

const order = (id: string) =>
  orderColumns<{
    status: string;
    payment_method: string | null;
    payment_provider: string | null;
    credit_applied: string | number;
    refund_ref: string | null;
    expires_at: string | null;
  }>(service, id, 'status, payment_method, payment_provider, credit_applied, refund_ref, expires_at');

const balance = () => storeCreditBalance(service, DEMO_SHOPPER.id);

async function ledger(): Promise<Array<{ amount: number; reason: string; order_id: string | null; payment_ref: string | null; balance_after: number }>> {
  const { data } = await service
    .from('store_credit_entries')
    .select('amount, reason, order_id, payment_ref, balance_after')
    .eq('user_id', DEMO_SHOPPER.id)
    .order('id');
  return (data ?? []).map((e) => ({ ...e, amount: Number(e.amount), balance_after: Number(e.balance_after) }));
}

const stock = () => productStock(service, PRODUCT);

/** Releases the shopper's pending orders as the sweeper would (each test starts with no open voucher). */
const releasePending = () => releasePendingOrders(service, DEMO_SHOPPER.id);

const oxxo = (ctx: ServerContext, orderId: string) =>
  call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId, method: 'oxxo' }), ctx));
const refundRequests = () => stub.requests.filter((q) => q.method === 'POST' && q.path === '/v1/refunds');

beforeAll(async () => {
  stack = await startTestStack();
  stub = await startStripeStub();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  const mail = async (m: QueuedMail) => {
    mails.push(m);
  };
  live = serverContext(service, stripeStubSettings(stub, WEBHOOK_SECRET), mail);
  sim = serverContext(service, { mode: 'simulated' }, mail);
  adminCtx = {
    ...live,
    asUser: (t: string) => anonClient(stack, t),
  };
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
  mails.length = 0;
  await releasePending();
});

describe('cash at OXXO through Stripe (stub)', () => {
  it('cash confirmed after the voucher’s deadline pays the order while it is still reserved', async () => {
    const o = await newOrder(1);
    const r = await oxxo(live, o.id);
    expect(r.status).toBe(200);
    // The deadline passed (the shopper paid at 22:00 of the last day); the reservation has not.
    const intent = stub.intents.get(r.body.paymentIntentId)!;
    const next = intent.next_action as { oxxo_display_details: { expires_after: number } };
    next.oxxo_display_details.expires_after = Math.floor(Date.now() / 1000) - 3600;
    expect(Date.parse((await order(o.id)).expires_at!)).toBeGreaterThan(Date.now());
    stub.payOxxo(intent.id as string);
    await sweep(live, `prueba-${Date.now()}`);
    expect((await order(o.id)).status).toBe('Pendiente');
    const hook = await call(() => stripeWebhook(event('payment_intent.succeeded', intent.id as string), live));
    expect(hook.body).toMatchObject({ handled: true, status: 'Pagado', changed: true });
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'oxxo' });
  });

  it('cash for an order that was cancelled becomes saldo a favor with an e-mail; no refund reaches Stripe', async () => {
    const o = await newOrder(1);
    const r = await oxxo(live, o.id);
    const before = await balance();
    // The reservation ended with no answer from Stripe: the sweeper cancels the order and the intent…
    await service
      .from('orders')
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq('id', o.id);
    const intent = stub.intents.get(r.body.paymentIntentId)!;
    // … but Stripe had already taken the cash: cancelling is refused, and the sweeper settles it.
    stub.payOxxo(intent.id as string);
    await sweep(live, `prueba-${Date.now()}`);
    expect((await order(o.id)).status).toBe('Cancelado');
    expect(await balance()).toBe(before + o.cents);
    const entries = await ledger();
    expect(entries.at(-1)).toMatchObject({ amount: o.cents, reason: 'oxxo_payment', order_id: o.id, payment_ref: intent.id, balance_after: before + o.cents });
    expect(refundRequests()).toHaveLength(0);
    const mail = mails.find((m) => m.kind === 'store_credit');
    expect(mail?.to).toBe(DEMO_SHOPPER.email);
    expect(mail?.text).toContain(`Recibimos tu pago en OXXO de $${(o.cents / 100).toFixed(2)}; lo abonamos a tu saldo a favor.`);
    // The webhook of the same payment credits nothing twice.
    const hook = await call(() => stripeWebhook(event('payment_intent.succeeded', intent.id as string), live));
    expect(hook.body).toMatchObject({ handled: true, status: 'Cancelado' });
    expect(await balance()).toBe(before + o.cents);
    expect(mails.filter((m) => m.kind === 'store_credit')).toHaveLength(1);
    expect(refundRequests()).toHaveLength(0);
  });

  it('a payment_failed voucher releases the order; a second voucher of the same shopper is refused while one is open', async () => {
    const a = await newOrder(1);
    const first = await oxxo(live, a.id);
    expect(first.status).toBe(200);
    const b = await newOrder(1);
    const second = await oxxo(live, b.id);
    expect(second).toMatchObject({ status: 409, body: { error: 'oxxo_voucher_open' } });
    expect(second.body.message).toContain('Ya tienes una ficha de OXXO pendiente');
    const expiring = stub.intents.get(first.body.paymentIntentId)!;
    expiring.status = 'requires_payment_method';
    expiring.next_action = null;
    const failed = await call(() => stripeWebhook(event('payment_intent.payment_failed', expiring.id as string), live));
    expect(failed.body).toMatchObject({ handled: true, status: 'Cancelado' });
    expect((await oxxo(live, b.id)).status).toBe(200);
  });

  it('two vouchers asked at once for two orders of one shopper: one voucher; the other answers 409 and its payment is cancelled at Stripe', async () => {
    const a = await newOrder(1);
    const b = await newOrder(1);
    const answers = await Promise.all([oxxo(live, a.id), oxxo(live, b.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(refused.body).toMatchObject({ error: 'oxxo_voucher_open', message: expect.stringContaining('Ya tienes una ficha de OXXO pendiente') });
    const withVoucher = await Promise.all([a.id, b.id].map(async (id) => (await order(id)).payment_method === 'oxxo'));
    expect(withVoucher.filter(Boolean)).toHaveLength(1);
    // Whatever the refused request created at Stripe can never be paid.
    const loser = withVoucher[0] ? b.id : a.id;
    const loserIntents = [...stub.intents.values()].filter((i) => (i.metadata as { order_id?: string } | undefined)?.order_id === loser);
    expect(loserIntents.every((i) => i.status === 'canceled')).toBe(true);
    expect(mails.filter((m) => m.kind === 'oxxo_voucher')).toHaveLength(1);
  });

  it('a voucher for a line with 5 units or fewer left lasts one day instead of three', async () => {
    await service.from('products').update({ stock: 6 }).eq('id', PRODUCT);
    try {
      const o = await newOrder(1);
      expect(await stock()).toBe(5);
      const r = await oxxo(live, o.id);
      expect(r.status).toBe(200);
      const create = stub.requests.find((q) => q.method === 'POST' && q.path === '/v1/payment_intents')!;
      expect(create.params.get('payment_method_options[oxxo][expires_after_days]')).toBe('1');
    } finally {
      await releasePending();
      await service.from('products').update({ stock: 5000 }).eq('id', PRODUCT);
    }
  });

  it('the back office never refunds an OXXO order through Stripe: balance by default, or a bank transfer with its reference', async () => {
    const o = await newOrder(2);
    const r = await oxxo(live, o.id);
    stub.payOxxo(r.body.paymentIntentId);
    await call(() => stripeWebhook(event('payment_intent.succeeded', r.body.paymentIntentId), live));
    expect((await order(o.id)).status).toBe('Pagado');
    const refusal = await call(() => adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, { way: 'provider' }), adminCtx, o.id));
    expect(refusal).toMatchObject({ status: 409, body: { error: 'provider_refund_not_possible', message: OXXO_PROVIDER_REFUND_REFUSED } });
    const noReference = await call(() =>
      adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, { way: 'bank_transfer' }), adminCtx, o.id),
    );
    expect(noReference.status).toBe(409);
    expect((await order(o.id)).status).toBe('Pagado');
    const before = await balance();
    const startStock = await stock();
    const credited = await call(() => adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, {}), adminCtx, o.id));
    expect(credited).toMatchObject({ status: 200, body: { status: 'Reembolsado', way: 'store_credit' } });
    expect(await balance()).toBe(before + o.cents);
    expect(await stock()).toBe(startStock + 2);
    expect(refundRequests()).toHaveLength(0);
    const refundMail = mails.find((m) => m.kind === 'order_reembolsado');
    expect(refundMail?.text).toContain('a tu saldo a favor');
    expect(refundMail?.text).not.toContain('tarjeta');

    const t = await newOrder(1);
    const rt = await oxxo(live, t.id);
    stub.payOxxo(rt.body.paymentIntentId);
    await call(() => stripeWebhook(event('payment_intent.succeeded', rt.body.paymentIntentId), live));
    await service.from('orders').update({ status: 'Enviado', carrier: 'DHL', tracking_number: 'GUIA123' }).eq('id', t.id);
    const shippedStock = await stock();
    const transfer = await call(() =>
      adminOrders.refundOrder(req('POST', `/api/admin/orders/${t.id}/refund`, adminToken, { way: 'bank_transfer', reference: 'SPEI 0042' }), adminCtx, t.id),
    );
    expect(transfer).toMatchObject({ status: 200, body: { status: 'Reembolsado', way: 'bank_transfer' } });
    expect((await order(t.id)).refund_ref).toBe('transferencia:SPEI 0042');
    // A shipped order's units come back only when the admin marks them returned.
    expect(await stock()).toBe(shippedStock);
    expect(refundRequests()).toHaveLength(0);
  });
});

describe('card payments as Stripe behaves', () => {
  it('card intents list only card, and the order records what paid', async () => {
    const o = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
    expect(created.status).toBe(200);
    const create = stub.requests.find((q) => q.method === 'POST' && q.path === '/v1/payment_intents')!;
    expect(create.params.get('payment_method_types[0]')).toBe('card');
    expect(create.params.has('payment_method_types[1]')).toBe(false);
    expect(create.params.has('automatic_payment_methods[enabled]')).toBe(false);
    expect(stub.intents.get(created.body.paymentIntentId)!.payment_method_types).toEqual(['card']);
    stub.intents.get(created.body.paymentIntentId)!.status = 'succeeded';
    const hook = await call(() => stripeWebhook(event('payment_intent.succeeded', created.body.paymentIntentId), live));
    expect(hook.body).toMatchObject({ status: 'Pagado' });
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'card' });
  });

  it('installments on a cancelled order answer 409 and charge nothing', async () => {
    const { data: product } = await service.from('products').select('price').eq('id', PRODUCT).single();
    // 'Meses sin intereses' from $300.00.
    await service.from('products').update({ price: 500 }).eq('id', PRODUCT);
    try {
      const o = await newOrder(1);
      const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
      expect(created.status).toBe(200);
      const { error } = await shopper.rpc('cancel_order', { order_id: o.id });
      expect(error).toBeNull();
      stub.requests.length = 0;
      const plans = await call(() =>
        installmentPlans(
          req('POST', '/x', token, { orderId: o.id, paymentIntentId: created.body.paymentIntentId, paymentMethodId: 'pm_card_mx_installments' }),
          live,
        ),
      );
      expect(plans.status).toBe(409);
      const confirm = await call(() =>
        confirmInstallments(req('POST', '/x', token, { orderId: o.id, paymentIntentId: created.body.paymentIntentId, months: 3 }), live),
      );
      expect(confirm).toMatchObject({ status: 409, body: { error: 'order_not_payable' } });
      expect(stub.requests.filter((q) => q.method === 'POST' && q.path.startsWith('/v1/payment_intents/'))).toHaveLength(0);
      expect(stub.intents.get(created.body.paymentIntentId)!.status).not.toBe('succeeded');
    } finally {
      await service.from('products').update({ price: product!.price }).eq('id', PRODUCT);
    }
  });

  it(`a refund that keeps failing stops after ${MAX_REFUND_ATTEMPTS} attempts as 'manual' and is not retried`, async () => {
    const o = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
    await shopper.rpc('cancel_order', { order_id: o.id });
    stub.failRefunds(1000);
    stub.intents.get(created.body.paymentIntentId)!.status = 'succeeded';
    const hook = await call(() => stripeWebhook(event('payment_intent.succeeded', created.body.paymentIntentId), live));
    expect(hook.body).toMatchObject({ refunded: 'late_payment' });
    for (let i = 0; i < MAX_REFUND_ATTEMPTS + 3; i += 1) {
      await service
        .from('payment_refunds')
        .update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
        .eq('order_id', o.id)
        .neq('status', 'manual');
      await retryDueRefunds(live);
    }
    const { data: row } = await service.from('payment_refunds').select('status, attempts').eq('order_id', o.id).single();
    expect(row).toMatchObject({ status: 'manual', attempts: MAX_REFUND_ATTEMPTS });
    const before = refundRequests().length;
    await service
      .from('payment_refunds')
      .update({ next_attempt_at: new Date(Date.now() - 1000).toISOString() })
      .eq('order_id', o.id);
    expect(await retryDueRefunds(live)).toEqual({ retried: 0, succeeded: 0 });
    expect(refundRequests()).toHaveLength(before);
    stub.failRefunds(0);
    // The back office lists it with whose money it is.
    const adminClient = adminCtx.asUser(adminToken);
    const { data: review, error } = await adminClient.rpc('admin_refunds_to_review');
    expect(error).toBeNull();
    expect((review as Array<Record<string, unknown>>).find((r) => r.order_id === o.id)).toMatchObject({
      status: 'manual',
      customer_email: DEMO_SHOPPER.email,
      provider: 'stripe',
    });
  });

  it('a card refund still being retried blocks refunding another way; once manual, the balance settles it', async () => {
    const o = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
    stub.intents.get(created.body.paymentIntentId)!.status = 'succeeded';
    await call(() => stripeWebhook(event('payment_intent.succeeded', created.body.paymentIntentId), live));
    // Stripe's SDK retries twice by itself: three failures make the refund fail.
    stub.failRefunds(3);
    const failed = await call(() => adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, { way: 'provider' }), adminCtx, o.id));
    expect(failed).toMatchObject({ status: 502, body: { refund: 'failed' } });
    const before = await balance();
    const twice = await call(() =>
      adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, { way: 'store_credit' }), adminCtx, o.id),
    );
    expect(twice).toMatchObject({ status: 409, body: { error: 'refund_in_progress' } });
    expect(await balance()).toBe(before);
    await service.from('payment_refunds').update({ status: 'manual' }).eq('order_id', o.id);
    const settled = await call(() =>
      adminOrders.refundOrder(req('POST', `/api/admin/orders/${o.id}/refund`, adminToken, { way: 'store_credit' }), adminCtx, o.id),
    );
    expect(settled).toMatchObject({ status: 200, body: { status: 'Reembolsado', way: 'store_credit' } });
    expect(await balance()).toBe(before + o.cents);
    const { data: row } = await service.from('payment_refunds').select('status').eq('order_id', o.id).single();
    expect(row!.status).toBe('succeeded');
  });

  it('the sweeper leaves attempts of providers it does not have, and backs off one it could not close', async () => {
    const o = await newOrder(1);
    await shopper.rpc('cancel_order', { order_id: o.id });
    await service.from('payment_attempts').insert({ order_id: o.id, provider: 'simulated-card', ref: `pi_sim_ajeno_${Date.now()}` });
    const processing = await newOrder(1);
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: processing.id }), live));
    await shopper.rpc('cancel_order', { order_id: processing.id });
    // The bank is still processing it: Stripe refuses to cancel it, and the sweeper looks again later.
    stub.intents.get(created.body.paymentIntentId)!.status = 'processing';
    await sweep(live, `prueba-${Date.now()}`);
    const { data: foreign } = await service.from('payment_attempts').select('status, checks').eq('order_id', o.id).single();
    expect(foreign).toMatchObject({ status: 'open', checks: 0 });
    const { data: held } = await service.from('payment_attempts').select('status, checks, next_check_at').eq('ref', created.body.paymentIntentId).single();
    expect(held).toMatchObject({ status: 'open', checks: 1 });
    expect(Date.parse(held!.next_check_at)).toBeGreaterThan(Date.now());
    // Within its wait the next sweep does not ask Stripe again.
    stub.requests.length = 0;
    await sweep(live, `prueba-${Date.now()}`);
    expect(stub.requests.filter((q) => q.path === `/v1/payment_intents/${created.body.paymentIntentId}/cancel`)).toHaveLength(0);
  });
});

describe('saldo a favor', () => {
  it('pays part of an order (the card is asked only for the rest) and comes back when the order is cancelled', async () => {
    const o = await newOrder(2);
    const credit = Math.floor(o.cents / 4);
    const earlier = await balance();
    if (earlier > 0)
      await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: -earlier, p_reason: 'adjustment', p_note: 'prueba: saldo en cero' });
    await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: credit, p_reason: 'adjustment', p_note: 'prueba' });
    const start = await balance();
    const used = await call(() =>
      storeCreditPayment(req('POST', '/api/payments/store-credit', token, { orderId: o.id, use: true }), live, async () => undefined),
    );
    expect(used).toMatchObject({ status: 200, body: { status: 'Pendiente', due: o.cents - start } });
    expect(await balance()).toBe(0);
    const created = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id }), live));
    expect(created.body.amount).toBe(o.cents - start);
    // The browser cannot pick a bigger share: the amount sent along must be the rest.
    const forged = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: o.id, amount: o.cents }), live));
    expect(forged.status).toBe(400);
    const { error } = await shopper.rpc('cancel_order', { order_id: o.id });
    expect(error).toBeNull();
    expect(await balance()).toBe(start);
    expect((await ledger()).slice(-2).map((e) => e.reason)).toEqual(['order_payment', 'order_returned']);
  });

  it('pays a whole order at once with no provider', async () => {
    const o = await newOrder(1);
    await service.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: o.cents + 500, p_reason: 'adjustment', p_note: 'prueba' });
    const start = await balance();
    let receipts = 0;
    const used = await call(() =>
      storeCreditPayment(req('POST', '/api/payments/store-credit', token, { orderId: o.id, use: true }), sim, async () => {
        receipts += 1;
      }),
    );
    expect(used).toMatchObject({ status: 200, body: { status: 'Pagado', due: 0, applied: o.cents } });
    expect(receipts).toBe(1);
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'store_credit', payment_provider: 'store_credit' });
    expect(await balance()).toBe(start - o.cents);
    const again = await call(() =>
      storeCreditPayment(req('POST', '/api/payments/store-credit', token, { orderId: o.id, use: true }), sim, async () => undefined),
    );
    expect(again.status).toBe(409);
    expect(await balance()).toBe(start - o.cents);
  });

  it('the shopper reads their own balance and entries and cannot write them', async () => {
    const { data: mine, error } = await shopper.rpc('my_store_credit');
    expect(error).toBeNull();
    expect(Number(mine)).toBe(await balance());
    const insert = await shopper.from('store_credit_entries').insert({ user_id: DEMO_SHOPPER.id, amount: 100000, balance_after: 100000, reason: 'adjustment' });
    expect(insert.error).not.toBeNull();
    const post = await shopper.rpc('store_credit_post', { p_user: DEMO_SHOPPER.id, p_amount: 100000, p_reason: 'adjustment' });
    expect(post.error).not.toBeNull();
    const upd = await shopper.from('orders').update({ credit_applied: 1 }).eq('user_id', DEMO_SHOPPER.id);
    expect(upd.error).not.toBeNull();
  });

  it('simulated: the store confirms cash paid before the deadline even when it reports it after', async () => {
    const o = await newOrder(1);
    const r = await oxxo(sim, o.id);
    const card = sim.payments.card as SimulatedCardProvider;
    const deadline = Date.parse(r.body.voucher.expiresAt);
    // A voucher past its deadline is refused at the store…
    await expect(card.payOxxo(r.body.paymentIntentId, new Date(deadline + 60_000))).rejects.toThrow('Esta ficha de pago ya venció.');
    // … but cash taken before it is confirmed whenever Stripe reports it, and cannot be refunded.
    const paid = await card.payOxxo(r.body.paymentIntentId, new Date(deadline - 60_000));
    expect(paid).toMatchObject({ status: 'succeeded', method: 'oxxo' });
    await expect(card.refundPayment(r.body.paymentIntentId, o.cents, `prueba-${o.id}`)).rejects.toThrow(
      'Los pagos en efectivo en OXXO no se pueden reembolsar.',
    );
    const settled = await settleOxxo(sim, paid);
    expect(settled).toMatchObject({ status: 'Pagado', changed: true });
  });
});
