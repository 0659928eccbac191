/**
 * POST /api/payments/store-credit: the checkout's 'Saldo a favor' tab. The database decides how
 * much of the caller's balance an order takes (apply_store_credit) and gives it back
 * (release_store_credit); this endpoint only asks and answers.
 */
import { z } from 'zod';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { STORE_CREDIT_MESSAGES } from '~/i18n/orders.ts';
import { PAYMENTS_BALANCE_OPERATOR_TEXT, PAYMENTS_BALANCE_TEXT, PAYMENTS_ORDER_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate } from '../http/auth.ts';
import { answer, ApiError, readJson } from '../http/json.ts';
import { closeOrderAttempts } from '../orders/open-attempts.ts';
import { ORDER_NOT_PAYABLE, ownOrder } from '../orders/order.ts';
import { sendOrderReceipt } from '../orders/settlement.ts';
import { orderIdSchema } from './guards.ts';
import * as answers from '~/domain/api-answers.ts';

const MESSAGES_BY_DETAIL: Record<string, [number, string]> = {
  order_not_found: [404, PAYMENTS_ORDER_TEXT.notFound],
  order_not_payable: [409, ORDER_NOT_PAYABLE],
  payment_in_progress: [409, PAYMENTS_BALANCE_TEXT.paymentInProgress],
  oxxo_voucher_open: [409, PAYMENTS_BALANCE_TEXT.oxxoVoucherOpen],
  no_credit: [409, STORE_CREDIT_MESSAGES.noCredit],
  insufficient_credit: [409, STORE_CREDIT_MESSAGES.insufficient],
};

/**
 * POST /api/payments/store-credit {orderId, use}: 'Usar saldo a favor' at the payment step. With
 * use = true the database applies as much of the caller's balance as the order still owes (all
 * of it: the order is 'Pagado' at once, and the receipt goes out); use = false gives back what
 * was applied to the pending order. The amount is never the browser's: the database decides it.
 */
export async function storeCreditPayment(
  request: Request,
  ctx: ServerContext,
  /** What follows an order the balance paid whole; default: its confirmation e-mail. */
  onPaid: (orderId: string, email: string | null) => Promise<void> = (orderId, email) => sendOrderReceipt(ctx, orderId, email),
): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema, use: z.boolean({ error: PAYMENTS_BALANCE_TEXT.useMissing }) }));
  const refuse = (error: { details?: string | null; message: string }) => {
    const known = MESSAGES_BY_DETAIL[error.details ?? ''];
    if (known) throw new ApiError(known[0], known[1], error.details!);
    throw new Error(PAYMENTS_BALANCE_OPERATOR_TEXT.failed(error.message));
  };
  if (!body.use) {
    // A card or PayPal payment for the rest must not go through once the balance is back: close
    // the order's open attempts at the provider first; one still being decided keeps the balance
    // on the order (release_store_credit refuses while an attempt is open).
    await ownOrder(ctx, caller, body.orderId);
    await closeOrderAttempts(ctx, body.orderId);
    const { data, error } = await ctx.admin.rpc('release_store_credit', { p_order_id: body.orderId, p_user: caller.id });
    if (error) refuse(error);
    return answer(answers.storeCreditAnswer, { orderId: body.orderId, released: Number(data ?? 0), status: ORDER_STATUS.pending });
  }
  const { data, error } = await ctx.admin.rpc('apply_store_credit', { p_order_id: body.orderId, p_user: caller.id });
  if (error) refuse(error);
  // apply_store_credit leaves the order pending, or pays it when the balance covers all of it.
  const appliedAnswer = z.object({ applied: z.number(), credit: z.number(), due: z.number(), status: z.enum([ORDER_STATUS.pending, ORDER_STATUS.paid]) });
  const applied = appliedAnswer.parse(data);
  if (applied.status === ORDER_STATUS.paid) await onPaid(body.orderId, caller.email);
  return answer(answers.storeCreditAnswer, { orderId: body.orderId, ...applied });
}
