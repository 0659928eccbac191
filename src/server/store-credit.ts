/**
 * The shopper's balance ('saldo a favor') on the server: cash paid at OXXO that its order could not
 * take becomes a credit (once per charge, with an e-mail), and the checkout's 'Usar saldo a favor'.
 * The balance itself changes only inside the database (store_credit_post and the functions that
 * call it lock the shopper's account row), never here.
 */
import { z } from 'zod';
import { STORE_CREDIT_MESSAGES } from '../domain/store-credit.ts';
import { authenticate } from './http/auth.ts';
import type { OrderRow, ServerContext } from './checkout.ts';
import { ApiError, json, readJson } from './http/json.ts';
import { oxxoCreditEmail } from './mail/templates/store-credit.ts';

/** What store_credit_post answers. */
const postAnswer = z.object({ id: z.number(), created: z.boolean(), balance: z.number() });

/** Why the charge did not go to its order (settlePayment's refund reasons). */
const NOTES: Record<string, string> = {
  late_payment: 'Pago en OXXO recibido cuando el pedido ya no estaba reservado',
  duplicate: 'Segundo pago en OXXO de un pedido ya pagado',
  mismatch: 'Pago en OXXO que no coincide con el total del pedido',
  shop: 'Pago en OXXO reembolsado por la tienda',
};

/**
 * Credits cash paid at OXXO that its order cannot take to the shopper's balance: once per charge,
 * whoever reports it (webhook, sweeper, the simulated store), and e-mails the shopper the first time.
 */
export async function creditOxxoPayment(
  ctx: ServerContext,
  order: Pick<OrderRow, 'id' | 'user_id'>,
  charge: { provider: string; ref: string; amount: number },
  reason: string,
): Promise<{ created: boolean; balance: number }> {
  const { data, error } = await ctx.admin.rpc('store_credit_post', {
    p_user: order.user_id,
    p_amount: charge.amount,
    p_reason: 'oxxo_payment',
    p_order: order.id,
    p_provider: charge.provider,
    p_ref: charge.ref,
    p_note: NOTES[reason] ?? NOTES.late_payment!,
  });
  if (error) throw new Error(`store_credit_post: ${error.message}`);
  const posted = postAnswer.parse(data);
  if (posted.created) {
    console.warn(`[pagos] pago en OXXO ${charge.provider} ${charge.ref} del pedido ${order.id} abonado al saldo a favor (${reason})`);
    const { data: user } = await ctx.admin.auth.admin.getUserById(order.user_id);
    const to = user?.user?.email ?? null;
    if (to) {
      await ctx
        .mail({ to, ...oxxoCreditEmail({ orderId: order.id, amount: charge.amount, balance: posted.balance, siteUrl: ctx.siteUrl }), kind: 'store_credit', dedupeKey: `store_credit:${charge.provider}:${charge.ref}` })
        .catch((mailError: unknown) => console.error('[correo] no se pudo avisar del saldo a favor', mailError));
    }
  }
  return { created: posted.created, balance: posted.balance };
}

const MESSAGES_BY_DETAIL: Record<string, [number, string]> = {
  order_not_found: [404, 'Pedido no encontrado.'],
  order_not_payable: [409, 'Este pedido ya no se puede pagar: la reserva expiró o fue cancelado.'],
  oxxo_voucher_open: [409, 'Tienes una ficha de OXXO pendiente para este pedido. Págala o cancélala para usar tu saldo a favor.'],
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
  onPaid: (orderId: string, email: string | null) => Promise<void>,
): Promise<Response> {
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(
    request,
    z.object({ orderId: z.string({ error: 'Falta el pedido (orderId).' }).uuid({ error: 'El pedido (orderId) no es válido.' }), use: z.boolean({ error: 'Indica si usas tu saldo (use).' }) }),
  );
  const refuse = (error: { details?: string | null; message: string }) => {
    const known = MESSAGES_BY_DETAIL[error.details ?? ''];
    if (known) throw new ApiError(known[0], known[1], error.details!);
    throw new Error(`saldo a favor: ${error.message}`);
  };
  if (!body.use) {
    const { data, error } = await ctx.admin.rpc('release_store_credit', { p_order_id: body.orderId, p_user: caller.id });
    if (error) refuse(error);
    return json({ orderId: body.orderId, released: Number(data ?? 0), status: 'Pendiente' });
  }
  const { data, error } = await ctx.admin.rpc('apply_store_credit', { p_order_id: body.orderId, p_user: caller.id });
  if (error) refuse(error);
  const applied = z.object({ applied: z.number(), credit: z.number(), due: z.number(), status: z.string() }).parse(data);
  if (applied.status === 'Pagado') await onPaid(body.orderId, caller.email);
  return json({ orderId: body.orderId, ...applied });
}
