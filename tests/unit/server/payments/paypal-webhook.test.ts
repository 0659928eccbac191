/**
 * What /api/paypal/webhook checks before it asks PayPal anything: the signed headers, a PayPal
 * certificate URL, a recent transmission and a JSON body with an event type; an event it does not
 * handle is answered without verifying it. The verified events against the local stack:
 * tests/server/paypal-webhook.test.ts and tests/server/chargebacks.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerContext } from '~/server/context.ts';
import { ApiError } from '~/server/http/json.ts';
import { MAX_TRANSMISSION_SKEW_MS, notificationType, paypalWebhook } from '~/server/payments/paypal-webhook.ts';

const NOW = Date.parse('2026-11-29T03:00:00Z');

function headers(fields: Record<string, string | null> = {}): Headers {
  const all: Record<string, string | null> = {
    'paypal-auth-algo': 'SHA256withRSA',
    'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1',
    'paypal-transmission-id': 't-1',
    'paypal-transmission-sig': 'firma',
    'paypal-transmission-time': new Date(NOW - 1000).toISOString(),
    ...fields,
  };
  const result = new Headers();
  for (const [name, value] of Object.entries(all)) if (value !== null) result.set(name, value);
  return result;
}

const body = JSON.stringify({ id: 'WH-1', event_type: 'PAYMENT.CAPTURE.COMPLETED', resource: {} });

function refusal(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('no refusal');
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('notificationType', () => {
  it('answers the event type of a well-formed, recent notification', () => {
    expect(notificationType(headers(), body, NOW)).toBe('PAYMENT.CAPTURE.COMPLETED');
    expect(notificationType(headers({ 'paypal-cert-url': 'https://paypal.com/cert' }), body, NOW)).toBe('PAYMENT.CAPTURE.COMPLETED');
  });

  it('refuses with 400 invalid_signature a missing header, an odd algorithm or a certificate not on paypal.com over https', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const refused = { status: 400, code: 'invalid_signature' };
    expect(refusal(() => notificationType(headers({ 'paypal-transmission-sig': null }), body, NOW))).toMatchObject(refused);
    expect(refusal(() => notificationType(headers({ 'paypal-auth-algo': 'SHA256 with RSA' }), body, NOW))).toMatchObject(refused);
    for (const url of [
      'http://api.paypal.com/cert',
      'https://api.paypal.com.evil.test/cert',
      'https://evilpaypal.com/cert',
      'https://api.paypal.com:8443/cert',
      'https://user:pass@api.paypal.com/cert',
      'no es una URL',
    ])
      expect(
        refusal(() => notificationType(headers({ 'paypal-cert-url': url }), body, NOW)),
        url,
      ).toBeInstanceOf(ApiError);
  });

  it('refuses a transmission more than five minutes off, either way, and a body without an event type', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const at = (ms: number) => headers({ 'paypal-transmission-time': new Date(ms).toISOString() });
    expect(notificationType(at(NOW - MAX_TRANSMISSION_SKEW_MS + 1000), body, NOW)).toBe('PAYMENT.CAPTURE.COMPLETED');
    expect(refusal(() => notificationType(at(NOW - MAX_TRANSMISSION_SKEW_MS - 1000), body, NOW))).toBeInstanceOf(ApiError);
    expect(refusal(() => notificationType(at(NOW + MAX_TRANSMISSION_SKEW_MS + 1000), body, NOW))).toBeInstanceOf(ApiError);
    expect(refusal(() => notificationType(headers({ 'paypal-transmission-time': 'ayer' }), body, NOW))).toBeInstanceOf(ApiError);
    expect(refusal(() => notificationType(headers(), '{"event_type": 3}', NOW))).toBeInstanceOf(ApiError);
    expect(refusal(() => notificationType(headers(), 'no es JSON', NOW))).toBeInstanceOf(ApiError);
  });
});

describe('paypalWebhook', () => {
  const request = (raw: string, h: Headers) => new Request('http://shop.test/api/paypal/webhook', { method: 'POST', headers: h, body: raw });

  it('answers 503 on a server without PayPal', async () => {
    const ctx = { payments: { mode: 'live', card: null, paypal: null } } as unknown as ServerContext;
    await expect(paypalWebhook(request(body, headers({ 'paypal-transmission-time': new Date().toISOString() })), ctx)).rejects.toMatchObject({ status: 503 });
  });

  it('answers an event it does not handle without asking PayPal to verify it', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const verifyWebhook = vi.fn();
    const ctx = { payments: { mode: 'live', card: null, paypal: { name: 'paypal', verifyWebhook } } } as unknown as ServerContext;
    const raw = JSON.stringify({ id: 'WH-2', event_type: 'CHECKOUT.ORDER.APPROVED', resource: {} });
    const answer = await paypalWebhook(request(raw, headers({ 'paypal-transmission-time': new Date().toISOString() })), ctx);
    expect(await answer.json()).toEqual({ received: true, handled: false });
    expect(verifyWebhook).not.toHaveBeenCalled();
  });
});
