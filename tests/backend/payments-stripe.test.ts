/**
 * The Stripe adapter through the real stripe SDK, pointed (host/port/protocol) at a local HTTP stub
 * that records every request: paths, form parameters, amounts in centavos, currency mxn and
 * idempotency keys. The webhook endpoint is checked with Stripe's own signature scheme: a valid
 * event marks the order paid once, a replay changes nothing, a bad signature is refused.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import * as api from '../../src/server/api.ts';
import type { ServerContext } from '../../src/server/checkout.ts';
import { handle } from '../../src/server/http.ts';
import { createPayments } from '../../src/server/payments/index.ts';
import { createAdminClient } from '../../src/server/supabase-admin.ts';
import { startTestStack, type TestStack } from './helpers.ts';

const WEBHOOK_SECRET = 'whsec_prueba_local_0123456789';

interface Recorded {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/** A tiny stand-in for api.stripe.com: records requests, keeps intents and customers in memory. */
function startStub() {
  const requests: Recorded[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, string>();
  let seq = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const params = new URLSearchParams(req.method === 'GET' ? url.search : body);
      const key = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method!, path: url.pathname, params, idempotencyKey: key, authorization: req.headers.authorization });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++seq}` });
        res.end(JSON.stringify(json));
      };
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        return send(200, { id: 'cus_stub_1', object: 'customer', email: params.get('email'), invoice_settings: { default_payment_method: null } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/customers/cus_stub_1') {
        return send(200, { id: 'cus_stub_1', object: 'customer', invoice_settings: { default_payment_method: 'pm_stub_2' } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_methods') {
        const card = (id: string, last4: string) => ({ id, object: 'payment_method', type: 'card', customer: 'cus_stub_1', card: { brand: 'visa', last4, exp_month: 4, exp_year: 2031 } });
        return send(200, { object: 'list', data: [card('pm_stub_1', '4242'), card('pm_stub_2', '1881')], has_more: false, url: '/v1/payment_methods' });
      }
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const existing = key ? byKey.get(key) : undefined;
        if (existing) return send(200, intents.get(existing));
        const id = `pi_stub_${intents.size + 1}`;
        const intent = {
          id,
          object: 'payment_intent',
          amount: Number(params.get('amount')),
          currency: params.get('currency'),
          customer: params.get('customer'),
          status: 'requires_payment_method',
          client_secret: `${id}_secret_abc`,
          metadata: { order_id: params.get('metadata[order_id]'), user_id: params.get('metadata[user_id]') },
        };
        intents.set(id, intent);
        if (key) byKey.set(key, id);
        return send(200, intent);
      }
      const intentMatch = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
      if (req.method === 'GET' && intentMatch) {
        const intent = intents.get(intentMatch[1]!);
        return intent ? send(200, intent) : send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } });
      }
      send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `Unrecognized request URL (${req.method} ${url.pathname})` } });
    });
  });
  return { server, requests, intents };
}

let stack: TestStack;
let stub: ReturnType<typeof startStub>;
let ctx: ServerContext;
let shopper: SupabaseClient;
let token: string;
let service: SupabaseClient;
const signer = new Stripe('sk_test_signer');

function req(method: string, path: string, auth: string | null, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://shop.test${path}`, {
    method,
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function call(run: () => Promise<Response>): Promise<{ status: number; body: any }> {
  const res = await handle(run);
  return { status: res.status, body: await res.json() };
}

function signedWebhook(payload: string, secret = WEBHOOK_SECRET): Request {
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  return req('POST', '/api/stripe/webhook', null, payload, { 'stripe-signature': header });
}

beforeAll(async () => {
  stack = await startTestStack();
  stub = startStub();
  await new Promise<void>((resolve) => stub.server.listen(0, '127.0.0.1', resolve));
  const port = (stub.server.address() as AddressInfo).port;
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  const payments = createPayments(
    {
      stripeSecretKey: 'sk_test_local_stub',
      stripePublishableKey: 'pk_test_local_stub',
      stripeWebhookSecret: WEBHOOK_SECRET,
      stripeEndpoint: { host: '127.0.0.1', port, protocol: 'http' },
    },
    service,
  );
  ctx = { admin: service, payments, mail: async () => undefined, siteUrl: 'http://shop.test' };
  shopper = createClient(stack.url, stack.anonKey, { auth: { persistSession: false, autoRefreshToken: false } });
  const { data, error } = await shopper.auth.signInWithPassword({ email: DEMO_SHOPPER.email, password: DEMO_SHOPPER.password });
  if (error || !data.session) throw error ?? new Error('sin sesión');
  token = data.session.access_token;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => stub?.server.close(resolve));
  await stack?.stop();
});

beforeEach(() => {
  stub.requests.length = 0;
});

async function newOrder(): Promise<{ id: string; cents: number }> {
  const { data, error } = await shopper.rpc('create_order', { items: [{ product_id: 'pk-booster-stellar-crown', quantity: 2 }], coupon_code: 'MEKACAT10' });
  if (error) throw new Error(error.message);
  const { data: row } = await service.from('orders').select('total').eq('id', data).single();
  return { id: data as string, cents: Math.round(Number(row!.total) * 100) };
}

describe('Stripe adapter through the SDK', () => {
  it('picks Stripe when its keys are set', () => {
    expect(ctx.payments.card.name).toBe('stripe');
  });

  it('creates the customer once (idempotency key per user) and stores it on the profile', async () => {
    const r = await call(() => api.createCustomer(req('POST', '/api/stripe/customer', token), ctx));
    expect(r).toEqual({ status: 200, body: { customerId: 'cus_stub_1' } });
    const create = stub.requests.find((q) => q.method === 'POST' && q.path === '/v1/customers')!;
    expect(create.params.get('email')).toBe(DEMO_SHOPPER.email);
    expect(create.params.get('metadata[user_id]')).toBe(DEMO_SHOPPER.id);
    expect(create.idempotencyKey).toBe(`customer-${DEMO_SHOPPER.id}`);
    expect(create.authorization).toBe('Bearer sk_test_local_stub');
  });

  it('lists the saved cards with the customer’s default flagged', async () => {
    const r = await call(() => api.listPaymentMethods(req('GET', '/api/stripe/payment-methods?customerId=cus_stub_1', token), ctx));
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
    const first = await call(() => api.createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id, amount: order.cents }), ctx));
    expect(first.status).toBe(200);
    expect(first.body.clientSecret).toMatch(/^pi_stub_\d+_secret_/);
    const again = await call(() => api.createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id }), ctx));
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
    const forged = await call(() => api.createPaymentIntent(req('POST', '/api/create-payment-intent', token, { orderId: order.id, amount: order.cents - 1 }), ctx));
    expect(forged.status).toBe(400);
  });

  it('marks the order paid from a signed webhook once; a replay and a bad signature change nothing', async () => {
    const order = await newOrder();
    const created = await call(() => api.createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intentId = created.body.paymentIntentId as string;

    // Before the provider says succeeded, neither the browser's confirmation nor a webhook pays.
    const early = await call(() => api.confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intentId }), ctx));
    expect(early.status).toBe(402);
    const forgedEvent = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded', amount: order.cents, currency: 'mxn', metadata: { order_id: order.id } } } });
    const lying = await call(() => api.webhook(signedWebhook(forgedEvent), ctx));
    expect(lying.body).toMatchObject({ received: true, handled: false });
    const { data: still } = await service.from('orders').select('status').eq('id', order.id).single();
    expect(still!.status).toBe('Pendiente');

    stub.intents.get(intentId)!.status = 'succeeded';
    const bad = await call(() => api.webhook(signedWebhook(forgedEvent, 'whsec_otro'), ctx));
    expect(bad.status).toBe(400);
    const unsigned = await call(() => api.webhook(req('POST', '/api/stripe/webhook', null, forgedEvent), ctx));
    expect(unsigned.status).toBe(400);
    expect((await service.from('orders').select('status').eq('id', order.id).single()).data!.status).toBe('Pendiente');

    const good = await call(() => api.webhook(signedWebhook(forgedEvent), ctx));
    expect(good.body).toMatchObject({ received: true, handled: true, status: 'Pagado', changed: true });
    const replay = await call(() => api.webhook(signedWebhook(forgedEvent), ctx));
    expect(replay.body).toMatchObject({ handled: true, status: 'Pagado', changed: false });
    const browser = await call(() => api.confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intentId }), ctx));
    expect(browser.body).toMatchObject({ status: 'Pagado', changed: false });
    const { data: paid } = await service.from('orders').select('status, paid_at, payment_provider, payment_ref').eq('id', order.id).single();
    expect(paid).toMatchObject({ status: 'Pagado', payment_provider: 'stripe', payment_ref: intentId });
    expect(paid!.paid_at).not.toBeNull();
    expect(stub.requests.filter((q) => q.method === 'GET' && q.path === `/v1/payment_intents/${intentId}`).length).toBeGreaterThanOrEqual(3);
  });

  it('refuses an intent whose amount differs from the order (a tampered intent never pays)', async () => {
    const order = await newOrder();
    const created = await call(() => api.createPaymentIntent(req('POST', '/x', token, { orderId: order.id }), ctx));
    const intent = stub.intents.get(created.body.paymentIntentId)!;
    intent.status = 'succeeded';
    intent.amount = 100;
    const r = await call(() => api.confirmPayment(req('POST', '/x', token, { orderId: order.id, paymentIntentId: intent.id as string }), ctx));
    expect(r.status).toBe(409);
    expect((await service.from('orders').select('status').eq('id', order.id).single()).data!.status).toBe('Pendiente');
  });
});
