/**
 * POST /api/stripe/webhook: Stripe's signed notifications. payment_intent.succeeded settles the
 * order through the one settlement path; payment_intent.payment_failed / canceled release an
 * order still waiting for that OXXO voucher; charge.dispute.created (a chargeback) holds the
 * balance the order used for the back office. The event body is trusted for ids only: the intent
 * is read again from Stripe.
 */
import { z } from 'zod';
import { centavos } from '~/domain/money.ts';
import { ORDER_STATUS } from '~/domain/orders.ts';
import { PAYMENTS_CHARGEBACK_TEXT, PAYMENTS_STRIPE_WEBHOOK_TEXT } from '~/i18n/payments.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, json, readText } from '../http/json.ts';
import { findOrder } from '../orders/order-row.ts';
import { intentPayment, settlePayment } from '../orders/settlement.ts';
import { recordChargeback } from './chargebacks.ts';
import { provider, requireCard } from './guards.ts';
import { releaseOxxoOrder } from './oxxo.ts';
import type { CardProvider } from './providers/types.ts';

const stripeId = z.string().regex(/^[\w-]{1,255}$/);

/** What the shop reads of a charge.dispute.created event: the dispute's id, its intent and amount. */
const disputeEvent = z.object({
  data: z.object({
    object: z.object({
      id: stripeId,
      object: z.literal('dispute'),
      payment_intent: stripeId.nullish(),
      amount: z.number().int().nonnegative().nullish(),
    }),
  }),
});

/**
 * charge.dispute.created: the shopper disputed the order's charge with their bank and Stripe took
 * the amount back from the shop. The order does not change (the shop may still win the dispute);
 * when it used the balance, that balance is held for an admin (recordChargeback), so a later
 * cancellation or refund of the order never hands it back by itself.
 */
async function disputeCreated(ctx: ServerContext, card: CardProvider, eventId: string, raw: string): Promise<Response> {
  const parsed = disputeEvent.safeParse(JSON.parse(raw));
  const dispute = parsed.success ? parsed.data.data.object : null;
  const intent = dispute?.payment_intent ? await provider(() => card.retrievePaymentIntent(dispute.payment_intent!)) : null;
  const order = intent?.orderId ? await findOrder(ctx, intent.orderId) : null;
  if (!dispute || !intent || !order || order.payment_provider !== card.name || order.payment_ref !== intent.id) {
    console.info(`[stripe] evento ${eventId} (charge.dispute.created) sin acción: el cargo no pagó un pedido de la tienda`);
    return json({ received: true, handled: false });
  }
  const held = await recordChargeback(ctx, {
    orderId: order.id,
    provider: card.name,
    paymentRef: intent.id,
    disputeRef: dispute.id,
    amount: dispute.amount === null || dispute.amount === undefined ? null : centavos(dispute.amount),
    creditApplied: order.credit_applied,
    note: PAYMENTS_CHARGEBACK_TEXT.stripeDispute(dispute.id, intent.id),
  });
  console.warn(`[stripe] evento ${eventId}: contracargo ${dispute.id} del pedido ${order.id}${held ? '; saldo a favor retenido' : ''}`);
  return json({ received: true, handled: held, orderId: order.id, status: order.status, balanceHeld: held });
}

/**
 * POST /api/stripe/webhook: signed provider notifications; payment_intent.succeeded settles the
 * order (or refunds a payment its order can no longer take). Every event that changes nothing is
 * logged with its id.
 */
export async function stripeWebhook(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const raw = await readText(request, 512 * 1024);
  const event = await provider(async () => card.verifyWebhook(raw, request.headers.get('stripe-signature')));
  if (event.type === 'charge.dispute.created') return disputeCreated(ctx, card, event.id, raw);
  if ((event.type === 'payment_intent.payment_failed' || event.type === 'payment_intent.canceled') && event.intentId) {
    // An OXXO voucher that expired (or was cancelled) unpaid: its order is cancelled, stock returned.
    const intent = await provider(() => card.retrievePaymentIntent(event.intentId!));
    const released = intent ? await releaseOxxoOrder(ctx, intent) : false;
    if (!released) console.info(`[stripe] evento ${event.id} (${event.type}) sin acción`);
    return json({ received: true, handled: released, ...(released && intent ? { orderId: intent.orderId, status: ORDER_STATUS.cancelled } : {}) });
  }
  if (event.type !== 'payment_intent.succeeded' || !event.intentId) {
    console.info(`[stripe] evento ${event.id} (${event.type}) sin acción`);
    return json({ received: true, handled: false });
  }
  try {
    // The event body is not trusted for the amount: the intent is retrieved from the provider.
    const intent = await provider(() => card.retrievePaymentIntent(event.intentId!));
    if (!intent || !intent.orderId || intent.status !== 'succeeded') {
      throw new ApiError(404, PAYMENTS_STRIPE_WEBHOOK_TEXT.intentNotFound, 'intent_not_found');
    }
    const settled = await settlePayment(ctx, intentPayment(card.name, { ...intent, orderId: intent.orderId }));
    if (settled.refunded)
      console.warn(
        `[stripe] evento ${event.id}: pago ${intent.id} ${settled.credited ? 'abonado al saldo a favor' : 'reembolsado'} (${settled.refunded}, ${settled.refundStatus ?? 'saldo'})`,
      );
    return json({ received: true, handled: true, orderId: intent.orderId, status: settled.status, changed: settled.changed, refunded: settled.refunded });
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      console.warn(`[stripe] evento ${event.id} (${event.type}) no aplicado: ${error.message}`);
      return json({ received: true, handled: false, message: error.message });
    }
    throw error;
  }
}
