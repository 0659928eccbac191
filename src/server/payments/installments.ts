/**
 * Meses sin intereses (Stripe): the plans the card's issuer offers for the order once the card is
 * on its intent, and the confirmation with the plan chosen, checked against those offered and
 * settled through the one settlement path. The simulated issuer's plans are in simulated.ts.
 */
import { z } from 'zod';
import { installmentLabel, installmentsOffered, isInstallmentCount, monthlyAmount } from '~/domain/mexican-payments.ts';
import { MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import type { Centavos } from '~/domain/money.ts';
import { PAYMENTS_CARD_TEXT, PAYMENTS_INSTALLMENTS_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate } from '../http/auth.ts';
import { answer, ApiError, readJson } from '../http/json.ts';
import { orderAmount, payableOrder } from '../orders/order.ts';
import type { OrderRow } from '../orders/order-row.ts';
import { intentPayment, settlePayment, settlementAnswer } from '../orders/settlement.ts';
import { ensureCustomer } from './customers.ts';
import { orderIdSchema, provider, providerIdSchema, requireCard, stripeCard } from './guards.ts';
import type { IntentInfo } from './providers/types.ts';
import * as answers from '~/domain/api-answers.ts';

/** A plan as the browser shows it. */
export type PlanOption = {
  months: number;
  /** Integer centavos of each month (the last month absorbs the remainder). */
  monthly: number;
  label: string;
};

/** The plans of a total, for the months the provider offered. */
export function planOptions(amount: Centavos, months: number[]): PlanOption[] {
  if (!installmentsOffered(amount)) return [];
  return [...new Set(months)]
    .filter(isInstallmentCount)
    .sort((a, b) => a - b)
    .map((m) => ({ months: m, monthly: monthlyAmount(amount, m), label: installmentLabel(amount, m) }));
}

/** The order's own card intent (404 otherwise). */
async function ownIntent(ctx: ServerContext, order: OrderRow, intentId: string): Promise<IntentInfo> {
  const intent = await provider(() => requireCard(ctx).retrievePaymentIntent(intentId));
  if (!intent || intent.orderId !== order.id || intent.method !== 'card') throw new ApiError(404, PAYMENTS_CARD_TEXT.intentNotFound, 'intent_not_found');
  return intent;
}

/**
 * POST /api/payments/installments {orderId, paymentIntentId, paymentMethodId} (Stripe): puts the
 * card the shopper entered on the order's intent and answers the plans its issuer offers
 * (`{plans: []}` for debit and foreign cards, and below $300.00).
 */
export async function installmentPlans(request: Request, ctx: ServerContext): Promise<Response> {
  const card = stripeCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, paymentIntentId: providerIdSchema, paymentMethodId: providerIdSchema }));
  // Nothing is put on a card for an order that can no longer be paid.
  const order = await payableOrder(ctx, caller, body.orderId);
  const amount = orderAmount(order);
  await ownIntent(ctx, order, body.paymentIntentId);
  const owner = await provider(() => card.paymentMethodCustomer(body.paymentMethodId)).catch(() => null);
  if (owner !== null && owner !== (await ensureCustomer(ctx, caller))) throw new ApiError(403, PAYMENTS_CARD_TEXT.cardNotYours, 'forbidden');
  const updated = await provider(() => card.attachCard(body.paymentIntentId, body.paymentMethodId));
  return answer(answers.plansAnswer, { plans: planOptions(amount, updated.availablePlans ?? []) });
}

/**
 * POST /api/payments/installments/confirm {orderId, paymentIntentId, months} (Stripe): confirms the
 * intent with the chosen plan (null: 'Pago de contado') once the server has checked that the
 * provider offered it; a payment that succeeds is settled at once, one that needs the bank's
 * confirmation answers {status: 'requires_action', clientSecret} for Stripe.js.
 */
export async function confirmInstallments(request: Request, ctx: ServerContext): Promise<Response> {
  const card = stripeCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(
    request,
    z.object({ orderId: orderIdSchema, paymentIntentId: providerIdSchema, months: z.number().int().nullable().default(null) }),
  );
  // Nothing is charged for an order that can no longer be paid.
  const order = await payableOrder(ctx, caller, body.orderId);
  const intent = await ownIntent(ctx, order, body.paymentIntentId);
  if (body.months !== null && !planOptions(orderAmount(order), intent.availablePlans ?? []).some((p) => p.months === body.months)) {
    throw new ApiError(400, MEXICAN_PAYMENT_MESSAGES.invalidPlan, 'invalid_plan');
  }
  const returnUrl = `${ctx.siteUrl.replace(/\/+$/, '')}/checkout/${order.id}`;
  const confirmed = await provider(() => card.confirmWithPlan(intent.id, body.months, returnUrl));
  if (confirmed.status === 'requires_action')
    return answer(answers.installmentsConfirmAnswer, { status: 'requires_action', clientSecret: confirmed.clientSecret });
  if (confirmed.status !== 'succeeded') throw new ApiError(402, PAYMENTS_INSTALLMENTS_TEXT.failed, 'payment_failed');
  const settled = await settlePayment(ctx, intentPayment(card.name, { ...confirmed, orderId: order.id }), caller.email);
  return answer(answers.settlementAnswer, settlementAnswer(settled, order.id));
}
