/**
 * Requests to the shop's endpoint handlers as the backend tests build them: the shop's base URL,
 * the caller's access token, a JSON body; the answer read back as status and JSON; and a Stripe
 * webhook for a PaymentIntent, signed with the test's webhook secret as Stripe signs it.
 */
import Stripe from 'stripe';
import { handle } from '~/server/http/json.ts';

export const SHOP_BASE = 'http://shop.test';

/** A request to `path` with the caller's token (none when null) and a JSON (or raw string) body. */
export function apiRequest(method: string, path: string, auth: string | null, body?: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`${SHOP_BASE}${path}`, {
    method,
    headers: { ...(auth ? { authorization: `Bearer ${auth}` } : {}), 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Runs a handler as the server does (errors become JSON answers) and reads its answer. */
export async function callApi(run: () => Promise<Response>): Promise<{ status: number; body: any }> {
  const res = await handle(run);
  return { status: res.status, body: await res.json() };
}

const signer = new Stripe('sk_test_signer');

/** A raw Stripe event posted to the webhook, signed with `secret` as Stripe signs it. */
export function signedStripeWebhook(payload: string, secret: string): Request {
  const header = signer.webhooks.generateTestHeaderString({ payload, secret });
  return apiRequest('POST', '/api/stripe/webhook', null, payload, { 'stripe-signature': header });
}

/** A Stripe event about one PaymentIntent, posted to the webhook with a valid signature. */
export function stripeIntentEvent(type: string, intentId: string, secret: string, id = `evt_${Math.random().toString(36).slice(2)}`): Request {
  const payload = JSON.stringify({ id, object: 'event', type, data: { object: { id: intentId, object: 'payment_intent' } } });
  return signedStripeWebhook(payload, secret);
}
