/**
 * The card endpoints (Stripe, or the simulated card in simulated mode): the caller's customer and
 * saved cards, the order's payment intent (`method: 'oxxo'` hands over to oxxo.ts), and the
 * server-side confirmation of a payment the browser reports. Each authenticates the caller and
 * acts only on the caller's own order, customer and cards.
 */
import { z } from 'zod';
import { installmentsOffered } from '~/domain/mexican-payments.ts';
import { PAYMENTS_CARD_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate } from '../http/auth.ts';
import { answer, ApiError, json, readJson } from '../http/json.ts';
import { recordAttempt } from '../orders/attempts.ts';
import { orderAmount, ownOrder, payableOrder, requireShippingAddress } from '../orders/order.ts';
import { intentPayment, settlePayment, settlementAnswer } from '../orders/settlement.ts';
import { ensureCustomer, requireOwnCard, requireOwnCustomer } from './customers.ts';
import { checkId, orderIdSchema, provider, providerIdSchema, requireCard } from './guards.ts';
import { createOxxoVoucher } from './oxxo.ts';
import * as answers from '~/domain/api-answers.ts';

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
  const customerId = checkId(new URL(request.url).searchParams.get('customerId') ?? undefined, PAYMENTS_CARD_TEXT.customerIdField);
  await requireOwnCustomer(ctx, caller, customerId);
  return answer(answers.savedCardsAnswer, await provider(() => card.listPaymentMethods(customerId)));
}

/** POST /api/stripe/customers/{customerId}/default-payment-method {pmId}. */
export async function setDefaultPaymentMethod(request: Request, ctx: ServerContext, rawCustomerId: string | undefined): Promise<Response> {
  requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const customerId = checkId(rawCustomerId, PAYMENTS_CARD_TEXT.customerField);
  const { pmId } = await readJson(request, z.object({ pmId: providerIdSchema }, { error: PAYMENTS_CARD_TEXT.pmIdMissing }));
  await requireOwnCustomer(ctx, caller, customerId);
  const owner = await requireOwnCard(ctx, caller, pmId);
  if (owner !== customerId) throw new ApiError(403, PAYMENTS_CARD_TEXT.cardNotYours, 'forbidden');
  await provider(() => requireCard(ctx).setDefaultPaymentMethod(customerId, pmId));
  return answer(answers.defaultCardAnswer, { ok: true, customerId, defaultPaymentMethod: pmId });
}

/** POST /api/stripe/payment-methods/{id}/detach. */
export async function detachPaymentMethod(request: Request, ctx: ServerContext, rawPmId: string | undefined): Promise<Response> {
  requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const pmId = checkId(rawPmId, PAYMENTS_CARD_TEXT.paymentMethodField);
  await requireOwnCard(ctx, caller, pmId);
  await provider(() => requireCard(ctx).detachPaymentMethod(pmId));
  return answer(answers.detachedCardAnswer, { ok: true, id: pmId });
}

const intentBody = z.object({
  orderId: orderIdSchema,
  amount: z.number({ error: PAYMENTS_CARD_TEXT.amountNotInteger }).int({ error: PAYMENTS_CARD_TEXT.amountNotInteger }).optional(),
  /** 'card' (default; also wallets) or 'oxxo' (cash at the store, answered as a voucher). */
  method: z.enum(['card', 'oxxo'], { error: PAYMENTS_CARD_TEXT.methodInvalid }).default('card'),
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
    throw new ApiError(400, PAYMENTS_CARD_TEXT.amountMismatch, 'amount_mismatch');
  }
  if (body.method === 'oxxo') return createOxxoVoucher(ctx, caller, order, amount);
  await requireShippingAddress(ctx, order);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  // 'Meses sin intereses' from $300.00: the card's issuer says which plans once the card is known.
  const installments = installmentsOffered(amount);
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
  if (!intent.clientSecret) throw new ApiError(502, PAYMENTS_CARD_TEXT.noClientSecret, 'upstream_error');
  await recordAttempt(ctx, order.id, card.name, intent.id);
  return json({ clientSecret: intent.clientSecret, paymentIntentId: intent.id, amount, currency: 'mxn', customerId, installments });
}

/** Marks an order paid from a card intent the provider reports, if it is this order's and succeeded. */
export async function settleIntent(ctx: ServerContext, intentId: string, expectedOrderId: string | null, recipient: string | null): Promise<Response> {
  const card = requireCard(ctx);
  const intent = await provider(() => card.retrievePaymentIntent(intentId));
  if (!intent || (expectedOrderId !== null && intent.orderId !== expectedOrderId) || !intent.orderId) {
    throw new ApiError(404, PAYMENTS_CARD_TEXT.intentNotFound, 'intent_not_found');
  }
  if (intent.status !== 'succeeded') {
    throw new ApiError(402, PAYMENTS_CARD_TEXT.incomplete, 'payment_incomplete');
  }
  const settled = await settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }), recipient);
  return answer(answers.settlementAnswer, settlementAnswer(settled, intent.orderId));
}

/** POST /api/payments/confirm {orderId, paymentIntentId}: the server checks the browser's success. */
export async function confirmPayment(request: Request, ctx: ServerContext): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, paymentIntentId: providerIdSchema }));
  const order = await ownOrder(ctx, caller, body.orderId);
  return settleIntent(ctx, body.paymentIntentId, order.id, caller.email);
}
