/**
 * 'Registrar llegada' of the back office's Preventas: the goods of a preorder campaign arrived.
 * The database (preorder_register_arrival) decides, in one transaction under the campaign's lock
 * and once per idempotency key, which paid preorders are filled, waitlisted or to be refunded;
 * this handler then refunds those through the shop's refund machinery (refundShopOrder: card and
 * PayPal back through their provider, cash at OXXO and balance payments to the shopper's balance)
 * and queues one e-mail per order through the outbox. Repeating the same arrival (a double click,
 * a retried request) allocates nothing again; it only finishes refunds and e-mails that did not
 * happen the first time (a refund already made is not repeated; an e-mail is queued once per key).
 * Should nobody repeat it, the sweeper finishes those refunds (finishArrivalRefunds).
 */
import { z } from 'zod';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { PREORDER_API_TEXT } from '~/i18n/preorders.ts';
import type { AdminContext, ServerContext } from '../context.ts';
import { ApiError, json, readJson } from '../http/json.ts';
import { requireAdmin } from '../http/auth.ts';
import { preorderAllocationEmail, type PreorderOutcome } from '../mail/templates/preorder-allocation.ts';
import { findOrder, type OrderRow } from '../orders/order-row.ts';
import { refundOptions, refundShopOrder } from '../orders/refunds.ts';

const UUID = z.string().uuid();

const arrivalBody = z.object({
  quantity: z
    .number({ error: PREORDER_API_TEXT.invalidQuantity })
    .int({ error: PREORDER_API_TEXT.invalidQuantity })
    .min(0, { error: PREORDER_API_TEXT.invalidQuantity })
    .max(1_000_000, { error: PREORDER_API_TEXT.invalidQuantity }),
  key: z.string({ error: PREORDER_API_TEXT.invalidKey }).min(8, { error: PREORDER_API_TEXT.invalidKey }).max(100, { error: PREORDER_API_TEXT.invalidKey }),
});

/** What preorder_register_arrival answers. */
const arrivalResult = z.object({
  arrival_id: z.string(),
  product_id: z.string(),
  received: z.number(),
  allocated: z.number(),
  to_stock: z.number(),
  replayed: z.boolean(),
  lines: z.array(
    z.object({
      order_id: z.string(),
      user_id: z.string(),
      quantity: z.number(),
      outcome: z.enum(['allocated', 'waitlisted', 'refunded']),
    }),
  ),
});
type ArrivalLine = z.infer<typeof arrivalResult>['lines'][number];

/** What became of one refund: done, still with the provider, or failed (left for the admin). */
type RefundState = 'succeeded' | 'processing' | 'failed';

/** The refund of an order whose preorder was not filled; an order refunded already (a replay) counts as done. */
async function refundUnfilled(ctx: ServerContext, order: OrderRow, actor: string): Promise<RefundState> {
  if (order.status === ORDER_STATUS.refunded) return 'succeeded';
  try {
    // The order's first way: the provider for card and PayPal, the balance for OXXO and balance payments.
    const outcome = await refundShopOrder(ctx, order, { restock: true, actor });
    return outcome.refund;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'order_refunded') return 'succeeded';
    console.error(`[preventas] no se pudo reembolsar el pedido ${order.id}`, error);
    return 'failed';
  }
}

/** Queues the shopper's e-mail once per arrival and order; a failure is logged, never thrown. */
async function mailShopper(ctx: ServerContext, arrivalId: string, productName: string, line: ArrivalLine, order: OrderRow | null): Promise<void> {
  try {
    const { data } = await ctx.admin.auth.admin.getUserById(line.user_id);
    const to = data?.user?.email;
    if (!to) return;
    const outcome: PreorderOutcome = line.outcome;
    const refund = outcome === 'refunded' && order ? { amount: order.total, toCredit: refundOptions(order).provider === null } : undefined;
    await ctx.mail({
      to,
      ...preorderAllocationEmail({ orderId: line.order_id, productName, quantity: line.quantity, outcome, refund, siteUrl: ctx.siteUrl }),
      kind: `preorder_${outcome}`,
      dedupeKey: `preorder:${arrivalId}:${line.order_id}`,
    });
  } catch (failure) {
    console.error(`[correo] no se pudo avisar de la preventa del pedido ${line.order_id}`, failure);
  }
}

/** Which preorders marked for refund by an arrival to look for, and in whose name to refund them. */
interface LeftBehind {
  /** One campaign's (an arrival's request), or every campaign's (the sweeper). */
  campaignId?: string;
  /** Only arrivals registered before this instant (the sweeper leaves a request in progress alone). */
  registeredBefore?: string;
  /** The admin refunding; by default the admin who registered the arrival. */
  actor?: string;
  limit: number;
}

/**
 * Orders an arrival marked for refund that are still paid (the server stopped before refunding
 * them, or the provider failed before the refund was even recorded): refunded and e-mailed now,
 * once. Orders with a refund already under way are the refund retries' (retryDueRefunds).
 */
async function finishRefundsLeftBehind(
  ctx: ServerContext,
  which: LeftBehind,
  handled: ReadonlySet<string>,
  refunds: Record<RefundState, number>,
): Promise<void> {
  let query = ctx.admin
    .from('preorder_lines')
    .select('order_id, user_id, quantity, product_id, arrival_id, orders!inner(status), preorder_arrivals!inner(actor, created_at)')
    .eq('status', 'refunded')
    .in('orders.status', [ORDER_STATUS.paid, ORDER_STATUS.processing]);
  if (which.campaignId) query = query.eq('campaign_id', which.campaignId);
  if (which.registeredBefore) query = query.lt('preorder_arrivals.created_at', which.registeredBefore);
  const { data, error } = await query.limit(which.limit);
  if (error) throw new Error(`preorder_lines: ${error.message}`);
  const rows = (data ?? []).filter((row) => !handled.has(row.order_id) && row.arrival_id);
  if (rows.length === 0) return;
  const orderIds = rows.map((row) => row.order_id);
  const { data: underway, error: refundsError } = await ctx.admin.from('payment_refunds').select('order_id').in('order_id', orderIds);
  if (refundsError) throw new Error(`payment_refunds: ${refundsError.message}`);
  const skip = new Set((underway ?? []).map((refund) => refund.order_id));
  const { data: products } = await ctx.admin
    .from('products')
    .select('id, name')
    .in('id', [...new Set(rows.map((row) => row.product_id))]);
  const names = new Map((products ?? []).map((product) => [product.id, product.name]));
  for (const row of rows) {
    const actor = which.actor ?? row.preorder_arrivals.actor;
    if (skip.has(row.order_id) || !actor) continue;
    const order = await findOrder(ctx, row.order_id);
    if (!order || (order.status !== ORDER_STATUS.paid && order.status !== ORDER_STATUS.processing)) continue;
    refunds[await refundUnfilled(ctx, order, actor)] += 1;
    const line: ArrivalLine = { order_id: row.order_id, user_id: row.user_id, quantity: row.quantity, outcome: 'refunded' };
    await mailShopper(ctx, row.arrival_id!, names.get(row.product_id) ?? row.product_id, line, order);
  }
}

/** How long an arrival's own request has to refund its orders before the sweeper does it. */
const ARRIVAL_REQUEST_GRACE_MS = 5 * 60_000;

/**
 * The sweeper's part (src/server/sweeper.ts): preorders an arrival marked for refund more than five
 * minutes ago that are still paid, because the server stopped in the middle of 'Registrar llegada'
 * and nobody repeated it, are refunded in the name of the admin who registered it, and the shopper
 * is e-mailed once. A charge thus never stays paid for goods that will not come.
 */
export async function finishArrivalRefunds(ctx: ServerContext, limit = 20): Promise<Record<RefundState, number>> {
  const refunds: Record<RefundState, number> = { succeeded: 0, processing: 0, failed: 0 };
  const registeredBefore = new Date(Date.now() - ARRIVAL_REQUEST_GRACE_MS).toISOString();
  await finishRefundsLeftBehind(ctx, { registeredBefore, limit }, new Set(), refunds);
  return refunds;
}

/** The database's refusal as the admin reads it: 404 for an unknown campaign, else 409 (400 for bad input). */
function refusal(error: { code?: string; details?: string | null; message: string }): Error {
  if (error.code === '42501') return new ApiError(403, PREORDER_API_TEXT.noAccess, 'forbidden');
  if (error.code !== 'P0001') return new Error(`preorder_register_arrival: ${error.message}`);
  const code = error.details ?? 'refused';
  if (code === 'campaign_not_found') return new ApiError(404, PREORDER_API_TEXT.campaignNotFound, code);
  if (code === 'invalid_quantity' || code === 'invalid_key') return new ApiError(400, error.message, code);
  return new ApiError(409, error.message, code);
}

/**
 * POST /api/admin/preorders/{id}/arrival {quantity, key}: registers the arrival, refunds the
 * preorders it could not fill (those not on the waitlist) and e-mails every shopper it decided for.
 */
export async function registerArrival(request: Request, ctx: AdminContext, rawCampaignId: string | undefined): Promise<Response> {
  const caller = await requireAdmin(request, ctx.admin, PREORDER_API_TEXT.noAccess);
  const campaignId = UUID.safeParse(rawCampaignId ?? '');
  if (!campaignId.success) throw new ApiError(404, PREORDER_API_TEXT.campaignNotFound, 'campaign_not_found');
  const body = await readJson(request, arrivalBody);
  const { data, error } = await ctx.admin.rpc('preorder_register_arrival', {
    p_campaign_id: campaignId.data,
    p_quantity: body.quantity,
    p_key: body.key,
    p_actor: caller.id,
  });
  if (error) throw refusal(error);
  const result = arrivalResult.parse(data);
  const { data: product } = await ctx.admin.from('products').select('name').eq('id', result.product_id).maybeSingle();
  const productName = product?.name ?? result.product_id;

  const refunds: Record<RefundState, number> = { succeeded: 0, processing: 0, failed: 0 };
  for (const line of result.lines) {
    const order = line.outcome === 'refunded' ? await findOrder(ctx, line.order_id) : null;
    if (line.outcome === 'refunded' && order) refunds[await refundUnfilled(ctx, order, caller.id)] += 1;
    await mailShopper(ctx, result.arrival_id, productName, line, order);
  }
  const handled = new Set(result.lines.map((line) => line.order_id));
  await finishRefundsLeftBehind(ctx, { campaignId: campaignId.data, actor: caller.id, limit: 200 }, handled, refunds);
  const count = (outcome: PreorderOutcome) => result.lines.filter((line) => line.outcome === outcome).length;
  return json({
    arrivalId: result.arrival_id,
    replayed: result.replayed,
    received: result.received,
    allocatedUnits: result.allocated,
    toStock: result.to_stock,
    orders: { allocated: count('allocated'), waitlisted: count('waitlisted'), refunded: count('refunded') },
    refunds,
  });
}
