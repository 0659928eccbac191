/**
 * Every way the shop gives money back, in one place:
 * - which ways fit an order (refundOptions: the back office's dialog asks the server, through
 *   GET /api/admin/orders/{id}/refund, and the server refuses any other);
 * - the shop's refund of an order ('Cancelar y reembolsar', refundShopOrder): through the
 *   provider that took the money, to the shopper's balance, or as a bank transfer the shop made;
 * - a charge its order cannot take (late, duplicate, not what the order owes), refunded by
 *   settlement (settlement.ts) through its provider (refundCharge), or, for cash paid at OXXO,
 *   credited to the shopper's balance (creditOxxoPayment);
 * - the sweeper's retries of provider refunds that failed (retryDueRefunds).
 *
 * A charge is refunded at most once: the database hands the refund of one (provider, charge) to
 * exactly one caller (claim_refund, which for the shop's refund also locks the order and refuses
 * one already refunded or with a refund in progress), that caller asks the provider with an
 * idempotency key, and the outcome is recorded (complete_refund: the order becomes 'Reembolsado'
 * unless the refund only undid a duplicate payment; fail_refund: it stays in
 * payments_needing_attention and the sweeper retries it). A refund without the provider
 * (refund_order_without_provider) records the order's charge as refunded too, and cash at OXXO is
 * credited once per charge (store_credit_post).
 */
import { z } from 'zod';
import type { Centavos } from '~/domain/money.ts';
import { ORDER_STATUS, type OrderStatus } from '~/domain/orders.ts';
import { REFUND_MESSAGES } from '~/i18n/orders.ts';
import { paidWith } from '~/domain/payment-methods.ts';
import type { RefundOptions, RefundWay } from '~/domain/refunds.ts';
import { PAYMENTS_OXXO_CREDIT_NOTES, PAYMENTS_REFUND_OPERATOR_TEXT, PAYMENTS_REFUND_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import { oxxoCreditEmail } from '../mail/templates/oxxo-credit.ts';
import type { RefundInfo } from '../payments/providers/types.ts';
import { orderAmount } from './order.ts';
import { dueRefund, type OrderRow, pesosParam } from './order-row.ts';

/** What claim_refund answers: the refund row's id and whether this call claimed it. */
const claimAnswer = z.object({ id: z.string(), claimed: z.boolean() });

/** Why a charge is refunded (payment_refunds.reason). */
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
  if (charge.method === 'oxxo') throw new Error(PAYMENTS_REFUND_OPERATOR_TEXT.oxxoNotRefundable);
  if (card && card.name === charge.provider) return card.refundPayment(charge.ref, charge.amount, idempotencyKey);
  if (paypal && paypal.name === charge.provider) return paypal.refundCapture(charge.ref, charge.amount, idempotencyKey);
  throw new Error(PAYMENTS_REFUND_OPERATOR_TEXT.providerUnavailable(charge.provider));
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
    const next = data === 'manual' ? PAYMENTS_REFUND_OPERATOR_TEXT.manual : PAYMENTS_REFUND_OPERATOR_TEXT.retried;
    console.error(`[pagos] el reembolso (${reason}) del pedido ${charge.orderId}, cargo ${charge.provider} ${charge.ref}, falló; ${next}: ${message}`);
    return { status: 'failed', orderStatus: null };
  }
}

/**
 * A refusal the database raised on purpose (P0001, lock_order_for_refund and the refund
 * functions): 404 for an unknown order, else 409 with its Spanish message. Other errors pass.
 */
function refuseAsAdminReads(error: { code?: string; details?: string | null; message: string }): void {
  if (error.code !== 'P0001') return;
  throw new ApiError(error.details === 'order_not_found' ? 404 : 409, error.message, error.details || 'refused');
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
    refuseAsAdminReads(error);
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

// The shop's refund of an order ---------------------------------------------------------------

/** The statuses an order can be refunded from: paid and not yet refunded, cancelled or failed. */
const REFUNDABLE: readonly OrderStatus[] = [ORDER_STATUS.paid, ORDER_STATUS.processing, ORDER_STATUS.shipped, ORDER_STATUS.completed];

/** What the admin reads when the order was refunded already (another admin, another tab). */
export const ORDER_ALREADY_REFUNDED = PAYMENTS_REFUND_TEXT.alreadyRefunded;

/** What the admin reads when asking the provider to refund cash paid at OXXO. */
export const OXXO_PROVIDER_REFUND_REFUSED = PAYMENTS_REFUND_TEXT.oxxoProviderRefused;

/**
 * The ways an order can be refunded, the default first: a card or PayPal payment goes back
 * through its provider or to the shopper's balance; cash paid at OXXO, orders paid with the balance
 * and orders no provider can refund go to the balance or are recorded as a bank transfer (never a
 * provider refund).
 */
export function refundOptions(order: Pick<OrderRow, 'status' | 'payment_method' | 'payment_provider'>): RefundOptions {
  const method = paidWith({ method: order.payment_method, provider: order.payment_provider });
  const provider = method === 'card' || method === 'paypal' ? method : null;
  return {
    ways: provider ? ['provider', 'store_credit'] : ['store_credit', 'bank_transfer'],
    provider,
    asksForRestock: order.status === ORDER_STATUS.shipped || order.status === ORDER_STATUS.completed,
  };
}

/** Refuses (409) an order the shop cannot refund now, with the reason the admin reads. */
export function requireRefundable(order: Pick<OrderRow, 'status'>): void {
  if (order.status === ORDER_STATUS.refunded) throw new ApiError(409, ORDER_ALREADY_REFUNDED, 'order_refunded');
  if (!REFUNDABLE.includes(order.status)) {
    throw new ApiError(409, PAYMENTS_REFUND_TEXT.notRefundable(order.status), 'order_not_refundable');
  }
}

/** What the admin asked for: how, the transfer's reference, whether shipped units came back, who. */
export interface ShopRefund {
  /** Default: the order's first way (refundOptions). */
  way?: RefundWay;
  reference?: string | null;
  restock: boolean;
  /** The admin's user id, recorded with the refund. */
  actor: string;
}

/** What became of the shop's refund of an order. */
export type ShopRefundOutcome = { refund: 'succeeded'; way: RefundWay } | { refund: 'failed' | 'processing'; way: RefundWay; orderStatus: string | null };

/**
 * 'Cancelar y reembolsar': refunds an order once, in one of the ways that fit it. Card and PayPal
 * payments go back through their provider (or, by the admin's choice, to the balance); cash paid at
 * OXXO and balance-paid orders go to the balance or are recorded as a bank transfer. The database
 * locks the order and refuses one already refunded or with a refund in progress (409 with the
 * reason).
 */
export async function refundShopOrder(ctx: ServerContext, order: OrderRow, request: ShopRefund): Promise<ShopRefundOutcome> {
  requireRefundable(order);
  const options = refundOptions(order);
  const way = request.way ?? options.ways[0]!;
  if (!options.ways.includes(way)) {
    if (way === 'provider') {
      throw new ApiError(
        409,
        order.payment_method === 'oxxo' ? OXXO_PROVIDER_REFUND_REFUSED : PAYMENTS_REFUND_TEXT.paidWithBalance,
        'provider_refund_not_possible',
      );
    }
    throw new ApiError(409, PAYMENTS_REFUND_TEXT.wayNotPossible, 'refund_way_not_possible');
  }
  if (way !== 'provider') {
    const { error } = await ctx.admin.rpc('refund_order_without_provider', {
      p_order_id: order.id,
      p_way: way,
      p_restock: request.restock,
      p_actor: request.actor,
      ...(request.reference ? { p_reference: request.reference } : {}),
    });
    if (error) {
      refuseAsAdminReads(error);
      throw new Error(`refund_order_without_provider: ${error.message}`);
    }
    return { refund: 'succeeded', way };
  }
  if (!order.payment_provider || !order.payment_ref) {
    throw new ApiError(409, PAYMENTS_REFUND_TEXT.noPayment, 'no_payment');
  }
  const outcome = await refundCharge(
    ctx,
    {
      orderId: order.id,
      provider: order.payment_provider,
      ref: order.payment_ref,
      amount: orderAmount(order),
      method: order.payment_method ?? null,
      restock: request.restock,
    },
    'shop',
  );
  if (outcome.status === 'succeeded' && outcome.orderStatus === ORDER_STATUS.refunded) return { refund: 'succeeded', way };
  return { refund: outcome.status === 'failed' ? 'failed' : 'processing', way, orderStatus: outcome.orderStatus };
}

// Cash at OXXO its order cannot take ----------------------------------------------------------

/** What store_credit_post answers. */
const postAnswer = z.object({ id: z.number(), created: z.boolean(), balance: z.number() });

/** Why the charge did not go to its order (settlePayment's refund reasons). */
const OXXO_CREDIT_NOTES: Record<string, string> = PAYMENTS_OXXO_CREDIT_NOTES;

/**
 * Credits cash paid at OXXO that its order cannot take to the shopper's balance (cash cannot go
 * back through Stripe): once per charge, whoever reports it (webhook, sweeper, the simulated
 * store), and e-mails the shopper the first time. The balance itself changes only inside the
 * database (store_credit_post locks the shopper's account row).
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
    p_note: OXXO_CREDIT_NOTES[reason] ?? OXXO_CREDIT_NOTES.late_payment!,
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
