/**
 * A small stand-in for api.stripe.com for tests: records every request (path, form parameters,
 * idempotency key, authorization) and keeps customers, payment intents and refunds in memory. The
 * real `stripe` SDK talks to it through its host/port/protocol options (STRIPE_API_BASE for a
 * running server). Tests move an intent to 'succeeded' themselves, as the card holder would.
 *
 * OXXO: an intent created with payment_method_types[]=oxxo and confirm=true waits in
 * requires_action with next_action.oxxo_display_details (number, expires_after, hosted voucher);
 * `payOxxo` pays it. As Stripe, a refund of an OXXO charge is refused (400 charge_not_refundable),
 * an intent created with automatic_payment_methods lists card and oxxo (OXXO enabled in the
 * Dashboard), and a retrieve with expand[]=latest_charge carries the charge and its
 * payment_method_details.type; a card charge carries payment_method_details.card.funding from
 * the card on the intent, as Stripe's test PaymentMethods do (pm_card_visa_debit and
 * pm_card_mastercard_debit: debit, pm_card_mastercard_prepaid: prepaid, any other card: credit).
 * Meses sin intereses: an intent created with payment_method_options[card][installments][enabled]
 * gets available_plans once a card is put on it (update with payment_method); the card
 * `pm_card_mx_installments` (Stripe's Mexican installment test card) offers 3–24 months, every
 * other card none. Confirm records the plan and succeeds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StripeRequest {
  method: string;
  path: string;
  params: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

export interface StripeStub {
  server: http.Server;
  url: string;
  port: number;
  requests: StripeRequest[];
  intents: Map<string, Record<string, unknown>>;
  refunds: Map<string, Record<string, unknown>>;
  /** Makes the next refund requests fail with a 500 (n times). */
  failRefunds(times: number): void;
  /** The shopper paid the intent's OXXO voucher in cash: it succeeds, its charge of type oxxo. */
  payOxxo(intentId: string): void;
  close(): Promise<void>;
}

/** Starts the stub on 127.0.0.1 and a free port. */
export async function startStripeStub(): Promise<StripeStub> {
  const requests: StripeRequest[] = [];
  const intents = new Map<string, Record<string, unknown>>();
  const refunds = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, Record<string, unknown>>();
  let refundFailures = 0;
  let seq = 0;
  /** Stripe's test PaymentMethods that are not credit cards. */
  const FUNDING: Record<string, string> = {
    pm_card_visa_debit: 'debit',
    pm_card_mastercard_debit: 'debit',
    pm_card_mastercard_prepaid: 'prepaid',
  };
  /** The charge of a succeeded intent: how it was paid (the test's payOxxo, else its one method). */
  const chargeOf = (intent: Record<string, unknown>) => {
    if (intent.status !== 'succeeded') return null;
    const types = intent.payment_method_types as string[];
    const type = (intent.paid_with as string | undefined) ?? (types.length === 1 ? types[0]! : 'card');
    const card = type === 'card' ? { card: { funding: FUNDING[String(intent.payment_method ?? '')] ?? 'credit' } } : {};
    return { id: `ch_${String(intent.id)}`, object: 'charge', payment_method_details: { type, ...card } };
  };
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
      const missing = (what: string) => send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}` } });
      const once = (make: () => Record<string, unknown>) => {
        const scoped = key ? `${url.pathname}:${key}` : null;
        if (scoped && byKey.has(scoped)) return send(200, byKey.get(scoped));
        const made = make();
        if (scoped) byKey.set(scoped, made);
        return send(200, made);
      };
      if (req.method === 'POST' && url.pathname === '/v1/customers') {
        return send(200, { id: 'cus_stub_1', object: 'customer', email: params.get('email'), invoice_settings: { default_payment_method: null } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/customers/cus_stub_1') {
        return send(200, { id: 'cus_stub_1', object: 'customer', invoice_settings: { default_payment_method: 'pm_stub_2' } });
      }
      if (req.method === 'GET' && url.pathname === '/v1/payment_methods') {
        const card = (id: string, last4: string) => ({
          id,
          object: 'payment_method',
          type: 'card',
          customer: 'cus_stub_1',
          card: { brand: 'visa', last4, exp_month: 4, exp_year: 2031 },
        });
        return send(200, { object: 'list', data: [card('pm_stub_1', '4242'), card('pm_stub_2', '1881')], has_more: false, url: '/v1/payment_methods' });
      }
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        return once(() => {
          const id = `pi_stub_${intents.size + 1}`;
          const types: string[] = [];
          for (let i = 0; params.has(`payment_method_types[${i}]`); i += 1) types.push(params.get(`payment_method_types[${i}]`)!);
          // With automatic payment methods Stripe lists every method enabled in the Dashboard.
          if (params.get('automatic_payment_methods[enabled]') === 'true') types.push('card', 'oxxo');
          if (types.length === 0) types.push('card');
          const oxxo = types.length === 1 && types[0] === 'oxxo';
          const installments = params.get('payment_method_options[card][installments][enabled]') === 'true';
          const intent: Record<string, unknown> = {
            id,
            object: 'payment_intent',
            amount: Number(params.get('amount')),
            currency: params.get('currency'),
            customer: params.get('customer'),
            status: 'requires_payment_method',
            client_secret: `${id}_secret_abc`,
            payment_method_types: types,
            payment_method_options: installments ? { card: { installments: { enabled: true, available_plans: [], plan: null } } } : {},
            next_action: null,
            metadata: { order_id: params.get('metadata[order_id]'), user_id: params.get('metadata[user_id]') },
          };
          if (oxxo && params.get('confirm') === 'true') {
            const days = Number(params.get('payment_method_options[oxxo][expires_after_days]') ?? '3');
            intent.status = 'requires_action';
            intent.next_action = {
              type: 'oxxo_display_details',
              oxxo_display_details: {
                expires_after: Math.floor(Date.now() / 1000) + days * 86_400,
                hosted_voucher_url: `https://payments.stripe.com/oxxo/voucher/test_${id}`,
                number: `1234567890${String(intents.size + 1).padStart(8, '0')}`,
              },
            };
          }
          intents.set(id, intent);
          return intent;
        });
      }
      const cancel = /^\/v1\/payment_intents\/(\w+)\/cancel$/.exec(url.pathname);
      if (req.method === 'POST' && cancel) {
        const intent = intents.get(cancel[1]!);
        if (!intent) return missing('payment_intent');
        // As Stripe: a succeeded, canceled or processing intent cannot be cancelled.
        if (intent.status === 'succeeded' || intent.status === 'canceled' || intent.status === 'processing') {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'payment_intent_unexpected_state',
              message: `You cannot cancel this PaymentIntent because it has a status of ${intent.status}.`,
            },
          });
        }
        intent.status = 'canceled';
        return send(200, intent);
      }
      const confirm = /^\/v1\/payment_intents\/(\w+)\/confirm$/.exec(url.pathname);
      if (req.method === 'POST' && confirm) {
        const intent = intents.get(confirm[1]!);
        if (!intent) return missing('payment_intent');
        const count = params.get('payment_method_options[card][installments][plan][count]');
        const options = intent.payment_method_options as { card?: { installments?: Record<string, unknown> } };
        if (count && options.card?.installments) options.card.installments.plan = { count: Number(count), interval: 'month', type: 'fixed_count' };
        intent.status = 'succeeded';
        intent.paid_with = 'card';
        return send(200, intent);
      }
      const intentMatch = /^\/v1\/payment_intents\/(\w+)$/.exec(url.pathname);
      if (req.method === 'POST' && intentMatch) {
        const intent = intents.get(intentMatch[1]!);
        if (!intent) return missing('payment_intent');
        const pm = params.get('payment_method');
        if (pm) {
          intent.payment_method = pm;
          const options = intent.payment_method_options as { card?: { installments?: Record<string, unknown> } };
          if (options.card?.installments) {
            options.card.installments.available_plans =
              pm === 'pm_card_mx_installments' ? [3, 6, 9, 12, 18, 24].map((count) => ({ count, interval: 'month', type: 'fixed_count' })) : [];
          }
        }
        return send(200, intent);
      }
      if (req.method === 'GET' && intentMatch) {
        const intent = intents.get(intentMatch[1]!);
        if (!intent) return missing('payment_intent');
        const expand = [...params.entries()].filter(([k]) => k.startsWith('expand')).map(([, v]) => v);
        return send(
          200,
          expand.includes('latest_charge') ? { ...intent, latest_charge: chargeOf(intent) } : { ...intent, latest_charge: chargeOf(intent)?.id ?? null },
        );
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        if (refundFailures > 0) {
          refundFailures -= 1;
          return send(500, { error: { type: 'api_error', message: 'Stub: refund failed' } });
        }
        const intent = intents.get(params.get('payment_intent') ?? '');
        if (!intent) return missing('payment_intent');
        if (chargeOf(intent)?.payment_method_details.type === 'oxxo') {
          // Stripe: OXXO payments cannot be refunded (neither in full nor in part).
          return send(400, {
            error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'OXXO payments cannot be refunded.' },
          });
        }
        return once(() => {
          const refund = {
            id: `re_stub_${refunds.size + 1}`,
            object: 'refund',
            amount: Number(params.get('amount')),
            currency: 'mxn',
            payment_intent: intent.id,
            status: 'succeeded',
          };
          refunds.set(refund.id, refund);
          return refund;
        });
      }
      send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `Unrecognized request URL (${req.method} ${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    intents,
    refunds,
    failRefunds: (times) => {
      refundFailures = times;
    },
    payOxxo: (intentId) => {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`sin intent ${intentId}`);
      intent.status = 'succeeded';
      intent.paid_with = 'oxxo';
      intent.next_action = null;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
