/**
 * The payment endpoints with the simulated provider, against the local stack with the real
 * migrations and seed: saved cards, intents, the card outcomes, PayPal, and every tampering
 * attempt refused.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import {
  confirmPayment,
  createCustomer,
  createPaymentIntent,
  detachPaymentMethod,
  listPaymentMethods,
  setDefaultPaymentMethod,
} from '~/server/payments/cards.ts';
import { simulatedAuthenticate, simulatedConfirm } from '~/server/payments/simulated.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import type { ServerContext } from '~/server/context.ts';
import { localMailboxSender } from '~/server/mail/transport.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { serverContext } from '../support/server-context.ts';
import { mailboxMessages, orderColumns, productWithStock } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn, type OrderItem } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

let stack: TestStack;
let ctx: ServerContext;
let shopperToken: string;
let adminToken: string;
let shopper: SupabaseClient;
let service: SupabaseClient;

/** A new pending order for the demo shopper, through create_order like the browser. */
const newOrder = (items: OrderItem[] = [{ product_id: cheapProduct, quantity: 1 }], coupon: string | null = null) =>
  newPendingOrder(shopper, items, { coupon });

const orderRow = (id: string) =>
  orderColumns<{ status: string; paid_at: string | null; total: number; payment_provider: string | null; payment_ref: string | null }>(
    service,
    id,
    'status, paid_at, total, payment_provider, payment_ref',
  );

let cheapProduct: string;

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  ctx = serverContext(service, { mode: 'simulated' }, localMailboxSender(stack.url, stack.serviceRoleKey));
  ({ token: shopperToken, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  ({ token: adminToken } = await signIn(stack, DEMO_ADMIN));
  cheapProduct = await productWithStock(service, 20, 'cheapest');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('authentication', () => {
  it('refuses calls without a valid access token with 401', async () => {
    for (const token of [null, 'not-a-token', stack.anonKey]) {
      const r = await call(() => createCustomer(req('POST', '/api/stripe/customer', token), ctx));
      expect(r.status).toBe(401);
      expect(r.body.message).toMatch(/sesión/);
    }
  });
});

describe('saved cards (simulated provider)', () => {
  let customerId: string;

  it('creates the customer once and stores it on the profile', async () => {
    const first = await call(() => createCustomer(req('POST', '/api/stripe/customer', shopperToken), ctx));
    expect(first.status).toBe(200);
    expect(first.body.customerId).toMatch(/^cus_sim_/);
    const again = await call(() => createCustomer(req('POST', '/api/stripe/customer', shopperToken), ctx));
    expect(again.body.customerId).toBe(first.body.customerId);
    const { data } = await shopper.from('profiles').select('stripe_customer_id').eq('id', DEMO_SHOPPER.id).single();
    expect(data!.stripe_customer_id).toBe(first.body.customerId);
    customerId = first.body.customerId;
  });

  it('lists no cards at first, and refuses someone else’s customer with 403', async () => {
    const own = await call(() => listPaymentMethods(req('GET', `/api/stripe/payment-methods?customerId=${customerId}`, shopperToken), ctx));
    expect(own).toEqual({ status: 200, body: [] });
    const other = await call(() => listPaymentMethods(req('GET', `/api/stripe/payment-methods?customerId=${customerId}`, adminToken), ctx));
    expect(other.status).toBe(403);
    const missing = await call(() => listPaymentMethods(req('GET', '/api/stripe/payment-methods', shopperToken), ctx));
    expect(missing.status).toBe(400);
  });

  it('saves a card paid with "Guardar tarjeta", makes the first one default, switches default, detaches', async () => {
    for (const number of ['4242 4242 4242 4242', '5555 5555 5555 4444']) {
      const orderId = await newOrder();
      const intent = await call(() => createPaymentIntent(req('POST', '/api/create-payment-intent', shopperToken, { orderId }), ctx));
      expect(intent.status).toBe(200);
      const paid = await call(() =>
        simulatedConfirm(
          req('POST', '/api/payments/simulated/confirm', shopperToken, {
            clientSecret: intent.body.clientSecret,
            card: { number, expMonth: 12, expYear: 2034, cvc: '123' },
            save: true,
          }),
          ctx,
        ),
      );
      expect(paid.body.status).toBe('succeeded');
    }
    const list = await call(() => listPaymentMethods(req('GET', `/api/stripe/payment-methods?customerId=${customerId}`, shopperToken), ctx));
    expect(list.body).toHaveLength(2);
    expect(list.body[0]).toMatchObject({ type: 'card', card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034 }, is_default: true });
    expect(list.body[1]).toMatchObject({ card: { brand: 'mastercard', last4: '4444' }, is_default: false });

    const second = list.body[1].id as string;
    const foreign = await call(() =>
      setDefaultPaymentMethod(req('POST', `/api/stripe/customers/${customerId}/default-payment-method`, adminToken, { pmId: second }), ctx, customerId),
    );
    expect(foreign.status).toBe(403);
    const bad = await call(() => setDefaultPaymentMethod(req('POST', `/x`, shopperToken, '{oops'), ctx, customerId));
    expect(bad.status).toBe(400);
    const ok = await call(() => setDefaultPaymentMethod(req('POST', `/x`, shopperToken, { pmId: second }), ctx, customerId));
    expect(ok.status).toBe(200);
    const after = await call(() => listPaymentMethods(req('GET', `/api/stripe/payment-methods?customerId=${customerId}`, shopperToken), ctx));
    expect(after.body.map((c: { is_default: boolean }) => c.is_default)).toEqual([false, true]);

    const stolen = await call(() => detachPaymentMethod(req('POST', '/x', adminToken), ctx, second));
    expect(stolen.status).toBe(403);
    const unknown = await call(() => detachPaymentMethod(req('POST', '/x', shopperToken), ctx, 'pm_sim_nope'));
    expect(unknown.status).toBe(404);
    const detached = await call(() => detachPaymentMethod(req('POST', '/x', shopperToken), ctx, second));
    expect(detached.status).toBe(200);
    const final = await call(() => listPaymentMethods(req('GET', `/api/stripe/payment-methods?customerId=${customerId}`, shopperToken), ctx));
    expect(final.body).toHaveLength(1);
    expect(final.body[0].card.last4).toBe('4242');
  });
});

describe('card payments (simulated provider)', () => {
  it('charges the order’s stored total, refuses a forged amount, and is idempotent per order', async () => {
    const orderId = await newOrder([{ product_id: cheapProduct, quantity: 2 }], 'MEKACAT10');
    const row = await orderRow(orderId);
    const cents = Math.round(Number(row.total) * 100);
    const forged = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId, amount: 100 }), ctx));
    expect(forged.status).toBe(400);
    const notInt = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId, amount: 1.5 }), ctx));
    expect(notInt.status).toBe(400);
    const first = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId, amount: cents }), ctx));
    expect(first.status).toBe(200);
    expect(first.body.amount).toBe(cents);
    const second = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId }), ctx));
    expect(second.body.clientSecret).toBe(first.body.clientSecret);
  });

  it('refuses another user’s order and unknown or malformed order ids', async () => {
    const orderId = await newOrder();
    expect((await call(() => createPaymentIntent(req('POST', '/x', adminToken, { orderId }), ctx))).status).toBe(403);
    expect((await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: crypto.randomUUID() }), ctx))).status).toBe(404);
    expect((await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: "1' or 1=1" }), ctx))).status).toBe(400);
    expect((await call(() => createPaymentIntent(req('POST', '/x', shopperToken, '[]'), ctx))).status).toBe(400);
  });

  it('leaves a declined or underfunded order pending with the provider’s message', async () => {
    const orderId = await newOrder();
    const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId }), ctx));
    for (const [number, message] of [
      ['4000000000000002', 'Tu tarjeta fue rechazada.'],
      ['4000 0000 0000 9995', 'Tu tarjeta no tiene fondos suficientes.'],
    ] as const) {
      const r = await call(() =>
        simulatedConfirm(
          req('POST', '/x', shopperToken, { clientSecret: intent.body.clientSecret, card: { number, expMonth: 1, expYear: 2040, cvc: '123' } }),
          ctx,
        ),
      );
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ status: 'requires_payment_method', error: message });
    }
    const invalid = await call(() =>
      simulatedConfirm(
        req('POST', '/x', shopperToken, {
          clientSecret: intent.body.clientSecret,
          card: { number: '4242424242424241', expMonth: 1, expYear: 2040, cvc: '123' },
        }),
        ctx,
      ),
    );
    expect(invalid).toMatchObject({ status: 400, body: { message: 'El número de tarjeta no es válido.' } });
    expect((await orderRow(orderId)).status).toBe('Pendiente');
    const confirm = await call(() => confirmPayment(req('POST', '/x', shopperToken, { orderId, paymentIntentId: intent.body.paymentIntentId }), ctx));
    expect(confirm.status).toBe(402);
    expect((await orderRow(orderId)).status).toBe('Pendiente');
  });

  it('asks the authentication card to confirm, then pays once; a second click changes nothing', async () => {
    const orderId = await newOrder();
    const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId }), ctx));
    const card = { number: '4000002760003184', expMonth: 1, expYear: 2040, cvc: '123' };
    const clientSecret = intent.body.clientSecret;
    const action = await call(() => simulatedConfirm(req('POST', '/x', shopperToken, { clientSecret, card }), ctx));
    expect(action.body.status).toBe('requires_action');
    expect((await orderRow(orderId)).status).toBe('Pendiente');
    const foreign = await call(() => simulatedAuthenticate(req('POST', '/x', adminToken, { clientSecret, approve: true }), ctx));
    expect(foreign.status).toBe(404);
    const [a, b] = await Promise.all([
      call(() => simulatedAuthenticate(req('POST', '/x', shopperToken, { clientSecret, approve: true }), ctx)),
      call(() => simulatedAuthenticate(req('POST', '/x', shopperToken, { clientSecret, approve: true }), ctx)),
    ]);
    expect([a.body.status, b.body.status]).toEqual(['succeeded', 'succeeded']);
    const row = await orderRow(orderId);
    expect(row.status).toBe('Pagado');
    expect(row.paid_at).not.toBeNull();
    expect(row.payment_provider).toBe('simulated-card');
    expect(row.payment_ref).toBe(intent.body.paymentIntentId);
    // Paying again: the intent is already succeeded; the order stays paid once.
    const again = await call(() => confirmPayment(req('POST', '/x', shopperToken, { orderId, paymentIntentId: intent.body.paymentIntentId }), ctx));
    expect(again.body).toMatchObject({ status: 'Pagado', changed: false });
    const newIntent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId }), ctx));
    expect(newIntent.status).toBe(409);
  });

  it('refuses a confirmation that names another order’s intent', async () => {
    const paidOrder = await newOrder();
    const other = await newOrder();
    const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: paidOrder }), ctx));
    await call(() =>
      simulatedConfirm(
        req('POST', '/x', shopperToken, {
          clientSecret: intent.body.clientSecret,
          card: { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' },
        }),
        ctx,
      ),
    );
    const r = await call(() => confirmPayment(req('POST', '/x', shopperToken, { orderId: other, paymentIntentId: intent.body.paymentIntentId }), ctx));
    expect(r.status).toBe(404);
    expect((await orderRow(other)).status).toBe('Pendiente');
  });

  it('sends the confirmation e-mail to the local mailbox once', async () => {
    const messages = await mailboxMessages<{ subject: string; text: string }>(stack, DEMO_SHOPPER.email);
    const receipts = messages.filter((m) => m.subject.startsWith('Confirmación de tu pedido'));
    // Paid so far in this file: 2 saved-card orders, the authentication order, the other-intent order.
    expect(receipts).toHaveLength(4);
    expect(receipts[0]!.text).toContain('Gracias por tu compra.');
  });

  it('refuses webhooks when no webhook secret is configured', async () => {
    const r = await call(() => stripeWebhook(req('POST', '/api/stripe/webhook', null, '{}', { 'stripe-signature': 't=1,v1=abc' }), ctx));
    expect(r.status).toBe(400);
  });
});

describe('PayPal (simulated provider)', () => {
  it('creates one MXN order for the total, captures only after approval, marks paid once', async () => {
    const orderId = await newOrder([{ product_id: cheapProduct, quantity: 3 }]);
    const created = await call(() => createPayPalOrder(req('POST', '/x', shopperToken, { orderId }), ctx));
    expect(created.status).toBe(200);
    const paypalOrderId = created.body.id as string;
    const early = await call(() => capturePayPalOrder(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
    expect(early.status).toBe(422);
    expect((await orderRow(orderId)).status).toBe('Pendiente');
    const foreign = await call(() => approveSimulatedPayPal(req('POST', '/x', adminToken, { orderId, paypalOrderId }), ctx));
    expect(foreign.status).toBe(403);
    const approved = await call(() => approveSimulatedPayPal(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
    expect(approved.body.status).toBe('APPROVED');
    const otherOrder = await newOrder();
    const crossed = await call(() => capturePayPalOrder(req('POST', '/x', shopperToken, { orderId: otherOrder, paypalOrderId }), ctx));
    expect(crossed.status).toBe(404);
    const captured = await call(() => capturePayPalOrder(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
    expect(captured.body).toMatchObject({ status: 'Pagado', changed: true });
    const replay = await call(() => capturePayPalOrder(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
    expect(replay.body).toMatchObject({ status: 'Pagado', changed: false });
    const row = await orderRow(orderId);
    expect(row.payment_provider).toBe('simulated-paypal');
    const info = await ctx.payments.paypal!.getOrder(paypalOrderId);
    expect(info).toMatchObject({ currency: 'MXN', amount: Math.round(Number(row.total) * 100) });
  });
});

describe('the simulated provider’s records', () => {
  it('are out of reach of shoppers and anonymous callers', async () => {
    const anon = anonClient(stack);
    for (const client of [anon, shopper]) {
      const { error } = await client.rpc('simulated_payments_get', { p_id: 'x' });
      expect(error).not.toBeNull();
      const list = await client.rpc('simulated_payments_list', { p_kind: 'customer', p_owner: DEMO_SHOPPER.id });
      expect(list.error).not.toBeNull();
    }
  });
});
