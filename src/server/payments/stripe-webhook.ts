/**
 * POST /api/stripe/webhook: Stripe's signed notifications. payment_intent.succeeded settles the
 * order through the one settlement path; payment_intent.payment_failed / canceled release an
 * order still waiting for that OXXO voucher. The event body is trusted for ids only: the intent is
 * read again from Stripe.
 */
import { ORDER_STATUS } from '~/domain/orders.ts';
import type { ServerContext } from '../context.ts';
import { ApiError, json, readText } from '../http/json.ts';
import { intentPayment, settlePayment } from '../orders/settlement.ts';
import { provider, requireCard } from './guards.ts';
import { releaseOxxoOrder } from './oxxo.ts';

/**
 * POST /api/stripe/webhook: signed provider notifications; payment_intent.succeeded settles the
 * order (or refunds a payment its order can no longer take). Every event that changes nothing is
 * logged with its id.
 */
export async function stripeWebhook(request: Request, ctx: ServerContext): Promise<Response> {
  const card = requireCard(ctx);
  const raw = await readText(request, 512 * 1024);
  const event = await provider(async () => card.verifyWebhook(raw, request.headers.get('stripe-signature')));
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
      throw new ApiError(404, 'Pago no encontrado o no completado.', 'intent_not_found');
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
