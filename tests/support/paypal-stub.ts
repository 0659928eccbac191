/**
 * A small stand-in for PayPal's REST API (oauth2 token, orders v2, captures refund) for tests:
 * records every request and keeps orders and refunds in memory. Tests approve an order themselves,
 * as the buyer would in PayPal's window.
 */
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
  close(): Promise<void>;
}

export async function startPayPalStub(): Promise<PayPalStub> {
  const requests: PayPalRequest[] = [];
  const orders = new Map<string, any>();
  const refunds = new Map<string, any>();
  const byRequestId = new Map<string, any>();
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
          unit.payments = { captures: [{ id: `CAP-STUB-${capture[1]}`, status: 'COMPLETED', custom_id: unit.custom_id, amount: unit.amount }] };
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
        return once(() => {
          const made = { id: `REF-STUB-${refunds.size + 1}`, status: 'COMPLETED', capture_id: refund[1], amount: body?.amount };
          refunds.set(made.id, made);
          return [201, made];
        });
      }
      send(404, { name: 'RESOURCE_NOT_FOUND', message: `${req.method} ${url.pathname}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    orders,
    refunds,
    approve: (id) => {
      const order = orders.get(id);
      if (order && order.status === 'CREATED') order.status = 'APPROVED';
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
