/**
 * Chargebacks (PayPal's PAYMENT.CAPTURE.REVERSED, Stripe's charge.dispute.created) on orders that
 * used the shopper's balance ('saldo a favor', orders.credit_applied > 0). The card or PayPal part
 * goes back to the shopper through the provider; the balance part is not handed back to spend at
 * once: it is held and listed in 'Reembolsos por revisar' (admin_refunds_to_review) until an admin
 * decides to return it or keep it (admin_resolve_chargeback). The database records each chargeback
 * once (by the provider's id of it) and never returns the balance of an order with one by itself.
 */
import { z } from 'zod';
import { type Centavos, formatCentavos } from '~/domain/money.ts';
import { PAYMENTS_CHARGEBACK_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { pesosParam } from '../orders/order-row.ts';

/** A chargeback the provider confirmed, on one of the shop's orders. */
export interface Chargeback {
  orderId: string;
  provider: string;
  /** The charge taken back (the order's payment_ref: Stripe's intent, PayPal's capture). */
  paymentRef: string;
  /** The provider's id of the chargeback (Stripe's dispute, PayPal's reversal). */
  disputeRef: string;
  /** What the provider takes back, when it says. */
  amount: Centavos | null;
  /** The part of the order paid with the balance. */
  creditApplied: Centavos;
  /** What happened, for the back office (Spanish). */
  note: string;
}

const recordAnswer = z.object({ id: z.string().nullable(), recorded: z.boolean() });

/**
 * Records a chargeback of an order that used the balance, so that balance is held for an admin.
 * True when the order's balance is held (now or by an earlier delivery of the same chargeback);
 * false when the order used no balance (nothing to hold).
 */
export async function recordChargeback(ctx: ServerContext, chargeback: Chargeback): Promise<boolean> {
  if (chargeback.creditApplied <= 0) return false;
  const note = PAYMENTS_CHARGEBACK_TEXT.balanceHeld(chargeback.note, formatCentavos(chargeback.creditApplied));
  const { data, error } = await ctx.admin.rpc('record_chargeback', {
    p_order_id: chargeback.orderId,
    p_provider: chargeback.provider,
    p_payment_ref: chargeback.paymentRef,
    p_dispute_ref: chargeback.disputeRef,
    ...(chargeback.amount === null ? {} : { p_amount: pesosParam(chargeback.amount) }),
    p_note: note,
  });
  if (error) throw new Error(`record_chargeback: ${error.message}`);
  const answer = recordAnswer.parse(data);
  if (answer.recorded) {
    console.warn(`[contracargo] ${chargeback.provider} ${chargeback.disputeRef} del pedido ${chargeback.orderId}: saldo a favor retenido para revisión`);
  }
  return answer.id !== null;
}
