/**
 * The PayPal endpoints: the order's PayPal order (create), the simulated window's approval
 * (simulated mode only) and the capture, which takes the money only while the order can still be
 * paid and settles it through the one settlement path. PayPal's own notifications are
 * paypal-webhook.ts.
 */
import { z } from 'zod';
import { PAYMENTS_PAYPAL_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate, type Caller } from '../http/auth.ts';
import { answer, ApiError, readJson } from '../http/json.ts';
import { closeAttempt, recordAttempt } from '../orders/attempts.ts';
import { orderAmount, ownOrder, payableOrder, requirePayable, requireShippingAddress } from '../orders/order.ts';
import { capturePayment, settlePayment, settlementAnswer } from '../orders/settlement.ts';
import { orderIdSchema, provider, providerIdSchema, requirePayPal, simulatedPayPal } from './guards.ts';
import { paypalCaptureCompleted } from './providers/types.ts';
import * as answers from '~/domain/api-answers.ts';

/** POST /api/paypal/create-order {orderId}: one purchase unit, MXN, the order's total. */
export async function createPayPalOrder(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = requirePayPal(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const order = await payableOrder(ctx, caller, body.orderId);
  await requireShippingAddress(ctx, order);
  const amount = orderAmount(order);
  const created = await provider(() => paypal.createOrder({ orderId: order.id, amount, idempotencyKey: `paypal-${order.id}-${amount}` }));
  await recordAttempt(ctx, order.id, paypal.name, created.id);
  return answer(answers.paypalOrderAnswer, { id: created.id, status: created.status });
}

async function ownPayPalOrder(ctx: ServerContext, caller: Caller, paypalOrderId: string, orderIdValue: string) {
  const order = await ownOrder(ctx, caller, orderIdValue);
  const info = await provider(() => requirePayPal(ctx).getOrder(paypalOrderId));
  if (!info || info.orderId !== order.id) throw new ApiError(404, PAYMENTS_PAYPAL_TEXT.orderNotFound, 'paypal_order_not_found');
  return order;
}

/** POST /api/paypal/approve {orderId, paypalOrderId}: the simulated PayPal window's approval. */
export async function approveSimulatedPayPal(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = simulatedPayPal(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, paypalOrderId: providerIdSchema }));
  await ownPayPalOrder(ctx, caller, body.paypalOrderId, body.orderId);
  const approved = await provider(() => paypal.approve(body.paypalOrderId));
  return answer(answers.paypalOrderAnswer, { id: approved.id, status: approved.status });
}

/**
 * POST /api/paypal/capture-order {orderId, paypalOrderId}: captures only while the order can still
 * be paid (otherwise the PayPal order is voided and nothing is charged), then settles it; money
 * captured for an order that stopped being payable meanwhile is refunded.
 */
export async function capturePayPalOrder(request: Request, ctx: ServerContext): Promise<Response> {
  const paypal = requirePayPal(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, paypalOrderId: providerIdSchema }));
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
    throw new ApiError(402, PAYMENTS_PAYPAL_TEXT.error, 'paypal_not_completed');
  }
  const settled = await settlePayment(ctx, capturePayment(paypal.name, order.id, captured, body.paypalOrderId), caller.email);
  return answer(answers.settlementAnswer, settlementAnswer(settled, order.id));
}
