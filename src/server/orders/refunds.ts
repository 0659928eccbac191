/**
 * Refunds through the provider that took the money. A charge is refunded at most once: the
 * database hands the refund of one (provider, charge) to exactly one caller (claim_refund), that
 * caller asks the provider with an idempotency key, and the outcome is recorded
 * (complete_refund: the order becomes 'Reembolsado' unless the refund only undid a duplicate
 * payment; fail_refund: it stays in payments_needing_attention and the sweeper retries it).
 */
import { z } from 'zod';
import type { Centavos } from '~/domain/money.ts';
import { REFUND_MESSAGES } from '~/domain/orders.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import type { RefundInfo } from '../payments/providers/types.ts';
import { dueRefund, pesosParam } from './order-row.ts';

/** Why a charge is refunded (payment_refunds.reason). */

/** What claim_refund answers: the refund row's id and whether this call claimed it. */
const claimAnswer = z.object({ id: z.string(), claimed: z.boolean() });

export type RefundReason = 'late_payment' | 'duplicate' | 'mismatch' | 'shop';

/** A charge to give back in full. */
export interface Charge {
  orderId: string;
  /** The provider as orders record it: stripe, paypal, simulated-card, simulated-paypal. */
  provider: string;
  /** Stripe PaymentIntent id or PayPal capture id. */
  ref: string;
  amount: Centavos;
  /** How it was paid, when known: an 'oxxo' charge is never sent to the provider (not refundable). */
  method?: string | null;
  /** Whether a shipped order's units go back on sale with the refund (the admin marked them returned). */
  restock?: boolean;
}

/** Refunds stop being retried after this many attempts and wait for a person ('Requiere atención manual'). */
export const MAX_REFUND_ATTEMPTS = 8;

/** The providers this server can refund through (the sweeper retries only theirs). */
export function refundProviders(ctx: ServerContext): string[] {
  return [ctx.payments.card?.name, ctx.payments.paypal?.name].filter((name): name is NonNullable<typeof name> => Boolean(name));
}

/** What became of a refund. */
export interface RefundOutcome {
  /** 'succeeded', 'failed' (will be retried), or 'processing' (another caller has it). */
  status: 'succeeded' | 'failed' | 'processing';
  /** The order's status afterwards ('Reembolsado' unless only a duplicate was refunded). */
  orderStatus: string | null;
}

export { REFUND_MESSAGES };

/** Asks the charge's provider for the refund; throws when it cannot (the caller records it). */
async function providerRefund(ctx: ServerContext, charge: Charge, idempotencyKey: string): Promise<RefundInfo> {
  const { card, paypal } = ctx.payments;
  if (charge.method === 'oxxo') throw new Error('los pagos en efectivo en OXXO no se pueden reembolsar por el proveedor');
  if (card && card.name === charge.provider) return card.refundPayment(charge.ref, charge.amount, idempotencyKey);
  if (paypal && paypal.name === charge.provider) return paypal.refundCapture(charge.ref, charge.amount, idempotencyKey);
  throw new Error(`el proveedor ${charge.provider} no está disponible en este servidor`);
}

/** Runs one claimed refund against the provider and records the outcome. */
async function runRefund(ctx: ServerContext, refundId: string, charge: Charge, reason: string): Promise<RefundOutcome> {
  try {
    const refund = await providerRefund(ctx, charge, `refund-${charge.provider}-${charge.ref}`);
    const { data, error } = await ctx.admin.rpc('complete_refund', { p_refund_id: refundId, p_refund_ref: refund.id });
    if (error) throw new Error(`complete_refund: ${error.message}`);
    console.warn(
      `[pagos] reembolso (${reason}) del pedido ${charge.orderId}: cargo ${charge.provider} ${charge.ref}, reembolso ${refund.id} (${refund.status})`,
    );
    return { status: 'succeeded', orderStatus: typeof data === 'string' ? data : null };
  } catch (failure) {
    const message = failure instanceof Error ? failure.message : String(failure);
    const { data, error } = await ctx.admin.rpc('fail_refund', { p_refund_id: refundId, p_error: message, p_max_attempts: MAX_REFUND_ATTEMPTS });
    if (error) console.error(`[pagos] fail_refund: ${error.message}`);
    const next = data === 'manual' ? 'requiere atención manual' : 'se reintentará';
    console.error(`[pagos] el reembolso (${reason}) del pedido ${charge.orderId}, cargo ${charge.provider} ${charge.ref}, falló; ${next}: ${message}`);
    return { status: 'failed', orderStatus: null };
  }
}

/** Refunds a charge in full, once, whoever else tries at the same time. */
export async function refundCharge(ctx: ServerContext, charge: Charge, reason: RefundReason): Promise<RefundOutcome> {
  const { data, error } = await ctx.admin.rpc('claim_refund', {
    p_order_id: charge.orderId,
    p_provider: charge.provider,
    p_payment_ref: charge.ref,
    p_amount: pesosParam(charge.amount),
    p_reason: reason,
    p_restock: charge.restock === true,
  });
  if (error) {
    // The shop's refund of an order already refunded, or with a refund in progress: the admin is told why.
    if (error.code === 'P0001' && error.details) throw new ApiError(error.details === 'order_not_found' ? 404 : 409, error.message, error.details);
    throw new Error(`claim_refund: ${error.message}`);
  }
  const claim = claimAnswer.parse(data);
  if (!claim.claimed) {
    const { data: row } = await ctx.admin.from('payment_refunds').select('status').eq('id', claim.id).maybeSingle();
    const { data: order } = await ctx.admin.from('orders').select('status').eq('id', charge.orderId).maybeSingle();
    const status = row?.status;
    return {
      status: status === 'succeeded' ? status : status === 'failed' || status === 'manual' ? 'failed' : 'processing',
      orderStatus: order?.status ?? null,
    };
  }
  return runRefund(ctx, claim.id, charge, reason);
}

/** Retries the refunds that are due (failed earlier, or stuck); returns how many went through. */
export async function retryDueRefunds(ctx: ServerContext, limit = 20): Promise<{ retried: number; succeeded: number }> {
  const { data, error } = await ctx.admin.rpc('claim_due_refunds', { p_limit: limit, p_providers: refundProviders(ctx) });
  if (error) throw new Error(`claim_due_refunds: ${error.message}`);
  const rows = data ?? [];
  let succeeded = 0;
  for (const row of rows) {
    const due = dueRefund(row);
    const outcome = await runRefund(ctx, due.id, due.charge, due.reason);
    if (outcome.status === 'succeeded') succeeded += 1;
  }
  return { retried: rows.length, succeeded };
}
