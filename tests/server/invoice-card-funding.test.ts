/**
 * The factura's forma de pago follows the card that paid: an order paid with Stripe's debit or
 * prepaid test card gets '28' tarjeta de débito, a credit card '04' tarjeta de crédito. Orders are
 * bought and paid the way the browser does it, with the simulated card; the funding comes from the
 * provider's record of the charge, never from the browser, and the factura is issued by the
 * simulated invoice provider. Through Stripe (the SDK against the local Stripe stub), the funding
 * is read from the charge when the signed webhook settles the order.
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SHOPPER } from '../../scripts/seed/constants.ts';
import type { AdminContext } from '~/server/context.ts';
import { postOrderInvoice } from '~/server/invoicing/endpoints.ts';
import { createInvoicing } from '~/server/invoicing/index.ts';
import { createPaymentIntent } from '~/server/payments/cards.ts';
import { simulatedConfirm } from '~/server/payments/simulated.ts';
import { stripeWebhook } from '~/server/payments/stripe-webhook.ts';
import { createAdminClient } from '~/server/supabase.ts';
import { apiRequest as req, callApi as call, signedStripeWebhook } from '../support/api-requests.ts';
import { serverContext, stripeStubSettings } from '../support/server-context.ts';
import { releasePendingOrders } from '../support/shop-rows.ts';
import { anonClient, newPendingOrder, signIn } from '../support/shopper.ts';
import { startStripeStub, type StripeStub } from '../support/stripe-stub.ts';
import { startTestStack, type TestStack } from '../../packages/local-supabase/tests/helpers.ts';

const PRODUCT = 'pk-factura-tarjeta';
const RFC_BASE = 'GODE561231GR';
const WEBHOOK_SECRET = 'whsec_prueba_fondos_0123456789';

let stack: TestStack;
let service: SupabaseClient;
let shopper: SupabaseClient;
let shopperToken: string;
let ctx: AdminContext;
let stub: StripeStub;
let stripe: AdminContext;

/** A new order paid with a typed card number through the simulated card form, as the browser does. */
async function paidWith(number: string): Promise<string> {
  const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity: 1 }]);
  const intent = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: id }), ctx));
  const card = { number, expMonth: 1, expYear: 2040, cvc: '123' };
  const paid = await call(() => simulatedConfirm(req('POST', '/x', shopperToken, { clientSecret: intent.body.clientSecret, card }), ctx));
  expect(paid.body.status).toBe('succeeded');
  return id;
}

async function orderPayment(id: string) {
  const { data, error } = await service.from('orders').select('status, payment_method, card_funding, installments').eq('id', id).single();
  if (error) throw new Error(error.message);
  return data;
}

/** Asks for the order's factura and answers the issued factura's row. */
async function invoiceOf(orderId: string, key: string, through: AdminContext = ctx) {
  const asked = await call(() => postOrderInvoice(req('POST', `/api/orders/${orderId}/invoice`, shopperToken, { key }), through, orderId));
  expect(asked.status).toBe(201);
  const { data, error } = await service.from('invoices').select('status, payment_form, payment_method').eq('id', asked.body.invoice.id).single();
  if (error) throw new Error(error.message);
  return data;
}

beforeAll(async () => {
  stack = await startTestStack();
  service = createAdminClient(stack.url, stack.serviceRoleKey);
  const base = serverContext(service, { mode: 'simulated' }, async () => {});
  ctx = { ...base, asUser: (t: string) => anonClient(stack, t), invoicing: createInvoicing({ paymentsMode: 'simulated' }) };
  stub = await startStripeStub();
  const live = serverContext(service, stripeStubSettings(stub, WEBHOOK_SECRET), async () => {});
  stripe = { ...live, asUser: (t: string) => anonClient(stack, t), invoicing: createInvoicing({ paymentsMode: 'simulated' }) };
  ({ token: shopperToken, client: shopper } = await signIn(stack, DEMO_SHOPPER));
  await releasePendingOrders(service, DEMO_SHOPPER.id);
  const inserted = await service
    .from('products')
    .insert({ id: PRODUCT, name: 'Sobre para facturar con tarjeta', price: 580, stock: 100, limit_per_customer: 100, franchise_id: 'pokemon' });
  if (inserted.error) throw new Error(inserted.error.message);
  const digit = await service.rpc('rfc_check_digit', { p_rfc: `${RFC_BASE}0` });
  if (digit.error) throw new Error(digit.error.message);
  const profile = await service.from('tax_profiles').upsert({
    user_id: DEMO_SHOPPER.id,
    rfc: `${RFC_BASE}${digit.data as string}`,
    legal_name: 'Ana García López',
    tax_regime: '612',
    tax_zip: '06700',
    cfdi_use: 'G03',
    invoice_email: 'facturas@ana.mx',
  });
  if (profile.error) throw new Error(profile.error.message);
}, 120_000);

afterAll(async () => {
  await stub?.close();
  await stack?.stop();
});

describe("the factura's forma de pago follows the card", () => {
  it("a debit card (Stripe's 4000 0566 5566 5556): the order records 'debit' and its factura says '28'", async () => {
    const id = await paidWith('4000056655665556');
    expect(await orderPayment(id)).toEqual({ status: 'Pagado', payment_method: 'card', card_funding: 'debit', installments: null });
    expect(await invoiceOf(id, 'clave-debito-0001')).toEqual({ status: 'issued', payment_form: '28', payment_method: 'PUE' });
  });

  it("a prepaid card (Stripe's 5105 1051 0510 5100) is '28' too", async () => {
    const id = await paidWith('5105105105105100');
    expect(await orderPayment(id)).toMatchObject({ payment_method: 'card', card_funding: 'prepaid' });
    expect(await invoiceOf(id, 'clave-prepago-0001')).toMatchObject({ payment_form: '28' });
  });

  it("a credit card (Stripe's 4242 4242 4242 4242) stays '04'", async () => {
    const id = await paidWith('4242424242424242');
    expect(await orderPayment(id)).toMatchObject({ payment_method: 'card', card_funding: 'credit' });
    expect(await invoiceOf(id, 'clave-credito-0001')).toMatchObject({ payment_form: '04' });
  });

  it('a shopper cannot set the funding of their own order', async () => {
    const id = await paidWith('4242424242424242');
    const { error } = await shopper.from('orders').update({ card_funding: 'debit' }).eq('id', id);
    expect(error).not.toBeNull();
    expect(await orderPayment(id)).toMatchObject({ card_funding: 'credit' });
  });

  it("through Stripe: the signed webhook reads the debit card's funding from the charge, and the factura says '28'", async () => {
    const id = await newPendingOrder(shopper, [{ product_id: PRODUCT, quantity: 1 }]);
    const created = await call(() => createPaymentIntent(req('POST', '/x', shopperToken, { orderId: id }), stripe));
    const intentId = created.body.paymentIntentId as string;
    // The shopper paid with Stripe's debit test card (pm_card_visa_debit).
    Object.assign(stub.intents.get(intentId)!, { payment_method: 'pm_card_visa_debit', status: 'succeeded' });
    const event = JSON.stringify({
      id: 'evt_fondos_1',
      object: 'event',
      type: 'payment_intent.succeeded',
      data: { object: { id: intentId, object: 'payment_intent', status: 'succeeded', metadata: { order_id: id } } },
    });
    const settled = await call(() => stripeWebhook(signedStripeWebhook(event, WEBHOOK_SECRET), stripe));
    expect(settled.body).toMatchObject({ handled: true, status: 'Pagado', changed: true });
    expect(await orderPayment(id)).toEqual({ status: 'Pagado', payment_method: 'card', card_funding: 'debit', installments: null });
    expect(await invoiceOf(id, 'clave-stripe-debito-01', stripe)).toMatchObject({ payment_form: '28' });
  });
});
