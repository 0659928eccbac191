/**
 * Every charge ends as a paid order or a refund, with the simulated provider and with PayPal's
 * REST API (a local stub): a payment that lands after its order was cancelled is refunded once
 * and the order becomes 'Reembolsado'; PayPal is not captured for an order that can no longer be
 * paid; a paid order keeps its own copy of the address; reward points follow payment and refund.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ADDRESS_IDS, DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import { approveSimulatedPayPal, capturePayPalOrder, createPayPalOrder } from '~/server/payments/paypal.ts';
import { confirmPayment, createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedAuthenticate, simulatedConfirm } from '~/server/payments/simulated.ts';
import type { ServerContext } from '~/server/context.ts';
import type { PayPalProvider } from '~/server/payments/providers/types.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { sweep } from '~/server/sweeper.ts';
import { apiRequest, callApi as call } from '../support/api-requests.ts';
import { startPayPalStub, type PayPalStub } from '../support/paypal-stub.ts';
import { paypalStubSettings, serverContext } from '../support/server-context.ts';
import { orderColumns, productStock, productWithStock, refundRows as refundsOf, rewardPoints } from '../support/shop-rows.ts';
import { newPendingOrder, signIn } from '../support/shopper.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let token: string;
let simulated: ServerContext;
let live: ServerContext;
let paypalStub: PayPalStub;
let product: string;

const LATE = 'Tu pedido expiró antes de completar el pago; te reembolsamos el cargo.';

const req = (token: string, body: unknown) => apiRequest('POST', '/x', token, body);

const newOrder = (quantity = 1, addressId: string = DEMO_ADDRESS_IDS.home) => newPendingOrder(shopper, [{ product_id: product, quantity }], { addressId });

const order = (id: string) =>
  orderColumns<{
    status: string;
    total: string;
    subtotal: string;
    discount: string;
    refund_ref: string | null;
    refunded_at: string | null;
    shipping_address: Record<string, string> | null;
    points_awarded: number;
    payment_provider: string | null;
  }>(service, id, 'status, total, subtotal, discount, refund_ref, refunded_at, shipping_address, points_awarded, payment_provider');

const stock = () => productStock(service, product);
const points = () => rewardPoints(shopper, DEMO_SHOPPER.id);
const refundRows = (orderId: string) => refundsOf(service, orderId, 'status, reason, provider, refund_ref');

/** A PayPal provider whose capture lets `meanwhile` run first: the order changes during the capture. */
function racing(paypal: PayPalProvider, meanwhile: () => Promise<void>): PayPalProvider {
  return new Proxy(paypal, {
    get(target, key, receiver) {
      if (key === 'captureOrder') {
        return async (id: string, idem: string) => {
          await meanwhile();
          return target.captureOrder(id, idem);
        };
      }
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  paypalStub = await startPayPalStub();
  simulated = serverContext(service, { mode: 'simulated' });
  live = serverContext(service, paypalStubSettings(paypalStub));
  ({ token, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  product = await productWithStock(service, 30, 'priciest');
}, 120_000);

afterAll(async () => {
  await paypalStub?.close();
  await stack?.stop();
});

describe('simulated card', () => {
  it('does not charge an order that was cancelled before "Pagar" (the intent is cancelled)', async () => {
    const id = await newOrder();
    const intent = await call(() => createPaymentIntent(req(token, { orderId: id }), simulated));
    await shopper.rpc('cancel_order', { order_id: id });
    const paid = await call(() =>
      simulatedConfirm(
        req(token, { clientSecret: intent.body.clientSecret, card: { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' } }),
        simulated,
      ),
    );
    expect(paid).toMatchObject({ status: 409, body: { error: 'order_not_payable' } });
    expect((await simulated.payments.card!.retrievePaymentIntent(intent.body.paymentIntentId))!.status).toBe('canceled');
    expect(await refundRows(id)).toEqual([]);
    expect((await order(id)).status).toBe('Cancelado');
  });

  it('refunds a payment completed in 3-D Secure after the order was cancelled: once, order Reembolsado, no points', async () => {
    const before = await stock();
    const pointsBefore = await points();
    const id = await newOrder(2);
    const intent = await call(() => createPaymentIntent(req(token, { orderId: id }), simulated));
    const clientSecret = intent.body.clientSecret as string;
    const action = await call(() =>
      simulatedConfirm(req(token, { clientSecret, card: { number: '4000002760003184', expMonth: 1, expYear: 2040, cvc: '123' } }), simulated),
    );
    expect(action.body.status).toBe('requires_action');
    // The reservation ends while the shopper is at the bank's page.
    await shopper.rpc('cancel_order', { order_id: id });
    expect(await stock()).toBe(before);
    const [a, b] = await Promise.all([
      call(() => simulatedAuthenticate(req(token, { clientSecret, approve: true }), simulated)),
      call(() => simulatedAuthenticate(req(token, { clientSecret, approve: true }), simulated)),
    ]);
    for (const r of [a, b]) expect(r).toMatchObject({ status: 409, body: { error: 'order_refunded', message: LATE } });
    const row = await order(id);
    expect(row.status).toBe('Reembolsado');
    expect(row.refund_ref).toMatch(/^re_sim_/);
    expect(await refundRows(id)).toEqual([{ status: 'succeeded', reason: 'late_payment', provider: 'simulated-card', refund_ref: row.refund_ref }]);
    expect(await stock()).toBe(before);
    expect(await points()).toBe(pointsBefore);
  });
});

describe('simulated PayPal', () => {
  it('refuses to capture an approved PayPal order whose order was cancelled, and voids it', async () => {
    const id = await newOrder();
    const created = await call(() => createPayPalOrder(req(token, { orderId: id }), simulated));
    await call(() => approveSimulatedPayPal(req(token, { orderId: id, paypalOrderId: created.body.id }), simulated));
    await shopper.rpc('cancel_order', { order_id: id });
    const capture = await call(() => capturePayPalOrder(req(token, { orderId: id, paypalOrderId: created.body.id }), simulated));
    expect(capture).toMatchObject({ status: 409, body: { error: 'order_not_payable' } });
    expect((await simulated.payments.paypal!.getOrder(created.body.id))!.status).toBe('VOIDED');
    expect(await refundRows(id)).toEqual([]);
  });

  it('refunds a capture that lands after the order was cancelled during it', async () => {
    const before = await stock();
    const id = await newOrder();
    const created = await call(() => createPayPalOrder(req(token, { orderId: id }), simulated));
    await call(() => approveSimulatedPayPal(req(token, { orderId: id, paypalOrderId: created.body.id }), simulated));
    const ctx: ServerContext = {
      ...simulated,
      payments: { ...simulated.payments, paypal: racing(simulated.payments.paypal!, async () => void (await shopper.rpc('cancel_order', { order_id: id }))) },
    };
    const capture = await call(() => capturePayPalOrder(req(token, { orderId: id, paypalOrderId: created.body.id }), ctx));
    expect(capture).toMatchObject({ status: 409, body: { error: 'order_refunded', message: LATE } });
    expect((await order(id)).status).toBe('Reembolsado');
    expect(await refundRows(id)).toEqual([expect.objectContaining({ status: 'succeeded', reason: 'late_payment', provider: 'simulated-paypal' })]);
    expect(await stock()).toBe(before);
  });
});

describe('PayPal REST API (stub)', () => {
  it('pays through create, approval and capture, and records the provider as paypal', async () => {
    const id = await newOrder();
    const created = await call(() => createPayPalOrder(req(token, { orderId: id }), live));
    expect(created.status).toBe(200);
    paypalStub.approve(created.body.id);
    const captured = await call(() => capturePayPalOrder(req(token, { orderId: id, paypalOrderId: created.body.id }), live));
    expect(captured.body).toMatchObject({ status: 'Pagado', changed: true });
    expect((await order(id)).payment_provider).toBe('paypal');
  });

  it('never captures for a cancelled order; a capture racing the cancellation is refunded exactly once', async () => {
    const stale = await newOrder();
    const first = await call(() => createPayPalOrder(req(token, { orderId: stale }), live));
    paypalStub.approve(first.body.id);
    await shopper.rpc('cancel_order', { order_id: stale });
    const refused = await call(() => capturePayPalOrder(req(token, { orderId: stale, paypalOrderId: first.body.id }), live));
    expect(refused.status).toBe(409);
    expect(paypalStub.requests.some((r) => r.path === `/v2/checkout/orders/${first.body.id}/capture`)).toBe(false);

    const before = await stock();
    const id = await newOrder(2);
    const created = await call(() => createPayPalOrder(req(token, { orderId: id }), live));
    paypalStub.approve(created.body.id);
    const ctx: ServerContext = {
      ...live,
      payments: { ...live.payments, paypal: racing(live.payments.paypal!, async () => void (await shopper.rpc('cancel_order', { order_id: id }))) },
    };
    const capture = await call(() => capturePayPalOrder(req(token, { orderId: id, paypalOrderId: created.body.id }), ctx));
    expect(capture).toMatchObject({ status: 409, body: { error: 'order_refunded', message: LATE } });
    const captureId = `CAP-STUB-${created.body.id}`;
    const refundCalls = paypalStub.requests.filter((r) => r.path === `/v2/payments/captures/${captureId}/refund`);
    expect(refundCalls).toHaveLength(1);
    const row = await order(id);
    expect(refundCalls[0]!.body).toEqual({ amount: { currency_code: 'MXN', value: Number(row.total).toFixed(2) } });
    expect(row.status).toBe('Reembolsado');
    expect(row.refund_ref).toMatch(/^REF-STUB-/);
    expect(await stock()).toBe(before);
    // The sweeper finds the attempt closed and calls PayPal for no second refund.
    await sweep(ctx, 'test-sweeper');
    expect(paypalStub.requests.filter((r) => r.path.endsWith('/refund'))).toHaveLength(1);
  });
});

describe('the sweeper', () => {
  it('releases an abandoned reservation by itself: the order is cancelled and its units are back', async () => {
    const before = await stock();
    const id = await newOrder(3);
    expect(await stock()).toBe(before - 3);
    const intent = await call(() => createPaymentIntent(req(token, { orderId: id }), simulated));
    // The reservation is shortened (the shop's is 30 minutes) and ends.
    await service
      .from('orders')
      .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .eq('id', id);
    const report = await sweep(simulated, 'sweeper-test');
    expect(report.leader).toBe(true);
    expect(report.released).toBeGreaterThanOrEqual(1);
    expect((await order(id)).status).toBe('Cancelado');
    expect(await stock()).toBe(before);
    // Its open intent was cancelled in the same sweep.
    expect((await simulated.payments.card!.retrievePaymentIntent(intent.body.paymentIntentId))!.status).toBe('canceled');
    const { data: events } = await service.from('order_events').select('to_status, note').eq('order_id', id).order('id');
    expect(events).toEqual([
      { to_status: 'Pendiente', note: null },
      { to_status: 'Cancelado', note: 'La reserva expiró' },
    ]);
  });
});

describe('the payment refuses an address a courier cannot deliver to', () => {
  it('answers 409 with the form text for a Mexican address saved before its parts, copies nothing, and pays once it is completed', async () => {
    // Saved before the Mexican parts were asked: number and colonia inside street, no phone.
    const { data: old, error } = await service
      .from('addresses')
      .insert({
        user_id: DEMO_SHOPPER.id,
        label: 'Vieja',
        street: 'Av. Vallarta 441, Col. Centro',
        city: 'Guadalajara',
        state: 'Jalisco',
        zip: '44100',
        country: 'México',
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    try {
      const id = await newOrder(1, old!.id);
      for (const start of [
        () => createPaymentIntent(req(token, { orderId: id }), simulated),
        () => createPayPalOrder(req(token, { orderId: id }), simulated),
      ]) {
        const refused = await call(start);
        expect(refused).toMatchObject({
          status: 409,
          body: { error: 'address_incomplete', message: 'Completa tu dirección de envío: Número exterior requerido.' },
        });
      }
      expect(await order(id)).toMatchObject({ status: 'Pendiente', shipping_address: null, payment_provider: null });
      const partly = await shopper.from('addresses').update({ street: 'Av. Vallarta', exterior_number: '441', neighborhood: 'Centro' }).eq('id', old!.id);
      expect(partly.error).toBeNull();
      expect((await call(() => createPaymentIntent(req(token, { orderId: id }), simulated))).body).toMatchObject({
        error: 'address_incomplete',
        message: 'Completa tu dirección de envío: Municipio o alcaldía requerido.',
      });
      const done = await shopper.from('addresses').update({ municipality: 'Guadalajara', phone: '3312345678' }).eq('id', old!.id);
      expect(done.error).toBeNull();
      const intent = await call(() => createPaymentIntent(req(token, { orderId: id }), simulated));
      expect(intent.status).toBe(200);
      const card = { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' };
      const paid = await call(() => simulatedConfirm(req(token, { clientSecret: intent.body.clientSecret, card }), simulated));
      expect(paid.body.status).toBe('succeeded');
      expect((await order(id)).shipping_address).toMatchObject({ street: 'Av. Vallarta', exterior_number: '441', neighborhood: 'Centro', phone: '3312345678' });
    } finally {
      await service.from('orders').update({ shipping_address_id: null }).eq('shipping_address_id', old!.id);
      await service.from('addresses').delete().eq('id', old!.id);
    }
  });
});

describe('the order keeps its address and earns its points', () => {
  it('keeps the address copy of a paid order when the saved address is edited or deleted', async () => {
    const { data: extra, error } = await shopper
      .from('addresses')
      .insert({
        user_id: DEMO_SHOPPER.id,
        label: 'Bodega',
        street: 'Av. Reforma 222',
        city: 'Ciudad de México',
        state: 'CDMX',
        zip: '06600',
        country: 'México',
        exterior_number: '222',
        interior_number: '4B',
        neighborhood: 'Juárez',
        municipality: 'Cuauhtémoc',
        delivery_references: 'Portón negro',
        phone: '5512345678',
      })
      .select('id')
      .single();
    expect(error).toBeNull();
    const id = await newOrder(1, extra!.id);
    const pointsBefore = await points();
    const intent = await call(() => createPaymentIntent(req(token, { orderId: id }), simulated));
    const paid = await call(() =>
      simulatedConfirm(
        req(token, { clientSecret: intent.body.clientSecret, card: { number: '4242424242424242', expMonth: 1, expYear: 2040, cvc: '123' } }),
        simulated,
      ),
    );
    expect(paid.body.status).toBe('succeeded');
    // Every part a courier needs, the references under their JSON name.
    const copy = {
      label: 'Bodega',
      street: 'Av. Reforma 222',
      city: 'Ciudad de México',
      state: 'CDMX',
      zip: '06600',
      country: 'México',
      exterior_number: '222',
      interior_number: '4B',
      neighborhood: 'Juárez',
      municipality: 'Cuauhtémoc',
      references: 'Portón negro',
      phone: '5512345678',
    };
    expect((await order(id)).shipping_address).toEqual(copy);
    await shopper.from('addresses').update({ street: 'Otra calle 1', city: 'Monterrey' }).eq('id', extra!.id);
    expect((await order(id)).shipping_address).toEqual(copy);
    const deleted = await shopper.from('addresses').delete().eq('id', extra!.id);
    expect(deleted.error).toBeNull();
    expect((await order(id)).shipping_address).toEqual(copy);
    // A paid order can no longer be pointed at another address by the shopper.
    const moved = await shopper.from('orders').update({ shipping_address_id: DEMO_ADDRESS_IDS.office }).eq('id', id).select('id');
    expect(moved.data ?? []).toEqual([]);
    // One point per whole peso of subtotal - discount, once.
    const row = await order(id);
    const earned = Math.floor(Number(row.subtotal) - Number(row.discount));
    expect(row.points_awarded).toBe(earned);
    expect(await points()).toBe(pointsBefore + earned);
    const again = await call(() => confirmPayment(req(token, { orderId: id, paymentIntentId: intent.body.paymentIntentId }), simulated));
    expect(again.body).toMatchObject({ status: 'Pagado', changed: false });
    expect(await points()).toBe(pointsBefore + earned);
  });
});
