/**
 * The one path that turns money a provider confirmed into a paid order, or, when the order can no
 * longer take it, into a refund (cash at OXXO: into the shopper's balance), and the confirmation
 * e-mail of a paid order. Every payment endpoint, both webhooks and the sweeper settle through it.
 */
import type { CardFunding } from '~/domain/invoices.ts';
import { type Centavos, centavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { oxxoCreditedMessage } from '~/domain/store-credit.ts';
import { PAYMENTS_ORDER_TEXT, PAYMENTS_SETTLEMENT_OPERATOR_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { ApiError } from '../http/json.ts';
import { receiptEmail } from '../mail/templates/receipt.ts';
import type { IntentInfo, PayPalOrderInfo } from '../payments/providers/types.ts';
import { closeAttempt } from './attempts.ts';
import { findOrder, findOrderLines, type OrderRow } from './order-row.ts';
import { creditOxxoPayment, refundCharge, REFUND_MESSAGES, type RefundReason } from './refunds.ts';

/** Outcome of settling a payment. */
export interface Settlement {
  status: string;
  /** True when this call marked the order paid (false when it already was, or it was refunded). */
  changed: boolean;
  /** Set when the money was refunded instead (late payment, duplicate, amount mismatch). */
  refunded: RefundReason | null;
  /** True when that money went to the shopper's balance (cash at OXXO cannot be refunded). */
  credited?: boolean;
  /** Centavos of the payment that did not go to the order (refunded or credited). */
  amount?: Centavos;
  /** 'succeeded' or, when the provider refused for now, 'failed' (retried by the sweeper). */
  refundStatus?: string;
}

/** A payment a provider confirmed: whose order, which provider, the charge and what it took. */
export interface ConfirmedPayment {
  orderId: string;
  /** As orders.payment_provider records it: stripe, paypal, simulated-card, simulated-paypal. */
  provider: string;
  /** The charge: Stripe PaymentIntent id, PayPal capture id. */
  ref: string;
  /** Null when the provider did not say. */
  amount: Centavos | null;
  currency: string | null;
  /** The payment attempt it completes (PaymentIntent or PayPal order id); default ref. */
  attemptRef?: string;
  /** How it was paid (orders.payment_method), as the provider reports it. */
  method?: 'card' | 'oxxo' | 'paypal' | null;
  /** The months of the 'meses sin intereses' plan the provider confirmed; null: a single payment. */
  installments?: number | null;
  /** The funding of the card that paid, as the provider reports it on the charge; null: not a card, or not said. */
  funding?: CardFunding | null;
}

/**
 * A card provider's intent as a payment to settle: the amount, currency and method the provider
 * reports (the method from the charge that paid), never the browser's.
 */
export function intentPayment(provider: string, intent: IntentInfo & { orderId: string }): ConfirmedPayment {
  return {
    orderId: intent.orderId,
    provider,
    ref: intent.id,
    amount: intent.amount,
    currency: intent.currency,
    method: intent.method ?? null,
    installments: intent.installments ?? null,
    funding: intent.funding ?? null,
  };
}

/**
 * A PayPal capture as a payment to settle: the capture (its PayPal order until there is one), the
 * amount and currency PayPal reports, and the PayPal order it completes.
 */
export function capturePayment(
  provider: string,
  orderId: string,
  capture: Pick<PayPalOrderInfo, 'id' | 'captureId' | 'amount' | 'currency'>,
  attemptRef: string,
): ConfirmedPayment {
  return { orderId, provider, ref: capture.captureId ?? capture.id, amount: capture.amount, currency: capture.currency, attemptRef };
}

/**
 * Turns money a provider confirmed into a paid order: only when the payment is for this order, in
 * MXN, for exactly what it still owes, and the order can still take it (mark_order_paid decides,
 * under the order's lock). Otherwise the money goes back through the provider (once, whoever else
 * settles the same charge; cash at OXXO to the shopper's balance) and the order records it. A
 * charge that is the order's recorded payment is settled once and for all: a repeated
 * confirmation, webhook, capture or sweep changes nothing, refunds nothing and sends no second
 * e-mail, even after the order was refunded without the provider.
 */
export async function settlePayment(
  ctx: ServerContext,
  payment: ConfirmedPayment,
  /** The buyer's e-mail when the caller is the buyer (webhooks look it up instead). */
  recipient: string | null = null,
): Promise<Settlement> {
  const order = await findOrder(ctx, payment.orderId);
  if (!order) throw new ApiError(404, PAYMENTS_ORDER_TEXT.notFound, 'order_not_found');
  const attemptRef = payment.attemptRef ?? payment.ref;
  const refund = async (reason: RefundReason): Promise<Settlement> => {
    if (payment.amount === null || payment.amount <= 0) throw new Error(PAYMENTS_SETTLEMENT_OPERATOR_TEXT.noAmount(payment.ref));
    if (payment.method === 'oxxo') {
      // Cash paid at OXXO cannot be refunded: it becomes the shopper's balance.
      await creditOxxoPayment(ctx, order, { provider: payment.provider, ref: payment.ref, amount: payment.amount }, reason);
      await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
      const after = await findOrder(ctx, order.id);
      return { status: after?.status ?? order.status, changed: false, refunded: reason, credited: true, amount: payment.amount };
    }
    const outcome = await refundCharge(ctx, { orderId: order.id, provider: payment.provider, ref: payment.ref, amount: payment.amount }, reason);
    await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
    const after = await findOrder(ctx, order.id);
    return { status: after?.status ?? order.status, changed: false, refunded: reason, refundStatus: outcome.status, amount: payment.amount };
  };
  // Everything is decided in mark_order_paid under the order's row lock: this charge is the
  // order's recorded payment (settled already, whatever the order's status is now), it pays the
  // order, or it must go back (cancelled order, paid by another charge, not what the order owes).
  const { data, error } = await ctx.admin.rpc('mark_order_paid', {
    order_id: order.id,
    provider: payment.provider,
    ref: payment.ref,
    amount: payment.amount,
    currency: payment.currency ?? '',
  });
  if (error) {
    const detail = error.details ?? '';
    if (detail.includes('order_cancelled')) return refund('late_payment');
    if (detail.includes('order_paid_other')) return refund('duplicate');
    // A drop's units for this delivery address were taken by other accounts while this order's
    // reservation lapsed (mark_order_paid judges the address again): the charge goes back.
    if (detail.includes('drop_address_limit')) return refund('late_payment');
    if (detail.includes('amount_mismatch')) {
      console.error(`[pagos] el cargo ${payment.provider} ${payment.ref} (${payment.amount} ${payment.currency}) no coincide con el pedido ${order.id}`);
      return refund('mismatch');
    }
    throw new Error(`mark_order_paid: ${error.message}`);
  }
  if (data !== true) {
    // The order's own payment, settled before: nothing to do, nothing to refund or credit again.
    await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
    const current = await findOrder(ctx, order.id);
    return { status: current?.status ?? order.status, changed: false, refunded: null };
  }
  await closeAttempt(ctx, payment.provider, attemptRef, 'succeeded');
  if (payment.method) {
    // What the provider confirmed, never what the browser asked for.
    const { error: methodError } = await ctx.admin
      .from('orders')
      .update({
        payment_method: payment.method,
        installments: payment.method === 'card' && payment.installments ? payment.installments : null,
        // The factura's forma de pago follows the card's funding ('04' credit, '28' debit).
        card_funding: payment.method === 'card' ? (payment.funding ?? null) : null,
      })
      .eq('id', order.id);
    if (methodError) console.error(`[pagos] no se pudo guardar el método de pago del pedido ${order.id}: ${methodError.message}`);
  }
  const after = await findOrder(ctx, order.id);
  // The order is paid whatever happens to the e-mail; a mail failure is only logged.
  await sendReceipt(ctx, after ?? order, recipient).catch((mailError: unknown) => console.error('[correo] no se pudo enviar la confirmación', mailError));
  return { status: after?.status ?? ORDER_STATUS.paid, changed: true, refunded: null };
}

/** The endpoint's answer for a settlement: 409 with the shopper's message when it was refunded. */
export function settlementAnswer(settled: Settlement, orderId: string): { orderId: string; status: string; changed: boolean } {
  if (settled.credited) {
    throw new ApiError(409, oxxoCreditedMessage(settled.amount ?? centavos(0)), 'order_credited');
  }
  if (settled.refunded && settled.refunded !== 'shop') {
    throw new ApiError(409, REFUND_MESSAGES[settled.refunded], 'order_refunded');
  }
  return { orderId, status: settled.status, changed: settled.changed };
}

/** The confirmation e-mail of an order just paid without a provider (the whole of it with the balance). */
export async function sendOrderReceipt(ctx: ServerContext, orderId: string, recipient: string | null): Promise<void> {
  const order = await findOrder(ctx, orderId);
  if (!order) return;
  await sendReceipt(ctx, order, recipient).catch((mailError: unknown) => console.error('[correo] no se pudo enviar la confirmación', mailError));
}

async function sendReceipt(ctx: ServerContext, order: OrderRow, recipient: string | null): Promise<void> {
  let email = recipient;
  if (!email) {
    const { data: userData } = await ctx.admin.auth.admin.getUserById(order.user_id);
    email = userData?.user?.email ?? null;
  }
  if (!email) return;
  const lines = await findOrderLines(ctx, order.id);
  // The order's own copy: what the shopper chose at payment, whatever the address book says now,
  // addressed to the account's name.
  const { data: profile } = await ctx.admin.from('profiles').select('name, lastname').eq('id', order.user_id).maybeSingle();
  const recipientName =
    [profile?.name, profile?.lastname]
      .map((part) => part?.trim() ?? '')
      .filter((part) => part !== '')
      .join(' ') || null;
  await ctx.mail({
    to: email,
    ...receiptEmail({
      ...order,
      lines,
      address: order.shipping_address,
      recipient: recipientName,
      siteUrl: ctx.siteUrl,
      installments: order.installments ?? null,
      method: order.payment_method ?? null,
    }),
    kind: 'order_paid',
    dedupeKey: `order_paid:${order.id}`,
  });
}
