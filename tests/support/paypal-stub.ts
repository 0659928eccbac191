/**
 * A small stand-in for PayPal's REST API (oauth2 token, orders v2, captures refund, refunds,
 * verify-webhook-signature) for tests: records every request and keeps orders and refunds in
 * memory. Tests approve an order themselves, as the buyer would in PayPal's window, and can make
 * PayPal answer a capture PENDING or DECLINED, change a capture's status later, refund from PayPal's
 * side, and sign webhook notifications (verify-webhook-signature answers SUCCESS only for a
 * notification signed here, unchanged, for the same webhook id; FAILURE otherwise, as PayPal does).
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PayPalRequest {
  method: string;
  path: string;
  body: any;
  requestId: string | undefined;
}

export interface PayPalStub {
  url: string;
  requests: PayPalRequest[];
  orders: Map<string, any>;
  refunds: Map<string, any>;
  /** The buyer's approval in PayPal's window. */
  approve(id: string): void;
  /** The status PayPal gives the next capture of this PayPal order (default COMPLETED). */
  captureAs(id: string, status: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'FAILED'): void;
  /** PayPal changes a capture's status later (a PENDING capture completes or is declined). */
  setCaptureStatus(captureId: string, status: string): void;
  /** The capture as PayPal's notifications carry it (with supplementary_data.related_ids.order_id). */
  captureResource(captureId: string): any;
  /** Money given back from PayPal's side (its dashboard, a reversal): the refund as notifications carry it. */
  refundAtPayPal(captureId: string, value?: string): any;
  /**
   * PayPal's paypal-* headers for a notification body sent to the webhook `webhookId`: the stub's
   * verify-webhook-signature answers SUCCESS for exactly this body, webhook id and headers.
   */
  signWebhook(body: string, webhookId: string): Record<string, string>;
  close(): Promise<void>;
}

/** The certificate URL PayPal's sandbox signs notifications with (PAYPAL-CERT-URL). */
export const PAYPAL_CERT_URL = 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-stub0001';

/** A stable text for a JSON value (keys sorted), to compare what was signed with what is verified. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

export async function startPayPalStub(): Promise<PayPalStub> {
  const requests: PayPalRequest[] = [];
  const orders = new Map<string, any>();
  const refunds = new Map<string, any>();
  const byRequestId = new Map<string, any>();
  const nextCapture = new Map<string, string>();
  /** transmission_sig → what PayPal signed with it. */
  const signatures = new Map<
    string,
    { transmission_id: string; transmission_time: string; cert_url: string; auth_algo: string; webhook_id: string; event: string }
  >();
  let base = '';
  const findCapture = (captureId: string): { order: any; capture: any } | null => {
    for (const order of orders.values()) {
      const capture = order.purchase_units[0]?.payments?.captures?.find((c: any) => c.id === captureId);
      if (capture) return { order, capture };
    }
    return null;
  };
  const makeRefund = (captureId: string, amount: any) => {
    const found = findCapture(captureId);
    const id = `REF-STUB-${refunds.size + 1}`;
    const made = {
      id,
      status: 'COMPLETED',
      capture_id: captureId,
      amount,
      links: [
        { href: `${base}/v2/payments/refunds/${id}`, rel: 'self', method: 'GET' },
        { href: `${base}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
      ],
    };
    refunds.set(id, made);
    if (found) found.capture.status = amount?.value === found.capture.amount.value ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    return made;
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const requestId = req.headers['paypal-request-id'] as string | undefined;
      let body: any = null;
      try {
        body = raw && req.headers['content-type']?.includes('json') ? JSON.parse(raw) : raw;
      } catch {
        body = raw;
      }
      requests.push({ method: req.method!, path: url.pathname, body, requestId });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      const once = (make: () => [number, unknown]) => {
        const scoped = requestId ? `${url.pathname}:${requestId}` : null;
        if (scoped && byRequestId.has(scoped)) return send(...(byRequestId.get(scoped) as [number, unknown]));
        const made = make();
        if (scoped && made[0] < 400) byRequestId.set(scoped, made);
        return send(...made);
      };
      if (req.method === 'POST' && url.pathname === '/v1/oauth2/token') {
        return send(200, { access_token: 'A21_stub_token', token_type: 'Bearer', expires_in: 32400 });
      }
      if (!(req.headers.authorization ?? '').startsWith('Bearer A21_stub_token')) return send(401, { message: 'no token' });
      if (req.method === 'POST' && url.pathname === '/v1/notifications/verify-webhook-signature') {
        const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'];
        const missing = fields.filter((f) => typeof body?.[f] !== 'string' || body[f] === '');
        if (missing.length > 0 || !body?.webhook_event || typeof body.webhook_event !== 'object') {
          return send(400, { name: 'VALIDATION_ERROR', details: missing.map((field) => ({ field, issue: 'MISSING_REQUIRED_PARAMETER' })) });
        }
        const signed = signatures.get(body.transmission_sig);
        const valid =
          signed !== undefined &&
          signed.transmission_id === body.transmission_id &&
          signed.transmission_time === body.transmission_time &&
          signed.cert_url === body.cert_url &&
          signed.auth_algo === body.auth_algo &&
          signed.webhook_id === body.webhook_id &&
          signed.event === canonical(body.webhook_event);
        return send(200, { verification_status: valid ? 'SUCCESS' : 'FAILURE' });
      }
      if (req.method === 'POST' && url.pathname === '/v2/checkout/orders') {
        return once(() => {
          const id = `PP-STUB-${orders.size + 1}`;
          const unit = body.purchase_units[0];
          const order = { id, status: 'CREATED', purchase_units: [{ reference_id: unit.reference_id, custom_id: unit.custom_id, amount: unit.amount }] };
          orders.set(id, order);
          return [201, order];
        });
      }
      const capture = /^\/v2\/checkout\/orders\/([\w-]+)\/capture$/.exec(url.pathname);
      if (req.method === 'POST' && capture) {
        const order = orders.get(capture[1]!);
        if (!order) return send(404, { name: 'RESOURCE_NOT_FOUND' });
        return once(() => {
          if (order.status === 'COMPLETED') return [422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] }];
          if (order.status !== 'APPROVED') return [422, { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] }];
          const unit = order.purchase_units[0];
          order.status = 'COMPLETED';
          const captureId = `CAP-STUB-${capture[1]}`;
          unit.payments = {
            captures: [
              {
                id: captureId,
                status: nextCapture.get(order.id) ?? 'COMPLETED',
                custom_id: unit.custom_id,
                amount: unit.amount,
                final_capture: true,
                links: [
                  { href: `${base}/v2/payments/captures/${captureId}`, rel: 'self', method: 'GET' },
                  { href: `${base}/v2/payments/captures/${captureId}/refund`, rel: 'refund', method: 'POST' },
                  { href: `${base}/v2/checkout/orders/${order.id}`, rel: 'up', method: 'GET' },
                ],
              },
            ],
          };
          return [201, order];
        });
      }
      const get = /^\/v2\/checkout\/orders\/([\w-]+)$/.exec(url.pathname);
      if (req.method === 'GET' && get) {
        const order = orders.get(get[1]!);
        return order ? send(200, order) : send(404, { name: 'RESOURCE_NOT_FOUND' });
      }
      const refund = /^\/v2\/payments\/captures\/([\w-]+)\/refund$/.exec(url.pathname);
      if (req.method === 'POST' && refund) {
        return once(() => [201, makeRefund(refund[1]!, body?.amount)]);
      }
      const getRefund = /^\/v2\/payments\/refunds\/([\w-]+)$/.exec(url.pathname);
      if (req.method === 'GET' && getRefund) {
        const made = refunds.get(getRefund[1]!);
        return made ? send(200, made) : send(404, { name: 'RESOURCE_NOT_FOUND' });
      }
      send(404, { name: 'RESOURCE_NOT_FOUND', message: `${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  return {
    url: base,
    requests,
    orders,
    refunds,
    approve: (id) => {
      const order = orders.get(id);
      if (order && order.status === 'CREATED') order.status = 'APPROVED';
    },
    captureAs: (id, status) => void nextCapture.set(id, status),
    setCaptureStatus: (captureId, status) => {
      const found = findCapture(captureId);
      if (!found) throw new Error(`no capture ${captureId}`);
      found.capture.status = status;
    },
    captureResource: (captureId) => {
      const found = findCapture(captureId);
      if (!found) throw new Error(`no capture ${captureId}`);
      return { ...structuredClone(found.capture), supplementary_data: { related_ids: { order_id: found.order.id } } };
    },
    refundAtPayPal: (captureId, value) => {
      const found = findCapture(captureId);
      if (!found) throw new Error(`no capture ${captureId}`);
      const made = makeRefund(captureId, { currency_code: found.capture.amount.currency_code, value: value ?? found.capture.amount.value });
      const { capture_id: _capture, ...resource } = made;
      return structuredClone(resource);
    },
    signWebhook: (body, webhookId) => {
      const headers = {
        'paypal-auth-algo': 'SHA256withRSA',
        // As PayPal: the certificate is on PayPal's own host, whatever API base the shop talks to.
        'paypal-cert-url': PAYPAL_CERT_URL,
        'paypal-transmission-id': randomUUID(),
        'paypal-transmission-sig': `SIG-${randomUUID()}`,
        'paypal-transmission-time': new Date().toISOString(),
      };
      signatures.set(headers['paypal-transmission-sig'], {
        transmission_id: headers['paypal-transmission-id'],
        transmission_time: headers['paypal-transmission-time'],
        cert_url: headers['paypal-cert-url'],
        auth_algo: headers['paypal-auth-algo'],
        webhook_id: webhookId,
        event: canonical(JSON.parse(body)),
      });
      return headers;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
