/**
 * The shopper's balance ('saldo a favor') as settlement feeds it: cash paid at OXXO that its order
 * could not take becomes a credit, once per charge, with an e-mail. The balance itself changes
 * only inside the database (store_credit_post and the functions that call it lock the shopper's
 * account row), never here; the checkout spends it through payments/store-credit.ts.
 */
import { z } from 'zod';
import type { ServerContext } from '../context.ts';
import { oxxoCreditEmail } from '../mail/templates/store-credit.ts';
import type { OrderRow } from './order-row.ts';

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
        .mail({
          to,
          ...oxxoCreditEmail({ orderId: order.id, amount: charge.amount, balance: posted.balance, siteUrl: ctx.siteUrl }),
          kind: 'store_credit',
          dedupeKey: `store_credit:${charge.provider}:${charge.ref}`,
        })
        .catch((mailError: unknown) => console.error('[correo] no se pudo avisar del saldo a favor', mailError));
    }
  }
  return { created: posted.created, balance: posted.balance };
}
