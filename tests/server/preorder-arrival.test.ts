/**
 * 'Registrar llegada' through its handler against the local stack, with the simulated provider:
 * paid preorders are filled oldest payment first; those not filled are refunded per how they were
 * paid (card and PayPal through the provider, cash at OXXO to the balance) or kept on the waitlist;
 * each shopper gets one e-mail; a repeated click refunds and allocates nothing again; only admins
 * may register an arrival, and bad input is a 4xx with a Spanish message.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADDRESS_IDS, DEMO_ADMIN, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { finishArrivalRefunds, registerArrival } from '~/server/admin/preorders.ts';
import type { AdminContext } from '~/server/context.ts';
import type { QueuedMail } from '~/server/mail/types.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call } from '../support/api-requests.ts';
import { serverContext } from '../support/server-context.ts';
import { orderColumns, refundRows, releasePendingOrders, storeCreditBalance } from '../support/shop-rows.ts';
import { anonClient, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const PRODUCT = 'pk-preventa-llegada';

let stack: TestStack;
let ctx: AdminContext;
let service: SupabaseClient;
let shopper: SupabaseClient;
let shopperToken: string;
let adminToken: string;
let campaign: string;
const mails: QueuedMail[] = [];

/** A preorder of one unit through create_order as the browser sends it, with the shipping address set. */
async function preorder(waitlist: boolean): Promise<string> {
  const { data, error } = await shopper.rpc('create_order', { items: [{ product_id: PRODUCT, quantity: 1 }], coupon_code: null, waitlist });
  if (error) throw new Error(error.message);
  const address = await shopper.from('orders').update({ shipping_address_id: DEMO_ADDRESS_IDS.home }).eq('id', data);
  if (address.error) throw new Error(address.error.message);
  return data as string;
}

async function payByCard(orderId: string): Promise<void> {
  const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId }), ctx));
  const card = { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' };
  const paid = await call(() => simulatedConfirm(req('POST', '/x', shopperToken, { clientSecret: intent.body.clientSecret, card }), ctx));
  expect(paid.body.status).toBe('succeeded');
}

async function payByPayPal(orderId: string): Promise<void> {
  const created = await call(() => createPayPalOrder(req('POST', '/x', shopperToken, { orderId }), ctx));
  const paypalOrderId = created.body.id as string;
  await call(() => approveSimulatedPayPal(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
  const captured = await call(() => capturePayPalOrder(req('POST', '/x', shopperToken, { orderId, paypalOrderId }), ctx));
  expect(captured.body.status).toBe('Pagado');
}

/** Cash at OXXO, as the provider's confirmation records it. */
async function payAtOxxo(orderId: string): Promise<void> {
  const { error } = await service.rpc('mark_order_paid', {
    order_id: orderId,
    provider: 'simulated-card',
    ref: `oxxo_${orderId}`,
    amount: Math.round(Number((await orderColumns<{ total: number }>(service, orderId, 'total')).total) * 100),
    currency: 'mxn',
  });
  if (error) throw new Error(error.message);
  const method = await service.from('orders').update({ payment_method: 'oxxo' }).eq('id', orderId);
  if (method.error) throw new Error(method.error.message);
}

/** Orders its payments one minute apart, in the order given. */
async function paidInOrder(ids: string[]): Promise<void> {
  const start = Date.parse('2026-11-20T10:00:00Z');
  for (const [i, id] of ids.entries()) {
    const { error } = await service
      .from('orders')
      .update({ paid_at: new Date(start + i * 60_000).toISOString() })
      .eq('id', id);
    if (error) throw new Error(error.message);
  }
}

const arrival = (token: string | null, body: unknown, id = campaign) =>
  call(() => registerArrival(req('POST', `/api/admin/preorders/${id}/arrival`, token, body), ctx, id));

const order = (id: string) => orderColumns<{ status: string; payment_method: string | null; total: number }>(service, id, 'status, payment_method, total');

async function lineStatus(id: string): Promise<string> {
  const { data } = await service.from('preorder_lines').select('status').eq('order_id', id).single();
  return (data as { status: string }).status;
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  const mail = async (m: QueuedMail) => {
    mails.push(m);
  };
  ctx = { ...serverContext(service, { mode: 'simulated' }, mail), asUser: (t: string) => anonClient(stack, t) };
  ({ token: shopperToken, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  let admin: SupabaseClient;
  ({ token: adminToken, client: admin } = await signIn(stack, DEMO_ADMIN));
  await releasePendingOrders(service, DEMO_SHOPPER.id);
  const inserted = await service
    .from('products')
    .insert({ id: PRODUCT, name: 'Caja de preventa de prueba', price: 1500, stock: 0, limit_per_customer: 10, franchise_id: 'pokemon' });
  if (inserted.error) throw new Error(inserted.error.message);
  const saved = await admin.rpc('admin_save_preorder_campaign', {
    p_product_id: PRODUCT,
    p_offer_id: null,
    p_release_date: '2027-02-12',
    p_opens_at: new Date(Date.now() - 3_600_000).toISOString(),
    p_closes_at: new Date(Date.now() + 86_400_000).toISOString(),
    p_allocation: 20,
    p_per_customer_limit: 10,
    p_per_order_limit: 2,
  });
  if (saved.error) throw new Error(saved.error.message);
  campaign = saved.data as string;
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

describe('registering an arrival', () => {
  const ids: Record<'filled' | 'card' | 'paypal' | 'oxxo' | 'waiting', string> = { filled: '', card: '', paypal: '', oxxo: '', waiting: '' };
  let balanceBefore: number;
  let first: { status: number; body: any };

  beforeAll(async () => {
    ids.filled = await preorder(false);
    await payByCard(ids.filled);
    ids.card = await preorder(false);
    await payByCard(ids.card);
    ids.paypal = await preorder(false);
    await payByPayPal(ids.paypal);
    ids.oxxo = await preorder(false);
    await payAtOxxo(ids.oxxo);
    ids.waiting = await preorder(true);
    await payByCard(ids.waiting);
    await paidInOrder([ids.filled, ids.card, ids.paypal, ids.oxxo, ids.waiting]);
    balanceBefore = await storeCreditBalance(service, DEMO_SHOPPER.id);
    mails.length = 0;
    first = await arrival(adminToken, { quantity: 1, key: 'llegada-servidor-0001' });
  }, 120_000);

  it('fills the oldest paid order and decides for the rest', async () => {
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      replayed: false,
      received: 1,
      allocatedUnits: 1,
      toStock: 0,
      orders: { allocated: 1, waitlisted: 1, refunded: 3 },
      refunds: { succeeded: 3, processing: 0, failed: 0 },
    });
    expect(await lineStatus(ids.filled)).toBe('allocated');
    expect(await lineStatus(ids.waiting)).toBe('waitlisted');
    expect((await order(ids.filled)).status).toBe('Pagado');
    expect((await order(ids.waiting)).status).toBe('Pagado');
  });

  it('refunds card and PayPal through the provider, and OXXO cash to the balance', async () => {
    for (const id of [ids.card, ids.paypal, ids.oxxo]) {
      expect(await lineStatus(id)).toBe('refunded');
      expect((await order(id)).status).toBe('Reembolsado');
    }
    // A provider refund carries the provider's refund id; the balance's is recorded with the shop's own reference.
    expect(await refundRows(service, ids.card, 'provider, status, refund_ref')).toEqual([
      { provider: 'simulated-card', status: 'succeeded', refund_ref: expect.stringMatching(/^re_sim_/) },
    ]);
    expect(await refundRows(service, ids.paypal, 'provider, status, refund_ref')).toEqual([
      { provider: 'simulated-paypal', status: 'succeeded', refund_ref: expect.stringMatching(/^re_sim_/) },
    ]);
    // Cash cannot go back through the provider: the balance grew by the order's total.
    const [cash] = await refundRows(service, ids.oxxo, 'status, refund_ref');
    expect(cash?.status).toBe('succeeded');
    expect(cash?.refund_ref).not.toMatch(/^re_/);
    const oxxoTotal = Math.round(Number((await order(ids.oxxo)).total) * 100);
    expect((await storeCreditBalance(service, DEMO_SHOPPER.id)) - balanceBefore).toBe(oxxoTotal);
  });

  it('queues one e-mail per order saying what became of it', () => {
    const byOrder = new Map(mails.map((m) => [m.dedupeKey, m]));
    expect(mails).toHaveLength(5);
    const arrivalId = first.body.arrivalId as string;
    expect(byOrder.get(`preorder:${arrivalId}:${ids.filled}`)?.kind).toBe('preorder_allocated');
    expect(byOrder.get(`preorder:${arrivalId}:${ids.waiting}`)?.kind).toBe('preorder_waitlisted');
    expect(byOrder.get(`preorder:${arrivalId}:${ids.card}`)?.text).toContain('por el mismo medio con el que pagaste');
    expect(byOrder.get(`preorder:${arrivalId}:${ids.paypal}`)?.text).toContain('por el mismo medio con el que pagaste');
    expect(byOrder.get(`preorder:${arrivalId}:${ids.oxxo}`)?.text).toContain('a tu saldo a favor');
    for (const m of mails) expect(m.to).toBe(DEMO_SHOPPER.email);
  });

  it('a second click with the same key allocates and refunds nothing again', async () => {
    const balance = await storeCreditBalance(service, DEMO_SHOPPER.id);
    const again = await arrival(adminToken, { quantity: 1, key: 'llegada-servidor-0001' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ replayed: true, arrivalId: first.body.arrivalId, orders: { allocated: 1, waitlisted: 1, refunded: 3 } });
    expect(await refundRows(service, ids.card, 'provider, status')).toHaveLength(1);
    expect(await storeCreditBalance(service, DEMO_SHOPPER.id)).toBe(balance);
    expect(await lineStatus(ids.waiting)).toBe('waitlisted');
    // The same e-mails, under the same keys: the outbox keeps one of each.
    expect(new Set(mails.map((m) => m.dedupeKey)).size).toBe(5);
  });

  it('the next shipment fills the waitlist', async () => {
    const next = await arrival(adminToken, { quantity: 1, key: 'llegada-servidor-0002' });
    expect(next.body.orders).toEqual({ allocated: 1, waitlisted: 0, refunded: 0 });
    expect(await lineStatus(ids.waiting)).toBe('allocated');
  });
});

describe('an arrival the server did not finish', () => {
  it('has its refunds made, and its e-mails queued, by the next arrival of the campaign', async () => {
    const id = await preorder(false);
    await payByCard(id);
    // The database decided (no unit for it), but the server stopped before refunding.
    const decided = await service.rpc('preorder_register_arrival', { p_campaign_id: campaign, p_quantity: 0, p_key: 'llegada-cortada-0001', p_actor: null });
    expect(decided.error).toBeNull();
    expect(await lineStatus(id)).toBe('refunded');
    expect((await order(id)).status).toBe('Pagado');
    mails.length = 0;
    const next = await arrival(adminToken, { quantity: 0, key: 'llegada-siguiente-0001' });
    expect(next.body.refunds).toEqual({ succeeded: 1, processing: 0, failed: 0 });
    expect((await order(id)).status).toBe('Reembolsado');
    const arrivalId = (decided.data as { arrival_id: string }).arrival_id;
    expect(mails.map((m) => m.dedupeKey)).toEqual([`preorder:${arrivalId}:${id}`]);
    // Nothing left to finish: a further arrival refunds nothing.
    const after = await arrival(adminToken, { quantity: 0, key: 'llegada-siguiente-0002' });
    expect(after.body.refunds).toEqual({ succeeded: 0, processing: 0, failed: 0 });
  });
});

describe('an arrival nobody repeated', () => {
  it('has its refunds made by the sweeper after five minutes, in the name of the admin who registered it, once', async () => {
    const recent = await preorder(false);
    await payByCard(recent);
    const first = await service.rpc('preorder_register_arrival', {
      p_campaign_id: campaign,
      p_quantity: 0,
      p_key: 'llegada-sola-0001',
      p_actor: DEMO_ADMIN.id,
    });
    expect(first.error).toBeNull();
    mails.length = 0;
    // Registered a moment ago: its own request may still be refunding it.
    expect(await finishArrivalRefunds(ctx)).toEqual({ succeeded: 0, processing: 0, failed: 0 });
    expect((await order(recent)).status).toBe('Pagado');

    const arrivalId = (first.data as { arrival_id: string }).arrival_id;
    const aged = await service
      .from('preorder_arrivals')
      .update({ created_at: new Date(Date.now() - 6 * 60_000).toISOString() })
      .eq('id', arrivalId);
    expect(aged.error).toBeNull();
    expect(await finishArrivalRefunds(ctx)).toEqual({ succeeded: 1, processing: 0, failed: 0 });
    expect((await order(recent)).status).toBe('Reembolsado');
    expect(await refundRows(service, recent, 'provider, status')).toEqual([{ provider: 'simulated-card', status: 'succeeded' }]);
    expect(mails.map((m) => [m.dedupeKey, m.kind])).toEqual([[`preorder:${arrivalId}:${recent}`, 'preorder_refunded']]);
    // Done: the next sweep finds nothing.
    expect(await finishArrivalRefunds(ctx)).toEqual({ succeeded: 0, processing: 0, failed: 0 });
  });
});

describe('who may register an arrival, and bad input', () => {
  it('refuses shoppers and the signed out', async () => {
    expect((await arrival(shopperToken, { quantity: 1, key: 'llegada-cliente-0001' })).status).toBe(403);
    expect((await arrival(null, { quantity: 1, key: 'llegada-anonima-0001' })).status).toBe(401);
  });

  it('answers 400 or 404 with a Spanish message', async () => {
    const negative = await arrival(adminToken, { quantity: -1, key: 'llegada-mala-0001' });
    expect(negative).toMatchObject({ status: 400, body: { message: 'La cantidad recibida debe ser un número entero entre 0 y 1000000.' } });
    expect((await arrival(adminToken, { quantity: 1.5, key: 'llegada-mala-0002' })).status).toBe(400);
    expect((await arrival(adminToken, { quantity: 1 })).body.message).toBe('Falta la clave de la llegada.');
    expect((await arrival(adminToken, { quantity: 1, key: 'llegada-mala-0003' }, 'no-es-un-id')).status).toBe(404);
    const unknown = await arrival(adminToken, { quantity: 1, key: 'llegada-mala-0004' }, '00000000-0000-4000-a000-000000000000');
    expect(unknown).toMatchObject({ status: 404, body: { message: 'Preventa no encontrada.' } });
  });
});
