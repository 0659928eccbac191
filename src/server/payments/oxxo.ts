/**
 * Cash at OXXO: the order's voucher (created and confirmed at the card provider, kept on the order,
 * e-mailed once), the shopper's cancellation of it, and what Stripe's notifications about it do
 * (settle it, or release the order it reserved). The order stays 'Pendiente' and reserved while
 * the voucher can still be paid, two business days past its deadline.
 */
import { z } from 'zod';
import { oxxoAllowed, oxxoReservationEnd, oxxoVoucherDays } from '~/domain/mexican-payments.ts';
import { MEXICAN_PAYMENT_MESSAGES } from '~/i18n/checkout.ts';
import { type Centavos, centavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { PAYMENTS_CARD_TEXT, PAYMENTS_OXXO_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { authenticate, type Caller } from '../http/auth.ts';
import { answer, ApiError, readJson } from '../http/json.ts';
import { oxxoVoucherEmail } from '../mail/templates/oxxo-voucher.ts';
import { closeAttempt, recordAttempt } from '../orders/attempts.ts';
import { ORDER_NOT_PAYABLE, ownOrder, requireShippingAddress } from '../orders/order.ts';
import { findOrder, type OrderRow } from '../orders/order-row.ts';
import { intentPayment, settlePayment, settlementAnswer } from '../orders/settlement.ts';
import { ensureCustomer } from './customers.ts';
import { orderIdSchema, provider, requireCard } from './guards.ts';
import { SimulatedCardProvider } from './providers/simulated-card.ts';
import type { IntentInfo, OxxoVoucher } from './providers/types.ts';
import * as answers from '~/domain/api-answers.ts';

/** The voucher as the order keeps it (orders.oxxo_voucher) and the endpoint answers it. */
export type StoredVoucher = Pick<OxxoVoucher, keyof OxxoVoucher> & {
  paymentIntentId: string;
};

/** The voucher kept on the order (orders.oxxo_voucher, JSON). */
const storedVoucherSchema = z.object({
  reference: z.string(),
  expiresAt: z.string(),
  paymentIntentId: z.string(),
  amount: z.coerce.number(),
  hostedVoucherUrl: z.string().nullish(),
});

function storedVoucher(order: OrderRow): StoredVoucher | null {
  const parsed = storedVoucherSchema.safeParse(order.oxxo_voucher);
  if (!parsed.success) return null;
  const v = parsed.data;
  return {
    reference: v.reference,
    expiresAt: v.expiresAt,
    amount: centavos(v.amount),
    hostedVoucherUrl: v.hostedVoucherUrl ?? null,
    paymentIntentId: v.paymentIntentId,
  };
}

/** The name Stripe prints on the voucher: the profile's name, else its username, else the e-mail's. */
async function payerName(ctx: ServerContext, caller: Caller): Promise<string> {
  const { data } = await ctx.admin.from('profiles').select('name, lastname, username').eq('id', caller.id).maybeSingle();
  const full = [data?.name, data?.lastname]
    .filter((p) => typeof p === 'string' && p.trim() !== '')
    .join(' ')
    .trim();
  return full || data?.username?.trim() || (caller.email ?? '').split('@')[0] || PAYMENTS_OXXO_TEXT.customerFallback;
}

/** The simulated store counter of a voucher: its page shows the voucher and 'Simular pago en OXXO'. */
function simulatedCounterUrl(ctx: ServerContext, intentId: string, token: string): string {
  return `${ctx.siteUrl.replace(/\/+$/, '')}/api/payments/simulated/oxxo/${intentId}?token=${token}`;
}

/**
 * The voucher's days for this order: 1 when a line's product (a single card's line: its offer) has
 * 5 units or fewer left or is a preorder (stock held for days at no cost is stock other shoppers
 * cannot buy), else 3.
 */
async function voucherDays(ctx: ServerContext, orderId: string): Promise<number> {
  const { data, error } = await ctx.admin.from('order_items').select('products(stock, preorder), card_offers(stock)').eq('order_id', orderId);
  if (error) throw new Error(`order_items: ${error.message}`);
  return oxxoVoucherDays((data ?? []).map((row) => ({ stock: row.card_offers?.stock ?? row.products?.stock ?? 0, preorder: row.products?.preorder === true })));
}

/** PostgreSQL's unique_violation: here, a second open voucher of one shopper (orders_one_open_oxxo_voucher). */
const UNIQUE_VIOLATION = '23505';

/**
 * Refuses (409) a second open voucher: a shopper holds stock with at most one at a time. This
 * early check spares a call to the provider; the database's unique index decides when two
 * requests ask at once.
 */
async function requireNoOtherVoucher(ctx: ServerContext, caller: Caller, orderId: string): Promise<void> {
  const { data, error } = await ctx.admin
    .from('orders')
    .select('id')
    .eq('user_id', caller.id)
    .eq('status', ORDER_STATUS.pending)
    .eq('payment_method', 'oxxo')
    .not('oxxo_voucher', 'is', null)
    .neq('id', orderId)
    .limit(1);
  if (error) throw new Error(`orders: ${error.message}`);
  if ((data ?? []).length > 0) throw new ApiError(409, MEXICAN_PAYMENT_MESSAGES.anotherVoucherOpen, 'oxxo_voucher_open');
}

/**
 * POST /api/create-payment-intent {orderId, method: 'oxxo'}: creates and confirms the order's OXXO
 * payment and answers its voucher. The order stays 'Pendiente' with payment_method 'oxxo' and stays
 * reserved until Stripe says the voucher failed or was cancelled, or two business days after its
 * deadline (cash taken at the store is confirmed by the next business day); the voucher goes out
 * by e-mail. Asking again answers the same voucher. One open voucher per shopper, held by the
 * database: of two requests at once for two orders, one gets its voucher and the other 409
 * oxxo_voucher_open (its payment cancelled at the provider).
 */
export async function createOxxoVoucher(ctx: ServerContext, caller: Caller, order: OrderRow, amount: Centavos): Promise<Response> {
  const card = requireCard(ctx);
  if (!oxxoAllowed(amount)) throw new ApiError(409, MEXICAN_PAYMENT_MESSAGES.oxxoOutOfRange, 'oxxo_amount_out_of_range');
  const existing = storedVoucher(order);
  if (order.payment_method === 'oxxo' && existing && existing.amount === amount) {
    return answer(answers.oxxoVoucherAnswer, { voucher: existing, paymentIntentId: existing.paymentIntentId });
  }
  await requireNoOtherVoucher(ctx, caller, order.id);
  await requireShippingAddress(ctx, order);
  const customerId = await provider(() => ensureCustomer(ctx, caller));
  const expiresAfterDays = await voucherDays(ctx, order.id);
  const intent = await provider(async () =>
    card.createOxxoPayment({
      orderId: order.id,
      userId: caller.id,
      amount,
      customerId,
      idempotencyKey: `oxxo-${order.id}-${amount}`,
      name: await payerName(ctx, caller),
      email: caller.email ?? '',
      expiresAfterDays,
    }),
  );
  await recordAttempt(ctx, order.id, card.name, intent.id);
  if (!intent.voucher || intent.amount !== amount) throw new ApiError(502, PAYMENTS_OXXO_TEXT.voucherMissing, 'upstream_error');
  let hostedVoucherUrl = intent.voucher.hostedVoucherUrl;
  if (card instanceof SimulatedCardProvider && !hostedVoucherUrl) {
    const token = await card.voucherToken(intent.id);
    if (token) hostedVoucherUrl = simulatedCounterUrl(ctx, intent.id, token);
  }
  const voucher: StoredVoucher = { ...intent.voucher, hostedVoucherUrl, paymentIntentId: intent.id };
  const { data, error } = await ctx.admin
    .from('orders')
    .update({ payment_method: 'oxxo', oxxo_voucher: voucher, expires_at: oxxoReservationEnd(new Date(voucher.expiresAt)).toISOString() })
    .eq('id', order.id)
    .eq('status', ORDER_STATUS.pending)
    .select('id');
  if (error?.code === UNIQUE_VIOLATION) {
    // Another of the shopper's orders got its voucher meanwhile (two requests at once): the
    // database keeps one open voucher per shopper (orders_one_open_oxxo_voucher), so this one is
    // cancelled at the provider and never reaches the shopper.
    await card.cancelPaymentIntent(intent.id);
    await closeAttempt(ctx, card.name, intent.id, 'canceled');
    throw new ApiError(409, MEXICAN_PAYMENT_MESSAGES.anotherVoucherOpen, 'oxxo_voucher_open');
  }
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data || data.length === 0) {
    // The reservation ended meanwhile: the voucher must never be paid.
    await card.cancelPaymentIntent(intent.id);
    await closeAttempt(ctx, card.name, intent.id, 'canceled');
    throw new ApiError(409, ORDER_NOT_PAYABLE, 'order_not_payable');
  }
  if (caller.email) {
    await ctx
      .mail({
        to: caller.email,
        ...oxxoVoucherEmail({ orderId: order.id, voucher, siteUrl: ctx.siteUrl }),
        kind: 'oxxo_voucher',
        dedupeKey: `oxxo_voucher:${intent.id}`,
      })
      .catch((mailError: unknown) => console.error('[correo] no se pudo enviar la ficha de OXXO', mailError));
  }
  return answer(answers.oxxoVoucherAnswer, { voucher, paymentIntentId: intent.id });
}

/** Settles an OXXO intent the provider reports succeeded (the webhook, the simulated counter). */
export async function settleOxxo(ctx: ServerContext, intent: IntentInfo, recipient: string | null = null) {
  const card = requireCard(ctx);
  if (!intent.orderId || intent.status !== 'succeeded') throw new ApiError(402, PAYMENTS_CARD_TEXT.incomplete, 'payment_incomplete');
  return settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }), recipient);
}

/**
 * A voucher that expired or was cancelled unpaid (payment_intent.payment_failed / canceled, or the
 * simulated expiry): its order is cancelled at once and its stock returns, if it is still the
 * order's voucher and the order is still waiting for it. True when an order was released.
 */
export async function releaseOxxoOrder(ctx: ServerContext, intent: IntentInfo): Promise<boolean> {
  if (!intent.orderId || intent.method !== 'oxxo' || intent.status === 'succeeded' || intent.status === 'processing') return false;
  const { data, error } = await ctx.admin
    .from('orders')
    .update({ expires_at: new Date(Date.now() - 1000).toISOString() })
    .eq('id', intent.orderId)
    .eq('status', ORDER_STATUS.pending)
    .eq('payment_method', 'oxxo')
    .eq('oxxo_voucher->>paymentIntentId', intent.id)
    .select('id');
  if (error) throw new Error(`orders: ${error.message}`);
  if (!data || data.length === 0) return false;
  const released = await ctx.admin.rpc('release_expired_orders');
  if (released.error) throw new Error(`release_expired_orders: ${released.error.message}`);
  const card = requireCard(ctx);
  if (intent.status !== 'canceled') await card.cancelPaymentIntent(intent.id).catch(() => null);
  await closeAttempt(ctx, card.name, intent.id, 'canceled');
  return true;
}

/**
 * POST /api/payments/oxxo/cancel {orderId}: the shopper gives up the order's voucher. Stripe is
 * asked first: only a voucher Stripe could still cancel releases the order (its stock returns);
 * one the store already took is settled (the order is paid), one being processed stays, and the
 * shopper is told which. Never cancels an order whose cash may be at OXXO.
 */
export async function cancelOxxoVoucher(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const caller = await authenticate(request, ctx.admin);
  const body = await readJson(request, z.object({ orderId: orderIdSchema }));
  const { order, voucher } = await ownVoucher(ctx, caller, body.orderId);
  if (order.status !== ORDER_STATUS.pending) throw new ApiError(409, PAYMENTS_OXXO_TEXT.notPending, 'order_not_pending');
  const intent = await provider(() => card.cancelPaymentIntent(voucher.paymentIntentId));
  if (intent?.status === 'succeeded') {
    const settled = await settleOxxo(ctx, intent, caller.email);
    return answer(answers.oxxoCancelAnswer, {
      ...settlementAnswer(settled, order.id),
      canceled: false,
      message: PAYMENTS_OXXO_TEXT.alreadyPaid,
    });
  }
  if (!intent || intent.status !== 'canceled') {
    throw new ApiError(409, PAYMENTS_OXXO_TEXT.processing, 'voucher_processing');
  }
  await releaseOxxoOrder(ctx, intent);
  const after = await findOrder(ctx, order.id);
  return answer(answers.oxxoCancelAnswer, { orderId: order.id, status: after?.status ?? order.status, changed: false, canceled: true });
}

/** The caller's order's current OXXO voucher (404 when it has none). */
export async function ownVoucher(ctx: ServerContext, caller: Caller, orderId: string): Promise<{ order: OrderRow; voucher: StoredVoucher }> {
  const order = await ownOrder(ctx, caller, orderId);
  const voucher = storedVoucher(order);
  if (order.payment_method !== 'oxxo' || !voucher) throw new ApiError(404, PAYMENTS_OXXO_TEXT.noVoucher, 'voucher_not_found');
  return { order, voucher };
}
