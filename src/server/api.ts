/**
 * The payment endpoints' logic, independent of Astro so tests can call it with a plain Request.
 * Each handler authenticates the caller from the Supabase access token, acts only on the caller's
 * own orders, customer and cards, and answers JSON; the files under src/pages/api are one-liners.
 */
import { z } from 'zod';
import { authenticate, type Caller } from './auth.ts';
import {
  ensureCustomer,
  orderAmount,
  ownOrder,
  payableOrder,
  requireOwnCustomer,
  settlePayment,
  type ServerContext,
} from './checkout.ts';
import { ApiError, json, readJson, readText } from './http.ts';
import { SimulatedCardProvider, SimulatedPayPalProvider } from './payments/simulated.ts';
import { PaymentError } from './payments/types.ts';

const orderId = z.string({ error: 'Falta el pedido (orderId).' }).uuid({ error: 'El pedido (orderId) no es válido.' });
const providerId = z.string().trim().min(1).max(255).regex(/^[\w-]+$/, { error: 'Identificador no válido.' });

/** Runs a provider call, turning its refusals into 4xx answers with its Spanish message. */
async function provider<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentError) throw new ApiError(error.status, error.message, error.code);
    throw error;
  }
}

function checkId(value: string | undefined, what: string): string {
  const parsed = providerId.safeParse(value ?? '');
  if (!parsed.success) throw new ApiError(400, `${what} no es válido.`, 'invalid_request');
  return parsed.data;
}

/** POST /api/stripe/customer: the caller's customer, created and stored on first use. */
export async function createCustomer(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  return json({ customerId });
}

/** GET /api/stripe/payment-methods?customerId=: the caller's own saved cards. */
export async function listPaymentMethods(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const customerId = checkId(new URL(request.url).searchParams.get('customerId') ?? undefined, 'El cliente (customerId)');
  await requireOwnCustomer(ctx, caller, customerId);
  return json(await provider(() => ctx.payments.card.listPaymentMethods(customerId)));
}

async function requireOwnCard(ctx: ServerContext, caller: Caller, pmId: string): Promise<string> {
  const owner = await provider(() => ctx.payments.card.paymentMethodCustomer(pmId));
  if (!owner) throw new ApiError(404, 'Método de pago no encontrado.', 'payment_method_not_found');
  await requireOwnCustomer(ctx, caller, owner);
  return owner;
}

/** POST /api/stripe/customers/{customerId}/default-payment-method {pmId}. */
export async function setDefaultPaymentMethod(request: Request, ctx: ServerContext, rawCustomerId: string | undefined): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const customerId = checkId(rawCustomerId, 'El cliente');
  const { pmId } = await readJson(request, z.object({ pmId: providerId }, { error: 'Falta el método de pago (pmId).' }));
  await requireOwnCustomer(ctx, caller, customerId);
  const owner = await requireOwnCard(ctx, caller, pmId);
  if (owner !== customerId) throw new ApiError(403, 'Ese método de pago no es tuyo.', 'forbidden');
  await provider(() => ctx.payments.card.setDefaultPaymentMethod(customerId, pmId));
  return json({ ok: true, customerId, defaultPaymentMethod: pmId });
}

/** POST /api/stripe/payment-methods/{id}/detach. */
export async function detachPaymentMethod(request: Request, ctx: ServerContext, rawPmId: string | undefined): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const pmId = checkId(rawPmId, 'El método de pago');
  await requireOwnCard(ctx, caller, pmId);
  await provider(() => ctx.payments.card.detachPaymentMethod(pmId));
  return json({ ok: true, id: pmId });
}

const intentBody = z.object({
  orderId,
  amount: z.number({ error: 'El monto (amount) debe ser un número entero de centavos.' }).int({ error: 'El monto (amount) debe ser un número entero de centavos.' }).optional(),
});

/**
 * POST /api/create-payment-intent {orderId, amount?}: the order's card payment, for its stored
 * total. An amount sent along must equal it; the same order always gets the same intent.
 */
export async function createPaymentIntent(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, intentBody);
  const order = await payableOrder(ctx, caller, body.orderId);
  const amount = orderAmount(order);
  if (body.amount !== undefined && body.amount !== amount) {
    throw new ApiError(400, 'El monto no coincide con el total del pedido.', 'amount_mismatch');
  }
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  const intent = await provider(() =>
    ctx.payments.card.createPaymentIntent({
      orderId: order.id,
      userId: caller.id,
      amount,
      customerId,
      idempotencyKey: `order-${order.id}-${amount}`,
    }),
  );
  if (!intent.clientSecret) throw new ApiError(502, 'No se recibió clientSecret.', 'upstream_error');
  return json({ clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount, currency: 'mxn', customerId });
}

/** Marks an order paid from a card intent the provider reports, if it is this order's and succeeded. */
async function settleIntent(ctx: ServerContext, intentId: string, expectedOrderId: string | null, recipient: string | null): Promise<Response> {
  const intent = await provider(() => ctx.payments.card.retrievePaymentIntent(intentId));
  if (!intent || (expectedOrderId !== null && intent.orderId !== expectedOrderId) || !intent.orderId) {
    throw new ApiError(404, 'Pago no encontrado para este pedido.', 'intent_not_found');
  }
  if (intent.status !== 'succeeded') {
    throw new ApiError(402, 'El pago no se ha completado.', 'payment_incomplete');
  }
  const settled = await settlePayment(
    ctx,
    { orderId: intent.orderId, provider: ctx.payments.card.name, ref: intent.id, amount: intent.amount, currency: intent.currency },
    recipient,
  );
  return json({ orderId: intent.orderId, status: settled.status, changed: settled.changed });
}

/** POST /api/payments/confirm {orderId, paymentIntentId}: the server checks the browser's success. */
export async function confirmPayment(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paymentIntentId: providerId }));
  const order = await ownOrder(ctx, caller, body.orderId);
  return settleIntent(ctx, body.paymentIntentId, order.id, caller.email);
}

/** POST /api/stripe/webhook: signed provider notifications; only payment_intent.succeeded acts. */
export async function webhook(request: Request, ctx: ServerContext): Promise<Response> {
  const raw = await readText(request, 512 * 1024);
  const event = await provider(async () => ctx.payments.card.verifyWebhook(raw, request.headers.get('stripe-signature')));
  if (event.type !== 'payment_intent.succeeded' || !event.intent) return json({ received: true, handled: false });
  try {
    // The event body is not trusted for the amount: the intent is retrieved from the provider.
    const response = await settleIntent(ctx, event.intent.id, null, null);
    const result = (await response.json()) as { status: string; changed: boolean };
    return json({ received: true, handled: true, ...result });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return json({ received: true, handled: false, message: error.message });
    throw error;
  }
}

function simulatedCard(ctx: ServerContext): SimulatedCardProvider {
  if (!(ctx.payments.card instanceof SimulatedCardProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
  return ctx.payments.card;
}

const secret = z.string({ error: 'Falta clientSecret.' }).min(10).max(300);
const cardBody = z.object({
  clientSecret: secret,
  card: z.object({
    number: z.string({ error: 'El número de tarjeta no es válido.' }).max(40),
    expMonth: z.number({ error: 'La fecha de vencimiento no es válida.' }).int(),
    expYear: z.number({ error: 'La fecha de vencimiento no es válida.' }).int(),
    cvc: z.string({ error: 'El código de seguridad (CVC) no es válido.' }).max(8),
  }),
  save: z.boolean().default(false),
});

/** After a simulated success the order is settled at once, as Stripe's webhook would. */
async function settleSimulated(ctx: ServerContext, result: { status: string; intentId: string; error: string | null }, caller: Caller) {
  if (result.status !== 'succeeded') return json(result);
  const settled = await settleIntent(ctx, result.intentId, null, caller.email);
  return json({ ...result, order: await settled.json() });
}

/** POST /api/payments/simulated/confirm: the simulated card form's "Pagar". */
export async function simulatedConfirm(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, cardBody);
  const result = await provider(() => card.confirmCard(body.clientSecret, caller.id, body.card, body.save));
  return settleSimulated(ctx, result, caller);
}

/** POST /api/payments/simulated/authenticate {clientSecret, approve}: the card's confirm step. */
export async function simulatedAuthenticate(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ clientSecret: secret, approve: z.boolean() }));
  const result = await provider(() => card.authenticate(body.clientSecret, caller.id, body.approve));
  return settleSimulated(ctx, result, caller);
}

/** POST /api/paypal/create-order {orderId}: one purchase unit, MXN, the order's total. */
export async function createPayPalOrder(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId }));
  const order = await payableOrder(ctx, caller, body.orderId);
  const amount = orderAmount(order);
  const created = await provider(() => ctx.payments.paypal.createOrder({ orderId: order.id, amount, idempotencyKey: `paypal-${order.id}-${amount}` }));
  return json({ id: created.id, status: created.status });
}

async function ownPayPalOrder(ctx: ServerContext, caller: Caller, paypalOrderId: string, orderIdValue: string) {
  const order = await ownOrder(ctx, caller, orderIdValue);
  const info = await provider(() => ctx.payments.paypal.getOrder(paypalOrderId));
  if (!info || info.orderId !== order.id) throw new ApiError(404, 'Pedido de PayPal no encontrado.', 'paypal_order_not_found');
  return order;
}

/** POST /api/paypal/approve {orderId, paypalOrderId}: the simulated PayPal window's approval. */
export async function approveSimulatedPayPal(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = ctx.payments.paypal;
  if (!(paypal instanceof SimulatedPayPalProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paypalOrderId: providerId }));
  await ownPayPalOrder(ctx, caller, body.paypalOrderId, body.orderId);
  const approved = await provider(() => paypal.approve(body.paypalOrderId));
  return json({ id: approved.id, status: approved.status });
}

/** POST /api/paypal/capture-order {orderId, paypalOrderId}: captures and, if verified, marks paid. */
export async function capturePayPalOrder(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paypalOrderId: providerId }));
  const order = await ownPayPalOrder(ctx, caller, body.paypalOrderId, body.orderId);
  const captured = await provider(() => ctx.payments.paypal.captureOrder(body.paypalOrderId, `capture-${body.paypalOrderId}`));
  if (captured.status !== 'COMPLETED' || (captured.captureStatus !== null && captured.captureStatus !== 'COMPLETED') || captured.orderId !== order.id) {
    throw new ApiError(402, 'Hubo un error con PayPal.', 'paypal_not_completed');
  }
  const settled = await settlePayment(
    ctx,
    { orderId: order.id, provider: 'paypal', ref: captured.captureId ?? captured.id, amount: captured.amount, currency: captured.currency },
    caller.email,
  );
  return json({ orderId: order.id, status: settled.status, changed: settled.changed });
}
