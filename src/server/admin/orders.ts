/**
 * The back office's order actions, independent of Astro so tests can call them with a plain
 * Request. Status changes run the database function admin_set_order_status WITH THE ADMIN'S OWN
 * TOKEN, so the database (not this code) decides who may move an order and where to; the server
 * then queues the shopper's e-mail in the outbox. Refunds are orders/refunds.ts's (the ways that
 * fit an order, and the refund itself); these handlers check the admin and answer.
 */
import { z } from 'zod';
import { CARRIERS, ORDER_STATUS } from '~/domain/orders.ts';
import { REFUND_WAYS } from '~/domain/refunds.ts';
import { findOrder, findOrderForStatusEmail } from '../orders/order-row.ts';
import type { AdminContext, ServerContext } from '../context.ts';
import { answer, ApiError, readJson } from '../http/json.ts';
import { refundOptions, refundShopOrder, requireRefundable } from '../orders/refunds.ts';
import { requireAdmin } from '../http/auth.ts';
import { statusEmail } from '../mail/templates/order-status.ts';
import * as answers from '~/domain/api-answers.ts';
import { ADMIN_ORDERS_API_TEXT } from '~/i18n/admin.ts';

const UUID = z.string().uuid({ error: ADMIN_ORDERS_API_TEXT.invalidOrder });

const statusBody = z.object({
  status: z.enum([ORDER_STATUS.processing, ORDER_STATUS.shipped, ORDER_STATUS.completed, ORDER_STATUS.cancelled], {
    error: ADMIN_ORDERS_API_TEXT.invalidStatus,
  }),
  carrier: z.enum(CARRIERS, { error: ADMIN_ORDERS_API_TEXT.chooseCarrier }).optional().nullable(),
  trackingNumber: z
    .string({ error: ADMIN_ORDERS_API_TEXT.trackingNumber })
    .trim()
    .max(100, { error: ADMIN_ORDERS_API_TEXT.trackingNumberTooLong })
    .optional()
    .nullable(),
  note: z.string().trim().max(500, { error: ADMIN_ORDERS_API_TEXT.noteTooLong }).optional().nullable(),
});

/** What admin_set_order_status answers: the order after the change. */
const statusChange = z.object({ id: z.string(), status: z.string(), carrier: z.string().nullable(), tracking_number: z.string().nullable() });

function orderIdFrom(raw: string | undefined): string {
  const parsed = UUID.safeParse(raw ?? '');
  if (!parsed.success) throw new ApiError(404, ADMIN_ORDERS_API_TEXT.orderNotFound, 'order_not_found');
  return parsed.data;
}

/** The shopper's e-mail address, or null when the account is gone. */
async function customerEmail(ctx: ServerContext, userId: string): Promise<string | null> {
  const { data } = await ctx.admin.auth.admin.getUserById(userId);
  return data?.user?.email ?? null;
}

/** Queues the status e-mail once per order and status; a failure is logged, never thrown. */
export async function notifyShopper(ctx: ServerContext, orderId: string, status: string): Promise<void> {
  try {
    const order = await findOrderForStatusEmail(ctx, orderId);
    if (!order) return;
    const email = statusEmail(status, order, ctx.siteUrl);
    const to = await customerEmail(ctx, order.user_id);
    if (!email || !to) return;
    await ctx.mail({ to, ...email, kind: `order_${status.toLowerCase()}`, dedupeKey: `order_status:${order.id}:${status}` });
  } catch (failure) {
    console.error(`[correo] no se pudo avisar del pedido ${orderId} (${status})`, failure);
  }
}

/**
 * POST /api/admin/orders/{id}/status {status, carrier?, trackingNumber?, note?}: moves the order
 * through admin_set_order_status as the admin, then e-mails the shopper. A refusal of the
 * database (impossible transition, missing tracking number) is a 409 with its Spanish message.
 */
export async function setOrderStatus(request: Request, ctx: AdminContext, rawOrderId: string | undefined): Promise<Response> {
  const caller = await requireAdmin(request, ctx.admin);
  const orderId = orderIdFrom(rawOrderId);
  const body = await readJson(request, statusBody);
  const { data, error } = await ctx.asUser(caller.token).rpc('admin_set_order_status', {
    order_id: orderId,
    new_status: body.status,
    carrier: body.carrier ?? null,
    tracking_number: body.trackingNumber ?? null,
    note: body.note ?? null,
  });
  if (error) {
    if (error.code === '42501') throw new ApiError(403, error.message || ADMIN_ORDERS_API_TEXT.forbidden, 'forbidden');
    if (error.code === 'P0001') {
      const notFound = (error.details ?? '').includes('order_not_found');
      throw new ApiError(notFound ? 404 : 409, error.message, notFound ? 'order_not_found' : error.details || 'refused');
    }
    throw new Error(`admin_set_order_status: ${error.message}`);
  }
  const parsed = statusChange.safeParse(data);
  if (!parsed.success) throw new Error('admin_set_order_status: respuesta inesperada');
  const result = parsed.data;
  await notifyShopper(ctx, orderId, result.status);
  return answer(answers.orderStatusAnswer, { id: result.id, status: result.status, carrier: result.carrier, trackingNumber: result.tracking_number });
}

const refundBody = z.object({
  /**
   * provider: back through the provider that took it (card, PayPal); store_credit: to the
   * shopper's balance; bank_transfer: the shop transferred it (reference required). Default: the
   * order's first way (refundOptions: the provider, or the balance for cash at OXXO and orders
   * paid with the balance).
   */
  way: z.enum(REFUND_WAYS, { error: ADMIN_ORDERS_API_TEXT.invalidRefundWay }).optional(),
  reference: z.string().trim().max(100, { error: ADMIN_ORDERS_API_TEXT.referenceTooLong }).optional().nullable(),
  /** A shipped or completed order's units go back on sale only when the admin marks them returned. */
  restock: z.boolean().default(false),
});

/** The order to refund, or 404. */
async function orderToRefund(ctx: ServerContext, rawOrderId: string | undefined) {
  const order = await findOrder(ctx, orderIdFrom(rawOrderId));
  if (!order) throw new ApiError(404, ADMIN_ORDERS_API_TEXT.orderNotFound, 'order_not_found');
  return order;
}

/**
 * GET /api/admin/orders/{id}/refund: the ways this order can be refunded (the default first) and
 * whether its units' return must be asked; 409 with the reason when it cannot be refunded now.
 */
export async function refundOptionsOf(request: Request, ctx: AdminContext, rawOrderId: string | undefined): Promise<Response> {
  await requireAdmin(request, ctx.admin);
  const order = await orderToRefund(ctx, rawOrderId);
  requireRefundable(order);
  return answer(answers.refundOptionsAnswer, refundOptions(order));
}

/**
 * POST /api/admin/orders/{id}/refund {way?, reference?, restock?}: 'Cancelar y reembolsar' as
 * orders/refunds.ts does it (refundShopOrder), then the shopper's e-mail.
 */
export async function refundOrder(request: Request, ctx: AdminContext, rawOrderId: string | undefined): Promise<Response> {
  const caller = await requireAdmin(request, ctx.admin);
  const orderId = orderIdFrom(rawOrderId);
  const body = await readJson(request, refundBody);
  const order = await orderToRefund(ctx, orderId);
  const outcome = await refundShopOrder(ctx, order, { way: body.way, reference: body.reference, restock: body.restock, actor: caller.id });
  if (outcome.refund === 'succeeded') {
    await notifyShopper(ctx, order.id, ORDER_STATUS.refunded);
    return answer(answers.refundAnswer, { id: order.id, status: ORDER_STATUS.refunded, refund: 'succeeded', way: outcome.way });
  }
  if (outcome.refund === 'failed') {
    return answer(
      answers.refundAnswer,
      {
        id: order.id,
        status: order.status,
        refund: 'failed',
        message: ADMIN_ORDERS_API_TEXT.providerRefundFailed,
      },
      502,
    );
  }
  return answer(
    answers.refundAnswer,
    { id: order.id, status: outcome.orderStatus ?? order.status, refund: outcome.refund, message: ADMIN_ORDERS_API_TEXT.refundInProgress },
    202,
  );
}
