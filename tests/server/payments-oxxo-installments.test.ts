/**
 * Cash at OXXO and 'meses sin intereses', through the simulated provider and through the real
 * stripe SDK against the recording Stripe stub: the request parameters, the voucher the shop
 * answers and keeps, the reservation extended to the voucher's expiry, the webhook (succeeded →
 * paid, payment_failed → cancelled with its stock back), the sweeper after the expiry, the plans
 * the issuer offers and the server's check of the chosen one.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { handle } from '~/server/http/json.ts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { oxxoReservationEnd, oxxoVoucherExpiry } from '~/domain/mexican-payments.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedConfirm, simulatedInstallmentPlans, simulatedOxxoCounter, simulatedOxxoExpire, simulatedOxxoPay } from '~/server/payments/simulated.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import type { ServerContext } from '~/server/context.ts';
import type { QueuedMail } from '~/server/mail/types.ts';
import { confirmInstallments, installmentPlans } from '~/server/payments/installments.ts';
import { simulatedOxxoReference } from '~/server/payments/providers/simulated-card.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { sweep } from '~/server/sweeper.ts';
import { apiRequest as req, callApi as call, SHOP_BASE as BASE, stripeIntentEvent } from '../support/api-requests.ts';
import { serverContext, stripeStubSettings } from '../support/server-context.ts';
import { orderCents, orderColumns, productStock, releasePendingOrders } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_local_oxxo';
const PRODUCT = 'pk-booster-stellar-crown';

let stack: TestStack;
let stub: StripeStub;
let live: ServerContext;
let sim: ServerContext;
let shopper: SupabaseClient;
let token: string;
let service: SupabaseClient;
const mails: QueuedMail[] = [];

const event = (type: string, intentId: string, id?: string) => stripeIntentEvent(type, intentId, WEBHOOK_SECRET, id);

async function newOrder(quantity: number): Promise<{ id: string; cents: number }> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity }]);
  return { id, cents: await orderCents(service, id) };
}

const order = (id: string) =>
  orderColumns<{
    status: string;
    expires_at: string | null;
    payment_method: string | null;
    installments: number | null;
    oxxo_voucher: any;
    payment_provider: string | null;
    points_awarded: number;
  }>(service, id, 'status, expires_at, payment_method, installments, oxxo_voucher, payment_provider, points_awarded');

const stock = () => productStock(service, PRODUCT);

beforeAll(async () => {
  stack = await startTestStack();
  stub = await startStripeStub();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  const mail = async (m: QueuedMail) => {
    mails.push(m);
  };
  live = serverContext(service, stripeStubSettings(stub, WEBHOOK_SECRET), mail);
  sim = serverContext(service, { mode: 'simulated' }, mail);
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  await service.from('profiles').update({ name: 'Ana', lastname: 'García' }).eq('id', DEMO_SHOPPER.id);
  // Enough units and no per-customer limit for every order of this file.
  await service.from('products').update({ stock: 5000, limit_per_customer: 5000 }).eq('id', PRODUCT);
}, 120_000);

afterAll(async () => {
  await stub?.close();
  await stack?.stop();
});

beforeEach(async () => {
  stub.requests.length = 0;
  mails.length = 0;
  // A shopper holds one open OXXO voucher at a time: each test starts with none (the earlier
  // tests' pending orders are released as the sweeper would).
  await releasePendingOrders(service, DEMO_SHOPPER.id);
});

const oxxo = (ctx: ServerContext, orderId: string) =>
  call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId, method: 'oxxo' }), ctx));

describe('OXXO, simulated', () => {
  it('answers a deterministic voucher, keeps the order pending and reserved until two business days after the voucher expires, and e-mails it', async () => {
    const o = await newOrder(1);
    const before = Date.now();
    const r = await oxxo(sim, o.id);
    expect(r.status).toBe(200);
    const v = r.body.voucher;
    expect(v.reference).toBe(simulatedOxxoReference(o.id));
    expect(v.reference).toMatch(/^\d{18}$/);
    expect(v.amount).toBe(o.cents);
    expect(Date.parse(v.expiresAt)).toBe(oxxoVoucherExpiry(new Date(before)).getTime());
    expect(v.hostedVoucherUrl).toMatch(new RegExp(`^${BASE}/api/payments/simulated/oxxo/pi_sim_\\w+\\?token=[0-9a-f]{32}$`));
    const row = await order(o.id);
    expect(row).toMatchObject({ status: 'Pendiente', payment_method: 'oxxo' });
    expect(Date.parse(row.expires_at!)).toBe(oxxoReservationEnd(new Date(v.expiresAt)).getTime());
    expect(Date.parse(row.expires_at!)).toBeGreaterThan(Date.parse(v.expiresAt) + 86_400_000);
    expect(row.oxxo_voucher).toMatchObject({ reference: v.reference, paymentIntentId: r.body.paymentIntentId });
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ to: DEMO_SHOPPER.email, kind: 'oxxo_voucher' });
    expect(mails[0]!.text).toContain(`Referencia: ${v.reference.replace(/(\d{4})(?=\d)/g, '$1 ')}`);
    expect(mails[0]!.text).toContain('Paga en cualquier tienda OXXO antes del');
    expect(mails[0]!.text).toContain(v.hostedVoucherUrl);
    const again = await oxxo(sim, o.id);
    expect(again.body.voucher).toEqual(v);
  });

  it('settles a simulated store payment as the webhook would: paid, points, receipt', async () => {
    const o = await newOrder(1);
    await oxxo(sim, o.id);
    const paid = await call(() => simulatedOxxoPay(req('POST', '/x', token, { orderId: o.id }), sim));
    expect(paid).toMatchObject({ status: 200, body: { status: 'Pagado', changed: true } });
    const row = await order(o.id);
    expect(row).toMatchObject({ status: 'Pagado', payment_method: 'oxxo', payment_provider: 'simulated-card', installments: null });
    expect(row.points_awarded).toBeGreaterThan(0);
    expect(mails.find((m) => m.kind === 'order_paid')!.text).toContain('Forma de pago: efectivo en OXXO');
  });

  it('pays from the voucher e-mail’s page with its token only', async () => {
    const o = await newOrder(1);
    const r = await oxxo(sim, o.id);
    const link = new URL(r.body.voucher.hostedVoucherUrl);
    const intentId = link.pathname.split('/').pop()!;
    const wrong = await simulatedOxxoCounter(new Request(`${BASE}${link.pathname}?token=nope`), sim, intentId);
    expect(wrong.status).toBe(404);
    const shown = await simulatedOxxoCounter(new Request(link), sim, intentId);
    const html = await shown.text();
    expect(html).toContain('Simular pago en OXXO');
    expect(html).toContain(r.body.voucher.reference.slice(0, 4) + ' ');
    const posted = await simulatedOxxoCounter(new Request(link, { method: 'POST' }), sim, intentId);
    expect(posted.status).toBe(200);
    expect(await posted.text()).toContain('Pago registrado');
    expect((await order(o.id)).status).toBe('Pagado');
  });

  it('an expired voucher cancels the order and gives its stock back; it cannot be paid afterwards', async () => {
    const start = await stock();
    const o = await newOrder(2);
    await oxxo(sim, o.id);
    expect(await stock()).toBe(start - 2);
    const expired = await call(() => simulatedOxxoExpire(req('POST', '/x', token, { orderId: o.id }), sim));
    expect(expired).toMatchObject({ status: 200, body: { status: 'Cancelado', released: true } });
    expect(await stock()).toBe(start);
    const late = await call(() => simulatedOxxoPay(req('POST', '/x', token, { orderId: o.id }), sim));
    expect(late.status).toBe(409);
    expect((await order(o.id)).status).toBe('Cancelado');
  });

  it('the shopper cannot write the payment method, the plan or the voucher', async () => {
    const o = await newOrder(1);
    await oxxo(sim, o.id);
    for (const change of [
      { payment_method: 'card' },
      { installments: 24 },
      { oxxo_voucher: { reference: '1', expiresAt: '2099-01-01T00:00:00Z', amount: 1 } },
    ]) {
      const { error } = await shopper.from('orders').update(change).eq('id', o.id);
      expect(error).not.toBeNull();
    }
    expect(await order(o.id)).toMatchObject({ payment_method: 'oxxo', installments: null });
  });

  it('offers OXXO only from $10.00 to $10,000.00', async () => {
    const o = await newOrder(1);
    const totalOf = async (total: number) => {
      const { error } = await service.from('orders').update({ subtotal: total, discount: 0, shipping: 0, total }).eq('id', o.id);
      expect(error).toBeNull();
    };
    await totalOf(10000.01);
    const high = await oxxo(sim, o.id);
    expect(high).toMatchObject({
      status: 409,
      body: { error: 'oxxo_amount_out_of_range', message: 'El pago en efectivo en OXXO solo está disponible para pedidos de $10.00 a $10,000.00.' },
    });
    await totalOf(9.99);
    expect((await oxxo(sim, o.id)).status).toBe(409);
    await totalOf(10000);
    expect((await oxxo(sim, o.id)).status).toBe(200);
  });
});

describe('meses sin intereses, simulated', () => {
  async function intentFor(quantity: number) {
    const o = await newOrder(quantity);
    const r = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: o.id }), sim));
    return { ...o, clientSecret: r.body.clientSecret as string, offered: r.body.installments as boolean };
  }
  const plans = (clientSecret: string, number: string) => call(() => simulatedInstallmentPlans(req('POST', '/x', token, { clientSecret, number }), sim));
  const card = (number: string) => ({ number, expMonth: 12, expYear: 2034, cvc: '123' });

  it('lists the plans of Stripe’s Mexican installment card with monthly amounts; other cards none', async () => {
    const o = await intentFor(6);
    expect(o.cents).toBeGreaterThanOrEqual(30_000);
    expect(o.offered).toBe(true);
    const mx6 = await plans(o.clientSecret, '4000 0048 4000 8001');
    expect(mx6.body.plans.map((p: { months: number }) => p.months)).toEqual([3, 6, 9, 12, 18, 24]);
    const six = mx6.body.plans.find((p: { months: number }) => p.months === 6);
    expect(six.monthly).toBe(Math.round(o.cents / 6));
    expect(six.label).toMatch(/^6 meses sin intereses de \$/);
    expect((await plans(o.clientSecret, '4242 4242 4242 4242')).body).toEqual({ plans: [] });
  });

  it('stores the confirmed plan on the order; refuses a plan the card was not offered', async () => {
    const o = await intentFor(6);
    const refused = await call(() =>
      simulatedConfirm(req('POST', '/x', token, { clientSecret: o.clientSecret, card: card('4242424242424242'), installments: 6 }), sim),
    );
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_plan' } });
    const odd = await call(() =>
      simulatedConfirm(req('POST', '/x', token, { clientSecret: o.clientSecret, card: card('4000004840008001'), installments: 5 }), sim),
    );
    expect(odd.status).toBe(400);
    const paid = await call(() =>
      simulatedConfirm(req('POST', '/x', token, { clientSecret: o.clientSecret, card: card('4000004840008001'), installments: 6 }), sim),
    );
    expect(paid.body).toMatchObject({ status: 'succeeded', order: { status: 'Pagado' } });
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'card', installments: 6 });
    expect(mails.find((m) => m.kind === 'order_paid')!.text).toContain(`Forma de pago: 6 meses sin intereses de`);
  });

  it('is not offered below $300.00', async () => {
    const o = await intentFor(1);
    expect(o.cents).toBeLessThan(30_000);
    expect(o.offered).toBe(false);
    expect((await plans(o.clientSecret, '4000004840008001')).body).toEqual({ plans: [] });
    const refused = await call(() =>
      simulatedConfirm(req('POST', '/x', token, { clientSecret: o.clientSecret, card: card('4000004840008001'), installments: 3 }), sim),
    );
    expect(refused.status).toBe(400);
  });
});

describe('OXXO through Stripe (stub)', () => {
  it('creates and confirms an OXXO intent with the documented parameters and answers its voucher', async () => {
    const o = await newOrder(1);
    const r = await oxxo(live, o.id);
    expect(r.status).toBe(200);
    const create = stub.requests.find((q) => q.method === 'POST' && q.path === '/v1/payment_intents')!;
    expect(create.params.get('amount')).toBe(String(o.cents));
    expect(create.params.get('currency')).toBe('mxn');
    expect(create.params.get('payment_method_types[0]')).toBe('oxxo');
    expect(create.params.get('payment_method_data[type]')).toBe('oxxo');
    expect(create.params.get('payment_method_data[billing_details][name]')).toBe('Ana García');
    expect(create.params.get('payment_method_data[billing_details][email]')).toBe(DEMO_SHOPPER.email);
    expect(create.params.get('payment_method_options[oxxo][expires_after_days]')).toBe('3');
    expect(create.params.get('confirm')).toBe('true');
    expect(create.params.get('metadata[order_id]')).toBe(o.id);
    expect(create.idempotencyKey).toBe(`oxxo-${o.id}-${o.cents}`);
    const intent = stub.intents.get(r.body.paymentIntentId)!;
    const details = (intent.next_action as any).oxxo_display_details;
    expect(r.body.voucher).toEqual({
      reference: details.number,
      expiresAt: new Date(details.expires_after * 1000).toISOString(),
      amount: o.cents,
      hostedVoucherUrl: details.hosted_voucher_url,
      paymentIntentId: intent.id,
    });
    expect(await order(o.id)).toMatchObject({ status: 'Pendiente', payment_method: 'oxxo' });
    expect(mails[0]!.text).toContain(details.hosted_voucher_url);
  });

  it('payment_intent.succeeded pays the order once; payment_failed on another voucher cancels it and returns its stock', async () => {
    const o = await newOrder(1);
    const r = await oxxo(live, o.id);
    const intent = stub.intents.get(r.body.paymentIntentId)!;
    // The event alone is not trusted: while Stripe says requires_action nothing happens.
    const early = await call(() => stripeWebhook(event('payment_intent.succeeded', intent.id as string), live));
    expect(early.body.handled).toBe(false);
    intent.status = 'succeeded';
    intent.next_action = null;
    const paid = await call(() => stripeWebhook(event('payment_intent.succeeded', intent.id as string), live));
    expect(paid.body).toMatchObject({ handled: true, status: 'Pagado', changed: true });
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'oxxo', payment_provider: 'stripe' });

    const start = await stock();
    const other = await newOrder(2);
    const r2 = await oxxo(live, other.id);
    expect(await stock()).toBe(start - 2);
    const expiring = stub.intents.get(r2.body.paymentIntentId)!;
    expiring.status = 'requires_payment_method';
    expiring.next_action = null;
    const failed = await call(() => stripeWebhook(event('payment_intent.payment_failed', expiring.id as string), live));
    expect(failed.body).toMatchObject({ handled: true, status: 'Cancelado' });
    expect((await order(other.id)).status).toBe('Cancelado');
    expect(await stock()).toBe(start);
    expect(stub.requests.some((q) => q.path === `/v1/payment_intents/${expiring.id}/cancel`)).toBe(true);
    const replay = await call(() => stripeWebhook(event('payment_intent.canceled', expiring.id as string), live));
    expect(replay.body.handled).toBe(false);
  });

  it('the sweeper cancels the order when its reservation ends (two business days after the voucher’s expiry) and cancels the intent', async () => {
    const start = await stock();
    const o = await newOrder(1);
    const r = await oxxo(live, o.id);
    await service
      .from('orders')
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq('id', o.id);
    await sweep(live, `prueba-${Date.now()}`);
    expect((await order(o.id)).status).toBe('Cancelado');
    expect(await stock()).toBe(start);
    expect(stub.intents.get(r.body.paymentIntentId)!.status).toBe('canceled');
    const { data: attempt } = await service.from('payment_attempts').select('status').eq('ref', r.body.paymentIntentId).single();
    expect(attempt!.status).toBe('canceled');
  });

  it('nothing simulated exists in live mode', async () => {
    const o = await newOrder(1);
    await oxxo(live, o.id);
    expect((await call(() => simulatedOxxoPay(req('POST', '/x', token, { orderId: o.id }), live))).status).toBe(404);
    expect((await call(() => simulatedOxxoExpire(req('POST', '/x', token, { orderId: o.id }), live))).status).toBe(404);
    expect(
      (await call(() => simulatedInstallmentPlans(req('POST', '/x', token, { clientSecret: 'pi_x_secret_y', number: '4000004840008001' }), live))).status,
    ).toBe(404);
    expect((await handle(() => simulatedOxxoCounter(new Request(`${BASE}/api/payments/simulated/oxxo/pi_stub_1?token=x`), live, 'pi_stub_1'))).status).toBe(
      404,
    );
  });
});

describe('meses sin intereses through Stripe (stub)', () => {
  async function intentFor(quantity: number) {
    const o = await newOrder(quantity);
    const r = await call(() => createPaymentIntent(req('POST', '/x', token, { orderId: o.id }), live));
    return { ...o, intentId: r.body.paymentIntentId as string, offered: r.body.installments as boolean };
  }

  it('enables installments on intents from $300.00 only', async () => {
    const big = await intentFor(6);
    expect(big.offered).toBe(true);
    const small = await intentFor(1);
    expect(small.offered).toBe(false);
    const creates = stub.requests.filter((q) => q.method === 'POST' && q.path === '/v1/payment_intents');
    expect(creates[0]!.params.get('payment_method_options[card][installments][enabled]')).toBe('true');
    expect(creates[1]!.params.get('payment_method_options[card][installments][enabled]')).toBeNull();
  });

  it('lists the issuer’s plans, refuses one not offered, confirms the chosen plan and stores it', async () => {
    const o = await intentFor(6);
    const none = await call(() =>
      installmentPlans(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, paymentMethodId: 'pm_card_visa_debit' }), live),
    );
    expect(none).toEqual({ status: 200, body: { plans: [] } });
    const r = await call(() =>
      installmentPlans(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, paymentMethodId: 'pm_card_mx_installments' }), live),
    );
    expect(r.body.plans.map((p: { months: number }) => p.months)).toEqual([3, 6, 9, 12, 18, 24]);
    const update = stub.requests.filter((q) => q.method === 'POST' && q.path === `/v1/payment_intents/${o.intentId}`).at(-1)!;
    expect(update.params.get('payment_method')).toBe('pm_card_mx_installments');

    const forged = await call(() => confirmInstallments(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, months: 36 }), live));
    expect(forged).toMatchObject({ status: 400, body: { error: 'invalid_plan' } });
    expect(stub.requests.some((q) => q.path.endsWith('/confirm'))).toBe(false);

    const paid = await call(() => confirmInstallments(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, months: 6 }), live));
    expect(paid).toMatchObject({ status: 200, body: { status: 'Pagado', changed: true } });
    const confirm = stub.requests.find((q) => q.path === `/v1/payment_intents/${o.intentId}/confirm`)!;
    expect(confirm.params.get('payment_method_options[card][installments][plan][count]')).toBe('6');
    expect(confirm.params.get('payment_method_options[card][installments][plan][interval]')).toBe('month');
    expect(confirm.params.get('payment_method_options[card][installments][plan][type]')).toBe('fixed_count');
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', payment_method: 'card', installments: 6 });
  });

  it('pays a card without plans in one payment (no plan sent, nothing stored)', async () => {
    const o = await intentFor(6);
    await call(() => installmentPlans(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, paymentMethodId: 'pm_card_visa_debit' }), live));
    const paid = await call(() => confirmInstallments(req('POST', '/x', token, { orderId: o.id, paymentIntentId: o.intentId, months: null }), live));
    expect(paid.body).toMatchObject({ status: 'Pagado' });
    const confirm = stub.requests.find((q) => q.path === `/v1/payment_intents/${o.intentId}/confirm`)!;
    expect(confirm.params.get('payment_method_options[card][installments][plan][count]')).toBeNull();
    expect(await order(o.id)).toMatchObject({ status: 'Pagado', installments: null });
  });
});
