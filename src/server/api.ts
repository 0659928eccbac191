/**
 * The payment endpoints' logic, independent of Astro so tests can call it with a plain Request.
 * Each handler authenticates the caller from the Supabase access token, acts only on the caller's
 * own orders, customer and cards, and answers JSON; the files under src/pages/api are one-liners.
 */
import { z } from 'zod';
import { authenticate, type Caller } from './http/auth.ts';
import { closeAttempt, recordAttempt } from './orders/attempts.ts';
import { ensureCustomer, requireOwnCustomer } from './payments/customers.ts';
import { findOrder, orderAmount, ownOrder, payableOrder, requirePayable, requireShippingAddress } from './orders/order.ts';
import { intentPayment, settlePayment, settlementAnswer } from './orders/settlement.ts';
import { requireCard, requirePayPal } from './payments/guards.ts';
import type { ServerContext } from './context.ts';
import { ApiError, json, readJson, readText } from './http/json.ts';
import { installmentsOffered } from '../domain/mexican-payments.ts';
import { centavos } from '../domain/money.ts';
import { createOxxoVoucher, releaseOxxoOrder } from './mexican-payments.ts';
import { SimulatedCardProvider, SimulatedPayPalProvider } from './payments/simulated.ts';
import { PaymentError, paypalCaptureCompleted } from './payments/types.ts';

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
  requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  return json({ customerId });
}

/** GET /api/stripe/payment-methods?customerId=: the caller's own saved cards. */
export async function listPaymentMethods(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const customerId = checkId(new URL(request.url).searchParams.get('customerId') ?? undefined, 'El cliente (customerId)');
  await requireOwnCustomer(ctx, caller, customerId);
  return json(await provider(() => card.listPaymentMethods(customerId)));
}

async function requireOwnCard(ctx: ServerContext, caller: Caller, pmId: string): Promise<string> {
  const owner = await provider(() => requireCard(ctx).paymentMethodCustomer(pmId));
  if (!owner) throw new ApiError(404, 'Método de pago no encontrado.', 'payment_method_not_found');
  await requireOwnCustomer(ctx, caller, owner);
  return owner;
}

/** POST /api/stripe/customers/{customerId}/default-payment-method {pmId}. */
export async function setDefaultPaymentMethod(request: Request, ctx: ServerContext, rawCustomerId: string | undefined): Promise<Response> {
  requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const customerId = checkId(rawCustomerId, 'El cliente');
  const { pmId } = await readJson(request, z.object({ pmId: providerId }, { error: 'Falta el método de pago (pmId).' }));
  await requireOwnCustomer(ctx, caller, customerId);
  const owner = await requireOwnCard(ctx, caller, pmId);
  if (owner !== customerId) throw new ApiError(403, 'Ese método de pago no es tuyo.', 'forbidden');
  await provider(() => requireCard(ctx).setDefaultPaymentMethod(customerId, pmId));
  return json({ ok: true, customerId, defaultPaymentMethod: pmId });
}

/** POST /api/stripe/payment-methods/{id}/detach. */
export async function detachPaymentMethod(request: Request, ctx: ServerContext, rawPmId: string | undefined): Promise<Response> {
  requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const pmId = checkId(rawPmId, 'El método de pago');
  await requireOwnCard(ctx, caller, pmId);
  await provider(() => requireCard(ctx).detachPaymentMethod(pmId));
  return json({ ok: true, id: pmId });
}

const intentBody = z.object({
  orderId,
  amount: z.number({ error: 'El monto (amount) debe ser un número entero de centavos.' }).int({ error: 'El monto (amount) debe ser un número entero de centavos.' }).optional(),
  /** 'card' (default; also wallets) or 'oxxo' (cash at the store, answered as a voucher). */
  method: z.enum(['card', 'oxxo'], { error: 'El método de pago no es válido.' }).default('card'),
});

/**
 * POST /api/create-payment-intent {orderId, amount?}: the order's card payment, for its stored
 * total. An amount sent along must equal it; the same order always gets the same intent. The
 * order must ship to one of the buyer's addresses (copied onto the order here).
 */
export async function createPaymentIntent(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, intentBody);
  const order = await payableOrder(ctx, caller, body.orderId);
  const amount = orderAmount(order);
  if (body.amount !== undefined && body.amount !== amount) {
    throw new ApiError(400, 'El monto no coincide con el total del pedido.', 'amount_mismatch');
  }
  if (body.method === 'oxxo') return createOxxoVoucher(ctx, caller, order, amount);
  await requireShippingAddress(ctx, order);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  // 'Meses sin intereses' from $300.00: the card's issuer says which plans once the card is known.
  const installments = installmentsOffered(centavos(amount));
  const intent = await provider(() =>
    card.createPaymentIntent({
      orderId: order.id,
      userId: caller.id,
      amount,
      customerId,
      idempotencyKey: `order-${order.id}-${amount}`,
      installments,
    }),
  );
  if (!intent.clientSecret) throw new ApiError(502, 'No se recibió clientSecret.', 'upstream_error');
  await recordAttempt(ctx, order.id, card.name, intent.id);
  return json({ clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount, currency: 'mxn', customerId, installments });
}

/** Marks an order paid from a card intent the provider reports, if it is this order's and succeeded. */
async function settleIntent(ctx: ServerContext, intentId: string, expectedOrderId: string | null, recipient: string | null): Promise<Response> {
  const card = requireCard(ctx);
  const intent = await provider(() => card.retrievePaymentIntent(intentId));
  if (!intent || (expectedOrderId !== null && intent.orderId !== expectedOrderId) || !intent.orderId) {
    throw new ApiError(404, 'Pago no encontrado para este pedido.', 'intent_not_found');
  }
  if (intent.status !== 'succeeded') {
    throw new ApiError(402, 'El pago no se ha completado.', 'payment_incomplete');
  }
  const settled = await settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }), recipient);
  return json(settlementAnswer(settled, intent.orderId));
}

/** POST /api/payments/confirm {orderId, paymentIntentId}: the server checks the browser's success. */
export async function confirmPayment(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paymentIntentId: providerId }));
  const order = await ownOrder(ctx, caller, body.orderId);
  return settleIntent(ctx, body.paymentIntentId, order.id, caller.email);
}

/**
 * POST /api/stripe/webhook: signed provider notifications; payment_intent.succeeded settles the
 * order (or refunds a payment its order can no longer take). Every event that changes nothing is
 * logged with its id.
 */
export async function webhook(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const raw = await readText(request, 512 * 1024);
  const event = await provider(async () => card.verifyWebhook(raw, request.headers.get('stripe-signature')));
  if ((event.type === 'payment_intent.payment_failed' || event.type === 'payment_intent.canceled') && event.intent) {
    // An OXXO voucher that expired (or was cancelled) unpaid: its order is cancelled, stock returned.
    const intent = await provider(() => card.retrievePaymentIntent(event.intent!.id));
    const released = intent ? await releaseOxxoOrder(ctx, intent) : false;
    if (!released) console.info(`[stripe] evento ${event.id} (${event.type}) sin acción`);
    return json({ received: true, handled: released, ...(released && intent ? { orderId: intent.orderId, status: 'Cancelado' } : {}) });
  }
  if (event.type !== 'payment_intent.succeeded' || !event.intent) {
    console.info(`[stripe] evento ${event.id} (${event.type}) sin acción`);
    return json({ received: true, handled: false });
  }
  try {
    // The event body is not trusted for the amount: the intent is retrieved from the provider.
    const intent = await provider(() => card.retrievePaymentIntent(event.intent!.id));
    if (!intent || !intent.orderId || intent.status !== 'succeeded') {
      throw new ApiError(404, 'Pago no encontrado o no completado.', 'intent_not_found');
    }
    const settled = await settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }));
    if (settled.refunded) console.warn(`[stripe] evento ${event.id}: pago ${intent.id} ${settled.credited ? 'abonado al saldo a favor' : 'reembolsado'} (${settled.refunded}, ${settled.refundStatus ?? 'saldo'})`);
    return json({ received: true, handled: true, orderId: intent.orderId, status: settled.status, changed: settled.changed, refunded: settled.refunded });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      console.warn(`[stripe] evento ${event.id} (${event.type}) no aplicado: ${error.message}`);
      return json({ received: true, handled: false, message: error.message });
    }
    throw error;
  }
}

function simulatedCard(ctx: ServerContext): SimulatedCardProvider {
  // Nothing simulated exists in live mode: these endpoints answer 404 there.
  if (ctx.payments.mode !== 'simulated' || !(ctx.payments.card instanceof SimulatedCardProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
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
  /** Months of the 'meses sin intereses' plan chosen (null: 'Pago de contado'); checked by the provider. */
  installments: z.number().int().nullable().default(null),
});

/** After a simulated success the order is settled at once, as Stripe's webhook would. */
async function settleSimulated(ctx: ServerContext, result: { status: string; intentId: string; error: string | null }, caller: Caller) {
  if (result.status !== 'succeeded') return json(result);
  const settled = await settleIntent(ctx, result.intentId, null, caller.email);
  return json({ ...result, order: await settled.json() });
}

/**
 * Before the simulated card takes money: the intent's order must still be payable (a real card
 * form cannot ask, so Stripe's late payments are refunded instead; the 3-D Secure step below
 * does not ask either, like the bank's). A refused intent is cancelled.
 */
async function requirePayableIntent(ctx: ServerContext, card: SimulatedCardProvider, clientSecret: string): Promise<void> {
  const intent = await card.retrievePaymentIntent(clientSecret.split('_secret_')[0] ?? '');
  if (!intent?.orderId) return; // confirmCard answers the unknown intent itself
  const order = await findOrder(ctx, intent.orderId);
  if (!order) return;
  try {
    requirePayable(order);
  } catch (refusal) {
    if (intent.status !== 'succeeded') {
      await card.cancelPaymentIntent(intent.id);
      await closeAttempt(ctx, card.name, intent.id, 'canceled');
    }
    throw refusal;
  }
}

/** POST /api/payments/simulated/confirm: the simulated card form's "Pagar". */
export async function simulatedConfirm(request: Request, ctx: ServerContext): Promise<Response> {
  const card = simulatedCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, cardBody);
  await requirePayableIntent(ctx, card, body.clientSecret);
  const result = await provider(() => card.confirmCard(body.clientSecret, caller.id, body.card, body.save, new Date(), body.installments));
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
  const paypal = requirePayPal(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId }));
  const order = await payableOrder(ctx, caller, body.orderId);
  await requireShippingAddress(ctx, order);
  const amount = orderAmount(order);
  const created = await provider(() => paypal.createOrder({ orderId: order.id, amount, idempotencyKey: `paypal-${order.id}-${amount}` }));
  await recordAttempt(ctx, order.id, paypal.name, created.id);
  return json({ id: created.id, status: created.status });
}

async function ownPayPalOrder(ctx: ServerContext, caller: Caller, paypalOrderId: string, orderIdValue: string) {
  const order = await ownOrder(ctx, caller, orderIdValue);
  const info = await provider(() => requirePayPal(ctx).getOrder(paypalOrderId));
  if (!info || info.orderId !== order.id) throw new ApiError(404, 'Pedido de PayPal no encontrado.', 'paypal_order_not_found');
  return order;
}

/** POST /api/paypal/approve {orderId, paypalOrderId}: the simulated PayPal window's approval. */
export async function approveSimulatedPayPal(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = ctx.payments.paypal;
  if (ctx.payments.mode !== 'simulated' || !(paypal instanceof SimulatedPayPalProvider)) throw new ApiError(404, 'No encontrado.', 'not_found');
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paypalOrderId: providerId }));
  await ownPayPalOrder(ctx, caller, body.paypalOrderId, body.orderId);
  const approved = await provider(() => paypal.approve(body.paypalOrderId));
  return json({ id: approved.id, status: approved.status });
}

/**
 * POST /api/paypal/capture-order {orderId, paypalOrderId}: captures only while the order can still
 * be paid (otherwise the PayPal order is voided and nothing is charged), then settles it; money
 * captured for an order that stopped being payable meanwhile is refunded.
 */
export async function capturePayPalOrder(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = requirePayPal(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId, paypalOrderId: providerId }));
  const order = await ownPayPalOrder(ctx, caller, body.paypalOrderId, body.orderId);
  const current = await provider(() => paypal.getOrder(body.paypalOrderId));
  if (current?.status !== 'COMPLETED') {
    try {
      requirePayable(order);
    } catch (refusal) {
      await paypal.voidOrder(body.paypalOrderId);
      await closeAttempt(ctx, paypal.name, body.paypalOrderId, 'canceled');
      throw refusal;
    }
  }
  const captured = await provider(() => paypal.captureOrder(body.paypalOrderId, `capture-${body.paypalOrderId}`));
  if (!paypalCaptureCompleted(captured) || captured.orderId !== order.id) {
    throw new ApiError(402, 'Hubo un error con PayPal.', 'paypal_not_completed');
  }
  const settled = await settlePayment(
    ctx,
    {
      orderId: order.id,
      provider: paypal.name,
      ref: captured.captureId ?? captured.id,
      amount: captured.amount,
      currency: captured.currency,
      attemptRef: body.paypalOrderId,
    },
    caller.email,
  );
  return json(settlementAnswer(settled, order.id));
}
